/**
 * Uniswap-V2-style constant-product pool math, exact in integers as the pair contract computes it.
 * `feeBps` is the pool's swap fee in basis points (30 = 0.3%).
 */

const BPS = 10_000n;

export class InsufficientLiquidityError extends Error {
  override readonly name = 'InsufficientLiquidityError';
}

function check(reserveIn: bigint, reserveOut: bigint, feeBps: bigint): void {
  if (reserveIn <= 0n || reserveOut <= 0n) throw new InsufficientLiquidityError('pool has no liquidity');
  if (feeBps < 0n || feeBps >= BPS) throw new RangeError('feeBps must be in [0, 10000)');
}

/** Output for an exact input: `amountIn*(1-fee)*reserveOut / (reserveIn + amountIn*(1-fee))`, rounded down. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  check(reserveIn, reserveOut, feeBps);
  if (amountIn <= 0n) return 0n;
  const amountInWithFee = amountIn * (BPS - feeBps);
  return (amountInWithFee * reserveOut) / (reserveIn * BPS + amountInWithFee);
}

/** Smallest input that yields at least `amountOut`, rounded up; throws when the pool cannot pay it. */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  check(reserveIn, reserveOut, feeBps);
  if (amountOut <= 0n) return 0n;
  if (amountOut >= reserveOut) throw new InsufficientLiquidityError('amountOut exceeds the pool reserve');
  const numerator = reserveIn * amountOut * BPS;
  const denominator = (reserveOut - amountOut) * (BPS - feeBps);
  return numerator / denominator + 1n;
}
