/**
 * Uniswap V4 pools: every pool inside one PoolManager, named by its PoolId. A pool starts from its PoolManager's
 * Initialize (its key and first price, as the pool-created fact carries it) and keeps the concentrated state of
 * `concentrated-state.ts`, moved by the PoolManager's ModifyLiquidity and Swap (a Donate moves nothing the routes
 * see), beside what V4 adds: where the pool lives, its key, its protocol fee (ProtocolFeeUpdated) and, for a
 * dynamic-fee pool, its LP fee, which the hook changes without an event: read from slot0 at each block the pool is
 * routed (`managed`). Reorgs are undone by the state's undo log, as for the other kinds: states are immutable.
 *
 * Hook policy, as the source's configuration says (`RoutingSource.hooks`): a pool whose hook has none of the
 * permissions that can change a swap (the routing lib's `swapHookPermissions`) swaps as the PoolManager's tick-exact
 * maths says and is routed so. A hook with such permissions is routed only when its source lists it: `exact` (the
 * hook leaves amounts to the PoolManager; a swap it refuses is found by the answer's simulation and routed around)
 * with the tick-exact maths, `sampled` with the source's V4Quoter's quotes at a ladder of inputs (`sampling`: the
 * routing lib's `uniswapV4SampleLadder`, laid on the tick-exact legs, read when the pool changes) and the route's swaps re-quoted by it. Any other pool is kept with
 * the reason it is not routed (`uniswapV4Exclusion`), for the API to show.
 */
import type { ListedHook, UniswapV4Slot0Read } from '@dex/messages';
import { DYNAMIC_FEE_FLAG, MAX_LP_FEE, swapHookPermissions, uniswapV4PoolKey, uniswapV4SampleLadder, uniswapV4TickLegs, type SwapHookPermission } from '@dex/routing';
import { applyConcentrated, newConcentratedState, tickList, type ConcentratedState, type TickRecord } from '../concentrated-state';
import type { ConcentratedSwappedFact, ManagedPoolRead, PoolCreatedFact, PoolFact } from '../facts';
import type { PoolKindState, PoolRecord, UniswapV4PoolState } from '../pool-record';
import type { RoutingContext, RoutingSource } from '../routing-context';
import type { KindSnapshot, LiquidityKindModule, ManagedKind, QuoterSampling, SnapshotInputs } from './kind-module';

const KIND = 'uniswap-v4';
const NATIVE = 0n;

/** The permissions that let a hook change a swap's amounts (beyond refusing it): the return deltas. */
const AMOUNT_PERMISSIONS: readonly SwapHookPermission[] = ['beforeSwapReturnDelta', 'afterSwapReturnDelta'];

/** The source's listing of a hook (case-insensitive address); undefined when it does not list it. */
function listing(source: RoutingSource | undefined, hooks: string): ListedHook | undefined {
  return source?.hooks?.find((h) => h.address.toLowerCase() === hooks.toLowerCase());
}

/**
 * Why the kind does not route a pool with this hook in this source: swap permissions the source does not list, or a
 * hook listed to be quoted exactly whose permissions let it change amounts; undefined for a hook that cannot change
 * swaps, or one the source lists fittingly.
 */
export function hookExclusion(hooks: string, source?: RoutingSource): string | undefined {
  const permissions = swapHookPermissions(hooks);
  if (permissions.length === 0) return undefined;
  const listed = listing(source, hooks);
  if (!listed) return `hook ${hooks} may change swaps (${permissions.join(', ')}); not on the source's hook list`;
  const changesAmounts = permissions.filter((p) => AMOUNT_PERMISSIONS.includes(p));
  if (listed.quote === 'exact' && changesAmounts.length > 0) {
    return `hook ${hooks} (${listed.name}) is listed to be quoted exactly but may change a swap's amounts (${changesAmounts.join(', ')}); list it as sampled`;
  }
  if (listed.quote === 'sampled' && !source?.v4Quoter) return `hook ${hooks} (${listed.name}) is listed as sampled but the source names no V4Quoter`;
  return undefined;
}

/** The configured source of a pool (by its routerIndex). */
const sourceOf = (pool: PoolRecord, context: Pick<RoutingContext, 'sources'>): RoutingSource | undefined => context.sources.find((s) => s.routerIndex === pool.routerIndex);

/** The token the engine trades for a currency: the chain's wrapped native token for the native coin (address(0)). */
const tradedToken = (currency: string, wrappedNative: string): string => (BigInt(currency) === NATIVE ? wrappedNative : currency);

/**
 * Why a V4 pool the state keeps is not routed: a hook that may change swaps and its source does not list (fittingly),
 * or the native coin against its own wrapped token.
 */
export function uniswapV4Exclusion(pool: PoolRecord, context: Pick<RoutingContext, 'wrappedNative' | 'sources'>): string | undefined {
  const v4 = pool.uniswapV4;
  if (!v4) return undefined;
  const hook = hookExclusion(v4.hooks, sourceOf(pool, context));
  if (hook) return hook;
  if (tradedToken(v4.currency0, context.wrappedNative).toLowerCase() === tradedToken(v4.currency1, context.wrappedNative).toLowerCase()) {
    return `the native coin against its own wrapped token ${context.wrappedNative}`;
  }
  return undefined;
}

/** A pool's V4 state from its key and PoolManager. */
function poolState(poolManager: string, key: { currency0: string; currency1: string; fee: number; hooks: string }, protocolFee: number): UniswapV4PoolState {
  return { poolManager, currency0: key.currency0, currency1: key.currency1, dynamicFee: key.fee === DYNAMIC_FEE_FLAG, hooks: key.hooks, protocolFee };
}

/**
 * The state of a pool its Initialize announced (the pool-created fact: its key and first price); none (read whole
 * later) when the fact lacks them.
 */
function created(fact: PoolCreatedFact): PoolKindState {
  const { poolManager, currency0, currency1, hooks, fee, tickSpacing, sqrtPriceX96, tick } = fact;
  if (!poolManager || !currency0 || !currency1 || !hooks || fee === undefined || tickSpacing === undefined || sqrtPriceX96 === undefined || tick === undefined) return {};
  const uniswapV4 = poolState(poolManager, { currency0, currency1, fee, hooks }, 0);
  // A static LP fee is the key's; a dynamic one starts at 0 and is the hook's to set (read from slot0).
  const concentrated = newConcentratedState({ fee: uniswapV4.dynamicFee ? undefined : fee, tickSpacing });
  return { uniswapV4, concentrated: { ...concentrated, sqrtPriceX96, tick } };
}

/**
 * The state after a swap: its price, tick and liquidity; for a dynamic-fee pool without a protocol fee, the fee the
 * swap paid is the LP fee then.
 */
function swapped(v4: UniswapV4PoolState, state: ConcentratedState, fact: ConcentratedSwappedFact): ConcentratedState {
  const next = applyConcentrated(state, fact);
  return v4.dynamicFee && v4.protocolFee === 0 && fact.fee !== undefined ? { ...next, fee: fact.fee } : next;
}

/** The pool's state after one of its facts; undefined for a fact of another kind, or a pool held without its state. */
function apply(pool: PoolRecord, fact: PoolFact): PoolKindState | undefined {
  const { uniswapV4: v4, concentrated: state } = pool;
  if (!v4 || !state) return undefined;
  switch (fact.type) {
    case 'positionChanged':
      return { concentrated: applyConcentrated(state, fact) };
    case 'concentratedSwapped':
      return { concentrated: swapped(v4, state, fact) };
    case 'poolDonated':
      return {};
    case 'protocolFeeChanged':
      return { uniswapV4: { ...v4, protocolFee: fact.protocolFee } };
    default:
      return undefined;
  }
}

/**
 * The engine's snapshot: routed once initialized, with a known LP fee below 100% and an initialized tick, and not
 * excluded; a pool of a sampled hook once it has samples (their legs are the pool's).
 */
function snapshot(pool: PoolRecord, inputs: SnapshotInputs): KindSnapshot<typeof KIND> | undefined {
  if (uniswapV4Exclusion(pool, inputs.context) !== undefined) return undefined;
  const tick = tickSnapshot(pool, inputs);
  if (!tick) return undefined;
  const listed = listing(inputs.source, tick.hooks);
  // An exact hook's pool: the tick maths, its route's swaps quoted again by the source's V4Quoter where it has one.
  if (listed?.quote !== 'sampled') return listed && inputs.source.v4Quoter ? { ...tick, quoter: inputs.source.v4Quoter } : tick;
  const samples = inputs.samples();
  if (!samples || !inputs.source.v4Quoter) return undefined;
  return { ...tick, sampled: { quoter: inputs.source.v4Quoter, samples0to1: samples.samples0to1, samples1to0: samples.samples1to0 } };
}

/** The pool's snapshot by its tick state alone, whatever its hook (undefined while it has nothing to trade). */
function tickSnapshot(pool: PoolRecord, inputs: Pick<SnapshotInputs, 'identity' | 'context' | 'decimals'>): KindSnapshot<typeof KIND> | undefined {
  const { uniswapV4: v4, concentrated: c } = pool;
  if (!v4 || !c) return undefined;
  if (c.sqrtPriceX96 === 0n || c.fee === undefined || c.fee >= MAX_LP_FEE || c.tickSpacing === undefined || c.ticks.size === 0) return undefined;
  // The tokens in the key's order, the wrapped native token for the native coin (token0 may sort above token1).
  const token0 = tradedToken(v4.currency0, inputs.context.wrappedNative);
  const token1 = tradedToken(v4.currency1, inputs.context.wrappedNative);
  return {
    kind: KIND,
    ...inputs.identity,
    token0,
    token1,
    decimals0: inputs.decimals(token0),
    decimals1: inputs.decimals(token1),
    poolManager: v4.poolManager,
    currency0: v4.currency0,
    currency1: v4.currency1,
    dynamicFee: v4.dynamicFee,
    hooks: v4.hooks,
    protocolFee: v4.protocolFee,
    sqrtPriceX96: c.sqrtPriceX96,
    tick: c.tick,
    liquidity: c.liquidity,
    fee: c.fee,
    tickSpacing: c.tickSpacing,
    ticks: tickList(c.ticks),
  };
}

/** A whole read's state: the key's, slot0's fees, the price, liquidity and the initialized ticks (those with liquidity). */
function fromRead(read: ManagedPoolRead): PoolKindState {
  const { key, state } = read;
  const ticks = new Map<number, TickRecord>();
  for (const t of state.ticks) if (t.liquidityGross > 0n) ticks.set(t.index, { liquidityNet: t.liquidityNet, liquidityGross: t.liquidityGross });
  return {
    uniswapV4: poolState(read.poolManager, key, state.protocolFee),
    concentrated: { sqrtPriceX96: state.sqrtPriceX96, tick: state.tick, liquidity: state.liquidity, fee: state.lpFee, tickSpacing: key.tickSpacing, ticks },
  };
}

/**
 * Where a pool of a hook its source lists as sampled is sampled: the source's V4Quoter, at ladders laid on the pool's
 * tick-exact legs; undefined for any other pool, or one with nothing to trade yet.
 */
function sampling(pool: PoolRecord, context: RoutingContext): QuoterSampling | undefined {
  const source = sourceOf(pool, context);
  const v4 = pool.uniswapV4;
  if (!v4 || !source?.v4Quoter || listing(source, v4.hooks)?.quote !== 'sampled' || uniswapV4Exclusion(pool, context) !== undefined) return undefined;
  const identity = { address: pool.address, routerIndex: pool.routerIndex, routerName: source.name, token0: pool.token0, token1: pool.token1, decimals0: 18, decimals1: 18 };
  const tick = tickSnapshot(pool, { identity, context, decimals: () => 18 });
  if (!tick) return undefined;
  const legs = uniswapV4TickLegs(tick);
  const ladder = (tokenIn: string) => {
    const leg = legs.find((l) => l.tokenIn === tokenIn);
    return leg ? uniswapV4SampleLadder(leg) : [];
  };
  return { quoter: source.v4Quoter, key: uniswapV4PoolKey(tick), ladder0to1: ladder(tick.token0), ladder1to0: ladder(tick.token1) };
}

const managed: ManagedKind = {
  hasState: (pool) => pool.uniswapV4 !== undefined && pool.concentrated !== undefined,
  fromRead,
  readsFees: (pool, context) => {
    const { uniswapV4: v4, concentrated: c } = pool;
    return v4 !== undefined && c !== undefined && c.sqrtPriceX96 !== 0n && (v4.dynamicFee || c.fee === undefined) && uniswapV4Exclusion(pool, context) === undefined;
  },
  withFees({ uniswapV4: v4, concentrated: c }, slot0: UniswapV4Slot0Read) {
    if (!v4 || !c || (c.fee === slot0.lpFee && v4.protocolFee === slot0.protocolFee)) return undefined;
    return { uniswapV4: { ...v4, protocolFee: slot0.protocolFee }, concentrated: { ...c, fee: slot0.lpFee } };
  },
};

export const uniswapV4Kind: LiquidityKindModule<typeof KIND> = {
  kind: KIND,
  created,
  apply,
  snapshot,
  sampled: false,
  // Read through the PoolManager (`managed`), not by the concentrated kinds' read of a pool contract.
  concentrated: false,
  reserves: false,
  restored: () => ({}),
  managed,
  exclusion: uniswapV4Exclusion,
  sampling,
};
