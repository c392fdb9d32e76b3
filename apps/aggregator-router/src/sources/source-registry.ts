import { loadSourcesConfig } from '@dex/service';
import type { Dex, SourceConfig } from '@dex/messages';

/** The liquidity sources of each served chain, from the sources config file, ordered by routerIndex. */
export class SourceRegistry {
  private constructor(private readonly byChain: ReadonlyMap<number, readonly SourceConfig[]>) {}

  /** Reads and validates the file; a missing or malformed file stops the service, naming SOURCES_CONFIG. */
  static fromFile(service: string, path: string, chainIds: readonly number[]): SourceRegistry {
    return new SourceRegistry(loadSourcesConfig(service, path, chainIds));
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
