/**
 * Fee and slippage arithmetic of the aggregator router, in integers, rounding as the contract does:
 * every share taken from the user rounds down for the user's benefit where the contract says so, and the
 * parts always sum to the whole.
 */

export const BPS_DENOMINATOR = 10_000n;
/** Largest integrator fee: 100 bps (1%). */
export const MAX_FEE_BPS = 100n;
/** Integrator share of the collected fee, in bps of the fee: 97.5%. */
export const INTEGRATOR_SHARE_BPS = 9_750n;
/** Share of positive slippage over the expected output that is captured: 50%. */
export const SLIPPAGE_CAPTURE_BPS = 5_000n;

export class FeeMathError extends Error {
  override readonly name = 'FeeMathError';
}

/** `amount * bps / 10000`, rounded down. */
export function bpsOf(amount: bigint, bps: bigint): bigint {
  if (amount < 0n || bps < 0n) throw new FeeMathError('amount and bps must be non-negative');
  return (amount * bps) / BPS_DENOMINATOR;
}

/** Minimum output for a slippage tolerance in bps: `amountOut * (10000 - slippageBps) / 10000`, rounded down. */
export function minAmountOut(amountOut: bigint, slippageBps: bigint): bigint {
  if (slippageBps < 0n || slippageBps >= BPS_DENOMINATOR) throw new FeeMathError('slippageBps must be in [0, 10000)');
  return (amountOut * (BPS_DENOMINATOR - slippageBps)) / BPS_DENOMINATOR;
}

/** Slippage in percent (e.g. 0.5 for 0.5%) to bps, rejecting anything finer than 0.01% or outside [0, 100). */
export function percentToBps(percent: number): bigint {
  if (!Number.isFinite(percent) || percent < 0 || percent >= 100) throw new FeeMathError('slippage must be in [0, 100) percent');
  const bps = Math.round(percent * 100);
  if (Math.abs(bps - percent * 100) > 1e-6) throw new FeeMathError('slippage has more than two decimals');
  return BigInt(bps);
}

export interface FeeSplit {
  /** What the user receives. */
  readonly userAmount: bigint;
  /** Integrator fee paid to `feeRecipient`. */
  readonly integratorFee: bigint;
  /** Protocol share of the integrator fee plus captured slippage. */
  readonly protocolFee: bigint;
  /** Positive slippage over the expected amount, before it is split. */
  readonly positiveSlippage: bigint;
  /** Part of the positive slippage paid to `feeRecipient`. */
  readonly recipientSlippage: bigint;
  /** Part of the positive slippage paid to the protocol. */
  readonly protocolSlippage: bigint;
}

/**
 * Splits the router's gross output:
 * 1. Integrator fee `feeBps` of the gross output (max 100 bps); 97.5% of it to the recipient, the rest
 *    (including rounding dust) to the protocol. No recipient means no fee.
 * 2. Positive slippage over `expectedAmountOut` (measured on what is left after the fee, against the
 *    expected amount after the same fee): half stays with the user; the captured half goes to the
 *    protocol, or half each to the recipient and the protocol when a recipient is set.
 */
export function splitOutput(params: {
  grossAmountOut: bigint;
  expectedAmountOut: bigint;
  feeBps: bigint;
  hasFeeRecipient: boolean;
}): FeeSplit {
  const { grossAmountOut, expectedAmountOut, feeBps, hasFeeRecipient } = params;
  if (grossAmountOut < 0n || expectedAmountOut < 0n) throw new FeeMathError('amounts must be non-negative');
  if (feeBps < 0n || feeBps > MAX_FEE_BPS) throw new FeeMathError(`feeBps must be in [0, ${MAX_FEE_BPS}]`);
  if (feeBps > 0n && !hasFeeRecipient) throw new FeeMathError('a fee needs a fee recipient');

  const fee = bpsOf(grossAmountOut, feeBps);
  const integratorFee = bpsOf(fee, INTEGRATOR_SHARE_BPS);
  let protocolFee = fee - integratorFee;
  const afterFee = grossAmountOut - fee;

  const expectedAfterFee = expectedAmountOut - bpsOf(expectedAmountOut, feeBps);
  const positiveSlippage = expectedAmountOut > 0n && afterFee > expectedAfterFee ? afterFee - expectedAfterFee : 0n;
  const captured = bpsOf(positiveSlippage, SLIPPAGE_CAPTURE_BPS);
  const recipientSlippage = hasFeeRecipient ? captured / 2n : 0n;
  const protocolSlippage = captured - recipientSlippage;
  protocolFee += protocolSlippage;

  return {
    userAmount: afterFee - captured,
    integratorFee,
    protocolFee,
    positiveSlippage,
    recipientSlippage,
    protocolSlippage,
  };
}
