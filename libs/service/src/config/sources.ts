import { describeIssues, sourcesFileSchema, type SourceConfig } from '@dex/messages';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config';

/**
 * The parsed JSON of the `SOURCES_CONFIG` file; an unreadable file stops the service naming the setting. A chain
 * entry that names a `catalogue` and a `deployment` (paths relative to the file) is read from them
 * (`expandChainEntry`): a production chain is described by its sources catalogue and the deploy tool's record.
 */
export function readSourcesFile(service: string, path: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: cannot read ${path} (${(err as Error).message})`]);
  }
  const chains = (json as { chains?: Record<string, unknown> } | null)?.chains;
  if (!chains || typeof chains !== 'object') return json;
  const expanded: Record<string, unknown> = {};
  for (const [chainId, entry] of Object.entries(chains)) {
    try {
      expanded[chainId] = expandChainEntry(chainId, entry, dirname(resolve(path)));
    } catch (err) {
      throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path}: chain ${chainId}: ${(err as Error).message}`]);
    }
  }
  return { ...(json as object), chains: expanded };
}

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/**
 * A chain entry as the services read it. One with `catalogue` and `deployment` is built from them: the catalogue's
 * enabled sources (`enabled` not false), our core AMM and launchpad as the deploy tool set them in RouterV2 (from
 * the record's contracts and sources), RouterV2 and the treasury from the record, the wrapped native token and
 * Multicall3 from the catalogue; keys the entry gives itself (`nativeSymbol`, `wrappedNative`, `tokens`...) win.
 * Any other entry is returned as it is.
 */
export function expandChainEntry(chainId: string, entry: unknown, baseDir: string): unknown {
  const given = entry as Record<string, unknown> | null;
  if (!given || typeof given.catalogue !== 'string' || typeof given.deployment !== 'string') return entry;
  const catalogueFile = readJson(resolve(baseDir, given.catalogue));
  const catalogue = (catalogueFile.chains as Record<string, Record<string, unknown>> | undefined)?.[chainId];
  if (!catalogue) throw new Error(`${given.catalogue} has no chain ${chainId}`);
  const record = readJson(resolve(baseDir, given.deployment));
  if (String(record.chainId) !== chainId) throw new Error(`${given.deployment} is the record of chain ${String(record.chainId)}`);
  const contracts = (record.contracts ?? {}) as Record<string, { address: string; blockNumber?: string } | undefined>;
  const deployedAt = (c: { blockNumber?: string }) => (c.blockNumber && /^\d+$/.test(c.blockNumber) ? { deploymentBlock: Number(c.blockNumber) } : {});
  const set = (record.sources ?? []) as { routerIndex: number; kind: string }[];
  const ours: unknown[] = [];
  const core = set.find((s) => s.kind === 'core');
  if (core && contracts.ammRouter && contracts.refCodeRegistry && contracts.oracle) {
    ours.push({ name: 'Core', kind: 'core', routerIndex: core.routerIndex, addresses: { router: contracts.ammRouter.address, registry: contracts.refCodeRegistry.address, oracle: contracts.oracle.address }, ...deployedAt(contracts.ammRouter) });
  }
  const launchpad = set.find((s) => s.kind === 'launchpad');
  if (launchpad && contracts.launchpad) ours.push({ name: 'Launchpad', kind: 'launchpad', routerIndex: launchpad.routerIndex, addresses: { launchpad: contracts.launchpad.address }, feeBps: 100, ...deployedAt(contracts.launchpad) });
  const enabled = ((catalogue.sources ?? []) as Record<string, unknown>[])
    .filter((s) => s.enabled !== false)
    .map((s) => ({
      name: s.name,
      kind: s.kind,
      routerIndex: s.routerIndex,
      addresses: s.addresses,
      ...(s.feeBps === undefined ? {} : { feeBps: s.feeBps }),
      ...(typeof s.deploymentBlock === 'number' ? { deploymentBlock: s.deploymentBlock } : {}),
      // A V4 source's listed hooks: routed, and allowed on RouterV2 by the deploy tool.
      ...(Array.isArray(s.hooks) ? { hooks: s.hooks } : {}),
    }));
  if (!contracts.routerV2) throw new Error(`${given.deployment} has no RouterV2`);
  const wrapped = catalogue.wrappedNative as { address: string; symbol: string; name?: string; decimals?: number } | undefined;
  const { catalogue: _catalogue, deployment: _deployment, ...own } = given;
  return {
    chainId: Number(chainId),
    ...(typeof (catalogue.multicall3 as { address?: string } | undefined)?.address === 'string' ? { multicall3: (catalogue.multicall3 as { address: string }).address } : {}),
    ...(wrapped ? { wrappedNative: { address: wrapped.address, symbol: wrapped.symbol, name: wrapped.name ?? `Wrapped ${wrapped.symbol.replace(/^W/, '')}`, decimals: wrapped.decimals ?? 18 } } : {}),
    sources: [...ours, ...enabled],
    routerV2: contracts.routerV2.address,
    // Signed routes: Permit2 (deployed by the tool, or the chain's own at its canonical address) and RouterV2Permit2.
    ...(contracts.permit2 && contracts.routerV2Permit2 ? { permit2: contracts.permit2.address, routerV2Permit2: contracts.routerV2Permit2.address } : {}),
    ...(typeof (record.config as { treasury?: string } | undefined)?.treasury === 'string' ? { treasury: (record.config as { treasury: string }).treasury } : {}),
    ...(contracts.launchpad ? { launchpad: { address: contracts.launchpad.address, tokens: [] } } : {}),
    ...own,
  };
}

/**
 * Reads the per-chain liquidity-source file named by `SOURCES_CONFIG` (the devnet manifest has that shape)
 * and returns each served chain's sources ordered by routerIndex. A missing or malformed file, or one
 * without an entry for a served chain, stops the service naming the setting.
 */
export function loadSourcesConfig(service: string, path: string, chainIds: readonly number[]): Map<number, SourceConfig[]> {
  const parsed = sourcesFileSchema.safeParse(readSourcesFile(service, path));
  if (!parsed.success) {
    throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path}: ${describeIssues(parsed.error)}`]);
  }
  const byChain = new Map<number, SourceConfig[]>();
  for (const chainId of chainIds) {
    const entry = parsed.data.chains[String(chainId)];
    if (!entry) throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path} has no entry for chain ${chainId}`]);
    byChain.set(chainId, [...entry.sources].sort((a, b) => a.routerIndex - b.routerIndex));
  }
  return byChain;
}

/**
 * The contracts a service reaches one source kind through, by role, on each served chain (e.g. the `core`
 * source's `router`): a chain whose source of that kind lacks one of the roles stops the service naming the
 * setting; with `optional`, a chain without such a source at all is left out instead.
 */
export function sourceContracts<Role extends string>(
  service: string,
  sources: ReadonlyMap<number, readonly SourceConfig[]>,
  kind: SourceConfig['kind'],
  roles: readonly Role[],
  options: { optional?: boolean } = {},
): Map<number, Record<Role, `0x${string}`>> {
  const byChain = new Map<number, Record<Role, `0x${string}`>>();
  for (const [chainId, list] of sources) {
    const source = list.find((s) => s.kind === kind);
    if (!source && options.optional) continue;
    const missing = roles.filter((role) => !source?.addresses[role]);
    if (missing.length > 0) {
      throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: chain ${chainId} has no ${kind} source with ${roles.join(', ')} addresses`]);
    }
    byChain.set(chainId, Object.fromEntries(roles.map((role) => [role, source!.addresses[role]])) as Record<Role, `0x${string}`>);
  }
  return byChain;
}
