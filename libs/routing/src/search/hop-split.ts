/**
 * The best split of one hop's amount across its parallel pools, exact in integers:
 *
 * 1. water-filling in float64 places the split (`water-fill.ts`);
 * 2. it is rounded to integers that add up to the hop's amount exactly;
 * 3. a refinement moves amounts between pools, in steps from 1/64 of the amount halving down, from the
 *    pool that loses least to the pool that gains most, while the exact total output rises (it absorbs
 *    rounding and the float model's error; by default only for hops with a core pool, see `SplitOptions`);
 * 4. a pool whose share pays nothing is folded into the best one (RouterV2 reverts on a zero output);
 * 5. the result is compared with every single pool taking the whole amount, and the best is kept: a split
 *    is never worse than the best single pool.
 *
 * Swaps are listed by decreasing input, so the last swap (which RouterV2 gives the remainder) is the smallest.
 */
import type { Leg } from '../pools/legs';
import { poolModule } from '../pools/registry';
import { waterFill } from './water-fill';

export interface HopSplit {
  readonly legs: readonly Leg[];
  readonly amountsIn: readonly bigint[];
  readonly amountsOut: readonly bigint[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export const DEFAULT_REFINE_STEPS = 8;

/** Each leg's output for its whole `maxIn`, computed once per leg (a leg's quotes never change). */
const topOutputs = new WeakMap<Leg, bigint>();

/**
 * The most a leg pays: its output for `maxIn` (undefined without a cap). Kept per leg: for a concentrated pool it is
 * a walk to its last tick, hundreds of steps for a wide position on a narrow tick spacing, and every exact-output
 * split of the leg asks for it.
 */
function topOutput(leg: Leg): bigint | undefined {
  if (leg.maxIn === undefined) return undefined;
  let out = topOutputs.get(leg);
  if (out === undefined) {
    out = leg.quote(leg.maxIn);
    topOutputs.set(leg, out);
  }
  return out;
}

export interface SplitOptions {
  /**
   * Refinement steps (each halves the step size); 0 turns the refinement off. Default: 8 (`DEFAULT_REFINE_STEPS`,
   * the last moves 1/16384 of the hop's amount) for hops with a pool whose kind refines splits
   * (`PoolModule.refineSplits`: core, whose float model, the plain chord, differs from the exact conservative
   * interpolation), 0 otherwise (the float models of V2, stable and launchpad pools are their exact curves; on the
   * synthetic bench graph the refinement added at most 2e-7 of the output there, for 40% more search time). On the
   * devnet's route mix (bench/route), 16 steps instead of 8 paid at most 3.5e-9 more, for 14% more engine time.
   */
  readonly refineSteps?: number;
}

const sum = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);
const fits = (leg: Leg, x: bigint): boolean => leg.maxIn === undefined || x <= leg.maxIn;

function finish(legs: readonly Leg[], amountsIn: bigint[], amountsOut: bigint[]): HopSplit {
  const order = legs.map((_, j) => j).filter((j) => amountsIn[j] > 0n);
  order.sort((a, b) => (amountsIn[a] > amountsIn[b] ? -1 : amountsIn[a] < amountsIn[b] ? 1 : 0));
  const ins = order.map((j) => amountsIn[j]);
  const outs = order.map((j) => amountsOut[j]);
  return { legs: order.map((j) => legs[j]), amountsIn: ins, amountsOut: outs, amountIn: sum(ins), amountOut: sum(outs) };
}

/** Each leg alone with the whole amount; the best, or undefined when none can take it. */
export function bestSingle(legs: readonly Leg[], amountIn: bigint): HopSplit | undefined {
  let best: HopSplit | undefined;
  for (const leg of legs) {
    if (!fits(leg, amountIn)) continue;
    const out = leg.quote(amountIn);
    if (out > 0n && (!best || out > best.amountOut)) best = finish([leg], [amountIn], [out]);
  }
  return best;
}

/** Rounds float inputs to integers adding up to `total`, within each leg's `maxIn`. */
function integerise(legs: readonly Leg[], inputs: readonly number[], total: bigint): bigint[] {
  const amounts = inputs.map((x, j) => {
    let v = x > 0 && Number.isFinite(x) ? BigInt(Math.floor(x)) : 0n;
    const cap = legs[j].maxIn;
    if (cap !== undefined && v > cap) v = cap;
    return v;
  });
  let excess = sum(amounts) - total;
  // Too much (float rounding up): take it from the largest shares.
  while (excess > 0n) {
    let j = 0;
    for (let i = 1; i < amounts.length; i++) if (amounts[i] > amounts[j]) j = i;
    const take = excess < amounts[j] ? excess : amounts[j];
    amounts[j] -= take;
    excess -= take;
  }
  // Too little: give the rest to the largest share with room, then the others.
  let rest = -excess;
  const byShare = amounts.map((_, j) => j).sort((a, b) => (amounts[a] > amounts[b] ? -1 : amounts[a] < amounts[b] ? 1 : 0));
  for (const j of byShare) {
    if (rest === 0n) break;
    const cap = legs[j].maxIn;
    const room = cap === undefined ? rest : cap - amounts[j];
    const give = room < rest ? room : rest;
    if (give > 0n) {
      amounts[j] += give;
      rest -= give;
    }
  }
  return amounts;
}

/**
 * Moves of a halving step, from the share that loses least by giving it up to the share that gains most by
 * taking it, while the exact total rises (2 quotes per leg for a step's first try; a move changes two shares, and
 * of theirs only the quote on the side they moved to is new: the other is the output they had).
 */
function refine(legs: readonly Leg[], amountsIn: bigint[], amountsOut: bigint[], total: bigint, steps: number): void {
  const n = legs.length;
  // Each share's output with a step more and a step less, as known at this step (undefined: not quoted yet).
  const up: (bigint | undefined)[] = new Array(n);
  const down: (bigint | undefined)[] = new Array(n);
  let step = total / 64n;
  for (let s = 0; s < steps && step > 0n; s++, step /= 2n) {
    up.fill(undefined);
    down.fill(undefined);
    for (let moves = 0; moves < 4; moves++) {
      let to = -1;
      let toOut = 0n;
      let gain = 0n;
      for (let j = 0; j < n; j++) {
        if (!fits(legs[j], amountsIn[j] + step)) continue;
        const out = (up[j] ??= legs[j].quote(amountsIn[j] + step));
        if (to < 0 || out - amountsOut[j] > gain) {
          to = j;
          toOut = out;
          gain = out - amountsOut[j];
        }
      }
      let from = -1;
      let fromOut = 0n;
      let loss = 0n;
      for (let j = 0; j < n; j++) {
        if (j === to || amountsIn[j] < step) continue;
        const out = (down[j] ??= amountsIn[j] === step ? 0n : legs[j].quote(amountsIn[j] - step));
        if (from < 0 || amountsOut[j] - out < loss) {
          from = j;
          fromOut = out;
          loss = amountsOut[j] - out;
        }
      }
      if (to < 0 || from < 0 || gain <= loss) break;
      down[to] = amountsOut[to];
      up[to] = undefined;
      amountsIn[to] += step;
      amountsOut[to] = toOut;
      up[from] = amountsOut[from];
      down[from] = undefined;
      amountsIn[from] -= step;
      amountsOut[from] = fromOut;
    }
  }
}

/** Folds shares that pay nothing into the share that pays most. */
function dropEmpty(legs: readonly Leg[], amountsIn: bigint[], amountsOut: bigint[]): void {
  for (;;) {
    const empty = amountsIn.findIndex((x, j) => x > 0n && amountsOut[j] === 0n);
    if (empty < 0) return;
    let best = -1;
    for (let j = 0; j < legs.length; j++) {
      if (j !== empty && amountsOut[j] > 0n && fits(legs[j], amountsIn[j] + amountsIn[empty]) && (best < 0 || amountsOut[j] > amountsOut[best])) best = j;
    }
    if (best < 0) return;
    amountsIn[best] += amountsIn[empty];
    amountsOut[best] = legs[best].quote(amountsIn[best]);
    amountsIn[empty] = 0n;
  }
}

/** The best exact split of `amountIn` across `legs` (parallel pools of one hop); undefined when no split trades it. */
export function splitExactIn(legs: readonly Leg[], amountIn: bigint, options: SplitOptions = {}): HopSplit | undefined {
  if (amountIn <= 0n || legs.length === 0) return undefined;
  const single = bestSingle(legs, amountIn);
  if (legs.length === 1) return single;

  const fill = waterFill(legs, Number(amountIn), 'in');
  if (!fill.feasible && !single) return undefined;
  const amountsIn = integerise(legs, fill.inputs, amountIn);
  if (sum(amountsIn) !== amountIn) return single;
  const amountsOut = amountsIn.map((x, j) => (x > 0n ? legs[j].quote(x) : 0n));
  refine(legs, amountsIn, amountsOut, amountIn, options.refineSteps ?? (legs.some((l) => poolModule(l.pool).refineSplits(l.pool)) ? DEFAULT_REFINE_STEPS : 0));
  dropEmpty(legs, amountsIn, amountsOut);
  if (amountsIn.some((x, j) => x > 0n && amountsOut[j] === 0n)) return single;
  const split = finish(legs, amountsIn, amountsOut);
  return single && single.amountOut >= split.amountOut ? single : split;
}

/**
 * The exact-output split: shares of `amountOut` placed by water-filling, each share's smallest exact input
 * (`Leg.quoteIn`), compared with each single pool paying it all; the one needing the least input. Each
 * swap's exact output is at least its share, so the hop pays at least `amountOut`.
 */
export function splitExactOut(legs: readonly Leg[], amountOut: bigint): HopSplit | undefined {
  if (amountOut <= 0n || legs.length === 0) return undefined;
  let best: HopSplit | undefined;
  const consider = (chosen: readonly Leg[], ins: bigint[]): void => {
    const outs = ins.map((x, j) => chosen[j].quote(x));
    const candidate = finish(chosen, ins, outs);
    if (candidate.amountOut < amountOut || candidate.legs.length === 0) return;
    if (!best || candidate.amountIn < best.amountIn || (candidate.amountIn === best.amountIn && candidate.amountOut > best.amountOut)) best = candidate;
  };
  for (const leg of legs) {
    const x = leg.quoteIn(amountOut);
    if (x !== undefined && x > 0n) consider([leg], [x]);
  }
  if (legs.length > 1) {
    const fill = waterFill(legs, Number(amountOut), 'out');
    if (fill.feasible) {
      // Shares of the output, each within what its pool can pay at all: rounding must not push a share past
      // a pool's top (a core pool's last sample), where no input reaches it and the split would be lost.
      const shares = integerise(
        legs.map((leg) => ({ maxIn: topOutput(leg) }) as Leg),
        fill.outputs,
        amountOut,
      );
      const ins: bigint[] = [];
      let ok = true;
      for (let j = 0; j < legs.length && ok; j++) {
        const x = shares[j] > 0n ? legs[j].quoteIn(shares[j]) : 0n;
        if (x === undefined) ok = false;
        else ins.push(x);
      }
      if (ok) consider(legs, ins);
    }
  }
  return best;
}
