/**
 * A chain's graph kept from block to block, wherever one is kept (the aggregator's liquidity view, each route-search
 * worker): each pool's legs built once, the graph patched with the pools a block changed (`patchGraph`), or built
 * whole from every pool.
 */
import type { PoolSnapshot } from '../pools/registry';
import { buildGraph, patchGraph, poolKey, type ChainGraph, type PoolLegs } from './chain-graph';

/** A change to the kept graph: every pool anew, or the pools taken out and put in (a pool that changed is in both). */
export type GraphChange =
  | { readonly blockNumber: bigint; readonly whole: true; readonly pools: readonly PoolLegs[] }
  | { readonly blockNumber: bigint; readonly whole: false; readonly removed: readonly PoolSnapshot[]; readonly added: readonly PoolLegs[] };

export class GraphKeeper {
  /** The legs the graph holds, by pool (`poolKey`). */
  private readonly pools = new Map<string, PoolLegs>();
  private latest?: ChainGraph;

  constructor(readonly chainId: number) {}

  /** The graph as of the last change; undefined before the first. */
  get graph(): ChainGraph | undefined {
    return this.latest;
  }

  /** The graph after the change (a change that is not whole needs a graph to patch: else it is built whole from what is kept). */
  apply(change: GraphChange): ChainGraph {
    const graph = change.whole ? this.rebuild(change.blockNumber, change.pools) : this.patch(change.blockNumber, change.removed, change.added);
    this.latest = graph;
    return graph;
  }

  private rebuild(blockNumber: bigint, pools: readonly PoolLegs[]): ChainGraph {
    this.pools.clear();
    for (const entry of pools) this.pools.set(poolKey(entry.pool), entry);
    const snapshots = pools.map((p) => p.pool);
    return buildGraph({ chainId: this.chainId, blockNumber, pools: snapshots }, (p) => this.pools.get(poolKey(p))!.legs);
  }

  private patch(blockNumber: bigint, removedPools: readonly PoolSnapshot[], added: readonly PoolLegs[]): ChainGraph {
    const removed: PoolLegs[] = [];
    for (const pool of removedPools) {
      const key = poolKey(pool);
      const kept = this.pools.get(key);
      if (kept) removed.push(kept);
      this.pools.delete(key);
    }
    for (const entry of added) this.pools.set(poolKey(entry.pool), entry);
    if (!this.latest) return this.rebuild(blockNumber, [...this.pools.values()]);
    return patchGraph(this.latest, { blockNumber, removed, added });
  }
}
