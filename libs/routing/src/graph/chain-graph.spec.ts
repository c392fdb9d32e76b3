import { admits, buildGraph, InvalidSnapshotError, pairLegs, patchGraph, type ChainGraph } from './chain-graph';
import { legsOf, type Leg } from '../pools/legs';
import type { PoolSnapshot } from '../pools/pool-snapshot';
import { candidatePaths, enumeratePaths } from '../search/candidate-paths';
import { pairRatesOf } from '../optimum/flow-graph';
import { snapshot, stable, TOKENS, v2, core, launchpad } from '../../test/fixtures';

describe('graph and candidate paths', () => {
  const pools = [
    v2('WHYPE', 'USDC', 4000, 100_000, 30, 1),
    v2('WHYPE', 'USDC', 1000, 25_400, 10, 2),
    v2('WHYPE', 'USDC', 10, 250, 30, 5),
    v2('PURR', 'WHYPE', 100_000, 1000, 30, 1),
    v2('USDT', 'WHYPE', 37_350, 1500, 10, 2),
    stable('USDC', 'USDT', 1_000_000, 1_150_000),
    stable('USDC', 'DAI', 600_000, 400_000),
    v2('DAI', 'MEME', 1000, 1000, 30, 1),
  ];
  const graph = buildGraph(snapshot(...pools));

  it('has a leg per pool and direction, deepest first', () => {
    const legs = pairLegs(graph, TOKENS.WHYPE, TOKENS.USDC, undefined, 10);
    expect(legs.map((l) => l.pool.routerIndex)).toEqual([1, 2, 5]);
    expect(pairLegs(graph, TOKENS.USDC, TOKENS.WHYPE, undefined, 2)).toHaveLength(2);
    expect(pairLegs(graph, TOKENS.WHYPE.toUpperCase().replace('0X', '0x'), TOKENS.USDC, undefined, 10)).toHaveLength(3);
    expect(graph.poolCount).toBe(pools.length);
  });

  it('gives the last place to a cheaper shallow pool when the deeper ones are dearer', () => {
    const g = buildGraph(snapshot(v2('WHYPE', 'USDC', 4000, 100_000, 30, 1), v2('WHYPE', 'USDC', 3000, 75_000, 30, 2), v2('WHYPE', 'USDC', 10, 250, 1, 6)));
    expect(pairLegs(g, TOKENS.WHYPE, TOKENS.USDC, undefined, 2).map((l) => l.pool.routerIndex)).toEqual([1, 6]);
    expect(pairLegs(g, TOKENS.WHYPE, TOKENS.USDC, undefined, 1).map((l) => l.pool.routerIndex)).toEqual([1]);
  });

  it('filters sources by routerIndex, include winning over exclude', () => {
    expect(admits({ includeDexes: [1] }, 1)).toBe(true);
    expect(admits({ includeDexes: [1] }, 2)).toBe(false);
    expect(admits({ excludeDexes: [1] }, 1)).toBe(false);
    expect(admits({ includeDexes: [2], excludeDexes: [2] }, 2)).toBe(true);
    expect(pairLegs(graph, TOKENS.WHYPE, TOKENS.USDC, { excludeDexes: [1, 5] }, 10).map((l) => l.pool.routerIndex)).toEqual([2]);
    const pool = '0x00000000000000000000000000000000000000aa';
    expect(admits({ excludePools: [pool] }, 1, '0x00000000000000000000000000000000000000AA')).toBe(false);
    expect(admits({ includeDexes: [1], excludePools: [pool] }, 1, pool)).toBe(false);
    expect(admits({ excludePools: [pool] }, 1, '0x00000000000000000000000000000000000000bb')).toBe(true);
  });

  it('skips pools that cannot trade and rejects duplicates', () => {
    const empty = { ...v2('WHYPE', 'DAI', 1, 1), reserve0: 0n };
    const dry = launchpad('MEME', { nativeReserve: 300n * 10n ** 18n, tokenReserve: 1_125_000_000_000_000n, tokensForSale: 750_000_000_000_000n });
    const g = buildGraph(snapshot(empty, dry, core('WHYPE', 'PURR', () => 0n, () => 0n, 10n, 10n, 3)));
    expect(pairLegs(g, TOKENS.WHYPE, TOKENS.DAI, undefined, 4)).toHaveLength(0);
    // A fresh curve can be bought from but not sold to (nothing raised yet).
    expect(pairLegs(g, TOKENS.WHYPE, TOKENS.MEME, undefined, 4)).toHaveLength(1);
    expect(pairLegs(g, TOKENS.MEME, TOKENS.WHYPE, undefined, 4)).toHaveLength(0);
    expect(pairLegs(g, TOKENS.WHYPE, TOKENS.PURR, undefined, 4)).toHaveLength(0);
    expect(() => buildGraph(snapshot(pools[0], pools[0]))).toThrow(InvalidSnapshotError);
  });

  it('enumerates direct paths only without multi-hop', () => {
    const paths = enumeratePaths(graph, TOKENS.WHYPE, TOKENS.USDC, { maxHops: 1 });
    expect(paths).toHaveLength(1);
    expect(paths[0].hops[0]).toHaveLength(3);
    expect(enumeratePaths(graph, TOKENS.WHYPE, TOKENS.USDC, { maxHops: 1, directPools: 2 })[0].hops[0]).toHaveLength(2);
    // The direct path splits across every pool of the pair, beyond the pools per pair of the other paths' hops.
    expect(enumeratePaths(graph, TOKENS.WHYPE, TOKENS.USDC, { maxHops: 1, poolsPerPair: 2 })[0].hops[0]).toHaveLength(3);
  });

  it('enumerates multi-hop paths up to 3 hops without repeated tokens, shortest first', () => {
    const paths = enumeratePaths(graph, TOKENS.PURR, TOKENS.MEME, { maxHops: 3 });
    expect(paths.map((p) => p.tokens.length - 1)).toEqual([...paths.map((p) => p.tokens.length - 1)].sort());
    // PURR -> WHYPE -> USDC -> DAI -> MEME needs 4 hops: none.
    expect(paths).toHaveLength(0);
    const toDai = enumeratePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 3 });
    expect(toDai.map((p) => p.tokens)).toEqual([[TOKENS.PURR, TOKENS.WHYPE, TOKENS.USDC, TOKENS.DAI].map((t) => t.toLowerCase())]);
    for (const p of enumeratePaths(graph, TOKENS.USDT, TOKENS.USDC, { maxHops: 3 })) {
      expect(new Set(p.tokens).size).toBe(p.tokens.length);
      expect(p.hops).toHaveLength(p.tokens.length - 1);
    }
    expect(enumeratePaths(graph, TOKENS.USDT, TOKENS.USDC, { maxHops: 3, maxPaths: 2 })).toHaveLength(2);
    expect(enumeratePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 3, filter: { excludeDexes: [3] } })).toHaveLength(0);
  });

  it('remembers the candidate paths of a query per graph, and only per graph and query', () => {
    const first = candidatePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 3 });
    expect(first).toEqual(enumeratePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 3 }));
    expect(candidatePaths(graph, TOKENS.PURR.toLowerCase(), TOKENS.DAI, { maxHops: 3 })).toBe(first);
    expect(candidatePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 3, filter: { excludeDexes: [3] } })).toHaveLength(0);
    expect(candidatePaths(graph, TOKENS.PURR, TOKENS.DAI, { maxHops: 2 })).not.toBe(first);
    const rebuilt = buildGraph(snapshot(...pools));
    expect(candidatePaths(rebuilt, TOKENS.PURR, TOKENS.DAI, { maxHops: 3 })).not.toBe(first);
  });

  /** A graph's structure: per token pair, its legs (pool, direction) in order; who trades into each token. */
  const shape = (g: ChainGraph) => ({
    legs: [...g.legs].sort().map(([from, inner]) => [from, [...inner].sort().map(([to, list]) => [to, list.map((l) => `${l.pool.address}:${l.pool.routerIndex}:${l.tokenIn}`)])]),
    into: [...g.into].sort().map(([to, set]) => [to, [...set].sort()]),
    tokens: [...g.tokens.keys()].sort(),
    poolCount: g.poolCount,
  });

  it('patches a graph into what a full build gives, leaving the graph it started from as it was', () => {
    const legs = new Map<PoolSnapshot, Leg[]>(pools.map((p) => [p, legsOf(p)]));
    const base = buildGraph(snapshot(...pools), (p) => legs.get(p)!);
    const before = shape(base);
    // A swap moves one pool, one pool goes away (a reorg), a pool of a new pair and token comes in.
    const moved = v2('WHYPE', 'USDC', 4100, 97_600, 30, 1);
    const fresh = v2('MEME', 'PURR', 50, 5_000, 30, 2);
    const change = {
      removed: [pools[0], pools[7]].map((pool) => ({ pool, legs: legs.get(pool)! })),
      added: [moved, fresh].map((pool) => ({ pool, legs: legsOf(pool) })),
    };
    const patched = patchGraph(base, { blockNumber: 7n, ...change });
    const after = [moved, ...pools.slice(1, 7), fresh];
    expect(shape(patched)).toEqual(shape(buildGraph(snapshot(...after))));
    expect(patched.blockNumber).toBe(7n);
    expect(shape(base)).toEqual(before);
    // The pair the removed DAI/MEME pool made is gone both ways, and so is MEME's trade into DAI.
    expect(pairLegs(patched, TOKENS.DAI, TOKENS.MEME, undefined, 4)).toHaveLength(0);
    expect(patched.into.get(TOKENS.DAI.toLowerCase())?.has(TOKENS.MEME.toLowerCase()) ?? false).toBe(false);
    expect(pairLegs(patched, TOKENS.WHYPE, TOKENS.USDC, undefined, 4).map((l) => l.pool)).toContain(moved);
  });

  it('walks the same order whatever order the pools came in or were patched in (maps, sets and pair lists)', () => {
    // The iteration order as searches see it (no sorting here).
    const order = (g: ChainGraph) => ({
      legs: [...g.legs].map(([from, inner]) => [from, [...inner].map(([to, list]) => [to, list.map((l) => `${l.pool.address}:${l.pool.routerIndex}`)])]),
      into: [...g.into].map(([to, set]) => [to, [...set]]),
      tokens: [...g.tokens.keys()],
    });
    // Two pools of one pair as deep as each other: their order is the pools' own, not the listing's.
    const twin = v2('WHYPE', 'USDC', 10, 250, 30, 7);
    const all = [...pools, twin];
    const reversed = buildGraph(snapshot(...[...all].reverse()));
    expect(order(reversed)).toEqual(order(buildGraph(snapshot(...all))));
    // A patch that moves a single-pool pair (taken out and put back), brings a new token and a new pair: as built.
    const legs = new Map<PoolSnapshot, Leg[]>(all.map((p) => [p, legsOf(p)]));
    const base = buildGraph(snapshot(...all), (p) => legs.get(p)!);
    const moved = v2('DAI', 'MEME', 1100, 910, 30, 1);
    const fresh = v2('MEME', 'PURR', 50, 5_000, 30, 2);
    const patched = patchGraph(base, { removed: [{ pool: pools[7], legs: legs.get(pools[7])! }], added: [moved, fresh].map((pool) => ({ pool, legs: legsOf(pool) })) });
    expect(order(patched)).toEqual(order(buildGraph(snapshot(fresh, ...all.filter((p) => p !== pools[7]), moved))));
  });

  it("derives a patched graph's pair rates from its previous graph's, as a full build rates them", () => {
    const legs = new Map<PoolSnapshot, Leg[]>(pools.map((p) => [p, legsOf(p)]));
    const base = buildGraph(snapshot(...pools), (p) => legs.get(p)!);
    const before = pairRatesOf(base, undefined);
    // Swaps move two pools (the common change: no pair comes or goes).
    const moved = [v2('WHYPE', 'USDC', 4100, 97_600, 30, 1), stable('USDC', 'DAI', 610_000, 390_000)];
    const patched = patchGraph(base, { removed: [pools[0], pools[6]].map((pool) => ({ pool, legs: legs.get(pool)! })), added: moved.map((pool) => ({ pool, legs: legsOf(pool) })) });
    const derived = pairRatesOf(patched, undefined);
    const fresh = pairRatesOf(buildGraph(snapshot(moved[0], ...pools.slice(1, 6), moved[1], pools[7])), undefined);
    const arrays = (r: typeof fresh) => ({ tokens: r.tokens, outStart: [...r.outStart], outTo: [...r.outTo], outRate: [...r.outRate], inStart: [...r.inStart], inFrom: [...r.inFrom], inRate: [...r.inRate] });
    expect(arrays(derived)).toEqual(arrays(fresh));
    // Derived, not built again: the lists are the previous graph's; only the rates are new.
    expect(derived.outTo).toBe(before.outTo);
    expect(derived.outRate).not.toBe(before.outRate);
    expect(arrays(pairRatesOf(base, undefined))).toEqual(arrays(before));
    // A pair that comes in: built again.
    const fresher = patchGraph(patched, { removed: [], added: [{ pool: v2('MEME', 'PURR', 50, 5_000, 30, 2), legs: legsOf(v2('MEME', 'PURR', 50, 5_000, 30, 2)) }] });
    expect(pairRatesOf(fresher, undefined).outTo).not.toBe(before.outTo);
  });
});
