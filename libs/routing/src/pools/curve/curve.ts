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

function curveModule<P extends CurvePairSnapshotBase>(kind: P['kind'], swapGas: number): PoolModule<P> {
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
    // Fitted by bench/gas-model (see gas-model.ts).
    gas: { swaps: { [kind]: swapGas }, swapKind: () => kind },
    routerSwap,
  };
}

export const curveStableswapNGModule = curveModule<CurveStableswapNGPairSnapshot>('curve-stableswap-ng', 120_000);
export const curveTwocryptoNGModule = curveModule<CurveTwocryptoNGPairSnapshot>('curve-twocrypto-ng', 160_000);

/** Inputs a Curve pool's direction is sampled at (`curveSampleLadder`). */
export const CURVE_LADDER_SIZE = 44;

/**
 * The inputs a direction of a Curve pool is sampled at, from the pool's holdings of the input coin (`balanceIn`, its
 * raw units): 16 inputs geometric from a millionth of it to 5% (where a stable pool's price barely moves, and a
 * volatile one's moves along its curve), then 28 geometric up to three times it, where the pool runs out of the
 * output coin and the price bends most. The pool's own samples end where it refuses an input or stops paying more.
 */
export function curveSampleLadder(balanceIn: bigint): bigint[] {
  if (balanceIn <= 0n) return [];
  const low = balanceIn / 1_000_000n > 0n ? balanceIn / 1_000_000n : 1n;
  const bend = balanceIn / 20n > low ? balanceIn / 20n : low + 1n;
  return [...geometricLadder(low, bend, 16), ...geometricLadder(bend, balanceIn * 3n, CURVE_LADDER_SIZE - 15).slice(1)];
}
