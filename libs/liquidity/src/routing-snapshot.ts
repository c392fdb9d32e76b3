/**
 * From a chain's liquidity state to what the route engine reads: the routable pools at the state's block and
 * the graph over them. A pool is routable when its source is configured with its kind and it has something to
 * trade, as its kind's module says (`LiquidityKindModule.snapshot`): V2 and stable pools with both reserves, launch
 * curves still selling, core pools with samples, concentrated pools initialized, with a known fee and tick spacing
 * and at least one initialized tick.
 */
import { GraphKeeper, legsOf, type ChainGraph, type Leg, type PoolLegs, type PoolSnapshot } from '@dex/routing';
import type { ChainLiquidityState } from './chain-state';
import { kindModule } from './kinds/registry';
import { QuoteMemory, rememberQuotes } from './leg-quotes';
import type { PoolSamples, PoolRecord } from './pool-record';
import type { RoutingContext, RoutingSource } from './routing-context';

export type { RoutingContext, RoutingSource } from './routing-context';

export interface RoutingView {
  readonly blockNumber: bigint;
  readonly pools: readonly PoolSnapshot[];
  readonly graph: ChainGraph;
  /**
   * How the graph came from the previous build's: built whole (`whole`: from `pools`), or patched, the pools in
   * `removed` taken out and those in `added` put in (a pool that changed is in both, its old and new snapshot).
   */
  readonly change: { readonly whole: boolean; readonly removed: readonly PoolSnapshot[]; readonly added: readonly PoolSnapshot[] };
}

/** The engine's snapshot of one pool, or undefined when it cannot be routed now. */
export function routablePool(state: ChainLiquidityState, pool: PoolRecord, source: RoutingSource | undefined, context: RoutingContext): PoolSnapshot | undefined {
  if (!source || source.kind !== pool.kind) return undefined;
  const decimals = (t: string) => state.token(t)?.decimals ?? context.defaultDecimals ?? 18;
  const identity = {
    address: pool.address,
    routerIndex: pool.routerIndex,
    routerName: source.name,
    token0: pool.token0,
    token1: pool.token1,
    decimals0: decimals(pool.token0),
    decimals1: decimals(pool.token1),
  };
  return kindModule(pool.kind)?.snapshot(pool, { identity, source, context, decimals, samples: () => state.poolSamples(pool.address) });
}

/** The routable pools of the state and their graph, built from scratch. */
export function routingView(state: ChainLiquidityState, context: RoutingContext): RoutingView {
  return new RoutingViewBuilder(context).build(state);
}

/** What a pool's engine snapshot and legs were built from. */
interface BuiltPool {
  readonly record: PoolRecord;
  readonly samples: PoolSamples | undefined;
  readonly decimals0: number;
  readonly decimals1: number;
  readonly snapshot: PoolSnapshot | undefined;
  readonly legs: readonly Leg[];
}

/**
 * Builds the routing view block after block, keeping each pool's engine snapshot and legs while what they are
 * built from is the same (the pool's record, its core samples, its tokens' decimals): a block that changes 25
 * of 5,000 pools builds 25 pools' legs and patches the previous graph with them (`GraphKeeper`). The view is of
 * the pools as of the state's processed block. Each leg remembers its exact quotes (`rememberQuotes`) until the
 * next build.
 */
export class RoutingViewBuilder {
  private built = new Map<string, BuiltPool>();
  /** The graph, kept from build to build. */
  private keeper?: GraphKeeper;
  private readonly quotes = new QuoteMemory();
  private readonly sources: ReadonlyMap<number, RoutingSource>;

  constructor(private readonly context: RoutingContext) {
    this.sources = new Map(context.sources.map((s) => [s.routerIndex, s]));
  }

  build(state: ChainLiquidityState): RoutingView {
    this.quotes.renew();
    const next = new Map<string, BuiltPool>();
    const pools: PoolSnapshot[] = [];
    const removed: PoolLegs[] = [];
    const added: PoolLegs[] = [];
    const decimals = (t: string) => state.token(t)?.decimals ?? this.context.defaultDecimals ?? 18;
    for (const record of state.committedPools()) {
      const module = kindModule(record.kind);
      const samples = module?.sampled || module?.sampling ? state.poolSamples(record.address) : undefined;
      const decimals0 = decimals(record.token0);
      const decimals1 = decimals(record.token1);
      const kept = this.built.get(record.address);
      let pool = kept;
      if (!pool || pool.record !== record || pool.samples !== samples || pool.decimals0 !== decimals0 || pool.decimals1 !== decimals1) {
        const snapshot = routablePool(state, record, this.sources.get(record.routerIndex), this.context);
        pool = { record, samples, decimals0, decimals1, snapshot, legs: snapshot ? legsOf(snapshot).map((leg) => rememberQuotes(leg, this.quotes)) : [] };
        if (kept?.snapshot) removed.push({ pool: kept.snapshot, legs: kept.legs });
        if (snapshot) added.push({ pool: snapshot, legs: pool.legs });
      }
      next.set(record.address, pool);
      if (pool.snapshot) pools.push(pool.snapshot);
    }
    for (const [address, gone] of this.built) if (!next.has(address) && gone.snapshot) removed.push({ pool: gone.snapshot, legs: gone.legs });
    // A block changes a few pools: the graph is patched. A first build, or a change of most pools (a reload), is built whole.
    const keeper = (this.keeper ??= new GraphKeeper(state.chainId));
    const whole = !(keeper.graph && removed.length + added.length < pools.length / 4);
    const graph = whole
      ? keeper.apply({ blockNumber: state.block, whole, pools: [...next.values()].flatMap((p) => (p.snapshot ? [{ pool: p.snapshot, legs: p.legs }] : [])) })
      : keeper.apply({ blockNumber: state.block, whole, removed: removed.map((p) => p.pool), added });
    this.built = next;
    return { blockNumber: state.block, pools, graph, change: { whole, removed: removed.map((p) => p.pool), added: added.map((p) => p.pool) } };
  }
}
