import { buildGraph, type ChainGraph } from './chain-graph';
import { GraphKeeper } from './graph-keeper';
import { legsOf } from '../pools/legs';
import type { PoolSnapshot } from '../pools/pool-snapshot';
import { snapshot, stable, v2 } from '../../test/fixtures';

/** A graph's structure and order as searches walk it: per token pair, its legs (pool, direction); who trades into each token. */
const order = (g: ChainGraph) => ({
  legs: [...g.legs].map(([from, inner]) => [from, [...inner].map(([to, list]) => [to, list.map((l) => `${l.pool.address}:${l.pool.routerIndex}:${l.tokenIn}`)])]),
  into: [...g.into].map(([to, set]) => [to, [...set]]),
  tokens: [...g.tokens.keys()],
  poolCount: g.poolCount,
});

const withLegs = (pool: PoolSnapshot) => ({ pool, legs: legsOf(pool) });

describe('GraphKeeper', () => {
  const pools = [
    v2('WHYPE', 'USDC', 4000, 100_000, 30, 1),
    v2('WHYPE', 'USDC', 1000, 25_400, 10, 2),
    v2('PURR', 'WHYPE', 100_000, 1000, 30, 1),
    stable('USDC', 'USDT', 1_000_000, 1_150_000),
    v2('DAI', 'MEME', 1000, 1000, 30, 1),
  ];

  it('keeps the graph a whole build of the same pools gives, block after block, with the legs it was given', () => {
    const keeper = new GraphKeeper(999);
    expect(keeper.graph).toBeUndefined();
    const first = keeper.apply({ blockNumber: 1n, whole: true, pools: pools.map(withLegs) });
    expect(order(first)).toEqual(order(buildGraph(snapshot(...pools))));
    // A block moves one pool (out with its old snapshot, in with its new) and removes another of its pair.
    const moved = v2('WHYPE', 'USDC', 4100, 97_600, 30, 1);
    const added = withLegs(moved);
    const second = keeper.apply({ blockNumber: 2n, whole: false, removed: [pools[0], pools[1]], added: [added] });
    expect(second.blockNumber).toBe(2n);
    expect(keeper.graph).toBe(second);
    expect(order(second)).toEqual(order(buildGraph(snapshot(moved, ...pools.slice(2)))));
    expect(second.legs.get(moved.token0.toLowerCase())?.get(moved.token1.toLowerCase())).toContain(added.legs[0]);
    // The graph patched from stays as it was (searches may still be reading it).
    expect(order(first)).toEqual(order(buildGraph(snapshot(...pools))));
  });

  it('builds whole from the pools it keeps when a patch comes before any graph', () => {
    const keeper = new GraphKeeper(999);
    const graph = keeper.apply({ blockNumber: 3n, whole: false, removed: [], added: pools.slice(0, 2).map(withLegs) });
    expect(order(graph)).toEqual(order(buildGraph(snapshot(...pools.slice(0, 2)))));
  });
});
