/**
 * Random concentrated-liquidity pools for the on-chain differential test: a price anywhere in +-200,000 ticks
 * (now and then exactly on a tick), 1 to 6 positions on the tick spacing (narrow around the price, wide, one-sided
 * above or below, full range), random liquidity; and random swap sizes from dust to past what the pool holds.
 */
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK, type TickLiquidity } from '@dex/routing';
import { mulberry32, randomInt, type Random } from '@dex/testing';

export { mulberry32, type Random };

export const int = randomInt;
export const pick = <T>(random: Random, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

export interface Position {
  readonly lower: number;
  readonly upper: number;
  readonly liquidity: bigint;
}

export interface PoolPlan {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly tickSpacing: number;
  readonly positions: Position[];
}

/** A liquidity between 10^12 and 10^24, log-uniform. */
function randomLiquidity(random: Random): bigint {
  const digits = 12 + random() * 12;
  return BigInt(Math.floor(10 ** (digits - Math.floor(digits)) * 1e6)) * 10n ** BigInt(Math.floor(digits) - 6);
}

/** A pool on `tickSpacing`: its price and positions. */
export function randomPool(random: Random, tickSpacing: number): PoolPlan {
  const onGrid = random() < 0.15;
  let tick = int(random, -200_000, 200_000);
  if (onGrid) tick = Math.floor(tick / tickSpacing) * tickSpacing;
  const minUsable = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing;
  const maxUsable = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  const base = Math.floor(tick / tickSpacing) * tickSpacing;
  const clamp = (t: number) => Math.min(maxUsable, Math.max(minUsable, t));
  const positions: Position[] = [];
  for (let i = int(random, 1, 6); i > 0; i--) {
    const shape = random();
    let lower: number;
    let upper: number;
    if (shape < 0.3) [lower, upper] = [base - int(random, 0, 4) * tickSpacing, base + int(random, 1, 5) * tickSpacing];
    else if (shape < 0.55) [lower, upper] = [base - int(random, 10, 3000) * tickSpacing, base + int(random, 10, 3000) * tickSpacing];
    else if (shape < 0.75) {
      lower = base + int(random, 1, 400) * tickSpacing;
      upper = lower + int(random, 1, 800) * tickSpacing;
    } else if (shape < 0.95) {
      upper = base - int(random, 0, 400) * tickSpacing;
      lower = upper - int(random, 1, 800) * tickSpacing;
    } else [lower, upper] = [minUsable, maxUsable];
    [lower, upper] = [clamp(lower), clamp(upper)];
    if (upper > lower) positions.push({ lower, upper, liquidity: randomLiquidity(random) });
  }
  if (positions.length === 0) positions.push({ lower: clamp(base - tickSpacing), upper: clamp(base + tickSpacing), liquidity: randomLiquidity(random) });
  const a = getSqrtRatioAtTick(tick);
  const within = onGrid || random() < 0.1 ? 0 : random();
  const sqrtPriceX96 = a + BigInt(Math.floor(Number(getSqrtRatioAtTick(tick + 1) - a) * within));
  return { sqrtPriceX96, tick, tickSpacing, positions };
}

/** The ticks the positions initialize, sorted, with the net liquidity they should hold. */
export function ticksOf(positions: readonly Position[]): TickLiquidity[] {
  const net = new Map<number, bigint>();
  for (const p of positions) {
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity);
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity);
  }
  return [...net.entries()].sort((a, b) => a[0] - b[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }));
}

/** A random amount: dust (1 to 1000) now and then, else log-uniform from 1e-12 of `scale` to twice it. */
export function randomAmount(random: Random, scale: bigint): bigint {
  if (random() < 0.08 || scale < 1000n) return BigInt(int(random, 1, 1000));
  const f = 10 ** (-12 + random() * 12.3);
  const shift = 10n ** BigInt(Math.max(0, scale.toString().length - 15));
  const x = (BigInt(Math.floor((Number(scale / shift) * f) * 1e3)) * shift) / 1000n;
  return x > 0n ? x : 1n;
}
