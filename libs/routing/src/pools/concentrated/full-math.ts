/**
 * Uniswap V3's FullMath and the integer helpers the concentrated-liquidity maths share, in bigint: every overflow
 * check and revert of the contracts is reproduced as a thrown `ConcentratedMathError`.
 */
export class ConcentratedMathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConcentratedMathError';
  }
}

export const fail = (message: string): never => {
  throw new ConcentratedMathError(message);
};

export const Q96 = 1n << 96n;
export const Q128 = 1n << 128n;
export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
export const MAX_UINT128 = (1n << 128n) - 1n;
export const FEE_DENOMINATOR = 1_000_000n;

/** floor(a * b / d); reverts when d is 0 or the result does not fit 256 bits. */
export function mulDiv(a: bigint, b: bigint, d: bigint): bigint {
  if (d === 0n) fail('mulDiv: division by zero');
  const r = (a * b) / d;
  if (r > MAX_UINT256) fail('mulDiv: overflow');
  return r;
}

/** ceil(a * b / d); reverts when d is 0 or the result does not fit 256 bits. */
export function mulDivRoundingUp(a: bigint, b: bigint, d: bigint): bigint {
  if (d === 0n) fail('mulDiv: division by zero');
  const p = a * b;
  let r = p / d;
  if (r > MAX_UINT256) fail('mulDiv: overflow');
  if (p % d > 0n) {
    if (r === MAX_UINT256) fail('mulDiv: overflow');
    r += 1n;
  }
  return r;
}

/** ceil(x / y) for y > 0 (UnsafeMath.divRoundingUp). */
export const divRoundingUp = (x: bigint, y: bigint): bigint => x / y + (x % y > 0n ? 1n : 0n);

export const toUint160 = (x: bigint): bigint => (x > MAX_UINT160 ? fail('SafeCast: uint160 overflow') : x);
