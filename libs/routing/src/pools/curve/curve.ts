/**
 * Curve's NG pools (StableswapNG, 2 to 8 coins; TwocryptoNG, 2 coins), quoted only by their own `get_dy`: the engine
 * never models their maths (NG's dynamic off-peg fee, rate oracles and rebasing coins; TwocryptoNG's repegging price
 * scale). Each coin pair i < j of a pool is a pool of its own to the engine, named by its pair id (the pool, then i
 * and j), whose token0 and token1 are the pool's coins i and j; its legs are the samples of `get_dy(i, j, ·)` and
 * `get_dy(j, i, ·)` read at each block the pool changed (`sampledLegs`, as core pools'), and a route's swaps through
 * it are quoted again by the pool at the route's block. RouterV2 calls the pool itself (`routerSwap`).
 */
import { sampledLegs } from '../core/core';
import { geometricLadder, type QuoteSample } from '../core/core-samples';
import type { PoolModule, PoolSnapshotBase, RouterSwapTarget } from '../pool-module';

/** RouterV2's `Swap.data` for a Curve swap paid through an allowance and `exchange` (an NG pool holding a rebasing coin). */
export const CURVE_EXCHANGE_DATA = `0x${'0'.repeat(63)}1` as const;

/** One coin pair of a Curve NG pool. */
export interface CurvePairSnapshotBase extends PoolSnapshotBase {
  readonly kind: 'curve-stableswap-ng' | 'curve-twocrypto-ng';
  /** The pool's contract (what RouterV2 calls); `address` is the pair's id. */
  readonly pool: string;
  /** The coins' indexes in the pool: token0 is coin i, token1 coin j (i < j). */
  readonly i: number;
  readonly j: number;
  /** `get_dy(i, j, ·)` and `get_dy(j, i, ·)` samples at the pool's last change. */
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
  /**
   * The pool takes `exchange_received` (paid by a transfer, then told what arrived): every TwocryptoNG pool, and a
   * StableswapNG pool holding no rebasing coin; else RouterV2 pays it through an allowance and `exchange`.
   */
  readonly exchangeReceived: boolean;
  /** The pool's base fee, 1e10 = 100% (StableswapNG's `fee()`; TwocryptoNG's `fee()` at its state, which moves with it). */
  readonly fee?: bigint;
  /** The amplification now (`A()`). */
  readonly A?: bigint;
  /** The pool's coin count. */
  readonly nCoins?: number;
}

export interface CurveStableswapNGPairSnapshot extends CurvePairSnapshotBase {
  readonly kind: 'curve-stableswap-ng';
}

export interface CurveTwocryptoNGPairSnapshot extends CurvePairSnapshotBase {
  readonly kind: 'curve-twocrypto-ng';
}

function routerSwap(pool: CurvePairSnapshotBase): RouterSwapTarget {
  return { pool: pool.pool, data: pool.exchangeReceived ? '0x' : CURVE_EXCHANGE_DATA, poolId: pool.address };
}

/** A Curve fee (1e10 = 100%) in pips (1e6 = 100%), as `/pools` and the hop swaps report fees of the kinds counting in them. */
const feePips = (pool: CurvePairSnapshotBase): number | undefined => (pool.fee === undefined ? undefined : Number(pool.fee / 10_000n));

function curveModule<P extends CurvePairSnapshotBase>(kind: P['kind'], swaps: Readonly<Record<string, number>>, swapKind: (pool: P) => string): PoolModule<P> {
  return {
    kind,
    legsOf: (pool) => sampledLegs(pool, pool.samples0to1, pool.samples1to0),
    // The fee is the pool's own maths (dynamic off peg, or with the state): no fixed figure to plan with.
    feeBps: () => undefined,
    fee: feePips,
    tickSpacing: () => undefined,
    stable: false,
    refineSplits: () => true,
    quotedOnChain: () => true,
    // RouterV2 pays the pool what arrived (both `exchange_received` and `exchange` price the pool's balance change),
    // but the samples quote the amount sent: a route on a token that takes a fee keeps to the kinds priced on it.
    tradesWhatArrives: false,
    transfersTokens: true,
    gas: { swaps, swapKind },
    routerSwap,
  };
}

// Fitted by bench/gas-model on executed RouterV2 transactions through the devnet's stand-ins (the factory's
// get_coin_indices, the transfer to the pool, exchange_received). A StableswapNG swap's maths loop over the pool's
// coins: its 3- and 4-coin pools are kinds of their own, and a pool of more coins is counted as one of 4 (it costs more).
const NG_SWAPS = { 'curve-stableswap-ng': 107_364, 'curve-stableswap-ng-3': 120_328, 'curve-stableswap-ng-4': 129_705 };
export const curveStableswapNGModule = curveModule<CurveStableswapNGPairSnapshot>('curve-stableswap-ng', NG_SWAPS, (pool) =>
  (pool.nCoins ?? 2) > 2 ? `curve-stableswap-ng-${Math.min(pool.nCoins!, 4)}` : 'curve-stableswap-ng',
);
export const curveTwocryptoNGModule = curveModule<CurveTwocryptoNGPairSnapshot>('curve-twocrypto-ng', { 'curve-twocrypto-ng': 140_743 }, () => 'curve-twocrypto-ng');

/** Inputs a Curve pool's direction is sampled at (`curveSampleLadder`). */
export const CURVE_LADDER_SIZE = 56;

/**
 * The inputs a direction of a Curve pool is sampled at, from the pool's holdings of the input coin (`balanceIn`, its
 * raw units): 28 inputs geometric from a millionth of it to 5% (where a stable pool's price barely moves, and a
 * volatile one's moves along its curve: each 1.6 times the last), then 28 geometric up to three times it, where the
 * pool runs out of the output coin and the price bends most. The pool's own samples end where it refuses an input or stops paying more.
 */
export function curveSampleLadder(balanceIn: bigint): bigint[] {
  if (balanceIn <= 0n) return [];
  const low = balanceIn / 1_000_000n > 0n ? balanceIn / 1_000_000n : 1n;
  const bend = balanceIn / 20n > low ? balanceIn / 20n : low + 1n;
  return [...geometricLadder(low, bend, 28), ...geometricLadder(bend, balanceIn * 3n, CURVE_LADDER_SIZE - 27).slice(1)];
}

/** Inputs added to each direction's ladder once its first samples are in (`refineSampleLadder`). */
export const CURVE_LADDER_REFINE = 24;

/**
 * Up to `extra` more inputs for a direction sampled at `samples` (ascending inputs, rising outputs: a pool's quotes up
 * to where it refuses or stops paying more), put where the samples' chords fall furthest under the pool's curve: a
 * concave curve lies under no chord, and between samples a and b its chord falls short by at most about
 * (s_before - s_after) (b - a) / 4, s_before and s_after the chords on either side, which splitting the segment in m
 * parts divides by m^2. Each extra input goes, one at a time, to the segment whose share of that bound, relative to its
 * output, is the largest; a segment's inputs split it evenly. For a stable pool, whose price holds until the output
 * coin runs out and then falls sharply, they gather at that bend.
 */
export function refineSampleLadder(samples: readonly QuoteSample[], extra: number): bigint[] {
  if (samples.length < 3 || extra <= 0) return [];
  const x = samples.map((s) => Number(s.amountIn));
  const y = samples.map((s) => Number(s.amountOut));
  const slopes = x.slice(1).map((_, k) => (y[k + 1] - y[k]) / (x[k + 1] - x[k]));
  const bounds = slopes.map((_, k) => {
    const before = k > 0 ? slopes[k - 1] : y[0] / x[0];
    const after = k + 1 < slopes.length ? slopes[k + 1] : slopes[k];
    return y[k + 1] > 0 ? (Math.max(0, before - after) * (x[k + 1] - x[k])) / 4 / y[k + 1] : 0;
  });
  const parts = bounds.map(() => 1);
  for (let n = 0; n < extra; n++) {
    let best = -1;
    for (let k = 0; k < bounds.length; k++) if (bounds[k] > 0 && (best < 0 || bounds[k] / parts[k] ** 2 > bounds[best] / parts[best] ** 2)) best = k;
    if (best < 0) break;
    parts[best] += 1;
  }
  const out: bigint[] = [];
  parts.forEach((m, k) => {
    const [a, b] = [samples[k].amountIn, samples[k + 1].amountIn];
    for (let p = 1; p < m; p++) {
      const at = a + ((b - a) * BigInt(p)) / BigInt(m);
      if (at > a && at < b) out.push(at);
    }
  });
  return out;
}
