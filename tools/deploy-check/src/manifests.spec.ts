// The k8s/ manifests: base and production overlay rendered as kustomize would, every object validated against
// the Kubernetes schemas (kubernetes-models, strict about unknown fields), then our rules.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { clone, objectAt, objectsAt, type JsonObject } from './json';
import { validateObjects } from './kubernetes';
import { loadYaml, objectId, renderKustomization } from './kustomize';
import { checkRules, DEFAULT_SINGLETONS, secretKeys, type RuleOptions } from './rules';

const root = resolve(__dirname, '../../..');
const base = join(root, 'k8s/base');
const production = join(root, 'k8s/overlays/production');
const operatorSecretsFile = join(root, 'k8s/operator-secrets.example.yaml');

const operatorSecrets = loadYaml(operatorSecretsFile) as JsonObject[];
const rules = (pinnedImages: boolean): RuleOptions => ({ operatorSecrets: secretKeys(operatorSecrets), pinnedImages, singletons: DEFAULT_SINGLETONS });

const rendered = { base: renderKustomization(base), production: renderKustomization(production) };

function get(objects: JsonObject[], kind: string, name: string): JsonObject {
  const found = objects.find((o) => o.kind === kind && objectAt(o, 'metadata')?.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

function container(deployment: JsonObject): JsonObject {
  return objectsAt(deployment, 'spec', 'template', 'spec', 'containers')[0];
}

/** The production objects with one change made to a copy of one of them. */
function mutated(kind: string, name: string, change: (object: JsonObject) => void): JsonObject[] {
  return rendered.production.map((o) => {
    if (o.kind !== kind || objectAt(o, 'metadata')?.name !== name) return o;
    const copy = clone(o);
    change(copy);
    return copy;
  });
}

const apps = ['gateway', 'aggregator-router', 'amm-quoter', 'launchpad-service', 'indexer', 'referral-keeper'];

describe.each(Object.keys(rendered) as (keyof typeof rendered)[])('k8s %s', (name) => {
  const objects = rendered[name];

  it('is valid against the Kubernetes schemas, with no unknown field', () => {
    expect(validateObjects(objects)).toEqual([]);
  });

  it('keeps our rules', () => {
    expect(checkRules(objects, rules(name === 'production'))).toEqual([]);
  });

  it('has a Deployment and a Service per app, HPAs for gateway and aggregator-router, the migration Job and the external NATS and Postgres', () => {
    for (const app of apps) {
      expect(get(objects, 'Deployment', app)).toBeDefined();
      expect(get(objects, 'Service', app)).toBeDefined();
    }
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => objectAt(o, 'spec', 'scaleTargetRef')?.name).sort()).toEqual(['aggregator-router', 'gateway']);
    expect(get(objects, 'Job', 'db-migrate')).toBeDefined();
    for (const external of ['nats', 'postgres']) expect(objectAt(get(objects, 'Service', external), 'spec')?.type).toBe('ExternalName');
    expect(objects.some((o) => o.kind === 'StatefulSet')).toBe(false);
  });

  it('mounts a sources file with an entry for every chain of CHAIN_IDS', () => {
    const configMap = (prefix: string) => objects.find((o) => o.kind === 'ConfigMap' && String(objectAt(o, 'metadata')?.name).startsWith(prefix)) as JsonObject;
    const chainIds = String(objectAt(configMap('dex-config-'), 'data')?.CHAIN_IDS).split(',');
    const sources = JSON.parse(String(objectAt(configMap('dex-sources-'), 'data')?.['sources.json'])) as { chains: Record<string, { sources: unknown[] }> };
    for (const chainId of chainIds) expect(Array.isArray(sources.chains[chainId]?.sources)).toBe(true);
  });

  it('runs a single keeper that is never replaced while running (one replica, Recreate)', () => {
    const keeper = get(objects, 'Deployment', 'referral-keeper');
    expect(objectAt(keeper, 'spec')?.replicas).toBe(1);
    expect(objectAt(keeper, 'spec', 'strategy')?.type).toBe('Recreate');
  });
});

describe('k8s production overlay', () => {
  it('puts everything in the dex namespace and pins every image', () => {
    for (const object of rendered.production) expect([objectId(object), objectAt(object, 'metadata')?.namespace]).toEqual([objectId(object), 'dex']);
    const images = rendered.production.flatMap((o) => objectsAt(o, 'spec', 'template', 'spec', 'containers').map((c) => String(c.image)));
    expect(images.length).toBe(7);
    for (const image of images) expect(image).toMatch(/^registry\.example\.com\/dex\/[a-z-]+:\d+\.\d+\.\d+$/);
  });

  it('reads the database URL, the RPC URLs and the keeper key from Secrets', () => {
    const env = (app: string) => new Map(objectsAt(container(get(rendered.production, 'Deployment', app)), 'env').map((e) => [String(e.name), objectAt(e, 'valueFrom', 'secretKeyRef')]));
    expect(env('aggregator-router').get('DATABASE_URL')).toEqual({ name: 'dex-database', key: 'url' });
    // The gateway keeps no data and reaches no chain: no database URL, no RPC URL.
    expect(env('gateway').has('DATABASE_URL')).toBe(false);
    expect([...env('gateway').keys()].filter((name) => name.startsWith('RPC_URL_'))).toEqual([]);
    expect(env('indexer').get('RPC_URL_999')).toEqual({ name: 'dex-rpc', key: 'RPC_URL_999' });
    expect(env('referral-keeper').get('KEEPER_PRIVATE_KEY')).toEqual({ name: 'dex-keeper', key: 'privateKey' });
  });
});

describe('k8s/operator-secrets.example.yaml', () => {
  it('is valid and lists exactly the Secrets the manifests read', () => {
    expect(validateObjects(operatorSecrets)).toEqual([]);
    const read = new Set<string>();
    for (const o of rendered.production) {
      for (const c of objectsAt(o, 'spec', 'template', 'spec', 'containers')) {
        for (const e of objectsAt(c, 'env')) {
          const ref = objectAt(e, 'valueFrom', 'secretKeyRef');
          if (ref) read.add(`${String(ref.name)}/${String(ref.key)}`);
        }
      }
    }
    const documented = [...secretKeys(operatorSecrets)].flatMap(([name, keys]) => [...keys].map((k) => `${name}/${k}`));
    expect(documented.sort()).toEqual([...read].sort());
  });
});

describe('the checks reject broken manifests', () => {
  const problems = (objects: JsonObject[]) => [...validateObjects(objects), ...checkRules(objects, rules(true))];

  it('a misspelt field (readinesProbe) is an unknown field', () => {
    const objects = mutated('Deployment', 'gateway', (d) => {
      const c = container(d);
      c.readinesProbe = c.readinessProbe;
      delete c.readinessProbe;
    });
    const found = problems(objects);
    expect(found).toContain(
      "Deployment dex/gateway: spec.template.spec.containers.readinesProbe: Object literal may only specify known properties, and 'readinesProbe' does not exist in type 'IContainer'.",
    );
    expect(found).toContain('Deployment dex/gateway: container gateway: readinessProbe is missing');
  });

  it('an overlay that patches a misspelt field into a Deployment fails as a whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    try {
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        [
          'resources:',
          `  - ${relative(dir, production)}`,
          'patches:',
          '  - target: {kind: Deployment, name: indexer}',
          '    patch: |-',
          '      - op: add',
          '        path: /spec/template/spec/containers/0/resources/limit',
          '        value: {cpu: "2"}',
        ].join('\n') + '\n',
      );
      expect(validateObjects(renderKustomization(dir))).toEqual([
        "Deployment dex/indexer: spec.template.spec.containers.resources.limit: Object literal may only specify known properties, and 'limit' does not exist in type 'IResourceRequirements'.",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a value of the wrong type breaks the schema', () => {
    const objects = mutated('Deployment', 'amm-quoter', (d) => {
      objectsAt(container(d), 'ports')[0].containerPort = '3012';
    });
    expect(validateObjects(objects)).toContainEqual(expect.stringContaining('Deployment dex/amm-quoter: data/spec/template/spec/containers/0/ports/0/containerPort must be integer'));
  });

  it('a Deployment without its required selector breaks the schema', () => {
    const objects = mutated('Deployment', 'indexer', (d) => {
      delete (objectAt(d, 'spec') as JsonObject).selector;
    });
    expect(validateObjects(objects)).toContainEqual(expect.stringContaining("Deployment dex/indexer: data/spec must have required property selector"));
  });

  it('a readiness probe on the wrong path or port', () => {
    const wrongPath = mutated('Deployment', 'gateway', (d) => {
      (objectAt(container(d), 'readinessProbe', 'httpGet') as JsonObject).path = '/health';
    });
    expect(checkRules(wrongPath, rules(true))).toEqual(['Deployment dex/gateway: container gateway: readinessProbe must be an httpGet of /health/ready (found "/health")']);
    const wrongPort = mutated('Deployment', 'indexer', (d) => {
      (objectAt(container(d), 'livenessProbe', 'httpGet') as JsonObject).port = 9999;
    });
    expect(checkRules(wrongPort, rules(true))).toEqual(["Deployment dex/indexer: container indexer: livenessProbe port 9999 is not the app's HTTP port 3014"]);
  });

  it('an HPA whose Deployment does not exist', () => {
    const objects = mutated('HorizontalPodAutoscaler', 'gateway', (h) => {
      (objectAt(h, 'spec', 'scaleTargetRef') as JsonObject).name = 'gatway';
    });
    expect(checkRules(objects, rules(true))).toEqual([expect.stringMatching(/^HorizontalPodAutoscaler dex\/gateway: scaleTargetRef .* is not a Deployment/)]);
  });

  it('a Secret nobody documented, a ConfigMap that is not rendered, a missing setting', () => {
    const objects = mutated('Deployment', 'referral-keeper', (d) => {
      const c = container(d);
      const key = objectsAt(c, 'env').find((e) => e.name === 'KEEPER_PRIVATE_KEY') as JsonObject;
      (objectAt(key, 'valueFrom', 'secretKeyRef') as JsonObject).name = 'keeper-key';
      (objectAt(objectsAt(c, 'envFrom')[0], 'configMapRef') as JsonObject).name = 'dex-config';
    });
    expect(checkRules(objects, rules(true))).toEqual([
      'Deployment dex/referral-keeper: container referral-keeper: envFrom ConfigMap dex-config does not exist',
      'Deployment dex/referral-keeper: container referral-keeper: KEEPER_PRIVATE_KEY reads key privateKey of Secret keeper-key, which is neither rendered nor documented as created by the operator',
      'Deployment dex/referral-keeper: container referral-keeper: referral-keeper needs NATS_URL, which is not set',
    ]);
  });

  it('an image tagged latest, or not tagged', () => {
    const objects = mutated('Deployment', 'launchpad-service', (d) => {
      container(d).image = 'registry.example.com/dex/launchpad-service:latest';
    });
    expect(checkRules(objects, rules(true))).toEqual([
      'Deployment dex/launchpad-service: container launchpad-service: image registry.example.com/dex/launchpad-service:latest is not pinned to a tag other than latest or to a digest',
    ]);
    expect(checkRules(rendered.base, rules(true))).toContainEqual('Deployment gateway: container gateway: image dex/gateway is not pinned to a tag other than latest or to a digest');
  });

  it('two keepers, or a keeper rolled over while the old one runs', () => {
    const objects = mutated('Deployment', 'referral-keeper', (d) => {
      const spec = objectAt(d, 'spec') as JsonObject;
      spec.replicas = 2;
      delete spec.strategy;
    });
    expect(checkRules(objects, rules(true))).toEqual([
      'Deployment dex/referral-keeper: must run exactly one replica (spec.replicas: 1)',
      'Deployment dex/referral-keeper: must use strategy Recreate, so that two pods never run at once',
    ]);
  });

  it('a container that may run as root or write its filesystem', () => {
    const objects = mutated('Deployment', 'gateway', (d) => {
      delete (objectAt(d, 'spec', 'template', 'spec', 'securityContext') as JsonObject).runAsNonRoot;
      (objectAt(container(d), 'securityContext') as JsonObject).readOnlyRootFilesystem = false;
    });
    expect(checkRules(objects, rules(true))).toEqual([
      'Deployment dex/gateway: the pod must set securityContext.runAsNonRoot: true',
      'Deployment dex/gateway: container gateway: securityContext.readOnlyRootFilesystem must be true',
    ]);
  });
});
