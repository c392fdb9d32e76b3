/**
 * Solidly/Velodrome stable pool math (invariant x^3*y + y^3*x on amounts normalised to 18 decimals), a
 * line-for-line twin of `libs/contracts/src/sources/libraries/StableMath.sol` and of `StablePool.getAmountOut`
 * (`libs/contracts/src/sources/stable/StablePool.sol`): same products, same rounding, same Newton steps and the
 * same bisection fallback, so a quote equals the contract's to the unit. Solidity's checked arithmetic is
 * mirrored too: where the contract would revert (overflow past 2^256 - 1, underflow, no convergence) these
 * functions throw a `StableMathError`.
 */
import { leastPaying, type Paying } from '../../math/least-input';

const ONE = 10n ** 18n;
const BPS = 10_000n;
const UINT256_MAX = 2n ** 256n - 1n;

/** The contract would revert: checked-arithmetic overflow/underflow, or the solver did not converge. */
export class StableMathError extends Error {
  override readonly name = 'StableMathError';
}

function checked(value: bigint): bigint {
  if (value > UINT256_MAX || value < 0n) throw new StableMathError('arithmetic overflow or underflow');
  return value;
}

/** The invariant of normalised amounts: x*y*(x^2 + y^2), in 18-decimal fixed point (`StableMath.k`). */
export function stableK(x: bigint, y: bigint): bigint {
  const a = checked(x * y) / ONE;
  const b = checked(checked(x * x) / ONE + checked(y * y) / ONE);
  return checked(a * b) / ONE;
}

/** dk/dy = 3*x0*y^2 + x0^3, rounded step by step as the contract does (`StableMath._dkdy`). */
function dkdy(x0: bigint, y: bigint): bigint {
  return checked(checked(3n * x0) * (checked(y * y) / ONE)) / ONE + checked((checked(x0 * x0) / ONE) * x0) / ONE;
}

/**
 * `StableMath.getY`: the y for which k(x0, y) >= xy with y - 1 short of it (or k exactly met), by Newton's
 * method from the guess `y`, with the contract's bracket-and-bisect fallback.
 */
export function stableGetY(x0: bigint, xy: bigint, y: bigint): bigint {
  let lo = 0n;
  let hi = UINT256_MAX;
  for (let i = 0; i < 255; i++) {
    const current = stableK(x0, y);
    let slope = dkdy(x0, y);
    if (slope === 0n) slope = 1n;
    let next: bigint;
    if (current < xy) {
      lo = y;
      let dy = checked((xy - current) * ONE) / slope;
      if (dy === 0n) {
        if (stableK(x0, checked(y + 1n)) > xy) return y + 1n;
        dy = 1n;
      }
      next = checked(y + dy);
    } else {
      hi = y;
      let dy = checked((current - xy) * ONE) / slope;
      if (dy === 0n) {
        if (current === xy || stableK(x0, checked(y - 1n)) < xy) return y;
        dy = 1n;
      }
      next = dy < y ? y - dy : 0n;
    }
    if (next <= lo || next >= hi) {
      if (hi - lo <= 1n) return hi;
      next = lo + (hi - lo) / 2n;
    }
    y = next;
  }
  throw new StableMathError('StableMathNoConvergence');
}

/** A stable pool seen from one swap direction: raw reserves and token decimals (at most 18) of each side. */
export interface StableSide {
  readonly reserveIn: bigint;
  readonly reserveOut: bigint;
  readonly decimalsIn: number;
  readonly decimalsOut: number;
  /** The factory's `swapFeeBps`, taken from the input and rounded down. */
  readonly feeBps: bigint;
}

const units = new Map<number, bigint>();
function unit(decimals: number): bigint {
  let u = units.get(decimals);
  if (u === undefined) {
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new RangeError('decimals must be in [0, 18]');
    u = 10n ** BigInt(decimals);
    units.set(decimals, u);
  }
  return u;
}

/**
 * `StablePool.getAmountOut(amountIn, tokenIn)`: 0 for an empty pool; the fee is taken from the input
 * (rounded down), the rest is normalised, `getY` solves for the output reserve, and the output is converted
 * back to the output token's units, rounded down.
 */
export function stableGetAmountOut(amountIn: bigint, side: StableSide): bigint {
  if (side.reserveIn === 0n || side.reserveOut === 0n) return 0n;
  return checked(normalisedOutput(amountIn, side) * unit(side.decimalsOut)) / ONE;
}

/** `stableGetAmountOut` before its last step: the output normalised to 18 decimals (reserves not empty). */
function normalisedOutput(amountIn: bigint, side: StableSide): bigint {
  const { reserveIn, reserveOut, feeBps } = side;
  if (amountIn < 0n) throw new RangeError('amountIn must not be negative');
  const unitIn = unit(side.decimalsIn);
  const unitOut = unit(side.decimalsOut);
  const net = amountIn - checked(amountIn * feeBps) / BPS;
  // `_getAmountOut`: the invariant of the reserves (k is symmetric in its arguments).
  const normalisedIn = checked(reserveIn * ONE) / unitIn;
  const normalisedOut = checked(reserveOut * ONE) / unitOut;
  const xy = stableK(normalisedIn, normalisedOut);
  const x = checked(net * ONE) / unitIn;
  return checked(normalisedOut - stableGetY(checked(x + normalisedIn), xy, normalisedOut));
}

/**
 * The smallest input whose `stableGetAmountOut` is at least `amountOut` (exact-output inverse), by `leastPaying`
 * on `stableGetAmountOut`, which is nondecreasing in the input. Throws `StableMathError` when no input reaches
 * it (the output would take the whole reserve, or the contract's arithmetic would overflow first).
 */
export function stableGetAmountIn(amountOut: bigint, side: StableSide): bigint {
  if (amountOut <= 0n) return 0n;
  if (side.reserveIn === 0n || amountOut >= side.reserveOut) throw new StableMathError('amountOut exceeds the pool reserve');
  // Searched on the output normalised to 18 decimals, which pays amountOut from ceil(amountOut * 1e18 / unit) on:
  // where the output token has fewer decimals, many inputs pay the same whole units but not the same normalised
  // output, so the search closes in by its slope rather than by bisection.
  const unitOut = unit(side.decimalsOut);
  const wanted = (amountOut * ONE + unitOut - 1n) / unitOut;
  const payment = (amountIn: bigint): bigint | undefined => {
    try {
      const out = normalisedOutput(amountIn, side);
      checked(out * unitOut); // the contract's last step, which must not overflow either
      return out;
    } catch {
      return undefined;
    }
  };
  // Start the bracket at the amount of the same value at parity (a stable pool trades near it), then double.
  const unitIn = unit(side.decimalsIn);
  let hi = (amountOut * unitIn) / unitOut + 1n;
  let atHi = payment(hi);
  for (let i = 0; atHi === undefined || atHi < wanted; i++) {
    if (i > 256) throw new StableMathError('amountOut is not reachable');
    hi *= 2n;
    atHi = payment(hi);
  }
  // The least input from the bracket's top (regula falsi: the curve is nearly straight near parity).
  const paying = (amountIn: bigint): Paying<bigint> | undefined => {
    const paid = payment(amountIn);
    return paid === undefined ? undefined : { value: amountIn, paid };
  };
  return leastPaying(hi, { value: hi, paid: atHi }, paying, wanted);
}
