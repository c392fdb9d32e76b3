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
 * A route split across token paths (`Route.split`) has stages instead of hops (`stagePriceImpacts`):
 *
 * - a stage's impact: its swaps of each token pair taken together as a hop, those weighted by the share of the
 *   route's input that flows through them (each token's amount follows its swaps in proportion to their inputs);
 * - the route's impact: 1 - output / spot output, where the spot output carries the input through the same
 *   swaps in the same proportions at their spot rates. For a linear route both are the figures above.
 *
 * Core pools' spot rate is the best average rate of their samples (the chord from zero to the sample, the
 * smallest paying sample's for a pool whose rate falls with size; the service's ladder should start small).
 * Impacts are clamped at 0 (rounding can put a tiny swap marginally above spot).
 */
import type { Leg } from '../pools/legs';

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

/** A swap of a stage, for its impact: its leg and amounts. */
export interface ImpactSwap {
  readonly leg: Leg;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/** Per stage its impact, and the route's (see the module note), for a route of stages from `tokenIn`. */
export function stagePriceImpacts(stages: readonly (readonly ImpactSwap[])[], tokenIn: string, tokenOut: string): { stageImpacts: number[]; averagePriceImpact: number } {
  const key = (t: string) => t.toLowerCase();
  // Share of the route's input each token holds (flow), and its amount carried at spot rates (spot).
  const flow = new Map<string, number>([[key(tokenIn), 1]]);
  const spot = new Map<string, number>();
  let input = 0;
  for (const s of stages[0] ?? []) if (key(s.leg.tokenIn) === key(tokenIn)) input += Number(s.amountIn);
  spot.set(key(tokenIn), input);
  const stageImpacts: number[] = [];
  const last = key(tokenOut);
  let out = 0;
  for (const swaps of stages) {
    const spent = new Map<string, number>();
    for (const s of swaps) spent.set(key(s.leg.tokenIn), (spent.get(key(s.leg.tokenIn)) ?? 0) + Number(s.amountIn));
    const pairs = new Map<string, { swaps: ImpactSwap[]; flow: number }>();
    const flowOut = new Map<string, number>();
    const spotOut = new Map<string, number>();
    for (const s of swaps) {
      const from = key(s.leg.tokenIn);
      const to = key(s.leg.tokenOut);
      const fraction = (spent.get(from) ?? 0) > 0 ? Number(s.amountIn) / spent.get(from)! : 0;
      const f = (flow.get(from) ?? 0) * fraction;
      const pair = `${from}>${to}`;
      const entry = pairs.get(pair) ?? { swaps: [], flow: 0 };
      entry.swaps.push(s);
      entry.flow += f;
      pairs.set(pair, entry);
      flowOut.set(to, (flowOut.get(to) ?? 0) + f);
      spotOut.set(to, (spotOut.get(to) ?? 0) + (spot.get(from) ?? 0) * fraction * s.leg.spotRate);
      if (to === last) out += Number(s.amountOut);
    }
    for (const t of spent.keys()) {
      flow.set(t, 0);
      spot.set(t, 0);
    }
    for (const [t, f] of flowOut) flow.set(t, (flow.get(t) ?? 0) + f);
    for (const [t, v] of spotOut) spot.set(t, (spot.get(t) ?? 0) + v);
    let weight = 0;
    let weighted = 0;
    for (const { swaps: group, flow: f } of pairs.values()) {
      weight += f;
      weighted += f * hopPriceImpact(group.map((s) => s.leg), group.map((s) => s.amountIn), group.map((s) => s.amountOut));
    }
    stageImpacts.push(weight > 0 ? weighted / weight : 0);
  }
  const atSpot = spot.get(last) ?? 0;
  return { stageImpacts, averagePriceImpact: atSpot > 0 ? Math.max(0, 1 - out / atSpot) : 0 };
}
