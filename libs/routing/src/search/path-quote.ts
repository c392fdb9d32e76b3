/**
 * Quotes of one candidate path, approximate (float64, to rank paths) and exact (integers, what the route
 * returns). Along a path the hops are solved in order: each hop's output is the next hop's input, and since
 * every hop's output grows with its input, the best split of each hop for the amount it receives is the best
 * for the path.
 */
import type { CandidatePath } from './candidate-paths';
import { splitExactIn, splitExactOut, type HopSplit, type SplitOptions } from './hop-split';
import { replayStages } from '../route/router-replay';
import { waterFill } from './water-fill';

/**
 * An upper bound of the path's rate at any size, split or not: the product over its hops of the best zero-size rate
 * (every pool's output is concave, so it pays at most its zero-size rate on average), a millionth over for rounding.
 */
export function pathRateBound(path: CandidatePath): number {
  let rate = 1 + 1e-6;
  for (const legs of path.hops) {
    let top = 0;
    for (const leg of legs) top = Math.max(top, leg.spotRate);
    rate *= top;
  }
  return rate;
}

/** Float output of the path for `amountIn`: per hop the best single pool, or the water-filled split. */
export function approxPathOut(path: CandidatePath, amountIn: number, split: boolean): number {
  let amount = amountIn;
  for (const legs of path.hops) {
    if (!(amount > 0)) return 0;
    if (split && legs.length > 1) {
      const fill = waterFill(legs, amount, 'in');
      if (!fill.feasible) return 0;
      amount = fill.outputs.reduce((a, b) => a + b, 0);
    } else {
      let best = 0;
      for (const leg of legs) if (amount <= leg.maxInApprox) best = Math.max(best, leg.approxOut(amount));
      amount = best;
    }
  }
  return amount;
}

/** Float input the path needs for `amountOut` (Infinity when it cannot pay it), hops solved backwards. */
export function approxPathIn(path: CandidatePath, amountOut: number, split: boolean): number {
  let amount = amountOut;
  for (let h = path.hops.length - 1; h >= 0; h--) {
    const legs = path.hops[h];
    if (!Number.isFinite(amount)) return Infinity;
    if (split && legs.length > 1) {
      const fill = waterFill(legs, amount, 'out');
      if (!fill.feasible) return Infinity;
      amount = fill.inputs.reduce((a, b) => a + b, 0);
    } else {
      let best = Infinity;
      for (const leg of legs) best = Math.min(best, leg.approxIn(amount));
      amount = best;
    }
  }
  return amount;
}

/** Exact quote of the path for an exact input; undefined when some hop cannot trade its amount. */
export function quotePathExactIn(path: CandidatePath, amountIn: bigint, options?: SplitOptions): HopSplit[] | undefined {
  const hops: HopSplit[] = [];
  let amount = amountIn;
  for (const legs of path.hops) {
    const split = splitExactIn(legs, amount, options);
    if (!split || split.amountOut === 0n) return undefined;
    hops.push(split);
    amount = split.amountOut;
  }
  return hops;
}

/**
 * Executes quoted hops the way RouterV2 does when hop inputs differ from the quoted ones (`replayStages`: each
 * hop's actual input split in proportion to the quoted inputs), each share priced by its leg; undefined when a
 * share would pay nothing (RouterV2 reverts on it).
 */
export function simulateRouter(quoted: readonly HopSplit[], amountIn: bigint): HopSplit[] | undefined {
  const stages = quoted.map((hop) => hop.legs.map((leg, j) => ({ tokenIn: leg.tokenIn, tokenOut: leg.tokenOut, amountIn: hop.amountsIn[j] })));
  const executed = replayStages(stages, quoted[0].legs[0].tokenIn, quoted[quoted.length - 1].legs[0].tokenOut, amountIn, (h, shares) => {
    const legs = quoted[h].legs;
    const outs = shares.map((share, j) => (share > 0n ? legs[j].quote(share) : 0n));
    return outs.some((o, j) => shares[j] > 0n && o === 0n) ? undefined : outs;
  });
  return executed?.stages.map((hop, h) => ({ legs: quoted[h].legs, ...hop }));
}

/**
 * Exact quote of the path for an exact output: the hops are solved backwards (each hop's least input for the
 * output the next hop needs, `splitExactOut`), then the route is replayed forwards as RouterV2 executes it
 * (`simulateRouter`); every swap then receives at least its quoted input, so the output is at least
 * `amountOut`. Undefined when the path cannot pay it.
 */
export function quotePathExactOut(path: CandidatePath, amountOut: bigint): HopSplit[] | undefined {
  const backwards: HopSplit[] = [];
  let need = amountOut;
  for (let h = path.hops.length - 1; h >= 0; h--) {
    const split = splitExactOut(path.hops[h], need);
    if (!split) return undefined;
    backwards.unshift(split);
    need = split.amountIn;
  }
  const hops = simulateRouter(backwards, need);
  if (!hops || hops[hops.length - 1].amountOut < amountOut) return undefined;
  return hops;
}
