/**
 * The state of a concentrated-liquidity pool (Uniswap V3 and its forks, Algebra Integral) as its events leave it,
 * and the pure step from one state to the next. The pools' events carry what the state needs: Initialize and Swap
 * give the price, the tick and (Swap) the active liquidity; Mint and Burn move the liquidity of a range, so the
 * net and gross liquidity of its two ticks and, when the range holds the current tick, the active liquidity;
 * Algebra's Fee and TickSpacing set those. A tick is initialized while its gross liquidity is above 0 (the pools
 * stop at it even when its net is 0), so the gross is kept too.
 *
 * States are immutable (the liquidity state's undo log keeps the previous one); a swap shares its tick map with
 * the state before it, only a change of liquidity copies it.
 */
import type { TickLiquidity } from '@dex/routing';
import type { ConcentratedFact } from './facts';

export interface TickRecord {
  /** Liquidity added when the price crosses the tick upwards (V3 liquidityNet, Algebra liquidityDelta). */
  readonly liquidityNet: bigint;
  /** Liquidity of every position with a bound at the tick (V3 liquidityGross, Algebra liquidityTotal). */
  readonly liquidityGross: bigint;
}

export interface ConcentratedState {
  /** slot0.sqrtPriceX96 / globalState.price; 0 until the pool is initialized. */
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  /** The active liquidity (`liquidity()`). */
  readonly liquidity: bigint;
  /** The fee in pips; undefined while unknown (an Algebra pool before its Fee event). */
  readonly fee?: number;
  /** Undefined while unknown (an Algebra pool before its TickSpacing event). */
  readonly tickSpacing?: number;
  /** The initialized ticks. */
  readonly ticks: ReadonlyMap<number, TickRecord>;
}

export function newConcentratedState(init: { fee?: number; tickSpacing?: number } = {}): ConcentratedState {
  return { sqrtPriceX96: 0n, tick: 0, liquidity: 0n, fee: init.fee, tickSpacing: init.tickSpacing, ticks: new Map() };
}

/** Adds `gross` to a tick's gross liquidity and `net` to its net; a tick whose gross falls to 0 is uninitialized. */
function bump(ticks: Map<number, TickRecord>, index: number, net: bigint, gross: bigint): void {
  const held = ticks.get(index) ?? { liquidityNet: 0n, liquidityGross: 0n };
  const liquidityGross = held.liquidityGross + gross;
  if (liquidityGross < 0n) throw new Error(`tick ${index}: more liquidity removed than it holds`);
  if (liquidityGross === 0n) ticks.delete(index);
  else ticks.set(index, { liquidityNet: held.liquidityNet + net, liquidityGross });
}

/** The state after `fact`. */
export function applyConcentrated(state: ConcentratedState, fact: ConcentratedFact): ConcentratedState {
  switch (fact.type) {
    case 'poolInitialized':
      return { ...state, sqrtPriceX96: fact.sqrtPriceX96, tick: fact.tick };
    case 'concentratedSwapped':
      return { ...state, sqrtPriceX96: fact.sqrtPriceX96, tick: fact.tick, liquidity: fact.liquidity };
    case 'poolFeeChanged':
      return { ...state, fee: fact.fee };
    case 'tickSpacingChanged':
      return { ...state, tickSpacing: fact.tickSpacing };
    case 'positionChanged': {
      const delta = fact.liquidityDelta;
      if (delta === 0n) return state;
      const ticks = new Map(state.ticks);
      // Burn removes from the gross what Mint added: the gross moves by the signed delta at both ticks.
      bump(ticks, fact.tickLower, delta, delta);
      bump(ticks, fact.tickUpper, -delta, delta);
      const active = state.tick >= fact.tickLower && state.tick < fact.tickUpper;
      return { ...state, ticks, liquidity: active ? state.liquidity + delta : state.liquidity };
    }
  }
}

const sortedTicks = new WeakMap<ReadonlyMap<number, TickRecord>, readonly TickLiquidity[]>();

/** The initialized ticks as the engine's snapshot lists them (ascending), built once per tick map. */
export function tickList(ticks: ReadonlyMap<number, TickRecord>): readonly TickLiquidity[] {
  let list = sortedTicks.get(ticks);
  if (!list) {
    list = [...ticks].sort((a, b) => a[0] - b[0]).map(([index, t]) => ({ index, liquidityNet: t.liquidityNet }));
    sortedTicks.set(ticks, list);
  }
  return list;
}
