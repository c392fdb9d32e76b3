/**
 * Core (oracle-validated AMM) pools, quoted by their `estimateSwapBatch` samples (`core-samples.ts`): the exact
 * view interpolates them conservatively, the float view is a smooth concave curve through them. Their fee is dynamic, and a
 * route's core swaps are quoted again by the pools themselves at the route's block.
 */
import { interpolateSamples, interpolateSamplesInverse, sampleCapacity, sampleCurve, type QuoteSample, type SampleCurve } from './core-samples';
import type { PoolLeg as Leg, LegShape } from '../pool-module';
import type { PoolSnapshotBase } from '../pool-module';
import type { PoolModule } from '../pool-module';

/**
 * A core AMM pool: `estimateSwapBatch` samples per direction (a ladder of inputs from small to the most worth
 * routing; the smallest should be small against the pool, it gives the spot rate for price impact).
 */
export interface CorePoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'core';
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
}

/** Tilt of the float marginal rate across the whole curve, so that it falls strictly (see `SampledLeg`). */
const MARGINAL_TILT = 1e-6;

/**
 * A pool quoted by samples of its own quote, in one direction (core pools; V4 pools whose hook is sampled through
 * the V4Quoter). Exact view: the conservative interpolation of the samples (`core-samples.ts`).
 * Float view: a smooth concave curve through them. The samples' upper concave hull (from the origin; dust
 * samples rounded down fall under it) gives chord rates r_j, falling; the marginal rate is taken linear between
 * the chords' midpoints with the value r_j there (exact for a quote that is quadratic in size, as the pool's is:
 * the oracle price less a fee whose rate grows linearly with size), r_0 below the first midpoint, extrapolated
 * from the last two midpoints up to the top sample, and 0 above it. It is tilted down by a millionth of r_0
 * across the curve so that it falls strictly: the input at a marginal rate (`inputAtMarginal`) is then a
 * continuous function of the rate even where the pool's price is flat.
 */
class SampledLeg implements Leg {
  readonly maxIn: bigint;
  readonly maxInApprox: number;
  readonly liquidity: number;
  /** The marginal rate at zero size: the hull's first chord rate, the best average rate of any sample. */
  readonly spotRate: number;
  /** Breakpoints of the piecewise-linear marginal rate, its values there, the float output there. */
  private readonly at: number[] = [];
  private readonly rate: number[] = [];
  private readonly cumulative: number[] = [];

  constructor(
    readonly pool: PoolSnapshotBase,
    readonly tokenIn: string,
    readonly tokenOut: string,
    private readonly curve: SampleCurve,
  ) {
    this.maxIn = sampleCapacity(curve);
    this.maxInApprox = Number(this.maxIn);
    this.liquidity = this.maxInApprox;
    const ins = curve.amountsIn.map(Number);
    const outs = curve.amountsOut.map(Number);
    // Upper concave hull from the origin.
    const hx: number[] = [0];
    const hy: number[] = [0];
    for (let i = 1; i < ins.length; i++) {
      while (hx.length >= 2) {
        const k = hx.length - 1;
        if ((hy[k] - hy[k - 1]) * (ins[i] - hx[k - 1]) <= (outs[i] - hy[k - 1]) * (hx[k] - hx[k - 1])) {
          hx.pop();
          hy.pop();
        } else break;
      }
      hx.push(ins[i]);
      hy.push(outs[i]);
    }
    const chords: number[] = [];
    for (let j = 0; j + 1 < hx.length; j++) chords.push((hy[j + 1] - hy[j]) / (hx[j + 1] - hx[j]));
    const cap = this.maxInApprox;
    this.spotRate = chords.length > 0 ? Math.max(0, chords[0]) : 0;
    if (chords.length === 0 || !(cap > 0)) return;
    const tilt = (x: number) => (MARGINAL_TILT * this.spotRate * x) / cap;
    const push = (x: number, r: number) => {
      this.at.push(x);
      this.rate.push(Math.max(0, r - tilt(x)));
    };
    push(0, chords[0]);
    for (let j = 0; j < chords.length; j++) push((hx[j] + hx[j + 1]) / 2, chords[j]);
    const m = chords.length;
    const lastSlope = m >= 2 ? (chords[m - 1] - chords[m - 2]) / ((hx[m] + hx[m - 1]) / 2 - (hx[m - 1] + hx[m - 2]) / 2) : 0;
    push(cap, chords[m - 1] + lastSlope * (cap - (hx[m] + hx[m - 1]) / 2));
    this.cumulative.push(0);
    for (let i = 1; i < this.at.length; i++) this.cumulative.push(this.cumulative[i - 1] + ((this.rate[i - 1] + this.rate[i]) / 2) * (this.at[i] - this.at[i - 1]));
  }

  quote(amountIn: bigint): bigint {
    return interpolateSamples(this.curve, amountIn);
  }

  quoteIn(amountOut: bigint): bigint | undefined {
    return interpolateSamplesInverse(this.curve, amountOut);
  }

  /** Index i of the breakpoint segment [at_i, at_(i+1)] holding x (0 <= x <= cap). */
  private segment(x: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] <= x) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  approxOut(x: number): number {
    if (x <= 0 || this.at.length < 2) return 0;
    const top = this.at.length - 1;
    if (x >= this.maxInApprox) return this.cumulative[top];
    const i = this.segment(x);
    const d = x - this.at[i];
    const slope = (this.rate[i + 1] - this.rate[i]) / (this.at[i + 1] - this.at[i]);
    return this.cumulative[i] + d * (this.rate[i] + (slope * d) / 2);
  }

  approxIn(y: number): number {
    if (y <= 0) return 0;
    const top = this.at.length - 1;
    if (top < 1 || y > this.cumulative[top]) return Infinity;
    let i = 0;
    while (i < top - 1 && this.cumulative[i + 1] < y) i++;
    // y - F_i = r d + s d^2 / 2 on the segment.
    const rest = y - this.cumulative[i];
    const r = this.rate[i];
    const s = (this.rate[i + 1] - r) / (this.at[i + 1] - this.at[i]);
    const d = s === 0 ? rest / r : (2 * rest) / (r + Math.sqrt(Math.max(0, r * r + 2 * s * rest)));
    return Math.min(this.at[i] + d, this.maxInApprox);
  }

  marginal(x: number): number {
    if (this.at.length < 2 || x >= this.maxInApprox) return 0;
    if (x <= 0) return this.rate[0];
    const i = this.segment(x);
    return this.rate[i] + ((this.rate[i + 1] - this.rate[i]) * (x - this.at[i])) / (this.at[i + 1] - this.at[i]);
  }

  inputAtMarginal(lambda: number, limit: number): number {
    const top = this.at.length - 1;
    if (top < 1 || !(lambda < this.rate[0])) return 0;
    if (lambda <= this.rate[top]) return Math.min(this.maxInApprox, limit);
    // The segment where the (falling) rate crosses lambda.
    let lo = 0;
    let hi = top;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.rate[mid] > lambda) lo = mid;
      else hi = mid;
    }
    const x = this.at[lo] + ((this.rate[lo] - lambda) / (this.rate[lo] - this.rate[hi])) * (this.at[hi] - this.at[lo]);
    return Math.min(x, limit);
  }

  shape(x: number, out: LegShape): void {
    if (this.at.length < 2) {
      out.y = out.slope = out.curvature = 0;
      return;
    }
    if (x >= this.maxInApprox) {
      out.y = this.cumulative[this.at.length - 1];
      out.slope = out.curvature = 0;
      return;
    }
    const i = x <= 0 ? 0 : this.segment(x);
    const d = Math.max(0, x) - this.at[i];
    const curvature = (this.rate[i + 1] - this.rate[i]) / (this.at[i + 1] - this.at[i]);
    out.y = this.cumulative[i] + d * (this.rate[i] + (curvature * d) / 2);
    out.slope = this.rate[i] + curvature * d;
    out.curvature = curvature;
  }
}

/** Whether a direction's samples quote anything: two points or more, a positive top input and output. */
const quotes = (curve: SampleCurve): boolean => curve.amountsIn.length > 1 && sampleCapacity(curve) > 0n && curve.amountsOut[curve.amountsOut.length - 1] > 0n;

/**
 * The legs of a pool quoted by samples of its own quote (per direction: token0 -> token1, token1 -> token0); a
 * direction whose samples quote nothing has none.
 */
export function sampledLegs(pool: PoolSnapshotBase, samples0to1: readonly QuoteSample[], samples1to0: readonly QuoteSample[]): Leg[] {
  const legs: Leg[] = [];
  const c01 = sampleCurve(samples0to1);
  const c10 = sampleCurve(samples1to0);
  if (quotes(c01)) legs.push(new SampledLeg(pool, pool.token0, pool.token1, c01));
  if (quotes(c10)) legs.push(new SampledLeg(pool, pool.token1, pool.token0, c10));
  return legs;
}

export const coreModule: PoolModule<CorePoolSnapshot> = {
  kind: 'core',
  legsOf: (pool) => sampledLegs(pool, pool.samples0to1, pool.samples1to0),
  feeBps: () => undefined,
  fee: () => undefined,
  tickSpacing: () => undefined,
  stable: false,
  refineSplits: () => true,
  quotedOnChain: () => true,
  tradesWhatArrives: false,
  transfersTokens: true,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { core: 107_703 }, swapKind: () => 'core' },
};
