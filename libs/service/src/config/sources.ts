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
