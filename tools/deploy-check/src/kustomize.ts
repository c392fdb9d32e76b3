// A renderer for exactly the kustomize features the k8s/ kustomizations use, so that they can be checked
// offline with no kustomize binary. For those features it follows kustomize v5 (its output for
// fixtures/kustomize, which use every one of them, is compared with `kubectl kustomize`'s, kustomize v5.5.0);
// anything else it refuses, naming the file and the field, rather than render it wrongly.
//
// Supported (per kustomization.yaml):
//   resources          files (one or more YAML documents) and directories holding a kustomization.yaml
//   configMapGenerator name, behavior (create | merge | replace), files (`path` or `key=path`), literals
//                      (`KEY=value`), options (labels, annotations, disableNameSuffixHash)
//   generatorOptions   labels, annotations, disableNameSuffixHash
//   patches            JSON 6902 patches (add, remove, replace, test) inline (`patch`) or from a file (`path`),
//                      with a target of kind and name (and optionally group, version, namespace)
//   namespace          set on every (namespaced) object
//   labels             pairs, includeTemplates; not includeSelectors, not fields
//   images             name, newName, newTag, digest, applied to the containers and initContainers of workloads
// Transformers run in kustomize's order (patches, namespace, labels, images). Generated ConfigMaps get
// kustomize's content-hash suffix once the whole tree is built, and the references to them in pod specs
// (envFrom, env valueFrom, volumes, projected volumes) follow the new name. Files are read as YAML 1.1, as
// kustomize reads them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { asList, asObject, asString, clone, deepEqual, isObject, objectAt, objectsAt, type Json, type JsonObject } from './json';

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

interface Entry {
  object: JsonObject;
  /** Set on ConfigMaps made by a configMapGenerator: whether they get the content-hash suffix. */
  generated?: { hashSuffix: boolean };
}

const KUSTOMIZATION_KEYS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'configMapGenerator',
  'generatorOptions',
  'patches',
  'namespace',
  'labels',
  'images',
]);

/** Kinds this renderer knows to be namespaced; the namespace transformer refuses any other kind. */
const NAMESPACED_KINDS = new Set([
  'ConfigMap',
  'Secret',
  'Service',
  'ServiceAccount',
  'Pod',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'NetworkPolicy',
  'Ingress',
]);

/** Workload kinds whose pod template is at spec.template. */
const TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/** Renders the kustomization in `dir` (its overlays and bases included) into the objects kustomize would emit. */
export function renderKustomization(dir: string): JsonObject[] {
  const entries = build(resolve(dir), []);
  applyHashSuffixes(entries);
  const seen = new Set<string>();
  for (const { object } of entries) {
    const id = objectId(object);
    if (seen.has(id)) throw new KustomizeError(`${id} is emitted twice`);
    seen.add(id);
  }
  return entries.map((e) => e.object);
}

/** `Kind namespace/name` of an object, for messages. */
export function objectId(object: JsonObject): string {
  const meta = objectAt(object, 'metadata');
  const ns = typeof meta?.namespace === 'string' ? `${meta.namespace}/` : '';
  return `${String(object.kind)} ${ns}${String(meta?.name)}`;
}

function show(path: string): string {
  return relative(process.cwd(), path) || '.';
}

function fail(file: string, message: string): never {
  throw new KustomizeError(`${show(file)}: ${message}`);
}

function build(dir: string, stack: readonly string[]): Entry[] {
  if (stack.includes(dir)) throw new KustomizeError(`${show(dir)}: kustomization cycle (${[...stack, dir].map(show).join(' -> ')})`);
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new KustomizeError(`${show(dir)}: no kustomization.yaml`);
  const docs = loadYaml(file);
  if (docs.length !== 1) fail(file, 'must hold one YAML document');
  const k = wrap(file, () => asObject(docs[0], 'the kustomization'));
  for (const key of Object.keys(k)) {
    if (!KUSTOMIZATION_KEYS.has(key)) fail(file, `unsupported kustomize feature "${key}" (deploy-check renders only ${[...KUSTOMIZATION_KEYS].join(', ')})`);
  }
  if (k.apiVersion !== undefined && k.apiVersion !== 'kustomize.config.k8s.io/v1beta1') fail(file, `unsupported apiVersion ${String(k.apiVersion)}`);
  if (k.kind !== undefined && k.kind !== 'Kustomization') fail(file, `unsupported kind ${String(k.kind)}`);

  const entries: Entry[] = [];
  for (const item of wrap(file, () => asList(k.resources, 'resources'))) {
    const ref = wrap(file, () => asString(item, 'a resources entry'));
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || ref.startsWith('github.com/') || ref.includes('?ref=')) fail(file, `remote resource ${ref} is not supported`);
    const path = resolve(dir, ref);
    if (!existsSync(path)) fail(file, `resource ${ref} does not exist`);
    if (statSync(path).isDirectory()) {
      entries.push(...build(path, [...stack, dir]));
    } else {
      for (const doc of loadYaml(path)) {
        if (doc === null) continue;
        const object = wrap(path, () => asObject(doc, 'a resource'));
        if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || typeof objectAt(object, 'metadata')?.name !== 'string') {
          fail(path, 'every resource needs apiVersion, kind and metadata.name');
        }
        entries.push({ object });
      }
    }
  }

  const options = generatorOptions(file, k.generatorOptions);
  for (const item of wrap(file, () => asList(k.configMapGenerator, 'configMapGenerator'))) configMapGenerator(file, dir, item, options, entries);
  for (const item of wrap(file, () => asList(k.patches, 'patches'))) patch(file, dir, item, entries);
  if (k.namespace !== undefined) namespace(file, k.namespace, entries);
  for (const item of wrap(file, () => asList(k.labels, 'labels'))) labels(file, item, entries);
  for (const item of wrap(file, () => asList(k.images, 'images'))) images(file, item, entries);
  return entries;
}

function wrap<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof KustomizeError) throw err;
    return fail(file, (err as Error).message);
  }
}

/**
 * Every YAML document of a file; YAML errors and warnings (duplicate keys...) are failures. Kubernetes files
 * are read as YAML 1.1, as kustomize and kubectl read them (`y`, `yes`, `on` are booleans, `0755` is octal);
 * Compose files as YAML 1.2 with merge keys, as Compose reads them.
 */
export function loadYaml(file: string, options: { version?: '1.1' | '1.2'; merge?: boolean } = {}): Json[] {
  const version = options.version ?? '1.1';
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { version, merge: options.merge ?? version === '1.1', uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  return docs.map((doc) => {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length) fail(file, problems.map((p) => p.message).join('; '));
    return doc.toJS({ maxAliasCount: 1000 }) as Json;
  });
}

function onlyKeys(file: string, what: string, object: JsonObject, allowed: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) fail(file, `unsupported field "${key}" in ${what} (supported: ${allowed.join(', ')})`);
  }
}

function stringMap(file: string, what: string, value: Json | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const map = wrap(file, () => asObject(value, what));
  for (const [key, v] of Object.entries(map)) if (typeof v !== 'string') fail(file, `${what}.${key} must be a string`);
  return map as Record<string, string>;
}

interface GeneratorOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  disableNameSuffixHash?: boolean;
}

function generatorOptions(file: string, value: Json | undefined): GeneratorOptions {
  if (value === undefined) return {};
  const o = wrap(file, () => asObject(value, 'generatorOptions'));
  onlyKeys(file, 'generatorOptions', o, ['labels', 'annotations', 'disableNameSuffixHash']);
  if (o.disableNameSuffixHash !== undefined && typeof o.disableNameSuffixHash !== 'boolean') fail(file, 'disableNameSuffixHash must be a boolean');
  return {
    labels: stringMap(file, 'generatorOptions.labels', o.labels),
    annotations: stringMap(file, 'generatorOptions.annotations', o.annotations),
    disableNameSuffixHash: o.disableNameSuffixHash as boolean | undefined,
  };
}

function configMapGenerator(file: string, dir: string, item: Json, defaults: GeneratorOptions, entries: Entry[]): void {
  const g = wrap(file, () => asObject(item, 'a configMapGenerator entry'));
  onlyKeys(file, 'configMapGenerator', g, ['name', 'behavior', 'files', 'literals', 'options']);
  const name = wrap(file, () => asString(g.name, 'configMapGenerator name'));
  const behavior = g.behavior ?? 'create';
  if (behavior !== 'create' && behavior !== 'merge' && behavior !== 'replace') fail(file, `configMapGenerator ${name}: unsupported behavior ${String(behavior)}`);
  const data: Record<string, string> = {};
  const put = (key: string, value: string) => {
    if (key in data) fail(file, `configMapGenerator ${name}: key ${key} is given twice`);
    if (!/^[-._a-zA-Z0-9]+$/.test(key)) fail(file, `configMapGenerator ${name}: ${key} is not a valid ConfigMap key`);
    data[key] = value;
  };
  for (const f of wrap(file, () => asList(g.files, 'files'))) {
    const spec = wrap(file, () => asString(f, 'a files entry'));
    const eq = spec.indexOf('=');
    const [key, path] = eq >= 0 ? [spec.slice(0, eq), spec.slice(eq + 1)] : [basename(spec), spec];
    const full = resolve(dir, path);
    if (!existsSync(full) || !statSync(full).isFile()) fail(file, `configMapGenerator ${name}: file ${path} does not exist`);
    const bytes = readFileSync(full);
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) fail(file, `configMapGenerator ${name}: ${path} is not UTF-8 (binaryData is not supported)`);
    put(key, text);
  }
  for (const l of wrap(file, () => asList(g.literals, 'literals'))) {
    const spec = wrap(file, () => asString(l, 'a literals entry'));
    const eq = spec.indexOf('=');
    if (eq <= 0) fail(file, `configMapGenerator ${name}: literal "${spec}" is not KEY=value`);
    const value = spec.slice(eq + 1);
    if (/^(["']).*\1$/.test(value)) fail(file, `configMapGenerator ${name}: quoted literal values are not supported (${spec})`);
    put(spec.slice(0, eq), value);
  }
  if (Object.keys(data).length === 0) fail(file, `configMapGenerator ${name}: no files or literals`);
  let options = defaults;
  if (g.options !== undefined) {
    const o = generatorOptions(file, g.options);
    options = {
      labels: { ...defaults.labels, ...o.labels },
      annotations: { ...defaults.annotations, ...o.annotations },
      disableNameSuffixHash: o.disableNameSuffixHash ?? defaults.disableNameSuffixHash,
    };
  }
  const hashSuffix = !options.disableNameSuffixHash;

  const existing = entries.find((e) => e.object.kind === 'ConfigMap' && objectAt(e.object, 'metadata')?.name === name && objectAt(e.object, 'metadata')?.namespace === undefined);
  if (behavior === 'create') {
    if (existing) fail(file, `configMapGenerator ${name}: a ConfigMap of that name exists already (use behavior: merge or replace)`);
    const metadata: JsonObject = { name };
    if (options.labels && Object.keys(options.labels).length) metadata.labels = { ...options.labels };
    if (options.annotations && Object.keys(options.annotations).length) metadata.annotations = { ...options.annotations };
    entries.push({ object: { apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, generated: { hashSuffix } });
    return;
  }
  if (!existing) fail(file, `configMapGenerator ${name}: behavior ${behavior} needs a ConfigMap ${name} from the resources`);
  if (!existing.generated) fail(file, `configMapGenerator ${name}: behavior ${behavior} on a ConfigMap that no generator made is not supported`);
  const metadata = objectAt(existing.object, 'metadata') as JsonObject;
  if (options.labels && Object.keys(options.labels).length) metadata.labels = { ...(objectAt(metadata, 'labels') ?? {}), ...options.labels };
  if (options.annotations && Object.keys(options.annotations).length) metadata.annotations = { ...(objectAt(metadata, 'annotations') ?? {}), ...options.annotations };
  existing.object.data = behavior === 'merge' ? { ...(objectAt(existing.object, 'data') ?? {}), ...data } : data;
  existing.generated = { hashSuffix: hashSuffix && existing.generated.hashSuffix };
}

function patch(file: string, dir: string, item: Json, entries: Entry[]): void {
  const p = wrap(file, () => asObject(item, 'a patches entry'));
  onlyKeys(file, 'patches', p, ['path', 'patch', 'target']);
  if ((p.path === undefined) === (p.patch === undefined)) fail(file, 'a patches entry needs exactly one of path and patch');
  let text: string;
  let where = file;
  if (p.path !== undefined) {
    where = resolve(dir, wrap(file, () => asString(p.path, 'patches path')));
    if (!existsSync(where)) fail(file, `patch file ${String(p.path)} does not exist`);
    text = readFileSync(where, 'utf8');
  } else {
    text = wrap(file, () => asString(p.patch, 'patches patch'));
  }
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length) fail(where, 'a patch must be one valid YAML document');
  const ops = docs[0].toJS() as Json;
  if (!Array.isArray(ops)) fail(where, 'only JSON 6902 patches (a list of operations) are supported, not strategic-merge patches');
  if (p.target === undefined) fail(file, 'a JSON 6902 patch needs a target');
  const target = wrap(file, () => asObject(p.target, 'patches target'));
  onlyKeys(file, 'patches target', target, ['group', 'version', 'kind', 'name', 'namespace']);
  const kind = wrap(file, () => asString(target.kind, 'patches target kind'));
  const name = wrap(file, () => asString(target.name, 'patches target name'));
  if (!/^[-.a-z0-9]+$/.test(name)) fail(file, `patches target name ${name}: name patterns are not supported`);
  const matches = entries.filter(({ object }) => {
    const meta = objectAt(object, 'metadata');
    const [group, version] = String(object.apiVersion).includes('/') ? String(object.apiVersion).split('/') : ['', String(object.apiVersion)];
    return (
      object.kind === kind &&
      meta?.name === name &&
      (target.namespace === undefined || meta?.namespace === target.namespace) &&
      (target.group === undefined || target.group === group) &&
      (target.version === undefined || target.version === version)
    );
  });
  if (matches.length === 0) fail(file, `patch target ${kind} ${name} matches no resource`);
  for (const match of matches) {
    for (const op of ops) wrap(where, () => applyOperation(match.object, asObject(op, 'a patch operation')));
  }
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`JSON pointer ${path} must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Applies one JSON 6902 operation (add, remove, replace, test) to `doc` in place. */
export function applyOperation(doc: JsonObject, op: JsonObject): void {
  const kind = op.op;
  if (kind !== 'add' && kind !== 'remove' && kind !== 'replace' && kind !== 'test') throw new Error(`unsupported JSON patch operation ${String(kind)}`);
  const path = asString(op.path, `the path of ${kind}`);
  if ((kind === 'add' || kind === 'replace' || kind === 'test') && !('value' in op)) throw new Error(`${kind} ${path} needs a value`);
  const tokens = pointer(path);
  if (tokens.length === 0) throw new Error('operations on the whole document are not supported');
  let parent: Json = doc;
  for (const token of tokens.slice(0, -1)) {
    const next: Json | undefined = Array.isArray(parent) ? parent[arrayIndex(token, parent.length - 1)] : isObject(parent) ? parent[token] : undefined;
    if (next === undefined || next === null || typeof next !== 'object') throw new Error(`${path}: ${token} does not exist`);
    parent = next;
  }
  const last = tokens[tokens.length - 1];
  const value = op.value as Json;
  if (Array.isArray(parent)) {
    if (kind === 'add') {
      parent.splice(last === '-' ? parent.length : arrayIndex(last, parent.length), 0, clone(value));
      return;
    }
    const index = arrayIndex(last, parent.length - 1);
    if (kind === 'remove') parent.splice(index, 1);
    else if (kind === 'replace') parent[index] = clone(value);
    else if (!deepEqual(parent[index], value)) throw new Error(`test ${path} failed`);
    return;
  }
  if (!isObject(parent)) throw new Error(`${path}: the parent is not an object`);
  if (kind === 'add') {
    parent[last] = clone(value);
    return;
  }
  if (!(last in parent)) throw new Error(`${path} does not exist`);
  if (kind === 'remove') delete parent[last];
  else if (kind === 'replace') parent[last] = clone(value);
  else if (!deepEqual(parent[last], value)) throw new Error(`test ${path} failed`);
}

function arrayIndex(token: string, max: number): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`${token} is not an array index`);
  const index = Number(token);
  if (index > max) throw new Error(`array index ${index} is out of range`);
  return index;
}

function namespace(file: string, value: Json, entries: Entry[]): void {
  const ns = wrap(file, () => asString(value, 'namespace'));
  for (const { object } of entries) {
    if (!NAMESPACED_KINDS.has(String(object.kind))) fail(file, `namespace: ${String(object.kind)} is not a kind this renderer knows to be namespaced`);
    (objectAt(object, 'metadata') as JsonObject).namespace = ns;
  }
}

function labels(file: string, item: Json, entries: Entry[]): void {
  const l = wrap(file, () => asObject(item, 'a labels entry'));
  onlyKeys(file, 'labels', l, ['pairs', 'includeSelectors', 'includeTemplates']);
  if (l.includeSelectors !== undefined && l.includeSelectors !== false) fail(file, 'labels: includeSelectors is not supported');
  if (l.includeTemplates !== undefined && typeof l.includeTemplates !== 'boolean') fail(file, 'labels: includeTemplates must be a boolean');
  const pairs = stringMap(file, 'labels.pairs', l.pairs) ?? {};
  const add = (holder: JsonObject) => {
    holder.labels = { ...(objectAt(holder, 'labels') ?? {}), ...pairs };
  };
  for (const { object } of entries) {
    add(objectAt(object, 'metadata') as JsonObject);
    if (l.includeTemplates === true) {
      if (object.kind === 'CronJob') fail(file, 'labels: includeTemplates on a CronJob is not supported');
      if (TEMPLATE_KINDS.has(String(object.kind))) {
        const template = objectAt(object, 'spec', 'template');
        if (!template) fail(file, `${objectId(object)} has no spec.template`);
        if (!isObject(template.metadata)) template.metadata = {};
        add(template.metadata as JsonObject);
      }
    }
  }
}

/** The pod spec of a workload object, if it has one. */
export function podSpec(object: JsonObject): JsonObject | undefined {
  if (object.kind === 'Pod') return objectAt(object, 'spec');
  if (object.kind === 'CronJob') return objectAt(object, 'spec', 'jobTemplate', 'spec', 'template', 'spec');
  if (TEMPLATE_KINDS.has(String(object.kind))) return objectAt(object, 'spec', 'template', 'spec');
  return undefined;
}

/** The containers and initContainers of a pod spec. */
export function containersOf(spec: JsonObject | undefined): JsonObject[] {
  return spec ? [...objectsAt(spec, 'initContainers'), ...objectsAt(spec, 'containers')] : [];
}

/** Splits an image reference into its name and its `:tag` / `@digest` suffix. */
export function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image };
}

function images(file: string, item: Json, entries: Entry[]): void {
  const i = wrap(file, () => asObject(item, 'an images entry'));
  onlyKeys(file, 'images', i, ['name', 'newName', 'newTag', 'digest']);
  const name = wrap(file, () => asString(i.name, 'images name'));
  const newName = i.newName === undefined ? undefined : wrap(file, () => asString(i.newName, 'images newName'));
  const newTag = i.newTag === undefined ? undefined : wrap(file, () => asString(i.newTag, 'images newTag'));
  const digest = i.digest === undefined ? undefined : wrap(file, () => asString(i.digest, 'images digest'));
  for (const { object } of entries) {
    for (const container of containersOf(podSpec(object))) {
      if (typeof container.image !== 'string') continue;
      const current = splitImage(container.image);
      if (current.name !== name) continue;
      const suffix = digest ? `@${digest}` : newTag ? `:${newTag}` : current.digest ? `@${current.digest}` : current.tag ? `:${current.tag}` : '';
      container.image = `${newName ?? current.name}${suffix}`;
    }
  }
}

/**
 * JSON the way Go's encoding/json writes it (kustomize hashes that): object keys sorted, `<`, `>`, `&`,
 * U+2028 and U+2029 escaped as \u00XX / \u20XX, control characters other than \n \r \t as \u00XX.
 */
export function goJson(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') {
    let out = '"';
    for (const ch of value) {
      const code = ch.codePointAt(0) as number;
      if (ch === '"') out += '\\"';
      else if (ch === '\\') out += '\\\\';
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += ch;
    }
    return out + '"';
  }
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${goJson(k)}:${goJson(value[k])}`)
    .join(',')}}`;
}

/**
 * kustomize's name suffix of a generated ConfigMap: the first 10 hex digits of the sha256 of
 * {"data":…,"kind":"ConfigMap","name":""}, re-lettered (0→g, 1→h, 3→k, a→m, e→t). The name is empty because
 * kustomize v5 looks "metadata/name" up as one field name and finds nothing, so only the data counts; checked
 * against `kubectl kustomize` (kustomize v5.5.0), whose suffixes differ from `kubectl create configmap
 * --append-hash` for that reason.
 */
export function configMapHash(configMap: JsonObject): string {
  if (configMap.binaryData !== undefined) throw new KustomizeError('binaryData is not supported');
  const encoded: JsonObject = { kind: 'ConfigMap', name: '', data: objectAt(configMap, 'data') ?? {} };
  const hex = createHash('sha256').update(goJson(encoded)).digest('hex');
  const letters: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex.slice(0, 10)].map((c) => letters[c] ?? c).join('');
}

function applyHashSuffixes(entries: Entry[]): void {
  for (const entry of entries) {
    if (!entry.generated?.hashSuffix) continue;
    const meta = objectAt(entry.object, 'metadata') as JsonObject;
    const oldName = String(meta.name);
    const newName = `${oldName}-${configMapHash(entry.object)}`;
    meta.name = newName;
    for (const { object } of entries) {
      if (objectAt(object, 'metadata')?.namespace !== meta.namespace) continue;
      const spec = podSpec(object);
      if (!spec) continue;
      const rename = (holder: JsonObject | undefined) => {
        if (holder && holder.name === oldName) holder.name = newName;
      };
      for (const volume of objectsAt(spec, 'volumes')) {
        rename(objectAt(volume, 'configMap'));
        for (const source of objectsAt(volume, 'projected', 'sources')) rename(objectAt(source, 'configMap'));
      }
      for (const container of containersOf(spec)) {
        for (const from of objectsAt(container, 'envFrom')) rename(objectAt(from, 'configMapRef'));
        for (const env of objectsAt(container, 'env')) rename(objectAt(env, 'valueFrom', 'configMapKeyRef'));
      }
    }
  }
}
