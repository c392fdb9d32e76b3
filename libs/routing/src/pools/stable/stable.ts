/** Solidly-style stable pools: x^3 y + x y^3 = k on the reserves in whole tokens, the factory's fee. */
import type { PoolLeg as Leg, LegShape } from '../pool-module';
import type { PoolSnapshotBase } from '../pool-module';
import { stableGetAmountIn, stableGetAmountOut, type StableSide } from './stable-math';
import { quoteOrZero } from '../leg-helpers';
import type { PoolModule } from '../pool-module';

/** A Solidly-style stable pool: reserves and the factory's `swapFeeBps`. */
export interface StablePoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'stable';
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly feeBps: number;
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
    readonly pool: StablePoolSnapshot,
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
    return quoteOrZero(() => stableGetAmountOut(amountIn, this.side));
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

  /**
   * On the curve x^3 y + x y^3 = k the slope -dy/dx = s(t) = (3t + t^3) / (1 + 3t^2) depends only on t = y / x
   * and grows with t. s(t) = (q^3 - 1) / (q^3 + 1) for q = (1 + t) / (1 - t), so the t of a slope s is
   * (q - 1) / (q + 1) with q = cbrt((1 + s) / (1 - s)); then x from k = x^4 t (1 + t^2).
   */
  inputAtMarginal(lambda: number, limit: number): number {
    if (lambda >= this.spotRate) return 0;
    if (lambda <= 0) return limit;
    const slope = lambda / ((this.g * this.unitOut) / this.unitIn);
    let t = 1;
    if (slope !== 1) {
      const q = Math.cbrt((1 + slope) / (1 - slope));
      t = (q - 1) / (q + 1);
    }
    const x0 = Math.sqrt(Math.sqrt(this.k / (t * (1 + t * t))));
    const input = ((x0 - this.x) * this.unitIn) / this.g;
    return input <= 0 ? 0 : input > limit ? limit : input;
  }

  /**
   * The output, the marginal rate c s(t) (c = g unitOut / unitIn, t = y / x0 after the swap) and its derivative:
   * dt/dx0 = -(s + t) / x0 and ds/dt = 3 (1 - t^2)^2 / (1 + 3t^2)^2, per base unit of input g / unitIn of x0.
   */
  shape(amountIn: number, out: LegShape): void {
    const x0 = this.x + (Math.max(0, amountIn) * this.g) / this.unitIn;
    const y = amountIn > 0 ? this.solveY(x0) : this.y;
    const t = y / x0;
    const c = (this.g * this.unitOut) / this.unitIn;
    const w = 1 + 3 * t * t;
    const s = (3 * t + t * t * t) / w;
    const u = 1 - t * t;
    out.y = Math.max(0, (this.y - y) * this.unitOut);
    out.slope = c * s;
    out.curvature = ((-c * ((3 * u * u) / (w * w)) * (s + t)) / x0) * (this.g / this.unitIn);
  }
}

export const stableModule: PoolModule<StablePoolSnapshot> = {
  kind: 'stable',
  legsOf(pool) {
    if (pool.reserve0 <= 0n || pool.reserve1 <= 0n) return [];
    return [
      new StableLeg(pool, pool.token0, pool.token1, pool.reserve0, pool.reserve1, pool.decimals0, pool.decimals1),
      new StableLeg(pool, pool.token1, pool.token0, pool.reserve1, pool.reserve0, pool.decimals1, pool.decimals0),
    ];
  },
  feeBps: (pool) => pool.feeBps,
  fee: (pool) => pool.feeBps,
  tickSpacing: () => undefined,
  stable: true,
  refineSplits: () => false,
  quotedOnChain: () => false,
  tradesWhatArrives: true,
  transfersTokens: true,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { stable: 85_430 }, swapKind: () => 'stable' },
};
