/**
 * Where to split an amount across parallel pools, in float64: water-filling. For concave output functions
 * f_j the split that maximises sum f_j(x_j) under sum x_j = X gives every used pool the same marginal rate
 * lambda (and unused pools a rate at zero size below it). Each pool's input at a given lambda comes from its
 * leg (`inputAtMarginal`: closed form for constant-product curves, a bisection on y/x for stable pools, a segment
 * walk for sampled core pools), and lambda is found by bisection in log space until the inputs add up.
 *
 * The same condition solves the exact-output problem (least total input for sum f_j(x_j) = Y): only the sum
 * that has to match changes (outputs instead of inputs).
 */
import type { Leg } from '../pools/legs';

export interface WaterFill {
  /** Input per leg. */
  readonly inputs: number[];
  /** Approximate output per leg. */
  readonly outputs: number[];
  /** False when the legs cannot take (or pay) the whole amount together. */
  readonly feasible: boolean;
}

/**
 * Splits `amount` across `legs`: of input when `space` is 'in' (exact input), of output when it is 'out'
 * (exact output; the returned inputs are what each leg needs for its share).
 */
export function waterFill(legs: readonly Leg[], amount: number, space: 'in' | 'out'): WaterFill {
  const n = legs.length;
  const limits = legs.map((leg) => {
    const alone = space === 'in' ? amount : leg.approxIn(amount);
    return Math.min(leg.maxInApprox, Number.isFinite(alone) ? alone : leg.maxInApprox);
  });
  const at = (lambda: number): number[] => legs.map((leg, j) => leg.inputAtMarginal(lambda, limits[j]));
  const measure = (inputs: number[]): number => {
    let s = 0;
    for (let j = 0; j < n; j++) s += space === 'in' ? inputs[j] : legs[j].approxOut(inputs[j]);
    return s;
  };
  const done = (inputs: number[], feasible: boolean): WaterFill => ({
    inputs,
    outputs: inputs.map((x, j) => legs[j].approxOut(x)),
    feasible,
  });
  if (n === 0 || !(amount > 0)) return done(legs.map(() => 0), amount <= 0);

  let hi = 0;
  for (const leg of legs) hi = Math.max(hi, leg.spotRate);
  if (!(hi > 0)) return done(legs.map(() => 0), false);
  // Lower lambda until the legs absorb the amount (or nothing more comes: infeasible).
  let lo = hi / 2;
  let atLo = at(lo);
  let sumLo = measure(atLo);
  for (let i = 0; sumLo < amount; i++) {
    if (i > 120) {
      const full = legs.map((_, j) => limits[j]);
      return done(full, measure(full) >= amount * (1 - 1e-12));
    }
    hi = lo;
    lo /= 4;
    atLo = at(lo);
    sumLo = measure(atLo);
  }
  let atHi = at(hi);
  let sumHi = measure(atHi);
  for (let i = 0; i < 200 && hi / lo - 1 > 1e-13; i++) {
    const mid = Math.sqrt(hi * lo);
    const atMid = at(mid);
    const sumMid = measure(atMid);
    if (sumMid >= amount) {
      lo = mid;
      atLo = atMid;
      sumLo = sumMid;
    } else {
      hi = mid;
      atHi = atMid;
      sumHi = sumMid;
    }
  }
  // Between the two allocations, in proportion, so that the sum matches (pools whose rate sits at lambda
  // share the rest; for piecewise-linear pools this is where a segment is partly used).
  const t = sumLo > sumHi ? (amount - sumHi) / (sumLo - sumHi) : 0;
  const inputs = atHi.map((x, j) => x + t * (atLo[j] - x));
  return done(inputs, true);
}
