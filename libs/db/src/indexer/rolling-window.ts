// Rolling 24-hour windows over hourly buckets, exact to the second.
//
// A window is the half-open interval (end - 24 h, end] of block time. The hours strictly between the hour
// holding the window's start and the hour holding its end are read from the hourly buckets; the two edge
// hours are counted from the fact rows themselves, so a fact one second outside the window never counts.

export const HOUR = 3_600n;
export const DAY = 86_400n;

export interface RollingWindow {
  /** Exclusive lower bound (Unix seconds). */
  start: bigint;
  /** Inclusive upper bound (Unix seconds). */
  end: bigint;
  /** Start of the hour holding `start`: counted exactly from fact rows. */
  lowHour: bigint;
  /** Start of the hour holding `end`: counted exactly from fact rows. */
  highHour: bigint;
}

/** The hour (Unix seconds of its start) a block timestamp falls in. */
export function hourOf(timestamp: bigint): bigint {
  return (timestamp / HOUR) * HOUR;
}

export function rollingWindow(end: bigint, length: bigint = DAY): RollingWindow {
  if (length % HOUR !== 0n || length <= HOUR) throw new RangeError('window length must be a whole number of hours, more than one');
  const start = end - length;
  return { start, end, lowHour: hourOf(start), highHour: hourOf(end) };
}

/**
 * The end of "now" for a chain: the later of the wall clock and the timestamp of the last block the indexer
 * processed. On a live chain both agree; on a devnet whose clock was moved forward the chain's time wins.
 */
export function windowEnd(lastBlockTime: bigint | null | undefined, now: Date = new Date()): bigint {
  const wall = BigInt(Math.floor(now.getTime() / 1000));
  return lastBlockTime !== null && lastBlockTime !== undefined && lastBlockTime > wall ? lastBlockTime : wall;
}
