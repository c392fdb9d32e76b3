/**
 * What the engine needs to know about each pool of a chain: a plain object the service fills from its in-memory
 * state (indexer events, chain reads, `estimateSwapBatch` samples). No I/O here. Each kind's snapshot is declared by
 * its module (`pools/<kind>/`), the union by the registry.
 */
import type { PoolSnapshot } from './registry';

export type { PoolSnapshotBase } from './pool-module';
export type { AlgebraPoolSnapshot, CorePoolSnapshot, LaunchpadPoolSnapshot, PoolKind, PoolSnapshot, StablePoolSnapshot, UniswapV2PoolSnapshot, UniswapV3PoolSnapshot, UniswapV4PoolSnapshot } from './registry';

/** Every pool of one chain at one block. */
export interface RoutingSnapshot {
  readonly chainId: number;
  readonly blockNumber?: bigint;
  readonly pools: readonly PoolSnapshot[];
}
