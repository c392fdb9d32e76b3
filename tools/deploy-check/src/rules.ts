// Our own rules for the rendered Kubernetes manifests, on top of the API schemas.
import { posix } from 'node:path';
import { containersOf, objectId, podSpec, splitImage } from './kustomize';
import { objectAt, objectsAt, stringAt, type JsonObject } from './json';
import { APPS, MIGRATE_COMMAND, MIGRATE_REQUIRED, requiredSettings } from './settings';

export interface RuleOptions {
  /** Secrets the operator creates (not rendered): name -> keys. */
  readonly operatorSecrets: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every image must carry a pinned tag (not `latest`) or a digest. */
  readonly pinnedImages: boolean;
  /** Deployments that must run one pod at a time: exactly one replica, Recreate, no HPA. */
  readonly singletons: readonly string[];
}

export const DEFAULT_SINGLETONS = ['referral-keeper', 'indexer'];

function nameOf(object: JsonObject): string {
  return String(objectAt(object, 'metadata')?.name);
}

function namespaceOf(object: JsonObject): string | undefined {
  return stringAt(object, 'metadata', 'namespace');
}

function find(objects: readonly JsonObject[], kind: string, name: string, namespace: string | undefined): JsonObject | undefined {
  return objects.find((o) => o.kind === kind && nameOf(o) === name && namespaceOf(o) === namespace);
}

/** The secrets operator documentation: the Secrets of an example file, as name -> keys. */
export function secretKeys(objects: readonly JsonObject[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const o of objects) {
    if (o.kind !== 'Secret') continue;
    map.set(nameOf(o), new Set([...Object.keys(objectAt(o, 'data') ?? {}), ...Object.keys(objectAt(o, 'stringData') ?? {})]));
  }
  return map;
}

/** Every rule broken by the rendered objects, as `Kind namespace/name: problem` lines (none: all kept). */
export function checkRules(objects: readonly JsonObject[], options: RuleOptions): string[] {
  const problems: string[] = [];
  const report = (object: JsonObject, message: string) => problems.push(`${objectId(object)}: ${message}`);
  const hpaTargets = new Set<string>();

  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const ref = objectAt(hpa, 'spec', 'scaleTargetRef');
    const target = ref && typeof ref.name === 'string' ? find(objects, String(ref.kind), ref.name, namespaceOf(hpa)) : undefined;
    if (!ref || ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !target) {
      report(hpa, `scaleTargetRef ${JSON.stringify(ref)} is not a Deployment (apps/v1) of the manifests`);
      continue;
    }
    hpaTargets.add(objectId(target));
    if (objectAt(target, 'spec')?.replicas !== undefined) report(target, 'sets spec.replicas although an HPA scales it (every apply would reset the replicas)');
  }

  for (const object of objects) {
    const spec = podSpec(object);
    if (!spec) continue;
    const ns = namespaceOf(object);
    const isDeployment = object.kind === 'Deployment';
    if (objectAt(spec, 'securityContext')?.runAsNonRoot !== true) report(object, 'the pod must set securityContext.runAsNonRoot: true');
    const volumes = new Map(objectsAt(spec, 'volumes').map((v) => [String(v.name), v]));

    // Every ConfigMap and Secret a pod reads exists (rendered, or a documented operator Secret).
    const configMapKeys = (name: string): Set<string> | undefined => {
      const cm = find(objects, 'ConfigMap', name, ns);
      return cm ? new Set([...Object.keys(objectAt(cm, 'data') ?? {}), ...Object.keys(objectAt(cm, 'binaryData') ?? {})]) : undefined;
    };
    const secretKeysOf = (name: string): ReadonlySet<string> | undefined => {
      const secret = find(objects, 'Secret', name, ns);
      return secret ? secretKeys([secret]).get(name) : options.operatorSecrets.get(name);
    };
    for (const volume of volumes.values()) {
      const cm = stringAt(volume, 'configMap', 'name');
      if (cm !== undefined && !configMapKeys(cm) && objectAt(volume, 'configMap')?.optional !== true) report(object, `volume ${String(volume.name)} mounts ConfigMap ${cm}, which does not exist`);
      const secret = stringAt(volume, 'secret', 'secretName');
      if (secret !== undefined && !secretKeysOf(secret)) report(object, `volume ${String(volume.name)} mounts Secret ${secret}, which is neither rendered nor documented`);
    }

    for (const container of containersOf(spec)) {
      const where = `container ${String(container.name)}`;
      const env = new Map<string, string | undefined>();
      for (const from of objectsAt(container, 'envFrom')) {
        const cm = stringAt(from, 'configMapRef', 'name');
        const secret = stringAt(from, 'secretRef', 'name');
        if (cm !== undefined) {
          const keys = configMapKeys(cm);
          if (!keys) report(object, `${where}: envFrom ConfigMap ${cm} does not exist`);
          const data = objectAt(find(objects, 'ConfigMap', cm, ns), 'data') ?? {};
          for (const key of keys ?? []) env.set(key, typeof data[key] === 'string' ? (data[key] as string) : undefined);
        }
        if (secret !== undefined) {
          const keys = secretKeysOf(secret);
          if (!keys) report(object, `${where}: envFrom Secret ${secret} is neither rendered nor documented as created by the operator`);
          for (const key of keys ?? []) env.set(key, undefined);
        }
      }
      for (const variable of objectsAt(container, 'env')) {
        const name = String(variable.name);
        const cmRef = objectAt(variable, 'valueFrom', 'configMapKeyRef');
        const secretRef = objectAt(variable, 'valueFrom', 'secretKeyRef');
        if (cmRef) {
          const keys = configMapKeys(String(cmRef.name));
          if (!keys?.has(String(cmRef.key)) && cmRef.optional !== true) report(object, `${where}: ${name} reads key ${String(cmRef.key)} of ConfigMap ${String(cmRef.name)}, which does not exist`);
        }
        if (secretRef) {
          const keys = secretKeysOf(String(secretRef.name));
          if (!keys?.has(String(secretRef.key)) && secretRef.optional !== true) {
            report(object, `${where}: ${name} reads key ${String(secretRef.key)} of Secret ${String(secretRef.name)}, which is neither rendered nor documented as created by the operator`);
          }
        }
        env.set(name, typeof variable.value === 'string' ? variable.value : undefined);
      }

      // Resources and a locked-down container.
      const resources = objectAt(container, 'resources');
      for (const [group, key] of [['requests', 'cpu'], ['requests', 'memory'], ['limits', 'memory']]) {
        if (objectAt(resources, group)?.[key] === undefined) report(object, `${where}: resources.${group}.${key} is missing`);
      }
      const security = objectAt(container, 'securityContext');
      if (security?.allowPrivilegeEscalation !== false) report(object, `${where}: securityContext.allowPrivilegeEscalation must be false`);
      if (security?.readOnlyRootFilesystem !== true) report(object, `${where}: securityContext.readOnlyRootFilesystem must be true`);
      const drop = objectAt(security, 'capabilities')?.drop;
      if (!Array.isArray(drop) || !drop.includes('ALL')) report(object, `${where}: securityContext.capabilities.drop must include ALL`);

      // Pinned images.
      const image = typeof container.image === 'string' ? container.image : '';
      const ref = splitImage(image);
      if (options.pinnedImages && !ref.digest && (!ref.tag || ref.tag === 'latest')) report(object, `${where}: image ${image} is not pinned to a tag other than latest or to a digest`);

      // The settings the app needs at boot.
      const command = Array.isArray(container.command) ? container.command : [];
      const app = posix.basename(ref.name);
      if (command.length > 0 && command.join(' ') === MIGRATE_COMMAND.join(' ')) {
        for (const setting of MIGRATE_REQUIRED) if (!env.has(setting)) report(object, `${where}: the migrate step needs ${setting}`);
        continue;
      }
      const settings = APPS[app];
      if (!settings) {
        report(object, `${where}: image ${image} is none of the apps (${Object.keys(APPS).join(', ')})`);
        continue;
      }
      for (const setting of requiredSettings(settings, env.get('CHAIN_IDS'))) {
        if (!env.has(setting)) report(object, `${where}: ${app} needs ${setting}, which is not set`);
      }

      // SOURCES_CONFIG names a file of a mounted ConfigMap.
      const sources = env.get('SOURCES_CONFIG');
      if (sources !== undefined) {
        const mount = objectsAt(container, 'volumeMounts').find((m) => m.mountPath === posix.dirname(sources));
        const cm = mount ? stringAt(volumes.get(String(mount.name)), 'configMap', 'name') : undefined;
        if (!cm || !configMapKeys(cm)?.has(posix.basename(sources))) report(object, `${where}: SOURCES_CONFIG ${sources} is not a file of a ConfigMap mounted at ${posix.dirname(sources)}`);
      }

      // Probes: the Deployments' apps listen on HTTP_PORT; liveness and readiness are the health endpoints there.
      if (!isDeployment) continue;
      const port = Number(env.get('HTTP_PORT') ?? settings.port);
      const ports = objectsAt(container, 'ports');
      const declared = ports.find((p) => p.containerPort === port);
      if (!declared) report(object, `${where}: HTTP_PORT ${port} is not a declared containerPort`);
      const probes: [string, string, boolean][] = [
        ['livenessProbe', '/health/live', true],
        ['readinessProbe', '/health/ready', true],
        ['startupProbe', '/health/live', false],
      ];
      for (const [probe, path, required] of probes) {
        const get = objectAt(container, probe, 'httpGet');
        if (!objectAt(container, probe)) {
          if (required) report(object, `${where}: ${probe} is missing`);
          continue;
        }
        if (!get || get.path !== path) {
          report(object, `${where}: ${probe} must be an httpGet of ${path} (found ${JSON.stringify(get?.path ?? objectAt(container, probe))})`);
          continue;
        }
        const target = typeof get.port === 'number' ? ports.find((p) => p.containerPort === get.port) : ports.find((p) => p.name === get.port);
        if (!target || target.containerPort !== port) report(object, `${where}: ${probe} port ${JSON.stringify(get.port)} is not the app's HTTP port ${port}`);
      }
    }

    if (isDeployment && options.singletons.includes(nameOf(object))) {
      const dspec = objectAt(object, 'spec');
      if (dspec?.replicas !== 1) report(object, 'must run exactly one replica (spec.replicas: 1)');
      if (stringAt(dspec, 'strategy', 'type') !== 'Recreate') report(object, 'must use strategy Recreate, so that two pods never run at once');
      if (hpaTargets.has(objectId(object))) report(object, 'must not be scaled by an HPA');
    }
  }

  // Services select pods of the manifests and target a declared port.
  for (const service of objects.filter((o) => o.kind === 'Service' && stringAt(o, 'spec', 'type') !== 'ExternalName')) {
    const selector = objectAt(service, 'spec', 'selector');
    const pods = objects.filter((o) => {
      const labels = objectAt(o, 'spec', 'template', 'metadata', 'labels');
      return o.kind === 'Deployment' && namespaceOf(o) === namespaceOf(service) && selector && labels && Object.entries(selector).every(([k, v]) => labels[k] === v);
    });
    if (!selector || pods.length === 0) {
      report(service, 'selects no Deployment of the manifests');
      continue;
    }
    for (const port of objectsAt(service, 'spec', 'ports')) {
      const ok = pods.every((pod) => containersOf(podSpec(pod)).some((c) => objectsAt(c, 'ports').some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)));
      if (!ok) report(service, `targetPort ${JSON.stringify(port.targetPort)} is not a port of the selected pods`);
    }
  }
  for (const service of objects.filter((o) => o.kind === 'Service' && stringAt(o, 'spec', 'type') === 'ExternalName')) {
    if (!stringAt(service, 'spec', 'externalName')) report(service, 'an ExternalName Service needs spec.externalName');
  }
  // PodDisruptionBudgets protect pods of the manifests.
  for (const pdb of objects.filter((o) => o.kind === 'PodDisruptionBudget')) {
    const selector = objectAt(pdb, 'spec', 'selector', 'matchLabels');
    const selects = objects.some((o) => {
      const labels = objectAt(o, 'spec', 'template', 'metadata', 'labels');
      return o.kind === 'Deployment' && namespaceOf(o) === namespaceOf(pdb) && selector && labels && Object.entries(selector).every(([k, v]) => labels[k] === v);
    });
    if (!selects) report(pdb, 'selects no Deployment of the manifests');
  }
  return problems;
}
