/**
 * Core (oracle-validated AMM) pools are never priced locally: the contract's dynamic fee and oracle state are
 * its own. The service samples the pool with `estimateSwapBatch` at a ladder of input amounts per direction
 * each block, and this module interpolates between those samples, conservatively:
 *
 * - at a sample amount the result is the sample, exactly;
 * - between two samples a_i < x < a_(i+1) the output is o_i + (x - a_i) * r, rounded down, where r is the
 *   chord rate of the segment (o_(i+1) - o_i) / (a_(i+1) - a_i), or the previous segment's chord rate when
 *   that is lower. For an output curve whose marginal rate falls with size (concave: every fee and price
 *   impact does that) the chord lies below the curve, so this never overestimates; where the samples show the
 *   marginal rate rising (a swap that first rebalances the pool) the lower neighbouring rate is a lower bound
 *   on the marginal rate inside the segment;
 * - below the first sample the segment starts at (0, 0);
 * - above the largest sample nothing is quoted (0): the ladder's top is the most the engine will route.
 *
 * The service re-quotes the final route with the contract's own `estimateSwap`.
 */

/** One `estimateSwapBatch` sample: the pool's output for an input, in base units. */
export interface QuoteSample {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/** Samples of one direction, checked and sorted, with the origin prepended. */
export interface SampleCurve {
  /** Inputs, strictly increasing, starting at 0. */
  readonly amountsIn: readonly bigint[];
  /** Outputs, nondecreasing, starting at 0. */
  readonly amountsOut: readonly bigint[];
}

export class InvalidSamplesError extends Error {
  override readonly name = 'InvalidSamplesError';
}

/**
 * Sorts the samples by input, drops zero inputs, keeps the larger output of duplicate inputs and checks that
 * the output never falls as the input grows (an `estimateSwapBatch` ladder that reverted at some size must be
 * cut there by the caller).
 */
export function sampleCurve(samples: readonly QuoteSample[]): SampleCurve {
  const sorted = samples.filter((s) => s.amountIn > 0n).sort((a, b) => (a.amountIn < b.amountIn ? -1 : a.amountIn > b.amountIn ? 1 : 0));
  const amountsIn: bigint[] = [0n];
  const amountsOut: bigint[] = [0n];
  for (const s of sorted) {
    if (s.amountOut < 0n) throw new InvalidSamplesError('negative sample output');
    const last = amountsIn.length - 1;
    if (s.amountIn === amountsIn[last]) {
      if (s.amountOut > amountsOut[last]) amountsOut[last] = s.amountOut;
      continue;
    }
    if (s.amountOut < amountsOut[last]) throw new InvalidSamplesError('sample outputs must not decrease as the input grows');
    amountsIn.push(s.amountIn);
    amountsOut.push(s.amountOut);
  }
  return { amountsIn, amountsOut };
}

/** The largest input the curve quotes (its top sample); 0 without samples. */
export function sampleCapacity(curve: SampleCurve): bigint {
  return curve.amountsIn[curve.amountsIn.length - 1];
}

/** Index i of the segment [a_i, a_(i+1)] holding x (0 < x <= top); binary search. */
function segmentOf(amountsIn: readonly bigint[], x: bigint): number {
  let lo = 0;
  let hi = amountsIn.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (amountsIn[mid] < x) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The conservative interpolated output for `amountIn` (see the module note); 0 above the top sample. */
export function interpolateSamples(curve: SampleCurve, amountIn: bigint): bigint {
  const { amountsIn: a, amountsOut: o } = curve;
  const top = a.length - 1;
  if (amountIn <= 0n || top === 0 || amountIn > a[top]) return 0n;
  const i = segmentOf(a, amountIn);
  if (amountIn === a[i + 1]) return o[i + 1];
  let num = o[i + 1] - o[i];
  let den = a[i + 1] - a[i];
  // The previous segment's rate when lower: (o_i - o_(i-1)) / (a_i - a_(i-1)) < num / den.
  if (i > 0) {
    const pNum = o[i] - o[i - 1];
    const pDen = a[i] - a[i - 1];
    if (pNum * den < num * pDen) {
      num = pNum;
      den = pDen;
    }
  }
  return o[i] + ((amountIn - a[i]) * num) / den;
}

/** The smallest input whose interpolated output is at least `amountOut`, or undefined when none is. */
export function interpolateSamplesInverse(curve: SampleCurve, amountOut: bigint): bigint | undefined {
  const { amountsIn: a, amountsOut: o } = curve;
  const top = a.length - 1;
  if (amountOut <= 0n) return 0n;
  if (top === 0 || amountOut > o[top]) return undefined;
  // The interpolation is nondecreasing: bisection over [0, top sample].
  let lo = 0n;
  let hi = a[top];
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (interpolateSamples(curve, mid) >= amountOut) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** `n` amounts from `low` to `high`, geometric, strictly increasing. */
export function geometricLadder(low: bigint, high: bigint, n: number): bigint[] {
  if (high <= low) return [low];
  const ratio = Math.pow(Number(high) / Number(low), 1 / (n - 1));
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    let a = i === n - 1 ? high : BigInt(Math.floor(Number(low) * Math.pow(ratio, i)));
    if (out.length && a <= out[out.length - 1]) a = out[out.length - 1] + 1n;
    out.push(a);
  }
  return out;
}
