/**
 * What the engine needs to know about each pool of a chain: a plain object the service fills from its
 * in-memory state (indexer events, chain reads, `estimateSwapBatch` samples). No I/O here.
 */
import type { CurveState } from './launchpad-curve';
import type { QuoteSample } from './core-samples';

/** The source kinds RouterV2 executes. */
export type PoolKind = 'uniswap-v2' | 'stable' | 'core' | 'launchpad';

interface PoolSnapshotBase {
  readonly kind: PoolKind;
  /** The pool address RouterV2 calls (for `launchpad`: the launchpad contract). */
  readonly address: string;
  /** The liquidity source's index on RouterV2. */
  readonly routerIndex: number;
  /** The source's display name (`GET /dexes`), passed through to the hop swaps. */
  readonly routerName?: string;
  /** The pool's tokens, token0 < token1 as the pool sorts them. */
  readonly token0: string;
  readonly token1: string;
  readonly decimals0: number;
  readonly decimals1: number;
}

/** A Uniswap V2 pair: reserves and the source's fee. */
export interface UniswapV2PoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'uniswap-v2';
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly feeBps: number;
}

/** A Solidly-style stable pool: reserves and the factory's `swapFeeBps`. */
export interface StablePoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'stable';
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly feeBps: number;
}

/**
 * A core AMM pool: `estimateSwapBatch` samples per direction (a ladder of inputs from small to the most worth
 * routing; the smallest should be small against the pool, it gives the spot rate for price impact).
 */
export interface CorePoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'core';
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
}

/** A launchpad token's bonding curve against the wrapped native token. */
export interface LaunchpadPoolSnapshot extends PoolSnapshotBase {
  readonly kind: 'launchpad';
  /** The wrapped native token: token0 or token1; the other is the launched token. */
  readonly nativeToken: string;
  readonly curve: CurveState;
}

export type PoolSnapshot = UniswapV2PoolSnapshot | StablePoolSnapshot | CorePoolSnapshot | LaunchpadPoolSnapshot;

/** Every pool of one chain at one block. */
export interface RoutingSnapshot {
  readonly chainId: number;
  readonly blockNumber?: bigint;
  readonly pools: readonly PoolSnapshot[];
}

/** The pool's fee in basis points when it has a fixed one (undefined for core pools: their fee is dynamic). */
export function poolFeeBps(pool: PoolSnapshot): number | undefined {
  switch (pool.kind) {
    case 'uniswap-v2':
    case 'stable':
      return pool.feeBps;
    case 'launchpad':
      return Number(pool.curve.feeBps ?? 100n);
    case 'core':
      return undefined;
  }
}
