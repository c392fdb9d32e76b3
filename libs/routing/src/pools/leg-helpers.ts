/** What the legs of several pool kinds share: the quote guard, the input bisection, the constant-product float model. */
import type { PoolLeg as Leg, LegShape } from './pool-module';
import type { PoolSnapshotBase } from './pool-module';

/** The quote, or 0 when the pool maths throws (the pool would not trade the amount). */
export const quoteOrZero = (f: () => bigint): bigint => {
  try {
    return f();
  } catch {
    return 0n;
  }
};

/** Smallest input with quote(x) >= out by doubling and bisection (quote nondecreasing up to `maxIn`). */
export function bisectInput(leg: Leg, amountOut: bigint, guess: number): bigint | undefined {
  if (amountOut <= 0n) return 0n;
  const cap = leg.maxIn;
  let hi = BigInt(Math.max(1, Math.ceil(Number.isFinite(guess) ? guess : 1)));
  if (cap !== undefined && hi > cap) hi = cap;
  let lo = 0n;
  while (leg.quote(hi) < amountOut) {
    if (cap !== undefined && hi >= cap) return undefined;
    lo = hi;
    hi *= 2n;
    if (cap !== undefined && hi > cap) hi = cap;
    if (hi > 2n ** 255n) return undefined;
  }
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (leg.quote(mid) >= amountOut) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Float model shared by constant-product curves: out(x) = gOut * gIn*x*ro / (ri + gIn*x), capped at `outCap`.
 */
export abstract class ConstantProductLeg implements Leg {
  abstract readonly pool: PoolSnapshotBase;
  abstract readonly tokenIn: string;
  abstract readonly tokenOut: string;
  abstract readonly maxIn: bigint | undefined;
  abstract quote(amountIn: bigint): bigint;
  readonly spotRate: number;
  readonly maxInApprox: number;

  constructor(
    protected readonly ri: number,
    protected readonly ro: number,
    protected readonly gIn: number,
    protected readonly gOut: number,
    maxInApprox: number,
    readonly liquidity: number,
  ) {
    this.spotRate = (gOut * gIn * ro) / ri;
    this.maxInApprox = maxInApprox;
  }

  approxOut(x: number): number {
    if (x <= 0) return 0;
    const xi = this.gIn * Math.min(x, this.maxInApprox);
    return (this.gOut * xi * this.ro) / (this.ri + xi);
  }

  approxIn(y: number): number {
    if (y <= 0) return 0;
    const yo = y / this.gOut;
    if (yo >= this.ro) return Infinity;
    const x = (this.ri * yo) / (this.gIn * (this.ro - yo));
    return x > this.maxInApprox ? Infinity : x;
  }

  marginal(x: number): number {
    if (x >= this.maxInApprox) return 0;
    const d = this.ri + this.gIn * Math.max(0, x);
    return (this.gOut * this.gIn * this.ri * this.ro) / (d * d);
  }

  inputAtMarginal(lambda: number, limit: number): number {
    const top = Math.min(limit, this.maxInApprox);
    if (lambda >= this.spotRate) return 0;
    if (lambda <= 0) return top;
    const x = (Math.sqrt((this.gOut * this.gIn * this.ri * this.ro) / lambda) - this.ri) / this.gIn;
    return x < 0 ? 0 : x > top ? top : x;
  }

  shape(x: number, out: LegShape): void {
    if (x >= this.maxInApprox) {
      out.y = this.approxOut(this.maxInApprox);
      out.slope = out.curvature = 0;
      return;
    }
    const xi = this.gIn * Math.max(0, x);
    const d = this.ri + xi;
    out.y = (this.gOut * xi * this.ro) / d;
    out.slope = (this.gOut * this.gIn * this.ri * this.ro) / (d * d);
    out.curvature = (-2 * this.gIn * out.slope) / d;
  }

  quoteIn(amountOut: bigint): bigint | undefined {
    return bisectInput(this, amountOut, this.approxIn(Number(amountOut)));
  }
}
