/** Snapshot builders for the routing tests: readable pools with whole-token amounts. */
import type {
  CorePoolSnapshot,
  LaunchpadPoolSnapshot,
  PoolSnapshot,
  StablePoolSnapshot,
  UniswapV2PoolSnapshot,
} from '../src/pools/pool-snapshot';
import type { QuoteSample } from '../src/pools/core/core-samples';
import type { CurveState } from '../src/pools/launchpad/launchpad-curve';

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

/** The devnet's core pool fee parameters (bps; target weight 50%). */
export const CORE_FEES = { minFeeBps: 5n, baseFeeBps: 30n, maxFeeBps: 100n, slopeBps: 200n, targetWeight0: 5n * 10n ** 17n };

/**
 * A core (oracle-priced) pool as its contract quotes it (AmmMath: the input's value at the oracle prices less a
 * dynamic fee whose rate follows the inventory weight's move, refusing an output above the reserve), sampled on the
 * ladder aggregator-router lays once it knows the pool's bound: 7 inputs geometric from a millionth of the bound to
 * 1/32 of it, 1/16, 2/16, 3/16, 4/16, 6/16, 8/16, 10/16 and 12/16 of it, and 1 - 2^-4, 2^-6, 2^-8, 2^-10 of it.
 * Prices are USD per whole token.
 */
export function coreAmm(a: Symbol, b: Symbol, wholeA: number | string, wholeB: number | string, usdA: number, usdB: number): CorePoolSnapshot {
  const ONE = 10n ** 18n;
  const s = sorted(a, b, units(a, wholeA), units(b, wholeB));
  const aFirst = s.token0 === TOKENS[a];
  const price0 = BigInt(Math.round((aFirst ? usdA : usdB) * 1e9)) * 10n ** 9n;
  const price1 = BigInt(Math.round((aFirst ? usdB : usdA) * 1e9)) * 10n ** 9n;
  const unit0 = 10n ** BigInt(s.decimals0);
  const unit1 = 10n ** BigInt(s.decimals1);
  const ceilDiv = (x: bigint, y: bigint) => (x + y - 1n) / y;
  const quote = (token0In: boolean, amountIn: bigint): bigint | undefined => {
    let v0 = (s.reserve0 * price0) / unit0;
    let v1 = (s.reserve1 * price1) / unit1;
    const weight = (x: bigint, y: bigint) => (x + y === 0n ? CORE_FEES.targetWeight0 : (x * ONE) / (x + y));
    const before = weight(v0, v1);
    const valueIn = token0In ? (amountIn * price0) / unit0 : (amountIn * price1) / unit1;
    if (token0In) [v0, v1] = [v0 + valueIn, v1 > valueIn ? v1 - valueIn : 0n];
    else [v0, v1] = [v0 > valueIn ? v0 - valueIn : 0n, v1 + valueIn];
    const mid = (before + weight(v0, v1)) / 2n;
    const away = mid >= CORE_FEES.targetWeight0 ? token0In : !token0In;
    const distance = mid >= CORE_FEES.targetWeight0 ? mid - CORE_FEES.targetWeight0 : CORE_FEES.targetWeight0 - mid;
    const slope = CORE_FEES.slopeBps * 10n ** 14n;
    const base = CORE_FEES.baseFeeBps * 10n ** 14n;
    let rate = away ? base + ceilDiv(slope * distance, ONE) : base > (slope * distance) / ONE ? base - (slope * distance) / ONE : 0n;
    rate = rate < CORE_FEES.minFeeBps * 10n ** 14n ? CORE_FEES.minFeeBps * 10n ** 14n : rate > CORE_FEES.maxFeeBps * 10n ** 14n ? CORE_FEES.maxFeeBps * 10n ** 14n : rate;
    const net = amountIn - ceilDiv(amountIn * rate, ONE);
    const out = token0In ? (net * price0 * unit1) / (price1 * unit0) : (net * price1 * unit0) / (price0 * unit1);
    return out > (token0In ? s.reserve1 : s.reserve0) ? undefined : out;
  };
  const ladder = (token0In: boolean): QuoteSample[] => {
    let lo = 1n;
    let hi = 2n;
    while (quote(token0In, hi) !== undefined) [lo, hi] = [hi, hi * 2n];
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (quote(token0In, mid) !== undefined) lo = mid;
      else hi = mid;
    }
    const bound = lo;
    const low = bound / 1_000_000n || 1n;
    const ratio = Math.pow(Number(bound / 32n) / Number(low), 1 / 6);
    const inputs = Array.from({ length: 7 }, (_, i) => (i === 6 ? bound / 32n : BigInt(Math.floor(Number(low) * ratio ** i))));
    inputs.push(...[1n, 2n, 3n, 4n, 6n, 8n, 10n, 12n].map((k) => (bound * k) / 16n), ...[4n, 6n, 8n, 10n].map((k) => bound - (bound >> k)));
    return inputs.flatMap((amountIn) => {
      const amountOut = quote(token0In, amountIn);
      return amountOut === undefined ? [] : [{ amountIn, amountOut }];
    });
  };
  return {
    kind: 'core',
    address: nextAddress(),
    routerIndex: 0,
    routerName: 'Core',
    token0: s.token0,
    token1: s.token1,
    decimals0: s.decimals0,
    decimals1: s.decimals1,
    samples0to1: ladder(true),
    samples1to0: ladder(false),
  };
}
