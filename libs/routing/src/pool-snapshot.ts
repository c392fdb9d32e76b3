/**
 * What the engine needs to know about each pool of a chain: a plain object the service fills from its
 * in-memory state (indexer events, chain reads, `estimateSwapBatch` samples). No I/O here. Each kind's
 * snapshot is declared by its module (`pools/`).
 */
import type { AlgebraPoolSnapshot } from './pools/algebra';
import type { CorePoolSnapshot } from './pools/core';
import type { LaunchpadPoolSnapshot } from './pools/launchpad';
import type { StablePoolSnapshot } from './pools/stable';
import type { UniswapV2PoolSnapshot } from './pools/uniswap-v2';
import type { UniswapV3PoolSnapshot } from './pools/uniswap-v3';

export type { AlgebraPoolSnapshot, CorePoolSnapshot, LaunchpadPoolSnapshot, StablePoolSnapshot, UniswapV2PoolSnapshot, UniswapV3PoolSnapshot };

/** What every pool snapshot holds; a kind's snapshot adds its state. */
export interface PoolSnapshotBase {
  readonly kind: string;
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

export type PoolSnapshot =
  | UniswapV2PoolSnapshot
  | StablePoolSnapshot
  | CorePoolSnapshot
  | LaunchpadPoolSnapshot
  | UniswapV3PoolSnapshot
  | AlgebraPoolSnapshot;

/** The source kinds RouterV2 executes. */
export type PoolKind = PoolSnapshot['kind'];

/** Every pool of one chain at one block. */
export interface RoutingSnapshot {
  readonly chainId: number;
  readonly blockNumber?: bigint;
  readonly pools: readonly PoolSnapshot[];
}
