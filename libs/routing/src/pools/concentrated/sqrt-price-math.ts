/**
 * SqrtPriceMath (Uniswap V3) = TokenDeltaMath and PriceMovementMath.getNewPrice (Algebra): the same formulas, the
 * amounts between two sqrt prices and the price after an amount goes in or out.
 */
import { divRoundingUp, fail, MAX_UINT160, MAX_UINT256, mulDiv, mulDivRoundingUp, Q96, toUint160 } from './full-math';

/** Token0 between two sqrt prices for a liquidity (SqrtPriceMath.getAmount0Delta). */
export function getAmount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (a > b) [a, b] = [b, a];
  if (a <= 0n) fail('getAmount0Delta: zero price');
  const numerator1 = liquidity << 96n;
  const numerator2 = b - a;
  return roundUp ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a) : mulDiv(numerator1, numerator2, b) / a;
}

/** Token1 between two sqrt prices for a liquidity (SqrtPriceMath.getAmount1Delta). */
export function getAmount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (a > b) [a, b] = [b, a];
  return roundUp ? mulDivRoundingUp(liquidity, b - a, Q96) : mulDiv(liquidity, b - a, Q96);
}

function nextSqrtPriceFromAmount0RoundingUp(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return price;
  const numerator1 = liquidity << 96n;
  const product = amount * price;
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product;
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, price, denominator);
    }
    const sum = numerator1 / price + amount;
    if (sum > MAX_UINT256) fail('addition overflow');
    return divRoundingUp(numerator1, sum);
  }
  if (product > MAX_UINT256 || numerator1 <= product) fail('next price from output: out of range');
  return toUint160(mulDivRoundingUp(numerator1, price, numerator1 - product));
}

function nextSqrtPriceFromAmount1RoundingDown(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
    return toUint160(price + quotient);
  }
  const quotient = amount <= MAX_UINT160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity);
  if (price <= quotient) fail('next price from output: out of range');
  return price - quotient;
}

/** The sqrt price after `amountIn` (net of fee) goes in (SqrtPriceMath.getNextSqrtPriceFromInput). */
export function getNextSqrtPriceFromInput(price: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (price <= 0n || liquidity <= 0n) fail('zero price or liquidity');
  return zeroForOne ? nextSqrtPriceFromAmount0RoundingUp(price, liquidity, amountIn, true) : nextSqrtPriceFromAmount1RoundingDown(price, liquidity, amountIn, true);
}

/** The sqrt price after `amountOut` leaves (SqrtPriceMath.getNextSqrtPriceFromOutput). */
export function getNextSqrtPriceFromOutput(price: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean): bigint {
  if (price <= 0n || liquidity <= 0n) fail('zero price or liquidity');
  return zeroForOne ? nextSqrtPriceFromAmount1RoundingDown(price, liquidity, amountOut, false) : nextSqrtPriceFromAmount0RoundingUp(price, liquidity, amountOut, false);
}
