/** Snapshot builders for the routing tests: readable pools with whole-token amounts. */
import type {
  CorePoolSnapshot,
  LaunchpadPoolSnapshot,
  PoolSnapshot,
  StablePoolSnapshot,
  UniswapV2PoolSnapshot,
} from '../src/pool-snapshot';
import type { QuoteSample } from '../src/core-samples';
import type { CurveState } from '../src/launchpad-curve';

export const TOKENS = {
  WHYPE: '0x1000000000000000000000000000000000000001',
  USDC: '0x2000000000000000000000000000000000000002',
  USDT: '0x3000000000000000000000000000000000000003',
  PURR: '0x4000000000000000000000000000000000000004',
  DAI: '0x5000000000000000000000000000000000000005',
  MEME: '0x6000000000000000000000000000000000000006',
} as const;
export type Symbol = keyof typeof TOKENS;
export const DECIMALS: Record<Symbol, number> = { WHYPE: 18, USDC: 6, USDT: 6, PURR: 18, DAI: 18, MEME: 6 };

export const units = (symbol: Symbol, whole: number | bigint | string): bigint => {
  const [int, frac = ''] = String(whole).split('.');
  const d = DECIMALS[symbol];
  return BigInt(int) * 10n ** BigInt(d) + BigInt((frac + '0'.repeat(d)).slice(0, d) || '0');
};

let counter = 0;
const nextAddress = (): string => `0x${(0xa000 + ++counter).toString(16).padStart(40, '0')}`;

function sorted(a: Symbol, b: Symbol, amountA: bigint, amountB: bigint) {
  const aFirst = BigInt(TOKENS[a]) < BigInt(TOKENS[b]);
  return aFirst
    ? { token0: TOKENS[a], token1: TOKENS[b], decimals0: DECIMALS[a], decimals1: DECIMALS[b], reserve0: amountA, reserve1: amountB }
    : { token0: TOKENS[b], token1: TOKENS[a], decimals0: DECIMALS[b], decimals1: DECIMALS[a], reserve0: amountB, reserve1: amountA };
}

export function v2(a: Symbol, b: Symbol, wholeA: number | string, wholeB: number | string, feeBps = 30, routerIndex = 1): UniswapV2PoolSnapshot {
  return { kind: 'uniswap-v2', address: nextAddress(), routerIndex, routerName: `V2 #${routerIndex}`, feeBps, ...sorted(a, b, units(a, wholeA), units(b, wholeB)) };
}

export function stable(a: Symbol, b: Symbol, wholeA: number | string, wholeB: number | string, feeBps = 4, routerIndex = 3): StablePoolSnapshot {
  return { kind: 'stable', address: nextAddress(), routerIndex, routerName: 'StableSwap', feeBps, ...sorted(a, b, units(a, wholeA), units(b, wholeB)) };
}

/** A core pool sampled from a given output function per direction (a ladder of `points` inputs). */
export function core(a: Symbol, b: Symbol, outAB: (x: bigint) => bigint, outBA: (x: bigint) => bigint, maxA: bigint, maxB: bigint, points = 24): CorePoolSnapshot {
  const ladder = (max: bigint, f: (x: bigint) => bigint): QuoteSample[] =>
    Array.from({ length: points }, (_, i) => {
      const amountIn = (max * 10n ** BigInt(i)) / 10n ** BigInt(points - 1) + 1n;
      return { amountIn, amountOut: f(amountIn) };
    });
  const s = sorted(a, b, 0n, 0n);
  const aFirst = s.token0 === TOKENS[a];
  return {
    kind: 'core',
    address: nextAddress(),
    routerIndex: 0,
    routerName: 'Core',
    token0: s.token0,
    token1: s.token1,
    decimals0: s.decimals0,
    decimals1: s.decimals1,
    samples0to1: aFirst ? ladder(maxA, outAB) : ladder(maxB, outBA),
    samples1to0: aFirst ? ladder(maxB, outBA) : ladder(maxA, outAB),
  };
}

export function launchpad(token: Symbol, curve: CurveState): LaunchpadPoolSnapshot {
  const s = sorted('WHYPE', token, 0n, 0n);
  return {
    kind: 'launchpad',
    address: '0x9999999999999999999999999999999999999999',
    routerIndex: 4,
    routerName: 'Launchpad',
    token0: s.token0,
    token1: s.token1,
    decimals0: s.decimals0,
    decimals1: s.decimals1,
    nativeToken: TOKENS.WHYPE,
    curve,
  };
}

export const snapshot = (...pools: PoolSnapshot[]) => ({ chainId: 999, pools });

/** A deterministic 64-bit LCG. */
export function rng(seed: bigint) {
  let s = seed;
  return {
    next(): bigint {
      s = (s * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return s;
    },
    /** Uniform in [0, 1). */
    float(): number {
      return Number(this.next() >> 11n) / 2 ** 53;
    },
  };
}
