/**
 * Concentrated-liquidity pool states for the tests: positions laid out by hand (`concentrated`) or at random
 * (`randomPositions`, `randomConcentratedState`): narrow around the price, wide, one-sided above and below, full
 * range, on a fee tier's tick spacing.
 */
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../src/pools/concentrated/tick-math';
import { type TickLiquidity } from '../src/pools/concentrated/tick-table';
import type { AlgebraPoolSnapshot, UniswapV3PoolSnapshot, UniswapV4PoolSnapshot } from '../src/pools/pool-snapshot';
import { DECIMALS, TOKENS, type Symbol } from './fixtures';

/** A liquidity position: [lowerTick, upperTick), liquidity. */
export interface Position {
  readonly lower: number;
  readonly upper: number;
  readonly liquidity: bigint;
}

/** Uniswap V3's fee tiers (pips) and their tick spacings. */
export const FEE_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
] as const;

/** The initialized ticks of positions, sorted, with their net liquidity (ticks whose net is 0 stay initialized). */
export function ticksOf(positions: readonly Position[]): TickLiquidity[] {
  const net = new Map<number, bigint>();
  for (const p of positions) {
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity);
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity);
  }
  return [...net.entries()].sort((a, b) => a[0] - b[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }));
}

/** The active liquidity at a tick: positions with lower <= tick < upper. */
export const activeLiquidity = (positions: readonly Position[], tick: number): bigint =>
  positions.reduce((sum, p) => (p.lower <= tick && tick < p.upper ? sum + p.liquidity : sum), 0n);

export interface ConcentratedState {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly ticks: TickLiquidity[];
  readonly positions: Position[];
}

/** A state at `tick` (the price a fraction `within` of the way to the next tick's) with positions. */
export function stateAt(tick: number, positions: Position[], fee: number, tickSpacing: number, within = 0.5): ConcentratedState {
  const a = getSqrtRatioAtTick(tick);
  const b = getSqrtRatioAtTick(tick + 1);
  const sqrtPriceX96 = a + BigInt(Math.floor(Number(b - a) * within));
  return { sqrtPriceX96, tick, liquidity: activeLiquidity(positions, tick), fee, tickSpacing, ticks: ticksOf(positions), positions };
}

/** A pool snapshot of a kind for a state, between two fixture tokens. */
export function concentrated<K extends 'uniswap-v3' | 'algebra'>(
  kind: K,
  a: Symbol,
  b: Symbol,
  state: ConcentratedState,
  routerIndex = kind === 'algebra' ? 6 : 5,
): K extends 'algebra' ? AlgebraPoolSnapshot : UniswapV3PoolSnapshot {
  const [t0, t1] = BigInt(TOKENS[a]) < BigInt(TOKENS[b]) ? [a, b] : [b, a];
  const { positions: _, ...fields } = state;
  return {
    kind,
    address: `0x${(kind === 'algebra' ? 0xa1 : 0xb3).toString(16)}${'0'.repeat(36)}${routerIndex.toString(16).padStart(2, '0')}`,
    routerIndex,
    routerName: kind,
    token0: TOKENS[t0],
    token1: TOKENS[t1],
    decimals0: DECIMALS[t0],
    decimals1: DECIMALS[t1],
    ...fields,
  } as unknown as K extends 'algebra' ? AlgebraPoolSnapshot : UniswapV3PoolSnapshot;
}

/** The native coin's currency in a V4 pool key. */
export const NATIVE = '0x0000000000000000000000000000000000000000';

/** What a V4 pool has beside its state: its key's currencies (the native coin for `native`), hook, fees. */
export interface V4Options {
  /** `a` is the native coin, traded as the wrapped `a` (WHYPE): currency0 is address(0), token0 WHYPE. */
  readonly native?: boolean;
  readonly protocolFee?: number;
  readonly dynamicFee?: boolean;
  readonly hooks?: string;
}

/**
 * A Uniswap V4 pool snapshot for a state: keyed by a made-up PoolId, currencies sorted as the PoolManager sorts them
 * (the native coin first), tokens in that order (so WHYPE, standing for the native coin, may be token0 above token1).
 */
export function uniswapV4(a: Symbol, b: Symbol, state: ConcentratedState, options: V4Options = {}, routerIndex = 8): UniswapV4PoolSnapshot {
  const [t0, t1] = options.native || BigInt(TOKENS[a]) < BigInt(TOKENS[b]) ? [a, b] : [b, a];
  const { positions: _, ...fields } = state;
  return {
    kind: 'uniswap-v4',
    address: `0x${'4'.repeat(62)}${routerIndex.toString(16).padStart(2, '0')}`,
    routerIndex,
    routerName: 'uniswap-v4',
    token0: TOKENS[t0],
    token1: TOKENS[t1],
    decimals0: DECIMALS[t0],
    decimals1: DECIMALS[t1],
    poolManager: '0x0000000000000000000000000000000000000f4f',
    currency0: options.native ? NATIVE : TOKENS[t0],
    currency1: TOKENS[t1],
    dynamicFee: options.dynamicFee ?? false,
    hooks: options.hooks ?? NATIVE,
    protocolFee: options.protocolFee ?? 0,
    ...fields,
  };
}

/** Uniform random source in [0, 1). */
export type Random = () => number;

/** A small deterministic generator (mulberry32). */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (random: Random, lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));

/** A liquidity between 10^lo and 10^hi, log-uniform. */
const randomLiquidity = (random: Random, lo = 12, hi = 24): bigint => {
  const digits = lo + random() * (hi - lo);
  return BigInt(Math.floor(10 ** (digits - Math.floor(digits)) * 1e6)) * 10n ** BigInt(Math.max(0, Math.floor(digits) - 6));
};

/**
 * 1 to 6 random positions around `tick` on `tickSpacing`: narrow around the price, wide, one-sided above or
 * below (leaving gaps without liquidity), and now and then full range.
 */
export function randomPositions(random: Random, tick: number, tickSpacing: number, fullRange = true): Position[] {
  const minUsable = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing;
  const maxUsable = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  const base = Math.floor(tick / tickSpacing) * tickSpacing;
  const clamp = (t: number) => Math.min(maxUsable, Math.max(minUsable, t));
  const positions: Position[] = [];
  const count = int(random, 1, 6);
  for (let i = 0; i < count; i++) {
    const shape = random();
    let lower: number;
    let upper: number;
    if (shape < 0.3) {
      lower = base - int(random, 0, 4) * tickSpacing;
      upper = base + int(random, 1, 5) * tickSpacing;
    } else if (shape < 0.55) {
      lower = base - int(random, 10, 3000) * tickSpacing;
      upper = base + int(random, 10, 3000) * tickSpacing;
    } else if (shape < 0.75) {
      lower = base + int(random, 1, 400) * tickSpacing;
      upper = lower + int(random, 1, 800) * tickSpacing;
    } else if (shape < 0.95) {
      upper = base - int(random, 0, 400) * tickSpacing;
      lower = upper - int(random, 1, 800) * tickSpacing;
    } else if (fullRange) {
      lower = minUsable;
      upper = maxUsable;
    } else continue;
    lower = clamp(lower);
    upper = clamp(upper);
    if (upper <= lower) continue;
    positions.push({ lower, upper, liquidity: randomLiquidity(random) });
  }
  if (positions.length === 0) positions.push({ lower: clamp(base - tickSpacing), upper: clamp(base + tickSpacing), liquidity: randomLiquidity(random) });
  return positions;
}

/**
 * A random pool state on a random fee tier: tick anywhere in +-200,000, the price inside its tick (now and then
 * exactly on it), random positions; full-range positions only on tick spacings of at least `fullRangeSpacing`.
 */
export function randomConcentratedState(random: Random, fullRangeSpacing = 1): ConcentratedState {
  const { fee, tickSpacing } = FEE_TIERS[int(random, 0, FEE_TIERS.length - 1)];
  const onGrid = random() < 0.15;
  let tick = int(random, -200_000, 200_000);
  if (onGrid) tick = Math.floor(tick / tickSpacing) * tickSpacing;
  const positions = randomPositions(random, tick, tickSpacing, tickSpacing >= fullRangeSpacing);
  return stateAt(tick, positions, fee, tickSpacing, onGrid || random() < 0.1 ? 0 : random());
}

/** A random amount: dust (1 to 1000 wei) now and then, else log-uniform from 1e-12 of `scale` to twice it. */
export function randomAmount(random: Random, scale: bigint): bigint {
  if (random() < 0.08 || scale < 1000n) return BigInt(int(random, 1, 1000));
  const f = 10 ** (-12 + random() * 12.3);
  const digits = scale.toString().length;
  const top = Number(scale) / 10 ** Math.max(0, digits - 15);
  const x = BigInt(Math.floor(top * f * 1e3)) * 10n ** BigInt(Math.max(0, digits - 15)) / 1000n;
  return x > 0n ? x : 1n;
}
