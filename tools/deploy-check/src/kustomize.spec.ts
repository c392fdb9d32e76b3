import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { applyOperation, configMapHash, goJson, KustomizeError, loadYaml, objectId, renderKustomization } from './kustomize';
import type { JsonObject } from './json';

const fixtures = resolve(__dirname, '../fixtures/kustomize');

function byId(objects: JsonObject[]): Map<string, JsonObject> {
  return new Map(objects.map((o) => [objectId(o), o]));
}

describe('renderKustomization against kustomize', () => {
  // The fixtures use every feature the renderer supports; the expected files are `kubectl kustomize` output.
  it.each(['base', 'overlay'])('renders fixtures/kustomize/%s exactly as kustomize v5.5.0 does', (dir) => {
    const rendered = renderKustomization(join(fixtures, dir));
    const expected = loadYaml(join(fixtures, `${dir}.expected.yaml`)) as JsonObject[];
    expect([...byId(rendered).keys()].sort()).toEqual([...byId(expected).keys()].sort());
    for (const [id, object] of byId(rendered)) expect([id, object]).toEqual([id, byId(expected).get(id)]);
  });

  it('computes kustomize v5 ConfigMap suffixes (they hash the data, not the name)', () => {
    // `kubectl kustomize` of a configMapGenerator `cm` with the literal A=b gives cm-b9t2424hkf.
    expect(configMapHash({ kind: 'ConfigMap', metadata: { name: 'cm' }, data: { A: 'b' } })).toBe('b9t2424hkf');
    expect(configMapHash({ kind: 'ConfigMap', metadata: { name: 'other' }, data: { A: 'b' } })).toBe('b9t2424hkf');
  });

  it('encodes JSON the way Go does', () => {
    expect(goJson({ b: '<&>', a: ['\u2028', '\b', 'é'], c: { z: 1, y: null } })).toBe('{"a":["\\u2028","\\u0008","é"],"b":"\\u003c\\u0026\\u003e","c":{"y":null,"z":1}}');
  });

  it('applies JSON 6902 operations and refuses the ones it does not know', () => {
    const doc: JsonObject = { spec: { list: [1, 2], 'a/b': { '~': 0 } } };
    applyOperation(doc, { op: 'add', path: '/spec/list/-', value: 3 });
    applyOperation(doc, { op: 'add', path: '/spec/list/0', value: 0 });
    applyOperation(doc, { op: 'replace', path: '/spec/a~1b/~0', value: 1 });
    applyOperation(doc, { op: 'remove', path: '/spec/list/1' });
    applyOperation(doc, { op: 'test', path: '/spec/list', value: [0, 2, 3] });
    expect(doc).toEqual({ spec: { list: [0, 2, 3], 'a/b': { '~': 1 } } });
    expect(() => applyOperation(doc, { op: 'move', from: '/spec/list', path: '/x' })).toThrow('unsupported JSON patch operation move');
    expect(() => applyOperation(doc, { op: 'replace', path: '/spec/missing', value: 1 })).toThrow('/spec/missing does not exist');
    expect(() => applyOperation(doc, { op: 'test', path: '/spec/list/0', value: 9 })).toThrow('test /spec/list/0 failed');
    expect(() => applyOperation(doc, { op: 'remove', path: '/spec/list/7' })).toThrow('out of range');
  });
});

describe('renderKustomization refuses what it does not render', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const kustomization = (body: string) => {
    writeFileSync(join(dir, 'kustomization.yaml'), body);
    return () => renderKustomization(dir);
  };

  it.each([
    ['commonLabels:\n  a: b\nresources: [cm.yaml]\n', 'unsupported kustomize feature "commonLabels"'],
    ['secretGenerator:\n  - name: s\n    literals: [a=b]\n', 'unsupported kustomize feature "secretGenerator"'],
    ['components: [x]\n', 'unsupported kustomize feature "components"'],
    ['resources: [https://example.com/x.yaml]\n', 'remote resource'],
    ['resources: [missing.yaml]\n', 'resource missing.yaml does not exist'],
    ['resources: [cm.yaml]\nlabels:\n  - pairs: {a: b}\n    includeSelectors: true\n', 'includeSelectors is not supported'],
    // kustomize reads YAML 1.1: `y` is a boolean, and a label value must be a string.
    ['resources: [cm.yaml]\nlabels:\n  - pairs: {a: y}\n', 'labels.pairs.a must be a string'],
    ['resources: [cm.yaml]\nimages:\n  - name: x\n    tagSuffix: y\n', 'unsupported field "tagSuffix" in images'],
    ['resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, name: cm}\n    patch: |-\n      data:\n        a: c\n', 'not strategic-merge patches'],
    ['resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, name: other}\n    patch: |-\n      - op: remove\n        path: /data/a\n', 'matches no resource'],
    ['resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, labelSelector: "a=b"}\n    patch: "[]"\n', 'unsupported field "labelSelector"'],
    ['resources: [cm.yaml]\nconfigMapGenerator:\n  - name: cm\n    literals: [x=y]\n', 'a ConfigMap of that name exists already'],
    ['configMapGenerator:\n  - name: cm2\n    behavior: merge\n    literals: [x=y]\n', 'needs a ConfigMap cm2 from the resources'],
    ['resources: [cm.yaml]\nconfigMapGenerator:\n  - name: cm\n    behavior: merge\n    literals: [x=y]\n', 'on a ConfigMap that no generator made is not supported'],
    ['configMapGenerator:\n  - name: cm2\n    envs: [a.env]\n', 'unsupported field "envs" in configMapGenerator'],
    ['configMapGenerator:\n  - name: cm2\n    literals: [\'x="y"\']\n', 'quoted literal values are not supported'],
    ['resources: [cm.yaml, cm.yaml]\n', 'ConfigMap cm is emitted twice'],
  ])('%j', (body, message) => {
    expect(kustomization(body)).toThrow(KustomizeError);
    expect(kustomization(body)).toThrow(message);
  });

  it('refuses a namespace for a kind it does not know to be namespaced', () => {
    writeFileSync(join(dir, 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n');
    expect(kustomization('namespace: dex\nresources: [ns.yaml]\n')).toThrow('Namespace is not a kind this renderer knows to be namespaced');
  });

  it('refuses a kustomization cycle', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'kustomization.yaml'), 'resources: [..]\n');
    expect(kustomization('resources: [sub]\n')).toThrow('kustomization cycle');
  });
});
