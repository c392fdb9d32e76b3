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
} from './launchpad-curve';
import type { PoolLeg as Leg } from '../pool-module';
import type { PoolSnapshotBase } from '../pool-module';
import { ConstantProductLeg, quoteOrZero } from '../leg-helpers';
import type { PoolModule } from '../pool-module';

/** A launchpad token's bonding curve against the wrapped native token. */
export interface LaunchpadPoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'launchpad';
  /** The wrapped native token: token0 or token1; the other is the launched token. */
  readonly nativeToken: string;
  readonly curve: CurveState;
}

/** The curve's fee in basis points (LAUNCHPAD_FEE_BPS unless the snapshot says otherwise). */
const curveFeeBps = (curve: CurveState): bigint => curve.feeBps ?? LAUNCHPAD_FEE_BPS;

/** One direction of a curve: what it takes, its reserves in and out, its fee on either side, its exact trade. */
interface CurveSide {
  readonly maxIn: bigint;
  readonly reserveIn: bigint;
  readonly reserveOut: bigint;
  /** The fee's fraction taken from the input (buys) or from the output (sells). */
  readonly feeIn: number;
  readonly feeOut: number;
  readonly liquidity: bigint;
  readonly trade: (curve: CurveState, amountIn: bigint) => bigint;
}

/** A buy (native in, tokens out) or a sale (tokens in, native out) on the curve, up to what that direction takes. */
class CurveLeg extends ConstantProductLeg {
  readonly maxIn: bigint;
  private readonly trade: CurveSide['trade'];
  constructor(
    readonly pool: LaunchpadPoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
    side: CurveSide,
  ) {
    super(Number(side.reserveIn), Number(side.reserveOut), 1 - side.feeIn, 1 - side.feeOut, Number(side.maxIn), Number(side.liquidity));
    this.maxIn = side.maxIn;
    this.trade = side.trade;
  }
  quote(amountIn: bigint): bigint {
    if (amountIn > this.maxIn) return 0n;
    return quoteOrZero(() => this.trade(this.pool.curve, amountIn));
  }
}

function buySide(c: CurveState): CurveSide {
  const cap = curveBuyCapacity(c);
  const fee = Number(curveFeeBps(c)) / 10_000;
  return { maxIn: cap, reserveIn: c.nativeReserve, reserveOut: c.tokenReserve, feeIn: fee, feeOut: 0, liquidity: cap, trade: (curve, x) => quoteCurveBuy(curve, x).tokensOut };
}

function sellSide(c: CurveState): CurveSide {
  const fee = Number(curveFeeBps(c)) / 10_000;
  return { maxIn: curveSellCapacity(c), reserveIn: c.tokenReserve, reserveOut: c.nativeReserve, feeIn: 0, feeOut: fee, liquidity: c.tokenReserve, trade: (curve, x) => quoteCurveSell(curve, x).nativeOut };
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
      if (c.tokensForSale > 0n) legs.push(new CurveLeg(pool, nativeAddress, token, buySide(c)));
      const real = c.realNativeReserve ?? c.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY;
      if (real > 0n) legs.push(new CurveLeg(pool, token, nativeAddress, sellSide(c)));
    }
    return legs;
  },
  feeBps: (pool) => Number(curveFeeBps(pool.curve)),
  fee: (pool) => Number(curveFeeBps(pool.curve)),
  tickSpacing: () => undefined,
  stable: false,
  refineSplits: () => false,
  quotedOnChain: () => false,
  tradesWhatArrives: false,
  transfersTokens: false,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { 'launchpad-buy': 86_805, 'launchpad-sell': 88_920 }, swapKind: (pool, tokenIn) => (tokenIn.toLowerCase() === pool.nativeToken.toLowerCase() ? 'launchpad-buy' : 'launchpad-sell') },
};
