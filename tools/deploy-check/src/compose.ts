// Checks of docker/compose.yaml: the Compose specification's JSON schema (as shipped in the npm package
// dclint, schemas/compose.schema.json), validated with ajv after Compose's own interpolation, then our rules.
import Ajv, { type ValidateFunction } from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { asObject, isObject, objectAt, type Json, type JsonObject } from './json';
import { loadYaml } from './kustomize';
import { APPS, MIGRATE_COMMAND, MIGRATE_REQUIRED, requiredSettings } from './settings';

/** Compose's variable interpolation: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`; others throw. */
export function interpolate(value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$\$|\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$/g, (match, braced: string | undefined, bare: string | undefined) => {
    if (match === '$$') return '$';
    if (bare !== undefined) return env[bare] ?? '';
    if (braced === undefined) throw new Error(`a lone $ in ${JSON.stringify(value)} (write $$ for a literal $)`);
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-)(.*))?$/s.exec(braced);
    if (!m) throw new Error(`unsupported interpolation \${${braced}} in ${JSON.stringify(value)}`);
    const [, name, op, fallback] = m;
    if (fallback?.includes('$')) throw new Error(`nested interpolation in \${${braced}} is not supported`);
    const current = env[name];
    if (op === ':-') return current === undefined || current === '' ? fallback : current;
    if (op === '-') return current === undefined ? fallback : current;
    return current ?? '';
  });
}

function interpolateAll(value: Json, env: Readonly<Record<string, string | undefined>>): Json {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)]));
  return value;
}

/** The Compose file as Compose sees it: YAML 1.2 with merge keys, interpolated with `env` (default: none set). */
export function loadCompose(file: string, env: Readonly<Record<string, string | undefined>> = {}): JsonObject {
  const docs = loadYaml(file, { version: '1.2', merge: true });
  if (docs.length !== 1) throw new Error(`${file}: must hold one YAML document`);
  return asObject(interpolateAll(docs[0], env), file);
}

let validator: ValidateFunction | undefined;

/** The Compose specification's schema, from the dclint package. */
export function composeSchemaPath(): string {
  return join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
}

/** What the Compose specification's JSON schema says is wrong with the (interpolated) file. */
export function composeSchemaProblems(compose: JsonObject): string[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(composeSchemaPath(), 'utf8')) as { $schema?: string };
    const ajv = new Ajv({ allErrors: true, strict: false });
    // The schema names its meta-schema https://json-schema.org/draft-07/schema; ajv knows draft-07 as http://…#.
    ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
    validator = ajv.compile(schema);
  }
  if (validator(compose)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
}

type Service = JsonObject;

function environment(service: Service): Map<string, string> {
  const env = new Map<string, string>();
  const raw = service.environment;
  if (Array.isArray(raw)) {
    for (const item of raw) {
      const s = String(item);
      const eq = s.indexOf('=');
      if (eq > 0) env.set(s.slice(0, eq), s.slice(eq + 1));
    }
  } else if (isObject(raw)) {
    for (const [k, v] of Object.entries(raw)) if (v !== null) env.set(k, String(v));
  }
  return env;
}

function dependsOn(service: Service): Map<string, string> {
  const deps = new Map<string, string>();
  const raw = service.depends_on;
  if (Array.isArray(raw)) for (const d of raw) deps.set(String(d), 'service_started');
  else if (isObject(raw)) for (const [k, v] of Object.entries(raw)) deps.set(k, String(objectAt(raw, k)?.condition ?? (v === null ? 'service_started' : '')));
  return deps;
}

function command(service: Service): string[] {
  const raw = service.command;
  if (Array.isArray(raw)) return raw.map(String);
  if (typeof raw === 'string') return raw.split(/\s+/).filter(Boolean);
  return [];
}

function healthTest(service: Service): string[] {
  const test = objectAt(service, 'healthcheck')?.test;
  if (objectAt(service, 'healthcheck')?.disable === true) return [];
  return Array.isArray(test) ? test.map(String) : typeof test === 'string' ? [test] : [];
}

/** Named volume mounts of a service: target -> volume name. */
function namedVolumes(compose: JsonObject, service: Service): Map<string, string> {
  const named = new Set(Object.keys(objectAt(compose, 'volumes') ?? {}));
  const mounts = new Map<string, string>();
  for (const v of Array.isArray(service.volumes) ? service.volumes : []) {
    if (typeof v === 'string') {
      const [source, target] = v.split(':');
      if (named.has(source) && target) mounts.set(target, source);
    } else if (isObject(v) && v.type === 'volume' && typeof v.source === 'string' && typeof v.target === 'string') {
      mounts.set(v.target, v.source);
    }
  }
  return mounts;
}

/** The named volume and path inside it of `path` in `service`, if `path` lies on a named volume. */
function onVolume(compose: JsonObject, service: Service, path: string): { volume: string; rest: string } | undefined {
  for (const [target, volume] of namedVolumes(compose, service)) {
    const rel = posix.relative(target, path);
    if (!rel.startsWith('..') && !posix.isAbsolute(rel)) return { volume, rest: rel };
  }
  return undefined;
}

/**
 * Our rules for the Compose file (interpolated with no variable set, i.e. the local defaults): the apps are built
 * from docker/Dockerfile with a known APP, get the settings they need, wait for NATS (JetStream on), for the
 * migrate step to complete and for the devnet whose chains and manifest they use; every dependency waited on
 * for health has a healthcheck; the pulled images carry a tag other than latest.
 */
export function checkComposeRules(compose: JsonObject, composeFile: string, repoRoot: string): string[] {
  const problems: string[] = [];
  const services = objectAt(compose, 'services') ?? {};
  const names = Object.keys(services);
  const svc = (name: string) => objectAt(services, name) as Service;
  const report = (name: string, message: string) => problems.push(`service ${name}: ${message}`);

  const nats = names.filter((n) => String(svc(n).image ?? '').startsWith('nats:'));
  const postgres = names.filter((n) => String(svc(n).image ?? '').startsWith('postgres:'));
  const migrate = names.filter((n) => command(svc(n)).join(' ') === MIGRATE_COMMAND.join(' '));
  if (nats.length !== 1) problems.push(`expected one NATS service (image nats:…), found ${nats.length}`);
  if (postgres.length !== 1) problems.push(`expected one Postgres service (image postgres:…), found ${postgres.length}`);
  if (migrate.length !== 1) problems.push(`expected one migrate service (command ${MIGRATE_COMMAND.join(' ')}), found ${migrate.length}`);
  for (const n of nats) if (!command(svc(n)).some((a) => a === '-js' || a === '--jetstream')) report(n, 'NATS must run with JetStream (-js)');

  for (const name of names) {
    const service = svc(name);
    const image = typeof service.image === 'string' ? service.image : '';
    const build = objectAt(service, 'build');
    if (!build) {
      const tag = image.includes('@') ? 'digest' : image.slice(image.lastIndexOf(':') + 1);
      if (!image.includes(':') || tag === 'latest') report(name, `image ${image} must carry a tag other than latest`);
    }
    for (const [dep, condition] of dependsOn(service)) {
      if (!names.includes(dep)) {
        report(name, `depends on ${dep}, which is not a service`);
        continue;
      }
      if (condition === 'service_healthy' && healthTest(svc(dep)).length === 0) report(name, `waits for ${dep} to be healthy, but ${dep} has no healthcheck`);
      if (condition === 'service_completed_successfully' && svc(dep).restart !== undefined && svc(dep).restart !== 'no') report(name, `waits for ${dep} to complete, but ${dep} restarts (${String(svc(dep).restart)})`);
    }
    if (!build) continue;

    const app = objectAt(build, 'args')?.APP;
    const context = resolve(dirname(composeFile), String(build.context ?? '.'));
    if (context !== resolve(repoRoot)) report(name, `build context ${String(build.context)} is not the repository root`);
    if (build.dockerfile !== 'docker/Dockerfile') report(name, `must be built from docker/Dockerfile (found ${String(build.dockerfile)})`);
    if (typeof app !== 'string' || !APPS[app] || !existsSync(join(repoRoot, 'apps', app, 'src', 'main.ts'))) {
      report(name, `build arg APP ${JSON.stringify(app)} is none of the apps (${Object.keys(APPS).join(', ')})`);
      continue;
    }
    if (image.endsWith(':latest') || !image.includes(':')) report(name, `image ${image} must carry a tag other than latest`);
    const env = environment(service);
    if (migrate.includes(name)) {
      for (const setting of MIGRATE_REQUIRED) if (!env.has(setting)) report(name, `the migrate step needs ${setting}`);
      for (const p of postgres) if (dependsOn(service).get(p) !== 'service_healthy') report(name, `must wait for ${p} to be healthy`);
      continue;
    }

    const settings = APPS[app];
    for (const setting of requiredSettings(settings, env.get('CHAIN_IDS'))) if (!env.get(setting)) report(name, `${app} needs ${setting}, which is not set`);
    const port = Number(env.get('HTTP_PORT') ?? settings.port);
    const test = healthTest(service).join(' ');
    if (!test.includes('/health/ready')) report(name, 'its healthcheck must ask /health/ready');
    if (!test.includes('HTTP_PORT') && !test.includes(String(port))) report(name, `its healthcheck must ask the app's port ${port}`);
    for (const n of nats) if (dependsOn(service).get(n) !== 'service_healthy') report(name, `must wait for ${n} to be healthy`);
    if (app === 'devnet') continue;
    for (const m of migrate) if (dependsOn(service).get(m) !== 'service_completed_successfully') report(name, `must wait for ${m} to complete successfully`);

    // The chains and the sources file of the devnet, when the defaults point at it.
    for (const [dep] of dependsOn(service)) {
      const devnet = svc(dep);
      if (objectAt(devnet, 'build', 'args')?.APP !== 'devnet') continue;
      const devnetEnv = environment(devnet);
      for (const [key, value] of env) {
        const chain = /^RPC_URL_(\d+)$/.exec(key)?.[1];
        if (!chain || !value.includes(`//${dep}:`)) continue;
        const expected = `http://${dep}:${devnetEnv.get(`DEVNET_PORT_${chain}`)}`;
        if (value !== expected) report(name, `${key} ${value} is not the devnet's chain ${chain} (${expected})`);
      }
      const sources = env.get('SOURCES_CONFIG');
      const manifest = devnetEnv.get('MANIFEST_PATH');
      if (sources && manifest) {
        const mine = onVolume(compose, service, sources);
        const theirs = onVolume(compose, devnet, manifest);
        if (!mine || !theirs || mine.volume !== theirs.volume || mine.rest !== theirs.rest) report(name, `SOURCES_CONFIG ${sources} is not the devnet's manifest ${manifest} on a shared volume`);
      }
      if (dependsOn(service).get(dep) !== 'service_healthy') report(name, `must wait for ${dep} to be healthy (its chains and manifest)`);
    }
  }
  return problems;
}
