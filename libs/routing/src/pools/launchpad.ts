/**
 * Launchpad bonding curves (`launchpad-curve.ts`) against the wrapped native token, traded through the
 * launchpad contract: a buy leg while the sale allotment lasts, a sell leg while the curve holds native coin
 * it really raised.
 */
import {
  curveBuyCapacity,
  curveSellCapacity,
  LAUNCHPAD_FEE_BPS,
  quoteCurveBuy,
  quoteCurveSell,
  VIRTUAL_NATIVE_LIQUIDITY,
  type CurveState,
} from '../launchpad-curve';
import type { Leg } from '../legs';
import type { PoolSnapshotBase } from '../pool-snapshot';
import { ConstantProductLeg, quoteOrZero } from './leg-helpers';
import type { PoolModule } from './pool-module';

/** A launchpad token's bonding curve against the wrapped native token. */
export interface LaunchpadPoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'launchpad';
  /** The wrapped native token: token0 or token1; the other is the launched token. */
  readonly nativeToken: string;
  readonly curve: CurveState;
}

/** The curve's fee in basis points (LAUNCHPAD_FEE_BPS unless the snapshot says otherwise). */
const curveFeeBps = (curve: CurveState): bigint => curve.feeBps ?? LAUNCHPAD_FEE_BPS;

class LaunchpadBuyLeg extends ConstantProductLeg {
  readonly maxIn: bigint;
  constructor(
    readonly pool: LaunchpadPoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
  ) {
    const c = pool.curve;
    const fee = Number(curveFeeBps(c)) / 10_000;
    const cap = curveBuyCapacity(c);
    super(Number(c.nativeReserve), Number(c.tokenReserve), 1 - fee, 1, Number(cap), Number(cap));
    this.maxIn = cap;
  }
  quote(amountIn: bigint): bigint {
    if (amountIn > this.maxIn) return 0n;
    return quoteOrZero(() => quoteCurveBuy(this.pool.curve, amountIn).tokensOut);
  }
}

class LaunchpadSellLeg extends ConstantProductLeg {
  readonly maxIn: bigint;
  constructor(
    readonly pool: LaunchpadPoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
  ) {
    const c = pool.curve;
    const fee = Number(curveFeeBps(c)) / 10_000;
    const cap = curveSellCapacity(c);
    super(Number(c.tokenReserve), Number(c.nativeReserve), 1, 1 - fee, Number(cap), Number(c.tokenReserve));
    this.maxIn = cap;
  }
  quote(amountIn: bigint): bigint {
    if (amountIn > this.maxIn) return 0n;
    return quoteOrZero(() => quoteCurveSell(this.pool.curve, amountIn).nativeOut);
  }
}

const lower = (a: string): string => a.toLowerCase();

export const launchpadModule: PoolModule<LaunchpadPoolSnapshot> = {
  kind: 'launchpad',
  legsOf(pool) {
    const { token0, token1 } = pool;
    const native = lower(pool.nativeToken);
    if (native !== lower(token0) && native !== lower(token1)) throw new RangeError(`launchpad pool ${pool.address}: nativeToken is neither token`);
    const token = native === lower(token0) ? token1 : token0;
    const nativeAddress = native === lower(token0) ? token0 : token1;
    const c = pool.curve;
    const legs: Leg[] = [];
    if (c.nativeReserve > 0n && c.tokenReserve > 0n) {
      if (c.tokensForSale > 0n) legs.push(new LaunchpadBuyLeg(pool, nativeAddress, token));
      const real = c.realNativeReserve ?? c.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY;
      if (real > 0n) legs.push(new LaunchpadSellLeg(pool, token, nativeAddress));
    }
    return legs;
  },
  feeBps: (pool) => Number(curveFeeBps(pool.curve)),
  stable: false,
  refineSplits: false,
  quotedOnChain: false,
};
