import { ConfigError } from '@dex/service';
import { sourcesFileSchema, describeIssues, type Dex, type SourceConfig } from '@dex/messages';
import { readFileSync } from 'node:fs';

/** The liquidity sources of each served chain, from the sources config file, ordered by routerIndex. */
export class SourceRegistry {
  private constructor(private readonly byChain: ReadonlyMap<number, readonly SourceConfig[]>) {}

  /** Reads and validates the file; a missing or malformed file stops the service, naming SOURCES_CONFIG. */
  static fromFile(service: string, path: string, chainIds: readonly number[]): SourceRegistry {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: cannot read ${path} (${(err as Error).message})`]);
    }
    const parsed = sourcesFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path}: ${describeIssues(parsed.error)}`]);
    }
    const byChain = new Map<number, SourceConfig[]>();
    for (const chainId of chainIds) {
      const entry = parsed.data.chains[String(chainId)];
      if (!entry) {
        throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path} has no entry for chain ${chainId}`]);
      }
      byChain.set(chainId, [...entry.sources].sort((a, b) => a.routerIndex - b.routerIndex));
    }
    return new SourceRegistry(byChain);
  }

  servesChain(chainId: number): boolean {
    return this.byChain.has(chainId);
  }

  chainIds(): number[] {
    return [...this.byChain.keys()];
  }

  /** The chain's sources as DEX records; undefined when the chain is not served. */
  dexes(chainId: number): Dex[] | undefined {
    return this.byChain.get(chainId)?.map((s) => ({
      routerIndex: s.routerIndex,
      name: s.name,
      kind: s.kind,
      addresses: s.addresses,
      ...(s.feeBps === undefined ? {} : { feeBps: s.feeBps }),
    }));
  }
}
