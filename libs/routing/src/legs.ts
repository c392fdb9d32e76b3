/**
 * A leg is one pool traded in one direction. It carries two views of the pool's output function:
 *
 * - exact (`quote`, `quoteIn`, `maxIn`): integers, computed with the pool's own math module, what RouterV2
 *   execution pays (core: the conservative sample interpolation);
 * - approximate (`approxOut`, `approxIn`, `marginal`, `inputAtMarginal`): float64, used only to rank paths
 *   and to place the split across parallel pools; every figure the engine returns is then recomputed exactly.
 */
import { getAmountIn as v2AmountIn, getAmountOut as v2AmountOut } from './constant-product';
import { interpolateSamples, interpolateSamplesInverse, sampleCapacity, sampleCurve, type SampleCurve } from './core-samples';
import {
  curveBuyCapacity,
  curveSellCapacity,
  LAUNCHPAD_FEE_BPS,
  quoteCurveBuy,
  quoteCurveSell,
  VIRTUAL_NATIVE_LIQUIDITY,
  type CurveState,
} from './launchpad-curve';
import type { PoolSnapshot } from './pool-snapshot';
import { stableGetAmountIn, stableGetAmountOut, type StableSide } from './stable-math';

export interface Leg {
  readonly pool: PoolSnapshot;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** How deep the pool is, in units of `tokenIn` (comparable across the legs leaving one token). */
  readonly liquidity: number;
  /** The marginal output per unit of input at zero size (the fee included), base units. */
  readonly spotRate: number;
  /** The most the pool takes in this direction (exact), undefined when unbounded. */
  readonly maxIn: bigint | undefined;
  /** `maxIn` as a float (Infinity when unbounded). */
  readonly maxInApprox: number;
  /** Exact output for an input; 0 when the pool would not trade it (above `maxIn`, or it would revert). */
  quote(amountIn: bigint): bigint;
  /** The smallest input whose `quote` is at least `amountOut`; undefined when no input reaches it. */
  quoteIn(amountOut: bigint): bigint | undefined;
  approxOut(amountIn: number): number;
  /** Input for an output (Infinity when unreachable). */
  approxIn(amountOut: number): number;
  /** d(out)/d(in) at `amountIn`. */
  marginal(amountIn: number): number;
  /** The input at which the marginal rate falls to `lambda`, within [0, limit]. */
  inputAtMarginal(lambda: number, limit: number): number;
}

const safe = (f: () => bigint): bigint => {
  try {
    return f();
  } catch {
    return 0n;
  }
};

/** Smallest input with quote(x) >= out by doubling and bisection (quote nondecreasing up to `maxIn`). */
function bisectInput(leg: Leg, amountOut: bigint, guess: number): bigint | undefined {
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
abstract class ConstantProductLeg implements Leg {
  abstract readonly pool: PoolSnapshot;
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

  quoteIn(amountOut: bigint): bigint | undefined {
    return bisectInput(this, amountOut, this.approxIn(Number(amountOut)));
  }
}

class UniswapV2Leg extends ConstantProductLeg {
  readonly maxIn = undefined;
  private readonly fee: bigint;
  constructor(
    readonly pool: PoolSnapshot & { kind: 'uniswap-v2' },
    readonly tokenIn: string,
    readonly tokenOut: string,
    private readonly reserveIn: bigint,
    private readonly reserveOut: bigint,
  ) {
    super(Number(reserveIn), Number(reserveOut), 1 - pool.feeBps / 10_000, 1, Infinity, Number(reserveIn));
    this.fee = BigInt(pool.feeBps);
  }
  quote(amountIn: bigint): bigint {
    return safe(() => v2AmountOut(amountIn, this.reserveIn, this.reserveOut, this.fee));
  }
  override quoteIn(amountOut: bigint): bigint | undefined {
    if (amountOut >= this.reserveOut) return undefined;
    return v2AmountIn(amountOut, this.reserveIn, this.reserveOut, this.fee);
  }
}

class LaunchpadBuyLeg extends ConstantProductLeg {
  readonly maxIn: bigint;
  constructor(
    readonly pool: PoolSnapshot & { kind: 'launchpad' },
    readonly tokenIn: string,
    readonly tokenOut: string,
  ) {
    const c = pool.curve;
    const fee = Number(c.feeBps ?? LAUNCHPAD_FEE_BPS) / 10_000;
    const cap = curveBuyCapacity(c);
    super(Number(c.nativeReserve), Number(c.tokenReserve), 1 - fee, 1, Number(cap), Number(cap));
    this.maxIn = cap;
  }
  quote(amountIn: bigint): bigint {
    if (amountIn > this.maxIn) return 0n;
    return safe(() => quoteCurveBuy(this.pool.curve, amountIn).tokensOut);
  }
}

class LaunchpadSellLeg extends ConstantProductLeg {
  readonly maxIn: bigint;
  constructor(
    readonly pool: PoolSnapshot & { kind: 'launchpad' },
    readonly tokenIn: string,
    readonly tokenOut: string,
  ) {
    const c: CurveState = pool.curve;
    const fee = Number(c.feeBps ?? LAUNCHPAD_FEE_BPS) / 10_000;
    const cap = curveSellCapacity(c);
    super(Number(c.tokenReserve), Number(c.nativeReserve), 1, 1 - fee, Number(cap), Number(c.tokenReserve));
    this.maxIn = cap;
  }
  quote(amountIn: bigint): bigint {
    if (amountIn > this.maxIn) return 0n;
    return safe(() => quoteCurveSell(this.pool.curve, amountIn).nativeOut);
  }
}

class StableLeg implements Leg {
  readonly maxIn = undefined;
  readonly maxInApprox = Infinity;
  readonly liquidity: number;
  readonly spotRate: number;
  private readonly side: StableSide;
  /** Reserves in whole tokens, the invariant, the fee factor and the unit conversions. */
  private readonly x: number;
  private readonly y: number;
  private readonly k: number;
  private readonly g: number;
  private readonly unitIn: number;
  private readonly unitOut: number;

  constructor(
    readonly pool: PoolSnapshot & { kind: 'stable' },
    readonly tokenIn: string,
    readonly tokenOut: string,
    reserveIn: bigint,
    reserveOut: bigint,
    decimalsIn: number,
    decimalsOut: number,
  ) {
    this.side = { reserveIn, reserveOut, decimalsIn, decimalsOut, feeBps: BigInt(pool.feeBps) };
    this.unitIn = 10 ** decimalsIn;
    this.unitOut = 10 ** decimalsOut;
    this.x = Number(reserveIn) / this.unitIn;
    this.y = Number(reserveOut) / this.unitOut;
    this.k = this.x * this.y * (this.x * this.x + this.y * this.y);
    this.g = 1 - pool.feeBps / 10_000;
    this.liquidity = Number(reserveIn);
    this.spotRate = this.marginal(0);
  }

  quote(amountIn: bigint): bigint {
    return safe(() => stableGetAmountOut(amountIn, this.side));
  }

  quoteIn(amountOut: bigint): bigint | undefined {
    try {
      return stableGetAmountIn(amountOut, this.side);
    } catch {
      return undefined;
    }
  }

  /** The output reserve (whole tokens) after the input reserve becomes x0: Newton from above. */
  private solveY(x0: number): number {
    let y = this.y;
    for (let i = 0; i < 60; i++) {
      const f = x0 * y * (x0 * x0 + y * y) - this.k;
      const df = x0 * x0 * x0 + 3 * x0 * y * y;
      const dy = f / df;
      y -= dy;
      if (Math.abs(dy) <= y * 1e-15) break;
    }
    return y;
  }

  approxOut(amountIn: number): number {
    if (amountIn <= 0) return 0;
    const x0 = this.x + (amountIn * this.g) / this.unitIn;
    return Math.max(0, (this.y - this.solveY(x0)) * this.unitOut);
  }

  approxIn(amountOut: number): number {
    if (amountOut <= 0) return 0;
    if (amountOut >= this.y * this.unitOut) return Infinity;
    // Closed form in x for a given y: solve k(x0, y1) = k for x0 by Newton (k is increasing in x0).
    const y1 = this.y - amountOut / this.unitOut;
    let x0 = this.x + (amountOut / this.unitOut) * 1.0;
    for (let i = 0; i < 100; i++) {
      const f = x0 * y1 * (x0 * x0 + y1 * y1) - this.k;
      const df = 3 * x0 * x0 * y1 + y1 * y1 * y1;
      const dx = f / df;
      x0 -= dx;
      if (x0 <= 0) x0 = this.x;
      if (Math.abs(dx) <= x0 * 1e-15) break;
    }
    return ((x0 - this.x) * this.unitIn) / this.g;
  }

  marginal(amountIn: number): number {
    const x0 = this.x + (Math.max(0, amountIn) * this.g) / this.unitIn;
    const y = amountIn > 0 ? this.solveY(x0) : this.y;
    // dy/dx0 on the curve = (3x0^2 y + y^3) / (x0^3 + 3 x0 y^2); per base unit of input, in base units out.
    return ((this.g * this.unitOut) / this.unitIn) * ((3 * x0 * x0 * y + y * y * y) / (x0 * x0 * x0 + 3 * x0 * y * y));
  }

  inputAtMarginal(lambda: number, limit: number): number {
    if (lambda >= this.spotRate) return 0;
    if (lambda <= 0) return limit;
    // On the curve x^3 y + x y^3 = k the slope -dy/dx = (3t + t^3) / (1 + 3t^2) depends only on t = y / x and
    // grows with t; solve it for the slope lambda asks for, then x from k = x^4 t (1 + t^2).
    const slope = lambda / ((this.g * this.unitOut) / this.unitIn);
    let lo = 0;
    let hi = this.y / this.x;
    for (let i = 0; i < 80 && hi - lo > hi * 1e-15; i++) {
      const t = (lo + hi) / 2;
      if ((3 * t + t * t * t) / (1 + 3 * t * t) < slope) lo = t;
      else hi = t;
    }
    const t = (lo + hi) / 2;
    const x0 = Math.sqrt(Math.sqrt(this.k / (t * (1 + t * t))));
    const input = ((x0 - this.x) * this.unitIn) / this.g;
    return input <= 0 ? 0 : input > limit ? limit : input;
  }
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
    readonly pool: PoolSnapshot & { kind: 'core' },
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

const lower = (a: string): string => a.toLowerCase();

/**
 * The two legs of a pool (token0 -> token1, token1 -> token0); a direction the pool cannot trade (no
 * reserves, no samples, nothing left on the curve) has no leg.
 */
export function legsOf(pool: PoolSnapshot): Leg[] {
  const legs: Leg[] = [];
  const { token0, token1 } = pool;
  switch (pool.kind) {
    case 'uniswap-v2':
      if (pool.reserve0 > 0n && pool.reserve1 > 0n) {
        legs.push(new UniswapV2Leg(pool, token0, token1, pool.reserve0, pool.reserve1));
        legs.push(new UniswapV2Leg(pool, token1, token0, pool.reserve1, pool.reserve0));
      }
      break;
    case 'stable':
      if (pool.reserve0 > 0n && pool.reserve1 > 0n) {
        legs.push(new StableLeg(pool, token0, token1, pool.reserve0, pool.reserve1, pool.decimals0, pool.decimals1));
        legs.push(new StableLeg(pool, token1, token0, pool.reserve1, pool.reserve0, pool.decimals1, pool.decimals0));
      }
      break;
    case 'core': {
      const c01 = sampleCurve(pool.samples0to1);
      const c10 = sampleCurve(pool.samples1to0);
      if (c01.amountsIn.length > 1 && sampleCapacity(c01) > 0n && c01.amountsOut[c01.amountsOut.length - 1] > 0n) legs.push(new CoreLeg(pool, token0, token1, c01));
      if (c10.amountsIn.length > 1 && sampleCapacity(c10) > 0n && c10.amountsOut[c10.amountsOut.length - 1] > 0n) legs.push(new CoreLeg(pool, token1, token0, c10));
      break;
    }
    case 'launchpad': {
      const native = lower(pool.nativeToken);
      if (native !== lower(token0) && native !== lower(token1)) throw new RangeError(`launchpad pool ${pool.address}: nativeToken is neither token`);
      const token = native === lower(token0) ? token1 : token0;
      const nativeAddress = native === lower(token0) ? token0 : token1;
      const c = pool.curve;
      if (c.nativeReserve > 0n && c.tokenReserve > 0n) {
        if (c.tokensForSale > 0n) legs.push(new LaunchpadBuyLeg(pool, nativeAddress, token));
        const real = c.realNativeReserve ?? c.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY;
        if (real > 0n) legs.push(new LaunchpadSellLeg(pool, token, nativeAddress));
      }
      break;
    }
  }
  return legs;
}
