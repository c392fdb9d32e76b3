// The route searches' worker: the graphs it keeps from the routing views give the routes a search on this thread
// gives, put together again on this thread's graph with its legs; the views it keeps; the searcher's fallbacks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGraph, findRoute, type ChainGraph, type PoolSnapshot, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import type { LiquiditySnapshot } from '../liquidity/liquidity.service';
import type { RouteOrder } from './route-request';
import type { SearchMessage, SearchReply, WorkerRequest } from './route-search.protocol';
import { RouteSearcher, routeOnGraph } from './route-searcher';
import { ChainGraphs, GRAPHS_KEPT, handle } from './search-worker';
import { corePurr, E18, E6, PURR, USDC, v2, WHYPE } from './test/pools';

const decimals: Record<string, number> = { [WHYPE]: 18, [USDC]: 6, [PURR]: 18 };

const pools: PoolSnapshot[] = [
  corePurr,
  v2(1, WHYPE, USDC, 4_000n * E18, 100_000n * E6),
  v2(2, WHYPE, PURR, 1_000n * E18, 100_000n * E18, 2),
  v2(3, WHYPE, PURR, 500n * E18, 49_000n * E18),
];

const meta = (address: `0x${string}`, symbol: string) => ({ address, symbol, name: symbol, decimals: decimals[address] });
const order = (amount: RouteOrder['amount'], extra: Partial<RouteOrder> = {}): RouteOrder => ({
  tokenIn: USDC,
  tokenOut: PURR,
  metaIn: meta(USDC, 'USDC'),
  metaOut: meta(PURR, 'PURR'),
  amount,
  multiHop: true,
  maxSwaps: 20,
  filter: {},
  nativeIn: false,
  unwrap: false,
  feeBps: 0,
  slippageBps: 50,
  gasAware: false,
  ...extra,
});

/** What a route says, its legs aside: the same route whoever found it. */
const shape = (r: Route) => ({
  tokens: r.tokens,
  amountIn: r.amountIn,
  amountOut: r.amountOut,
  split: r.split,
  requestedAmountOut: r.requestedAmountOut,
  hopPriceImpacts: r.hopPriceImpacts,
  averagePriceImpact: r.averagePriceImpact,
  stages: r.stages.map((stage) => stage.map(({ leg: _, ...swap }) => swap)),
});

/** View `n` of chain 999, at `blockNumber`: whole, or `change` on the previous one. */
const view = (n: number, blockNumber: bigint, ps: readonly PoolSnapshot[], change?: { removed: PoolSnapshot[]; added: PoolSnapshot[] }): WorkerRequest =>
  change
    ? { type: 'view', chainId: 999, view: n, blockNumber, whole: false, ...change }
    : { type: 'view', chainId: 999, view: n, blockNumber, whole: true, pools: ps, removed: [], added: [] };
const search = (id: number, n: number, o: RouteOrder): SearchMessage => ({
  type: 'search',
  id,
  chainId: 999,
  view: n,
  request: { tokenIn: o.tokenIn, tokenOut: o.tokenOut, ...o.amount, multiHop: o.multiHop, maxSwaps: o.maxSwaps, filter: o.filter, gasValue: 0 },
});
const here = (graph: ChainGraph, o: RouteOrder) => findRoute(graph, { tokenIn: o.tokenIn, tokenOut: o.tokenOut, ...o.amount, multiHop: o.multiHop, maxSwaps: o.maxSwaps, filter: o.filter, gasValue: 0 });
const legsOfGraph = (graph: ChainGraph) => new Set([...graph.legs.values()].flatMap((byTarget) => [...byTarget.values()].flat()));

describe('the route search worker', () => {
  const orders = [
    order({ amountIn: 100n * E6 }),
    order({ amountIn: 40_000n * E6 }),
    order({ amountIn: 150_000n * E6 }),
    order({ amountOut: 1_000n * E18 }),
    order({ amountOut: 120_000n * E18 }),
    order({ amountIn: 30_000n * E6 }, { multiHop: false }),
    order({ amountIn: 10n * E18 }, { tokenIn: WHYPE, metaIn: meta(WHYPE, 'WHYPE') }),
  ];

  it('gives the routes a search on this thread gives, with this thread legs, linear and split, exact input and output', () => {
    const chains = new Map<number, ChainGraphs>();
    handle(chains, view(1, 10n, pools));
    const graph = buildGraph({ chainId: 999, blockNumber: 10n, pools });
    const legs = legsOfGraph(graph);
    let splits = 0;
    orders.forEach((o, i) => {
      const reply = handle(chains, search(i, 1, o)) as SearchReply;
      if (!('route' in reply)) throw new Error(`no route: ${JSON.stringify(reply)}`);
      const route = routeOnGraph(graph, reply.route);
      expect(shape(route)).toEqual(shape(here(graph, o)));
      for (const swap of route.stages.flat()) expect(legs.has(swap.leg)).toBe(true);
      if (route.split) splits++;
    });
    expect(splits).toBeGreaterThan(0);
  });

  it('patches its graph as the views change, keeps the last views (two of one block apart), and says which it does not hold', () => {
    const chains = new Map<number, ChainGraphs>();
    handle(chains, view(1, 10n, pools));
    // View 2, block 11: the first V2 pool traded (new reserves), the third gone.
    const traded = v2(1, WHYPE, USDC, 4_400n * E18, 91_000n * E6);
    const at11 = [corePurr, traded, pools[2]];
    handle(chains, view(2, 11n, at11, { removed: [pools[1], pools[3]], added: [traded] }));
    // View 3, block 11 again (as when the block's core samples come in): the third pool back.
    const again11 = [...at11, pools[3]];
    handle(chains, view(3, 11n, again11, { removed: [], added: [pools[3]] }));
    const o = order({ amountIn: 5n * E18 }, { tokenIn: WHYPE, metaIn: meta(WHYPE, 'WHYPE') });
    for (const [n, block, ps] of [
      [3, 11n, again11],
      [2, 11n, at11],
      [1, 10n, pools],
    ] as const) {
      const graph = buildGraph({ chainId: 999, blockNumber: block, pools: ps });
      const reply = handle(chains, search(1, n, o)) as SearchReply;
      if (!('route' in reply)) throw new Error(`no route on view ${n}`);
      expect(shape(routeOnGraph(graph, reply.route))).toEqual(shape(here(graph, o)));
    }
    // The two views of block 11 route differently: a search names its view, not its block.
    const large = order({ amountIn: 200n * E18 }, { tokenIn: WHYPE, metaIn: meta(WHYPE, 'WHYPE') });
    expect(handle(chains, search(5, 3, large))).not.toEqual(handle(chains, search(5, 2, large)));
    expect(handle(chains, search(2, 4, o))).toEqual({ id: 2, missing: true });
    // Past GRAPHS_KEPT newer views, view 1 is no longer held.
    for (let n = 4; n < 4 + GRAPHS_KEPT; n++) handle(chains, view(n, BigInt(8 + n), again11, { removed: [], added: [] }));
    expect(handle(chains, search(3, 1, o))).toEqual({ id: 3, missing: true });
    expect(handle(chains, search(4, 3 + GRAPHS_KEPT, o))).toHaveProperty('route');
  });

  it('answers that there is no route, and an error for a search that throws', () => {
    const chains = new Map<number, ChainGraphs>();
    handle(chains, view(1, 10n, pools));
    expect(handle(chains, search(1, 1, order({ amountIn: 100n * E6 }, { tokenOut: '0x9000000000000000000000000000000000000009' })))).toEqual({ id: 1, noRoute: true });
    const broken = search(2, 1, order({ amountIn: 100n * E6 }));
    expect(handle(chains, { ...broken, request: { ...broken.request, tokenIn: 42 as unknown as string } })).toMatchObject({ id: 2, error: expect.stringContaining('TypeError') });
  });
});

describe('RouteSearcher', () => {
  const snapshot = (blockNumber: bigint): LiquiditySnapshot => ({
    blockNumber,
    pools,
    graph: buildGraph({ chainId: 999, blockNumber, pools }),
    change: { whole: true, removed: [], added: [] },
  });

  it('searches on this thread without a worker script, with the 404 of an order no route serves', async () => {
    const searcher = new RouteSearcher(undefined);
    const s = snapshot(10n);
    searcher.publish(999, s);
    expect(searcher.onWorker).toBe(false);
    const o = order({ amountIn: 40_000n * E6 });
    expect(shape(await searcher.search(999, s, o))).toEqual(shape(here(s.graph, o)));
    const none = searcher.search(999, s, order({ amountIn: 1n }, { tokenOut: '0x9000000000000000000000000000000000000009' }));
    await expect(none).rejects.toBeInstanceOf(BusError);
    await expect(none).rejects.toMatchObject({ status: 404, message: 'No route found' });
  });

  it('searches on this thread when its worker cannot start, and does not start it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-searcher-'));
    try {
      const script = join(dir, 'broken-worker.js');
      writeFileSync(script, 'process.exit(3);\n');
      const searcher = new RouteSearcher(script, 1);
      const s = snapshot(10n);
      searcher.publish(999, s);
      const o = order({ amountOut: 1_000n * E18 });
      // Asked while the worker starts (and stops): answered here all the same.
      const first = searcher.search(999, s, o);
      expect(shape(await first)).toEqual(shape(here(s.graph, o)));
      await new Promise((r) => setTimeout(r, 200));
      searcher.publish(999, snapshot(11n));
      expect(shape(await searcher.search(999, snapshot(11n), o))).toEqual(shape(here(s.graph, o)));
      searcher.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
