/**
 * From a chain's liquidity state to what the route engine reads: the routable pools at the state's block and
 * the graph over them. A pool is routable when its source is configured with its kind and it has something to
 * trade: V2 and stable pools with both reserves, launch curves still selling, core pools with samples,
 * concentrated pools initialized, with a known fee and tick spacing and at least one initialized tick.
 */
import { buildGraph, curveFromReserves, LAUNCHPAD_FEE_BPS, legsOf, patchGraph, type ChainGraph, type Leg, type PoolLegs, type PoolSnapshot } from '@dex/routing';
import type { ChainLiquidityState, CoreSamples, PoolRecord } from './chain-state';
import { tickList } from './concentrated-state';
import { QuoteMemory, rememberQuotes } from './leg-quotes';
import type { LiquidityPoolKind } from './facts';

/** A configured liquidity source of the chain. */
export interface RoutingSource {
  readonly routerIndex: number;
  readonly kind: string;
  readonly name: string;
  /** The fee of V2 and stable sources; the launchpad's fee (default LAUNCHPAD_FEE_BPS). */
  readonly feeBps?: number;
}

export interface RoutingContext {
  readonly sources: readonly RoutingSource[];
  readonly wrappedNative: string;
  /** The launchpad contract RouterV2 trades curves through. */
  readonly launchpad?: string;
  /** Decimals of a token the state has no metadata for. */
  readonly defaultDecimals?: number;
}

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
  const kind: LiquidityPoolKind = pool.kind;
  switch (kind) {
    case 'uniswap-v2':
    case 'stable': {
      const r = pool.reserves;
      if (!r || r.reserve0 === 0n || r.reserve1 === 0n) return undefined;
      return { kind: kind, ...identity, reserve0: r.reserve0, reserve1: r.reserve1, feeBps: source.feeBps ?? 30 } as PoolSnapshot;
    }
    case 'core': {
      const s = state.coreSamples(pool.address);
      if (!s || (s.samples0to1.length === 0 && s.samples1to0.length === 0)) return undefined;
      return { kind: 'core', ...identity, samples0to1: s.samples0to1, samples1to0: s.samples1to0 };
    }
    case 'launchpad': {
      if (!pool.curve || !context.launchpad) return undefined;
      const curve = curveFromReserves(pool.curve, source.feeBps === undefined ? LAUNCHPAD_FEE_BPS : BigInt(source.feeBps));
      if (!curve) return undefined;
      const token = pool.address;
      const native = context.wrappedNative;
      const [token0, token1] = BigInt(token) < BigInt(native) ? [token, native] : [native, token];
      return {
        kind: 'launchpad',
        ...identity,
        address: context.launchpad,
        token0,
        token1,
        decimals0: decimals(token0),
        decimals1: decimals(token1),
        nativeToken: native,
        curve,
      };
    }
    case 'uniswap-v3':
    case 'algebra': {
      const c = pool.concentrated;
      if (!c || c.sqrtPriceX96 === 0n || c.fee === undefined || c.tickSpacing === undefined || c.ticks.size === 0) return undefined;
      return { kind, ...identity, sqrtPriceX96: c.sqrtPriceX96, tick: c.tick, liquidity: c.liquidity, fee: c.fee, tickSpacing: c.tickSpacing, ticks: tickList(c.ticks) };
    }
  }
}

/** The routable pools of the state and their graph, built from scratch. */
export function routingView(state: ChainLiquidityState, context: RoutingContext): RoutingView {
  return new RoutingViewBuilder(context).build(state);
}

/** What a pool's engine snapshot and legs were built from. */
interface BuiltPool {
  readonly record: PoolRecord;
  readonly samples: CoreSamples | undefined;
  readonly decimals0: number;
  readonly decimals1: number;
  readonly snapshot: PoolSnapshot | undefined;
  readonly legs: readonly Leg[];
}

/**
 * Builds the routing view block after block, keeping each pool's engine snapshot and legs while what they are
 * built from is the same (the pool's record, its core samples, its tokens' decimals): a block that changes 25
 * of 5,000 pools builds 25 pools' legs and patches the previous graph with them (`patchGraph`). The view is of
 * the pools as of the state's processed block. Each leg remembers its exact quotes (`rememberQuotes`) until the
 * next build.
 */
export class RoutingViewBuilder {
  private built = new Map<string, BuiltPool>();
  private graph?: ChainGraph;
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
      const samples = record.kind === 'core' ? state.coreSamples(record.address) : undefined;
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
    let graph: ChainGraph;
    const whole = !(this.graph && removed.length + added.length < pools.length / 4);
    if (!whole) {
      graph = patchGraph(this.graph!, { blockNumber: state.block, removed, added });
    } else {
      const legs = new Map<PoolSnapshot, readonly Leg[]>();
      for (const pool of next.values()) if (pool.snapshot) legs.set(pool.snapshot, pool.legs);
      graph = buildGraph({ chainId: state.chainId, blockNumber: state.block, pools }, (p) => legs.get(p) ?? legsOf(p).map((leg) => rememberQuotes(leg, this.quotes)));
    }
    this.built = next;
    this.graph = graph;
    return { blockNumber: state.block, pools, graph, change: { whole, removed: removed.map((p) => p.pool), added: added.map((p) => p.pool) } };
  }
}
