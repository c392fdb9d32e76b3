import { describeIssues, sourcesFileSchema, type SourceConfig } from '@dex/messages';
import { readFileSync } from 'node:fs';
import { ConfigError } from './config';

/** The parsed JSON of the `SOURCES_CONFIG` file; an unreadable file stops the service naming the setting. */
export function readSourcesFile(service: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: cannot read ${path} (${(err as Error).message})`]);
  }
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
