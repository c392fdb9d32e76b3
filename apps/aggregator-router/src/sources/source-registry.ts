import { loadSourcesConfig } from '@dex/service';
import type { Dex, SourceConfig, SourceStatus } from '@dex/messages';
import type { SourceFilter } from '@dex/routing';

/** What is known of a source: checked against the chain and found as configured (`active`), or not, and why. */
export interface SourceState {
  readonly status: SourceStatus;
  readonly reason?: string;
}

/**
 * The liquidity sources of each served chain, from the sources config file, ordered by routerIndex, with what the
 * check against the chain found of each (`SourceVerification`): only `active` sources are routed through.
 */
export class SourceRegistry {
  private readonly states = new Map<string, SourceState>();

  private constructor(private readonly byChain: ReadonlyMap<number, readonly SourceConfig[]>) {}

  /** Reads and validates the file; a missing or malformed file stops the service, naming SOURCES_CONFIG. */
  static fromFile(service: string, path: string, chainIds: readonly number[]): SourceRegistry {
    return new SourceRegistry(loadSourcesConfig(service, path, chainIds));
  }

  /** A registry of the given sources (every one unchecked). */
  static of(byChain: ReadonlyMap<number, readonly SourceConfig[]>): SourceRegistry {
    return new SourceRegistry(byChain);
  }

  servesChain(chainId: number): boolean {
    return this.byChain.has(chainId);
  }

  chainIds(): number[] {
    return [...this.byChain.keys()];
  }

  /** The chain's configured sources. */
  sources(chainId: number): readonly SourceConfig[] {
    return this.byChain.get(chainId) ?? [];
  }

  /** What the check found of a source; `unchecked` until it ran. */
  state(chainId: number, routerIndex: number): SourceState {
    return this.states.get(`${chainId}:${routerIndex}`) ?? { status: 'unchecked', reason: 'not checked against the chain yet' };
  }

  setState(chainId: number, routerIndex: number, state: SourceState): void {
    this.states.set(`${chainId}:${routerIndex}`, state);
  }

  /** The routerIndex values of the chain's sources that are not `active`. */
  unusable(chainId: number): number[] {
    return this.sources(chainId)
      .filter((s) => this.state(chainId, s.routerIndex).status !== 'active')
      .map((s) => s.routerIndex);
  }

  /** A request's source filter with the chain's sources that are not `active` left out as well. */
  usableFilter(chainId: number, filter: SourceFilter): SourceFilter {
    const unusable = this.unusable(chainId);
    if (unusable.length === 0) return filter;
    if (filter.includeDexes?.length) {
      const included = filter.includeDexes.filter((i) => !unusable.includes(i));
      // None of those asked for is usable: every source left out (an empty list would admit them all).
      return included.length > 0 ? { ...filter, includeDexes: included } : { ...filter, includeDexes: undefined, excludeDexes: this.sources(chainId).map((s) => s.routerIndex) };
    }
    return { ...filter, excludeDexes: [...new Set([...(filter.excludeDexes ?? []), ...unusable])] };
  }

  /** The chain's sources as DEX records, with their status; undefined when the chain is not served. */
  dexes(chainId: number): Dex[] | undefined {
    return this.byChain.get(chainId)?.map((s) => {
      const state = this.state(chainId, s.routerIndex);
      return {
        routerIndex: s.routerIndex,
        name: s.name,
        kind: s.kind,
        addresses: s.addresses,
        ...(s.feeBps === undefined ? {} : { feeBps: s.feeBps }),
        status: state.status,
        ...(state.reason === undefined ? {} : { reason: state.reason }),
      };
    });
  }
}
