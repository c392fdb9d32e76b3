/**
 * Concentrated-liquidity swap maths in bigint, as the deployed contracts compute it, to the wei: Uniswap V3
 * (TickMath, FullMath, SqrtPriceMath, SwapMath.computeSwapStep and the pool's swap loop, which steps through the
 * tick bitmap one 256-tick word at a time) and Algebra Integral 1.2 (PriceMovementMath.movePriceTowardsTarget and
 * SwapCalculation._calculateSwap, which steps through a linked list of initialized ticks).
 *
 * Every overflow check and revert of the contracts is reproduced as a thrown `ConcentratedMathError`: an amount
 * the contract would revert on throws here too. This file holds the two swap loops; the libraries they use are
 * beside it: full-math.ts, tick-math.ts, sqrt-price-math.ts, swap-step.ts, tick-table.ts and swap-ladder.ts.
 *
 * Prices are Q64.96 square roots of token1 per token0 in base units; fees are in hundredths of a bip (pips:
 * 3000 = 0.3%).
 */
import { fail, MAX_UINT128 } from './full-math';
import { priceLimit, SwapLadder } from './swap-ladder';
import { computeSwapStep, movePriceTowardsTarget } from './swap-step';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tick-math';
import type { ConcentratedPoolState, TickTable } from './tick-table';

export interface SwapResult {
  /** What the pool receives (fee included) and pays: both positive. */
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The state after the swap. */
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
}

/**
 * A swap's result; the tick after it is computed on first read (a quote needs only the amounts, and the tick of a
 * price inside a range costs a few sqrt ratios).
 */
class SwapOutcome implements SwapResult {
  private known: number | undefined;
  constructor(
    readonly amountIn: bigint,
    readonly amountOut: bigint,
    readonly sqrtPriceX96: bigint,
    readonly liquidity: bigint,
    tick: number | undefined,
  ) {
    this.known = tick;
  }
  get tick(): number {
    return (this.known ??= getTickAtSqrtRatio(this.sqrtPriceX96));
  }
}

function addDelta(liquidity: bigint, delta: bigint): bigint {
  const r = liquidity + delta;
  if (r < 0n) fail('LiquidityMath: underflow');
  if (r > MAX_UINT128) fail('LiquidityMath: overflow');
  return r;
}

function checkLimit(state: ConcentratedPoolState, zeroForOne: boolean, amountSpecified: bigint, limit: bigint): void {
  if (amountSpecified === 0n) fail('amountSpecified is zero');
  if (zeroForOne ? !(limit < state.sqrtPriceX96 && limit > MIN_SQRT_RATIO) : !(limit > state.sqrtPriceX96 && limit < MAX_SQRT_RATIO)) fail('price limit');
}

const wordOf = (compressed: number): number => Math.floor(compressed / 256);

/**
 * The bound of TickBitmap.nextInitializedTickWithinOneWord from `tick`: the lowest tick of its 256-tick word going
 * down, the highest of the next word's going up (ticks compressed by the spacing).
 */
function wordEdge(tick: number, tickSpacing: number, zeroForOne: boolean): number {
  const compressed = Math.floor(tick / tickSpacing);
  return zeroForOne ? wordOf(compressed) * 256 * tickSpacing : (wordOf(compressed + 1) * 256 + 255) * tickSpacing;
}

/** The position of the next initialized tick from `tick` (at or below it going down, above it going up) up to `edge`; -1 when none. */
function initializedWithinWord(ticks: TickTable, tick: number, edge: number, zeroForOne: boolean): number {
  if (zeroForOne) {
    const i = ticks.atOrBelow(tick);
    return i >= 0 && ticks.index[i] >= edge ? i : -1;
  }
  const i = ticks.atOrBelow(tick) + 1;
  return i < ticks.length && ticks.index[i] <= edge ? i : -1;
}

/** A swap's result from the amount specified and what the loop left of it and calculated. */
function outcome(exactInput: boolean, specified: bigint, remaining: bigint, calculated: bigint, price: bigint, liquidity: bigint, tick: number | undefined): SwapResult {
  return exactInput ? new SwapOutcome(specified - remaining, -calculated, price, liquidity, tick) : new SwapOutcome(calculated, remaining - specified, price, liquidity, tick);
}

/**
 * UniswapV3Pool.swap's loop: `amountSpecified` > 0 is an exact input (fee included), < 0 an exact output. Each
 * step goes to the next initialized tick within the current 256-tick word of the bitmap (or the word's edge),
 * or to the price limit; a swap that runs out of initialized ticks goes on with zero liquidity to the limit.
 */
export function swapUniswapV3(state: ConcentratedPoolState, zeroForOne: boolean, amountSpecified: bigint, limit = priceLimit(zeroForOne), ladder?: SwapLadder): SwapResult {
  checkLimit(state, zeroForOne, amountSpecified, limit);
  const exactInput = amountSpecified > 0n;
  const { ticks, tickSpacing, fee } = state;
  let remaining = amountSpecified;
  let calculated = 0n;
  let price = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  let limitTick: number | undefined;
  // The tick of a price a step left inside a range, computed only if another step needs it.
  let tickStale = false;
  // The recorded steps the input takes (a ladder is kept for exact inputs to the default limit only).
  const steps = SwapLadder.of(ladder, zeroForOne, amountSpecified, limit);
  const taken = steps ? steps.taken(amountSpecified) : 0;
  if (steps && taken > 0) ({ remaining, calculated, price, tick, liquidity } = steps.resume(taken, amountSpecified));
  // Steps are recorded from the ladder's end on, while each ends on its tick.
  let recording = steps?.recordsAfter(taken) ?? false;
  while (remaining !== 0n && price !== limit) {
    if (tickStale) {
      tick = getTickAtSqrtRatio(price);
      tickStale = false;
    }
    const start = price;
    let tickNext: number;
    let position = -1;
    if (liquidity === 0n) {
      // Without liquidity every step reaches its target with nothing in or out: straight to the next
      // initialized tick, or to the limit when none lies before it (unless the limit is itself a tick's price,
      // where the steps would end on a word's edge: then step by step).
      const i = zeroForOne ? ticks.atOrBelow(tick) : ticks.atOrBelow(tick) + 1;
      const ratio = i >= 0 && i < ticks.length ? ticks.ratio(i) : undefined;
      if (ratio === undefined || (zeroForOne ? ratio < limit : ratio > limit)) {
        limitTick ??= getTickAtSqrtRatio(limit);
        if (getSqrtRatioAtTick(limitTick) !== limit) {
          price = limit;
          tick = limitTick;
          break;
        }
      } else if (ratio !== price && ratio !== limit) {
        // On the tick's price, not yet crossed: the next step crosses it.
        price = ratio;
        tick = ticks.index[i] + (zeroForOne ? 0 : -1);
        if (recording) recording = steps!.recordJump(amountSpecified, remaining, calculated, price, tick, liquidity);
        continue;
      }
    }
    // TickBitmap.nextInitializedTickWithinOneWord
    const edge = wordEdge(tick, tickSpacing, zeroForOne);
    position = initializedWithinWord(ticks, tick, edge, zeroForOne);
    tickNext = position >= 0 ? ticks.index[position] : edge;
    if (tickNext < MIN_TICK) tickNext = MIN_TICK;
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK;
    const priceNext = position >= 0 ? ticks.ratio(position) : ticks.edgeRatio(tickNext);
    const target = (zeroForOne ? priceNext < limit : priceNext > limit) ? limit : priceNext;
    const step = computeSwapStep(price, target, liquidity, remaining, fee);
    const left = remaining;
    price = step.sqrtPriceNextX96;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (price === priceNext) {
      if (position >= 0) liquidity = addDelta(liquidity, zeroForOne ? -ticks.liquidityNet[position] : ticks.liquidityNet[position]);
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (price !== start) tickStale = true;
    // Only a step that ends on its tick with the input left covering it fully is the same for every larger input.
    if (recording) recording = price === priceNext && steps!.recordStep(amountSpecified, left, remaining, step.amountIn, fee, calculated, price, tick, liquidity);
  }
  return outcome(exactInput, amountSpecified, remaining, calculated, price, liquidity, tickStale ? undefined : tick);
}

/**
 * AlgebraPool's swap (SwapCalculation._calculateSwap) at a fixed fee: each step goes to the previous or next
 * initialized tick of the linked list (MIN_TICK and MAX_TICK close it, so past the last initialized tick the
 * price goes on with zero liquidity to the limit), or to the price limit; a step that stops short of its target
 * ends the swap. `fee` is the fee the swap pays (the pool's current fee, plus a plugin's fee if it adds one).
 */
export function swapAlgebra(state: ConcentratedPoolState, zeroToOne: boolean, amountRequired: bigint, limit = priceLimit(zeroToOne), ladder?: SwapLadder): SwapResult {
  checkLimit(state, zeroToOne, amountRequired, limit);
  if (state.fee >= 1_000_000) fail('fee');
  const exactInput = amountRequired > 0n;
  const { ticks, fee } = state;
  let remaining = amountRequired;
  let calculated = 0n;
  let price = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  // prevInitializedTick <= tick < nextInitializedTick, as positions in the sorted ticks (-1 / length: MIN_TICK / MAX_TICK).
  let prev = ticks.atOrBelow(tick);
  let next = prev + 1;
  let tickStale = false;
  // The recorded steps the input takes (see `SwapLadder`; exact inputs to the default limit only).
  const steps = SwapLadder.of(ladder, zeroToOne, amountRequired, limit);
  const taken = steps ? steps.taken(amountRequired) : 0;
  if (steps && taken > 0) ({ remaining, calculated, price, tick, liquidity, below: prev, above: next } = steps.resume(taken, amountRequired));
  let recording = steps?.recordsAfter(taken) ?? false;
  // The pool's loop is a do-while: its first step is taken whatever the input left (a swap resumed after recorded
  // steps goes on only while input is left and the limit is not reached, as the pool's loop would).
  let first = taken === 0;
  while (first || (remaining !== 0n && price !== limit)) {
    first = false;
    const position = zeroToOne ? prev : next;
    const sentinel = position < 0 || position >= ticks.length;
    const nextTick = sentinel ? (zeroToOne ? MIN_TICK : MAX_TICK) : ticks.index[position];
    const start = price;
    const nextTickPrice = sentinel ? getSqrtRatioAtTick(nextTick) : ticks.ratio(position);
    const target = zeroToOne === nextTickPrice < limit ? limit : nextTickPrice;
    const step = movePriceTowardsTarget(zeroToOne, price, target, liquidity, remaining, fee);
    const left = remaining;
    price = step.sqrtPriceNextX96;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (price === nextTickPrice) {
      // MIN_TICK and MAX_TICK are never crossed: the price limit lies inside them.
      const delta = ticks.liquidityNet[position];
      if (zeroToOne) {
        liquidity = addDelta(liquidity, -delta);
        tick = nextTick - 1;
        next = position;
        prev = position - 1;
      } else {
        liquidity = addDelta(liquidity, delta);
        tick = nextTick;
        prev = position;
        next = position + 1;
      }
      if (recording) recording = steps!.recordStep(amountRequired, left, remaining, step.amountIn, fee, calculated, price, tick, liquidity, prev, next);
    } else if (price !== start) {
      // Short of the target: the swap ends here (its tick is the price's).
      tickStale = true;
      break;
    } else recording = false;
  }
  return outcome(exactInput, amountRequired, remaining, calculated, price, liquidity, tickStale ? undefined : tick);
}
