/** Searches of sorted arrays. */

/** How many entries of `sorted` (ascending) are at most `value`: the position of the first entry above it. */
export function countAtOrBelow<T extends number | bigint>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
