/**
 * Uniswap V4 pools: every pool inside one PoolManager, named by its PoolId. A pool starts from its PoolManager's
 * Initialize (its key and first price, as the pool-created fact carries it) and keeps the concentrated state of
 * `concentrated-state.ts`, moved by the PoolManager's ModifyLiquidity and Swap (a Donate moves nothing the routes
 * see), beside what V4 adds: where the pool lives, its key, its protocol fee (ProtocolFeeUpdated) and, for a
 * dynamic-fee pool, its LP fee, which the hook changes without an event: read from slot0 at each block the pool is
 * routed (`managed`). Reorgs are undone by the state's undo log, as for the other kinds: states are immutable.
 *
 * Hook policy: a pool whose hook has none of the permissions that can change a swap (the routing lib's
 * `swapHookPermissions`) swaps as the PoolManager's tick-exact maths says and is routed; any other is kept with the reason it is not
 * (`uniswapV4Exclusion`), for the API to show.
 */
import type { UniswapV4Slot0Read } from '@dex/messages';
import { DYNAMIC_FEE_FLAG, MAX_LP_FEE, swapHookPermissions } from '@dex/routing';
import { applyConcentrated, newConcentratedState, tickList, type ConcentratedState, type TickRecord } from '../concentrated-state';
import type { ConcentratedSwappedFact, ManagedPoolRead, PoolCreatedFact, PoolFact } from '../facts';
import type { PoolKindState, PoolRecord, UniswapV4PoolState } from '../pool-record';
import type { RoutingContext } from '../routing-context';
import type { KindSnapshot, LiquidityKindModule, ManagedKind, SnapshotInputs } from './kind-module';

const KIND = 'uniswap-v4';
const NATIVE = 0n;

/** Why the kind does not route a pool with this hook: its swap permissions; undefined for a hook that cannot change swaps. */
export function hookExclusion(hooks: string): string | undefined {
  const permissions = swapHookPermissions(hooks);
  return permissions.length === 0 ? undefined : `hook ${hooks} may change swaps (${permissions.join(', ')}); not on the source's hook list`;
}

/** The token the engine trades for a currency: the chain's wrapped native token for the native coin (address(0)). */
const tradedToken = (currency: string, wrappedNative: string): string => (BigInt(currency) === NATIVE ? wrappedNative : currency);

/** Why a V4 pool the state keeps is not routed: a hook that may change swaps, or the native coin against its own wrapped token. */
export function uniswapV4Exclusion(pool: PoolRecord, context: Pick<RoutingContext, 'wrappedNative'>): string | undefined {
  const v4 = pool.uniswapV4;
  if (!v4) return undefined;
  if (v4.exclusion) return v4.exclusion;
  if (tradedToken(v4.currency0, context.wrappedNative).toLowerCase() === tradedToken(v4.currency1, context.wrappedNative).toLowerCase()) {
    return `the native coin against its own wrapped token ${context.wrappedNative}`;
  }
  return undefined;
}

/** A pool's V4 state from its key and PoolManager. */
function poolState(poolManager: string, key: { currency0: string; currency1: string; fee: number; hooks: string }, protocolFee: number): UniswapV4PoolState {
  const exclusion = hookExclusion(key.hooks);
  return { poolManager, currency0: key.currency0, currency1: key.currency1, dynamicFee: key.fee === DYNAMIC_FEE_FLAG, hooks: key.hooks, protocolFee, ...(exclusion ? { exclusion } : {}) };
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

/** The engine's snapshot: routed once initialized, with a known LP fee below 100% and an initialized tick, and not excluded. */
function snapshot(pool: PoolRecord, inputs: SnapshotInputs): KindSnapshot<typeof KIND> | undefined {
  const { uniswapV4: v4, concentrated: c } = pool;
  if (!v4 || !c || uniswapV4Exclusion(pool, inputs.context) !== undefined) return undefined;
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

const managed: ManagedKind = {
  hasState: (pool) => pool.uniswapV4 !== undefined && pool.concentrated !== undefined,
  fromRead,
  readsFees: ({ uniswapV4: v4, concentrated: c }) => v4 !== undefined && v4.exclusion === undefined && c !== undefined && c.sqrtPriceX96 !== 0n && (v4.dynamicFee || c.fee === undefined),
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
};
