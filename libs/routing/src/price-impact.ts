/**
 * Price impact, as fractions (0.01 = 1%):
 *
 * - of one swap: (spot value - executed value) / spot value, where the spot value is the swap's input times
 *   the pool's marginal rate at zero size (`Leg.spotRate`, the pool's fee included, so the fee is not counted
 *   as impact; it is reported as `fee`) and the executed value is what the swap pays;
 * - of a hop: the same over the hop's swaps together (their spot values and outputs summed), i.e. the
 *   swaps' impacts weighted by their spot values;
 * - of a route (`averagePriceImpact`): the hops compound, 1 - prod(1 - hop impact).
 *
 * Core pools' spot rate is the chord from zero to their smallest sample that pays anything (the service's
 * ladder should start small). Impacts are clamped at 0 (rounding can put a tiny swap marginally above spot).
 */
import type { Leg } from './legs';

/** The value of `amountIn` at the leg's zero-size rate, in output base units (float). */
export function spotValue(leg: Leg, amountIn: bigint): number {
  return Number(amountIn) * leg.spotRate;
}

/** Impact of one swap. */
export function swapPriceImpact(leg: Leg, amountIn: bigint, amountOut: bigint): number {
  const spot = spotValue(leg, amountIn);
  if (!(spot > 0)) return 0;
  return Math.max(0, (spot - Number(amountOut)) / spot);
}

/** Impact of a hop's parallel swaps together. */
export function hopPriceImpact(legs: readonly Leg[], amountsIn: readonly bigint[], amountsOut: readonly bigint[]): number {
  let spot = 0;
  let out = 0;
  for (let j = 0; j < legs.length; j++) {
    spot += spotValue(legs[j], amountsIn[j]);
    out += Number(amountsOut[j]);
  }
  return spot > 0 ? Math.max(0, (spot - out) / spot) : 0;
}

/** Route impact from its hops' impacts. */
export function routePriceImpact(hopImpacts: readonly number[]): number {
  return 1 - hopImpacts.reduce((kept, impact) => kept * (1 - impact), 1);
}
