/**
 * The least input that `pays` (undefined when it does not), given `hi` that does (`atHi`): a bracket below `hi` in
 * steps growing 16-fold from a millionth of it, then bisection until the bracket is within `tolerance`. Assumes
 * payment grows with the input, which holds up to rounding (a few units).
 */
export function leastPaying<T>(hi: bigint, atHi: T, pays: (amountIn: bigint) => T | undefined, tolerance = 1n): T {
  let best = atHi;
  let lo = 0n;
  for (let gap = hi / 1_000_000n + 1n; ; gap *= 16n) {
    const probe = hi > gap ? hi - gap : 0n;
    const paid = probe > 0n ? pays(probe) : undefined;
    if (!paid) {
      lo = probe;
      break;
    }
    hi = probe;
    best = paid;
  }
  while (hi - lo > tolerance) {
    const mid = lo + (hi - lo) / 2n;
    const paid = pays(mid);
    if (paid) {
      hi = mid;
      best = paid;
    } else lo = mid;
  }
  return best;
}
