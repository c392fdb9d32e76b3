/**
 * The least input that pays an output: a search over integer inputs for a payment that grows with the input (up to
 * rounding, a few units), between an input known to pay nothing (0) and one known to pay enough.
 *
 * Each probe is placed where the line through the bracket's ends meets the output asked for (regula falsi; the
 * payments of routes are smooth and nearly straight over the bracket, so a few probes close it), with the Illinois
 * rule (an end kept twice has its distance from the output halved, so that the probes close in from both sides),
 * and kept inside the bracket by at least the tolerance, so that a probe just past the least input closes it; where
 * a probe said nothing of its payment, or two probes in a row did not halve the bracket (a payment flat over many
 * inputs, as when a unit of the input is worth far less than one of the output), the next one bisects.
 */

/** What an input pays (`paid`, base units of the output) and what the caller keeps of it (`value`). */
export interface Paying<T> {
  readonly value: T;
  readonly paid: bigint;
}

/**
 * The value at the least input paying `amountOut`, to within `tolerance` (an input at most `tolerance` below it
 * does not pay), given `hi` that pays (`atHi`). `probe` answers an input's payment, or undefined where it can say
 * nothing of it (the input does not trade: it does not pay). Once two inputs FLAT_SPAN or more apart are seen to
 * pay the same (the payment is a staircase, flat over many inputs between its steps, whose edge only bisection
 * finds, one probe per halving), to within `flatTolerance` instead.
 */
export function leastPaying<T>(hi: bigint, atHi: Paying<T>, probe: (amountIn: bigint) => Paying<T> | undefined, amountOut: bigint, tolerance = 1n, flatTolerance = tolerance): T {
  let best = atHi.value;
  let lo = 0n;
  // What the ends of the bracket pay, for telling a plateau.
  let paidHi = atHi.paid;
  let paidLo: bigint | undefined;
  // How far each end of the bracket pays from amountOut, half a unit added (a payment is rounded down, so the
  // output it stands for is up to a unit more); undefined where not known. Zero input pays nothing.
  let short: number | undefined = 0.5 - Number(amountOut);
  let over = Number(atHi.paid - amountOut) + 0.5;
  // The end the last probe moved (1 hi, -1 lo), and probes in a row that did not halve the bracket.
  let moved = 0;
  let slow = 0;
  while (hi - lo > tolerance) {
    const width = hi - lo;
    const inset = tolerance < width / 2n ? tolerance : width / 2n;
    let x = lo + width / 2n;
    if (short !== undefined && slow < 2) x = lo + ((width * BigInt(Math.ceil((-short / (over - short)) * FRACTION))) >> FRACTION_BITS) + 1n;
    if (x < lo + inset) x = lo + inset;
    else if (x > hi - inset) x = hi - inset;
    const at = probe(x);
    if (at && flatTolerance > tolerance && ((at.paid === paidHi && hi - x >= FLAT_SPAN) || (at.paid === paidLo && x - lo >= FLAT_SPAN))) tolerance = flatTolerance;
    if (at && at.paid >= amountOut) {
      hi = x;
      paidHi = at.paid;
      over = Number(at.paid - amountOut) + 0.5;
      best = at.value;
      // The same end twice: the other end's distance halves (the Illinois rule), so that the next probe crosses over.
      if (moved === 1 && short !== undefined) short /= 2;
      moved = 1;
    } else {
      lo = x;
      paidLo = at?.paid;
      short = at ? Number(at.paid - amountOut) + 0.5 : undefined;
      if (moved === -1) over /= 2;
      moved = -1;
    }
    slow = (hi - lo) * 2n > width ? slow + 1 : 0;
  }
  return best;
}

/**
 * Inputs this far apart paying the same make a staircase (a plateau this wide would take 16 more bisections or so to
 * cross to the unit); narrower plateaus, as where a unit of the output is worth a few of the input, are searched to
 * the unit.
 */
const FLAT_SPAN = 1n << 16n;

/** The fixed point in which a probe's place within the bracket is taken. */
const FRACTION_BITS = 52n;
const FRACTION = 2 ** 52;
