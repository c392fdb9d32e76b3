/**
 * Core (oracle-validated AMM) pools, quoted by their `estimateSwapBatch` samples (`core-samples.ts`): the exact
 * view interpolates them conservatively, the float view is the chord through them. Their fee is dynamic, and a
 * route's core swaps are quoted again by the pools themselves at the route's block.
 */
import { interpolateSamples, interpolateSamplesInverse, sampleCapacity, sampleCurve, type QuoteSample, type SampleCurve } from '../core-samples';
import type { Leg } from '../legs';
import type { PoolSnapshotBase } from '../pool-snapshot';
import type { PoolModule } from './pool-module';

/**
 * A core AMM pool: `estimateSwapBatch` samples per direction (a ladder of inputs from small to the most worth
 * routing; the smallest should be small against the pool, it gives the spot rate for price impact).
 */
export interface CorePoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'core';
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
}

class CoreLeg implements Leg {
  readonly maxIn: bigint;
  readonly maxInApprox: number;
  readonly liquidity: number;
  readonly spotRate: number;
  private readonly ins: number[];
  private readonly outs: number[];
  private readonly rates: number[];
  /** Index of the first sample that pays anything; the segments before it are dust. */
  private readonly firstPaying: number;
  /** The marginal rate taken for the dust segments. */
  private readonly entryRate: number;

  constructor(
    readonly pool: CorePoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
    private readonly curve: SampleCurve,
  ) {
    this.maxIn = sampleCapacity(curve);
    this.maxInApprox = Number(this.maxIn);
    this.liquidity = this.maxInApprox;
    this.ins = curve.amountsIn.map(Number);
    this.outs = curve.amountsOut.map(Number);
    this.rates = [];
    for (let i = 0; i + 1 < this.ins.length; i++) this.rates.push((this.outs[i + 1] - this.outs[i]) / (this.ins[i + 1] - this.ins[i]));
    // The zero-size rate: the chord to the smallest sample that pays anything (dust samples can round to 0).
    const first = this.outs.findIndex((o) => o > 0);
    this.spotRate = first > 0 ? this.outs[first] / this.ins[first] : 0;
    // Below the first paying sample, the rate of the first segment that starts at one: integer rounding makes
    // the chord through dust an underestimate, which would keep the pool out of splits it belongs in.
    this.firstPaying = first > 0 ? first : this.rates.length;
    this.entryRate = first > 0 && first < this.rates.length ? this.rates[first] : this.spotRate;
  }

  quote(amountIn: bigint): bigint {
    return interpolateSamples(this.curve, amountIn);
  }

  quoteIn(amountOut: bigint): bigint | undefined {
    return interpolateSamplesInverse(this.curve, amountOut);
  }

  private segment(x: number): number {
    let lo = 0;
    let hi = this.ins.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.ins[mid] < x) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  approxOut(x: number): number {
    if (x <= 0 || this.rates.length === 0) return 0;
    if (x >= this.maxInApprox) return this.outs[this.outs.length - 1];
    const i = this.segment(x);
    return this.outs[i] + (x - this.ins[i]) * this.rates[i];
  }

  approxIn(y: number): number {
    if (y <= 0) return 0;
    const n = this.outs.length - 1;
    if (n === 0 || y > this.outs[n]) return Infinity;
    let i = 0;
    while (i < n - 1 && this.outs[i + 1] < y) i++;
    return this.rates[i] > 0 ? this.ins[i] + (y - this.outs[i]) / this.rates[i] : this.ins[i + 1];
  }

  marginal(x: number): number {
    if (this.rates.length === 0 || x >= this.maxInApprox) return 0;
    return this.rates[this.segment(Math.max(x, Number.MIN_VALUE))];
  }

  inputAtMarginal(lambda: number, limit: number): number {
    // Through the segments while their rate stays at or above lambda (piecewise-constant marginal rate). The
    // dust segments count at `entryRate`: at their own rate (0, or rounded down) the pool would stay out of
    // every split.
    let x = 0;
    for (let i = 0; i < this.rates.length; i++) {
      const rate = i < this.firstPaying ? this.entryRate : this.rates[i];
      if (rate < lambda) break;
      x = this.ins[i + 1];
    }
    return Math.min(x, limit);
  }
}

/** Whether a direction's samples quote anything: two points or more, a positive top input and output. */
const quotes = (curve: SampleCurve): boolean => curve.amountsIn.length > 1 && sampleCapacity(curve) > 0n && curve.amountsOut[curve.amountsOut.length - 1] > 0n;

export const coreModule: PoolModule<CorePoolSnapshot> = {
  kind: 'core',
  legsOf(pool) {
    const legs: Leg[] = [];
    const c01 = sampleCurve(pool.samples0to1);
    const c10 = sampleCurve(pool.samples1to0);
    if (quotes(c01)) legs.push(new CoreLeg(pool, pool.token0, pool.token1, c01));
    if (quotes(c10)) legs.push(new CoreLeg(pool, pool.token1, pool.token0, c10));
    return legs;
  },
  feeBps: () => undefined,
  stable: false,
  refineSplits: true,
  quotedOnChain: true,
};
