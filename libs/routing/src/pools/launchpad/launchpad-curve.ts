/**
 * Launchpad bonding curve: x * y = k on the virtual native reserve x (`nativeReserve`, starting at
 * VIRTUAL_NATIVE_LIQUIDITY) and the virtual token reserve y (`tokenReserve`), with a fee (1%) on the native side:
 * taken from the input of a buy and from the output of a sell. Rounding favours the protocol: the fee rounds
 * up and the reserve on the paid-out side rounds up, so tokens out and native out round down. A buy that
 * would take y below its floor (the sale allotment is sold out) is filled partially: it takes exactly the
 * rest of the allotment and spends the least native coin that pays for it. A sale may not pay out more
 * native coin (before the fee) than the curve has really raised.
 *
 * Written against the rules of the interface specification and the launchpad's design notes, and aligned
 * with `libs/contracts/src/launchpad/libraries/BondingCurve.sol` (`quoteBuy`, `grossForNet`, `quoteSell`) as
 * it stood when this was written; `launchpad-curve.spec.ts` holds the values to re-check if the contract moves.
 */

const BPS = 10_000n;

/** 300 ether of virtual native liquidity at creation (the launchpad contract's `VIRTUAL_HYPE_LIQUIDITY`, on either chain). */
export const VIRTUAL_NATIVE_LIQUIDITY = 300n * 10n ** 18n;
/** 1,000,000,000 tokens of 6 decimals. */
export const TOTAL_SUPPLY = 10n ** 15n;
/** The trading fee: 1% of the native coin in (buys) or out (sells). */
export const LAUNCHPAD_FEE_BPS = 100n;

/** Tokens the curve never sells: at graduation they seed the DEX pair (INITIAL_VIRTUAL_TOKEN_RESERVE - CURVE_SALE_SUPPLY). */
export const GRADUATION_TOKEN_RESERVE = 375_000_000n * 10n ** 6n;

/** The curve's sale allotment per token (750,000,000 tokens of 6 decimals): sold out when the curve reaches GRADUATION_TOKEN_RESERVE. */
export const CURVE_SALE_SUPPLY = 750_000_000n * 10n ** 6n;

/** A token's curve as the launchpad reports it (`getLiquidity`, `getTokensForSale`, `getRealHypeReserve`). */
export interface CurveState {
  /** The virtual native reserve x (VIRTUAL_NATIVE_LIQUIDITY plus the native coin raised, net of fees). */
  readonly nativeReserve: bigint;
  /** The virtual token reserve y. */
  readonly tokenReserve: bigint;
  /** What is left of the sale allotment: a buy never takes y below `tokenReserve - tokensForSale`. */
  readonly tokensForSale: bigint;
  /** The native coin the curve has really raised; defaults to `nativeReserve - VIRTUAL_NATIVE_LIQUIDITY`. */
  readonly realNativeReserve?: bigint;
  /** The fee in basis points; defaults to LAUNCHPAD_FEE_BPS. */
  readonly feeBps?: bigint;
}

export interface CurveBuy {
  /** Native coin spent, fee included: less than offered on a partial fill (the rest is refunded). */
  readonly nativeUsed: bigint;
  readonly fee: bigint;
  readonly tokensOut: bigint;
  /** Whether the buy sells out the allotment (and graduates the token). */
  readonly soldOut: boolean;
}

export interface CurveSell {
  /** Native coin leaving the curve: the seller's proceeds plus the fee. */
  readonly grossOut: bigint;
  readonly fee: bigint;
  /** Native coin paid to the seller. */
  readonly nativeOut: bigint;
}

/** A sale would pay out more native coin than the curve raised (the launchpad reverts InsufficientLiquidity). */
export class CurveLiquidityError extends Error {
  override readonly name = 'CurveLiquidityError';
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a === 0n ? 0n : (a - 1n) / b + 1n);

function feeBpsOf(state: CurveState): bigint {
  const feeBps = state.feeBps ?? LAUNCHPAD_FEE_BPS;
  if (feeBps < 0n || feeBps >= BPS) throw new RangeError('feeBps must be in [0, 10000)');
  return feeBps;
}

/** The fee on a native amount, rounded up. */
export function curveFee(amount: bigint, feeBps: bigint = LAUNCHPAD_FEE_BPS): bigint {
  return ceilDiv(amount * feeBps, BPS);
}

/** The least gross native amount g whose net of fee, g - fee(g), is at least `net`. */
export function grossForNet(net: bigint, feeBps: bigint = LAUNCHPAD_FEE_BPS): bigint {
  let gross = ceilDiv(net * BPS, BPS - feeBps);
  if (gross - curveFee(gross, feeBps) < net) gross += 1n;
  return gross;
}

/** A buy of `nativeIn` (fee included) on the curve. */
export function quoteCurveBuy(state: CurveState, nativeIn: bigint): CurveBuy {
  const feeBps = feeBpsOf(state);
  const { nativeReserve, tokenReserve } = state;
  if (nativeIn <= 0n || nativeReserve <= 0n || tokenReserve <= 0n || state.tokensForSale <= 0n) {
    return { nativeUsed: 0n, fee: 0n, tokensOut: 0n, soldOut: false };
  }
  const floor = tokenReserve - state.tokensForSale;
  const k = nativeReserve * tokenReserve;
  const fee = curveFee(nativeIn, feeBps);
  const newToken = ceilDiv(k, nativeReserve + (nativeIn - fee));
  if (newToken >= floor) {
    return { nativeUsed: nativeIn, fee, tokensOut: tokenReserve - newToken, soldOut: newToken === floor };
  }
  // Partial fill: the native reserve must reach ceil(k / floor).
  const gross = grossForNet(ceilDiv(k, floor) - nativeReserve, feeBps);
  return { nativeUsed: gross, fee: curveFee(gross, feeBps), tokensOut: state.tokensForSale, soldOut: true };
}

/** The native coin that buys the whole remaining allotment (fee included): a buy beyond it is refunded. */
export function curveBuyCapacity(state: CurveState): bigint {
  if (state.tokensForSale <= 0n) return 0n;
  const floor = state.tokenReserve - state.tokensForSale;
  if (floor <= 0n) throw new RangeError('tokensForSale must be below tokenReserve');
  return grossForNet(ceilDiv(state.nativeReserve * state.tokenReserve, floor) - state.nativeReserve, feeBpsOf(state));
}

/** A sale of `tokensIn`; throws CurveLiquidityError when it would pay out more than the curve raised. */
export function quoteCurveSell(state: CurveState, tokensIn: bigint): CurveSell {
  const feeBps = feeBpsOf(state);
  const { nativeReserve, tokenReserve } = state;
  if (tokensIn <= 0n || nativeReserve <= 0n || tokenReserve <= 0n) return { grossOut: 0n, fee: 0n, nativeOut: 0n };
  const newNative = ceilDiv(nativeReserve * tokenReserve, tokenReserve + tokensIn);
  const grossOut = nativeReserve - newNative;
  const real = state.realNativeReserve ?? nativeReserve - VIRTUAL_NATIVE_LIQUIDITY;
  if (grossOut > real) throw new CurveLiquidityError(`sale pays ${grossOut} but the curve raised ${real}`);
  const fee = curveFee(grossOut, feeBps);
  return { grossOut, fee, nativeOut: grossOut - fee };
}

/** The largest sale the curve can pay for (its gross output stays within the native coin raised). */
export function curveSellCapacity(state: CurveState): bigint {
  const real = state.realNativeReserve ?? state.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY;
  if (real <= 0n) return 0n;
  // gross(t) = x - ceil(x*y/(y+t)) <= real  <=>  ceil(x*y/(y+t)) >= x - real  <=>  x*y/(y+t) > x - real - 1.
  const { nativeReserve: x, tokenReserve: y } = state;
  const floorNative = x - real; // the native reserve may not go below this
  if (floorNative <= 0n) return 2n ** 255n; // every sale is payable
  // Largest t with ceil(x*y/(y+t)) >= floorNative, i.e. x*y > (floorNative - 1)*(y+t).
  if (floorNative === 1n) return 2n ** 255n;
  const t = (x * y - 1n) / (floorNative - 1n) - y;
  return t > 0n ? t : 0n;
}

/**
 * The curve of a launched token from its reserves and graduation flag, by the launchpad's own rules
 * (`getTokensForSale`, `getRealHypeReserve`): the one rule for "still trading". Undefined when the token trades
 * no more on its curve: graduated, or its sale allotment sold out (frozen until `graduate`).
 */
export function curveFromReserves(reserves: { nativeReserve: bigint; tokenReserve: bigint; graduated: boolean }, feeBps: bigint = LAUNCHPAD_FEE_BPS): CurveState | undefined {
  if (reserves.graduated) return undefined;
  const tokensForSale = reserves.tokenReserve - GRADUATION_TOKEN_RESERVE;
  if (tokensForSale <= 0n) return undefined;
  return {
    nativeReserve: reserves.nativeReserve,
    tokenReserve: reserves.tokenReserve,
    tokensForSale,
    realNativeReserve: reserves.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY,
    feeBps,
  };
}

/**
 * Where a launched token trades, by the rule of `curveFromReserves`: `trading` on its curve while the curve still
 * sells; `graduating` once the curve sold out (frozen, `graduate(token)` not run yet); `graduated` once its DEX
 * pool is seeded.
 */
export type LaunchCurveStatus = 'trading' | 'graduating' | 'graduated';

/** The status of a launched token's curve from its reserves and graduation flag (see LaunchCurveStatus). */
export function launchCurveStatus(reserves: { nativeReserve: bigint; tokenReserve: bigint; graduated: boolean }): LaunchCurveStatus {
  if (reserves.graduated) return 'graduated';
  return curveFromReserves(reserves) ? 'trading' : 'graduating';
}
