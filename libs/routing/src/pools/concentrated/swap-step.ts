/** One step of a swap within a price range: Uniswap V3's SwapMath.computeSwapStep and Algebra's movePriceTowardsTarget. */
import { fail, FEE_DENOMINATOR, mulDiv, mulDivRoundingUp } from './full-math';
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from './sqrt-price-math';

export interface SwapStep {
  readonly sqrtPriceNextX96: bigint;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly feeAmount: bigint;
}

/**
 * Uniswap V3 SwapMath.computeSwapStep: from `current` towards `target` with `liquidity`, `amountRemaining`
 * (positive: exact input left, fee included; negative: exact output left), `feePips` taken from the input.
 */
export function computeSwapStep(current: bigint, target: bigint, liquidity: bigint, amountRemaining: bigint, feePips: number): SwapStep {
  const fee = BigInt(feePips);
  const zeroForOne = current >= target;
  const exactIn = amountRemaining >= 0n;
  let next: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const remainingLessFee = mulDiv(amountRemaining, FEE_DENOMINATOR - fee, FEE_DENOMINATOR);
    amountIn = zeroForOne ? getAmount0Delta(target, current, liquidity, true) : getAmount1Delta(current, target, liquidity, true);
    next = remainingLessFee >= amountIn ? target : getNextSqrtPriceFromInput(current, liquidity, remainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne ? getAmount1Delta(target, current, liquidity, false) : getAmount0Delta(current, target, liquidity, false);
    next = -amountRemaining >= amountOut ? target : getNextSqrtPriceFromOutput(current, liquidity, -amountRemaining, zeroForOne);
  }
  const max = target === next;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(next, current, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(next, current, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(current, next, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(current, next, liquidity, false);
  }
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  const feeAmount = exactIn && next !== target ? amountRemaining - amountIn : mulDivRoundingUp(amountIn, fee, FEE_DENOMINATOR - fee);
  return { sqrtPriceNextX96: next, amountIn, amountOut, feeAmount };
}

/**
 * Algebra Integral PriceMovementMath.movePriceTowardsTarget: as V3's step but for an exact input that stops short
 * of the target, the contract asserts that the new price is not the target (a panic where V3 would treat it as
 * reached) and always recomputes the input from the new price.
 */
export function movePriceTowardsTarget(
  zeroToOne: boolean,
  current: bigint,
  target: bigint,
  liquidity: bigint,
  amountAvailable: bigint,
  feePips: number,
): SwapStep {
  const fee = BigInt(feePips);
  const inputDelta = (to: bigint): bigint => (zeroToOne ? getAmount0Delta(to, current, liquidity, true) : getAmount1Delta(current, to, liquidity, true));
  const outputDelta = (to: bigint): bigint => (zeroToOne ? getAmount1Delta(to, current, liquidity, false) : getAmount0Delta(current, to, liquidity, false));
  if (amountAvailable >= 0n) {
    const afterFee = mulDiv(amountAvailable, FEE_DENOMINATOR - fee, FEE_DENOMINATOR);
    let input = inputDelta(target);
    let next: bigint;
    let feeAmount: bigint;
    if (afterFee >= input) {
      next = target;
      feeAmount = mulDivRoundingUp(input, fee, FEE_DENOMINATOR - fee);
    } else {
      next = getNextSqrtPriceFromInput(current, liquidity, afterFee, zeroToOne);
      if (next === target) fail('movePriceTowardsTarget: assertion (target reached short of the input)');
      input = inputDelta(next);
      feeAmount = amountAvailable - input;
    }
    return { sqrtPriceNextX96: next, amountIn: input, amountOut: outputDelta(next), feeAmount };
  }
  let output = outputDelta(target);
  const wanted = -amountAvailable;
  let next: bigint;
  if (wanted >= output) next = target;
  else {
    next = getNextSqrtPriceFromOutput(current, liquidity, wanted, zeroToOne);
    if (target !== next) output = outputDelta(next);
    if (output > wanted) output = wanted;
  }
  const input = inputDelta(next);
  return { sqrtPriceNextX96: next, amountIn: input, amountOut: output, feeAmount: mulDivRoundingUp(input, fee, FEE_DENOMINATOR - fee) };
}
