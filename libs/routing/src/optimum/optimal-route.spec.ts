import { bestOnePathExactIn } from '../find/exact-in';
import { bestOnePathExactOut } from '../find/exact-out';
import { findRoute, NoRouteError } from '../find/find-route';
import { FlowGraph } from './flow-graph';
import type { FlowArc } from './flow-route';
import { buildGraph } from '../graph/chain-graph';
import { pairKey } from './pairs';
import { arcsPay, orient } from './orient';
import type { Leg } from '../pools/legs';
import { VIRTUAL_NATIVE_LIQUIDITY } from '../pools/launchpad/launchpad-curve';
import type { Route } from '../route/route';
import { core, coreAmm, launchpad, rng, snapshot, stable, TOKENS, units, v2, type Symbol } from '../../test/fixtures';
import { expectExecutesAsQuoted, expectStagesWellFormed } from '../../test/route-checks';
import type { PoolSnapshot, UniswapV2PoolSnapshot } from '../pools/pool-snapshot';

/** A Uniswap V2 quote written apart from the engine: out = x g ro / (ri + x g), g = 1 - fee, floored. */
function v2Out(pool: UniswapV2PoolSnapshot, tokenIn: string, amountIn: bigint): bigint {
  if (amountIn <= 0n) return 0n;
  const [ri, ro] = tokenIn === pool.token0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
  const x = amountIn * BigInt(10_000 - pool.feeBps);
  return (x * ro) / (ri * 10_000n + x);
}

/** A path of V2 pools from `tokens[0]`, one pool per hop, quoted by `v2Out`. */
const along = (tokens: readonly Symbol[], pools: readonly UniswapV2PoolSnapshot[]) => (amountIn: bigint) =>
  pools.reduce((amount, pool, i) => v2Out(pool, TOKENS[tokens[i]], amount), amountIn);

/** The best of `f` over [0, 1] (a fine grid, then golden-section search around the best cell). */
function maximise1(f: (t: number) => number, steps = 2_000): number {
  let best = 0;
  for (let i = 0; i <= steps; i++) if (f(i / steps) > f(best)) best = i / steps;
  let [lo, hi] = [Math.max(0, best - 1 / steps), Math.min(1, best + 1 / steps)];
  for (let i = 0; i < 60; i++) {
    const m1 = lo + (hi - lo) * 0.382;
    const m2 = lo + (hi - lo) * 0.618;
    if (f(m1) < f(m2)) lo = m1;
    else hi = m2;
  }
  return Math.max(f(best), f((lo + hi) / 2));
}

/** The share t of x, in integers. */
const part = (x: bigint, t: number): bigint => (x * BigInt(Math.round(t * 1e12))) / 10n ** 12n;

const expectWellFormed = (route: Route) => {
  expectExecutesAsQuoted(route);
  expectStagesWellFormed(route);
};

describe('the optimum against an independent brute force over the splits', () => {
  // USDC to PURR through WHYPE or through DAI (a diamond), each leg one V2 pool.
  const usdcWhype = v2('USDC', 'WHYPE', 100_000, 4_000, 30, 1);
  const whypePurr = v2('WHYPE', 'PURR', 1_000, 100_000, 30, 1);
  const usdcDai = v2('USDC', 'DAI', 60_000, 60_000, 5, 2);
  const daiPurr = v2('DAI', 'PURR', 40_000, 160_000, 30, 2);

  it('splits across two paths as the best split of the diamond', () => {
    const graph = buildGraph(snapshot(usdcWhype, whypePurr, usdcDai, daiPurr));
    const viaWhype = along(['USDC', 'WHYPE'], [usdcWhype, whypePurr]);
    const viaDai = along(['USDC', 'DAI'], [usdcDai, daiPurr]);
    for (const whole of [100, 5_000, 40_000]) {
      const x = units('USDC', whole);
      const brute = maximise1((t) => Number(viaWhype(part(x, t)) + viaDai(x - part(x, t))));
      const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: x, multiHop: true });
      expectWellFormed(route);
      expect(Number(route.amountOut)).toBeGreaterThanOrEqual(brute * (1 - 1e-6));
      expect(Number(route.amountOut)).toBeLessThanOrEqual(brute * (1 + 1e-9) + 2);
      if (whole >= 5_000) {
        expect(route.split).toBe(true);
        expect(route.tokens).toEqual([TOKENS.USDC, expect.any(String), expect.any(String), TOKENS.PURR]);
      }
    }
  });

  it('splits across three paths as the best split over a grid of the three', () => {
    const usdcUsdt = v2('USDC', 'USDT', 80_000, 80_000, 5, 2);
    const usdtPurr = v2('USDT', 'PURR', 30_000, 121_000, 30, 2);
    const graph = buildGraph(snapshot(usdcWhype, whypePurr, usdcDai, daiPurr, usdcUsdt, usdtPurr));
    const paths = [along(['USDC', 'WHYPE'], [usdcWhype, whypePurr]), along(['USDC', 'DAI'], [usdcDai, daiPurr]), along(['USDC', 'USDT'], [usdcUsdt, usdtPurr])];
    const x = units('USDC', 30_000);
    // For each share of the first path, the best split of the rest between the other two.
    const brute = maximise1((t) => {
      const first = part(x, t);
      const rest = x - first;
      return Number(paths[0](first)) + maximise1((u) => Number(paths[1](part(rest, u)) + paths[2](rest - part(rest, u))), 200);
    }, 200);
    const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: x, multiHop: true });
    expectWellFormed(route);
    expect(route.stages[0]).toHaveLength(3);
    expect(Number(route.amountOut)).toBeGreaterThanOrEqual(brute * (1 - 1e-6));
  });

  it('splits after a shared first hop, and merges into a shared last hop', () => {
    // Shared input: USDC -> WHYPE, then WHYPE -> PURR directly or through DAI.
    const whypeDai = v2('WHYPE', 'DAI', 1_000, 25_000, 30, 2);
    const deepUsdcWhype = v2('USDC', 'WHYPE', 2_000_000, 80_000, 30, 1);
    const shared = buildGraph(snapshot(deepUsdcWhype, whypePurr, whypeDai, daiPurr));
    const x = units('USDC', 50_000);
    const whype = v2Out(deepUsdcWhype, TOKENS.USDC, x);
    const bruteShared = maximise1((t) => Number(v2Out(whypePurr, TOKENS.WHYPE, part(whype, t)) + along(['WHYPE', 'DAI'], [whypeDai, daiPurr])(whype - part(whype, t))));
    const routeShared = findRoute(shared, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: x, multiHop: true });
    expectWellFormed(routeShared);
    expect(routeShared.split).toBe(true);
    expect(routeShared.stages[0]).toHaveLength(1);
    expect(Number(routeShared.amountOut)).toBeGreaterThanOrEqual(bruteShared * (1 - 1e-6));

    // Shared output: USDC -> WHYPE or USDC -> DAI, both -> USDT, USDT -> PURR (one deep pool).
    const whypeUsdt = v2('WHYPE', 'USDT', 2_000, 50_000, 30, 1);
    const daiUsdt = v2('DAI', 'USDT', 50_000, 50_000, 5, 2);
    const usdtPurr = v2('USDT', 'PURR', 1_000_000, 4_000_000, 30, 1);
    const merged = buildGraph(snapshot(usdcWhype, whypeUsdt, usdcDai, daiUsdt, usdtPurr));
    const y = units('USDC', 20_000);
    const bruteMerged = maximise1((t) =>
      Number(v2Out(usdtPurr, TOKENS.USDT, along(['USDC', 'WHYPE'], [usdcWhype, whypeUsdt])(part(y, t)) + along(['USDC', 'DAI'], [usdcDai, daiUsdt])(y - part(y, t)))),
    );
    const routeMerged = findRoute(merged, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: y, multiHop: true });
    expectWellFormed(routeMerged);
    expect(routeMerged.split).toBe(true);
    expect(routeMerged.stages[routeMerged.stages.length - 1].map((s) => s.tokenIn)).toEqual([TOKENS.USDT]);
    expect(Number(routeMerged.amountOut)).toBeGreaterThanOrEqual(bruteMerged * (1 - 1e-6));
  });
});

describe('a path longer than the one-path search goes', () => {
  // USDC -> USDT -> WHYPE -> DAI -> PURR, four hops: no one-path route (three hops at most), and WHYPE, the token
  // the flow graph starts with, is two legs away from each end.
  const pools = [v2('USDC', 'USDT', 100_000, 100_000, 5, 1), v2('USDT', 'WHYPE', 100_000, 4_000, 30, 1), v2('WHYPE', 'DAI', 4_000, 100_000, 30, 2), v2('DAI', 'PURR', 100_000, 400_000, 30, 1)];
  const graph = buildGraph(snapshot(...pools));

  it('routes exact input and exact output through it', () => {
    const byIn = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: units('USDC', 1_000), multiHop: true });
    expectWellFormed(byIn);
    expect(byIn.tokens).toEqual([TOKENS.USDC, TOKENS.USDT, TOKENS.WHYPE, TOKENS.DAI, TOKENS.PURR]);
    const byOut = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountOut: byIn.amountOut, multiHop: true });
    expectWellFormed(byOut);
    expect(byOut.amountOut).toBeGreaterThanOrEqual(byIn.amountOut);
    expect(byOut.amountIn).toBeLessThanOrEqual(byIn.amountIn);
  });
});

describe('a trade spread over more paths than the first growth rounds reach', () => {
  // USDC -> T_i -> PURR over 80 intermediate tokens, every path the same two V2 pools: the optimum splits the input
  // evenly (the paths are equal and concave), and the trade keeps 96.5% of its value at the spot rate (not a large
  // trade), yet the flow graph must grow past its first rounds and 32 tokens to reach the paths it pays to use.
  const paths = 80;
  const pools: UniswapV2PoolSnapshot[] = [];
  const pool = (a: string, decimalsA: number, reserveA: bigint, b: string, decimalsB: number, reserveB: bigint, n: number): UniswapV2PoolSnapshot => {
    const address = `0x${(0xfa00 + n).toString(16).padStart(40, '0')}`;
    const sides = BigInt(a) < BigInt(b) ? { token0: a, token1: b, decimals0: decimalsA, decimals1: decimalsB, reserve0: reserveA, reserve1: reserveB } : { token0: b, token1: a, decimals0: decimalsB, decimals1: decimalsA, reserve0: reserveB, reserve1: reserveA };
    return { kind: 'uniswap-v2', address, routerIndex: 1, routerName: 'V2 #1', feeBps: 30, ...sides };
  };
  for (let i = 0; i < paths; i++) {
    const token = `0x7${(i + 1).toString(16).padStart(39, '0')}`;
    pools.push(pool(TOKENS.USDC, 6, units('USDC', 100_000), token, 18, 100_000n * 10n ** 18n, 2 * i));
    pools.push(pool(token, 18, 100_000n * 10n ** 18n, TOKENS.PURR, 18, units('PURR', 400_000), 2 * i + 1));
  }
  const graph = buildGraph(snapshot(...pools));

  it('grows on while the rounds find more liquidity, and pays the even split over every path', () => {
    const amountIn = units('USDC', 120_000);
    const share = amountIn / BigInt(paths);
    const optimum = BigInt(paths) * v2Out(pools[1], pools[0].token0 === TOKENS.USDC ? pools[0].token1 : pools[0].token0, v2Out(pools[0], TOKENS.USDC, share));
    const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn, multiHop: true, maxSwaps: 186 });
    expectWellFormed(route);
    expect(Number(route.amountOut) / Number(optimum)).toBeGreaterThan(0.9999);
  });
});

describe('pairs with more pools than the flow graph takes per pair', () => {
  // USDC -> WHYPE -> PURR, the second hop over eight V2 pools at one price (from deep to shallow): the flow graph
  // starts with the six deepest; a trade that moves them far must also get the two it left out.
  const usdcWhype = v2('USDC', 'WHYPE', 5_000_000, 200_000, 5, 1);
  const whypePurr = [40_000, 30_000, 25_000, 20_000, 16_000, 12_000, 10_000, 8_000].map((whype, i) => v2('WHYPE', 'PURR', whype, whype * 100, 30, 1 + (i % 2)));
  const graph = buildGraph(snapshot(usdcWhype, ...whypePurr));

  it('admits the pools the cap left out when they beat the prices of the pools taken', () => {
    const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: units('USDC', 1_000_000), multiHop: true });
    expectWellFormed(route);
    const used = new Set(route.stages.flat().map((s) => s.leg.pool.address));
    for (const pool of whypePurr) expect(used).toContain(pool.address);
  });
});

describe('the optimum through core pools and launchpad curves', () => {
  // The devnet's chain 999: core pools at the oracle prices (HYPE $25, PURR $0.25) beside its V2 and stable pools.
  const coreWhypeUsdc = coreAmm('WHYPE', 'USDC', 2_000, 50_000, 25, 1);
  const coreUsdcUsdt = coreAmm('USDC', 'USDT', 200_000, 200_000, 1, 1);
  const corePurrUsdc = coreAmm('PURR', 'USDC', 200_000, 50_000, 0.25, 1);
  const devnet = [
    coreWhypeUsdc,
    coreUsdcUsdt,
    corePurrUsdc,
    v2('WHYPE', 'USDC', 4_000, 100_000, 30, 1),
    v2('PURR', 'WHYPE', 100_000, 1_000, 30, 1),
    v2('WHYPE', 'USDC', 1_000, 25_400, 10, 2),
    v2('USDT', 'WHYPE', 37_350, 1_500, 10, 2),
    // Tilted as the devnet tilts them: 150,000 USDT swapped into the first, 100,000 USDC into the second.
    stable('USDC', 'USDT', 870_000, 1_150_000),
    stable('USDC', 'DAI', 600_000, 416_000),
  ];
  const graph = buildGraph(snapshot(...devnet));

  it('routes a core pool up to what it quotes (about its output reserve), not half its input reserve', () => {
    const only = buildGraph(snapshot(corePurrUsdc));
    for (const whole of [25_000, 26_000, 40_000, 50_000]) {
      const route = findRoute(only, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: units('USDC', whole) });
      expect(route.amountOut).toBeGreaterThan((units('PURR', whole) * 4n * 99n) / 100n);
    }
    expect(() => findRoute(only, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: units('USDC', 51_000) })).toThrow(NoRouteError);
  });

  it('splits USDC -> PURR at size between the core pool and the path through WHYPE, paying far more than one path', () => {
    const x = units('USDC', 100_000);
    const onePath = bestOnePathExactIn(graph, TOKENS.USDC, TOKENS.PURR, x, { multiHop: true })!;
    const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: x, multiHop: true });
    expectWellFormed(route);
    expect(route.split).toBe(true);
    expect(route.amountOut).toBeGreaterThan(onePath.amountOut * 2n);
    const core = route.stages.flat().find((s) => s.poolAddress === corePurrUsdc.address)!;
    // The core pool's direct leg takes what it can (its top sample, less nothing).
    expect(core.amountIn).toBeGreaterThan(units('USDC', 45_000));
    expect(core.amountIn).toBeLessThanOrEqual(core.leg.maxIn!);
  });

  it('takes the four-hop path through the tilted stable pool where it pays', () => {
    // DAI -> USDC -> USDT (the stable pool tilted toward USDT) -> WHYPE -> PURR beats every path of up to 3 hops.
    const x = units('DAI', 10);
    const onePath = bestOnePathExactIn(graph, TOKENS.DAI, TOKENS.PURR, x, { multiHop: true })!;
    const route = findRoute(graph, { tokenIn: TOKENS.DAI, tokenOut: TOKENS.PURR, amountIn: x, multiHop: true });
    expectWellFormed(route);
    expect(route.amountOut).toBeGreaterThan(onePath.amountOut);
    expect(route.tokens).toHaveLength(5);
  });

  /** Whether the legs of `flow` outside `forbidden` close a loop whose zero-size rates multiply above 1 (Floyd-Warshall). */
  const loopPays = (flow: FlowGraph, forbidden: ReadonlySet<number>): boolean => {
    const n = flow.tokens.length;
    const best = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let e = 0; e < flow.legs.length; e++) {
      if (forbidden.has(pairKey(flow.from[e], flow.to[e]))) continue;
      best[flow.from[e]][flow.to[e]] = Math.max(best[flow.from[e]][flow.to[e]], flow.legs[e].spotRate);
    }
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) best[i][j] = Math.max(best[i][j], best[i][k] * best[k][j]);
    return best.some((row, i) => row[i] > 1 + 1e-9);
  };

  it('orients a flow graph whose zero-size rates close paying loops so that none is left, the pairs the flows carry kept', () => {
    const symbols = ['WHYPE', 'USDC', 'USDT', 'PURR', 'DAI'] as const;
    let oriented = 0;
    for (const a of symbols) for (const b of symbols) {
      if (a === b) continue;
      const flow = FlowGraph.create(graph, TOKENS[a], TOKENS[b]);
      if (!flow || !loopPays(flow, new Set())) continue;
      oriented++;
      // A pair the flows carry (tokenIn's first leg) keeps its direction.
      const first = flow.from.indexOf(0);
      const carried: FlowArc = { index: first, leg: flow.legs[first], from: flow.from[first], to: flow.to[first], weight: 1 };
      const forbidden = new Set<number>();
      expect(orient(flow, forbidden, [carried])).toBe(true);
      expect(loopPays(flow, forbidden)).toBe(false);
      expect(forbidden.has(pairKey(carried.from, carried.to))).toBe(false);
    }
    // The tilted stable pools against the core pools close loops in the flow graphs of most pairs.
    expect(oriented).toBeGreaterThanOrEqual(10);
  });

  it('leaves a flow graph without a paying loop as it is', () => {
    const plain = buildGraph(snapshot(v2('USDC', 'WHYPE', 100_000, 4_000, 30, 1), v2('WHYPE', 'PURR', 1_000, 100_000, 30, 1), v2('USDC', 'PURR', 50_000, 200_000, 30, 2)));
    const flow = FlowGraph.create(plain, TOKENS.USDC, TOKENS.PURR)!;
    const forbidden = new Set<number>();
    expect(orient(flow, forbidden)).toBe(false);
    expect(forbidden.size).toBe(0);
  });

  it('never routes the free loops of the pools (the tilted stable pools against the core pools at the oracle price)', () => {
    for (const [a, b] of [
      ['USDC', 'USDT'],
      ['USDT', 'USDC'],
      ['DAI', 'USDT'],
      ['WHYPE', 'USDT'],
      ['PURR', 'DAI'],
    ] as const) {
      for (const whole of [10, 1_000, 30_000]) {
        const amountIn = units(a, a === 'WHYPE' ? whole / 25 : a === 'PURR' ? whole * 4 : whole);
        const route = findRoute(graph, { tokenIn: TOKENS[a], tokenOut: TOKENS[b], amountIn, multiHop: true });
        expectWellFormed(route);
        expect(route.amountOut).toBeGreaterThanOrEqual(bestOnePathExactIn(graph, TOKENS[a], TOKENS[b], amountIn, { multiHop: true })?.amountOut ?? 0n);
      }
    }
  });

  it('splits a buy between the launchpad curve and a pool of the token on another path', () => {
    const k = VIRTUAL_NATIVE_LIQUIDITY * 1_125_000_000_000_000n;
    const native = VIRTUAL_NATIVE_LIQUIDITY + 100n * 10n ** 18n;
    const tokenReserve = (k + native - 1n) / native;
    const curve = launchpad('MEME', { nativeReserve: native, tokenReserve, tokensForSale: tokenReserve - 375_000_000_000_000n });
    // The curve sells about 845M tokens for 400 WHYPE ($10,000) of (partly virtual) reserve: a pool of the token near that price.
    const memeUsdc = v2('MEME', 'USDC', 800_000_000, 10_000, 30, 1);
    const g = buildGraph(snapshot(curve, memeUsdc, v2('WHYPE', 'USDC', 4_000, 100_000, 30, 1)));
    const x = units('WHYPE', 200);
    const route = findRoute(g, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.MEME, amountIn: x, multiHop: true });
    expectWellFormed(route);
    expect(route.split).toBe(true);
    const onCurve = route.stages[0].find((s) => s.kind === 'launchpad')!;
    expect(onCurve.amountIn).toBeLessThanOrEqual(onCurve.leg.maxIn!);
    expect(route.amountOut).toBeGreaterThan(bestOnePathExactIn(g, TOKENS.WHYPE, TOKENS.MEME, x, { multiHop: true })!.amountOut);
  });

  it('answers an exact output with less input than the best one-path route, paying at least the amount asked', () => {
    for (const whole of [1_000, 150_000, 250_000]) {
      const amountOut = units('PURR', whole);
      const onePath = bestOnePathExactOut(graph, TOKENS.USDC, TOKENS.PURR, amountOut, { multiHop: true });
      const route = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountOut, multiHop: true });
      expectWellFormed(route);
      expect(route.requestedAmountOut).toBe(amountOut);
      expect(route.amountOut).toBeGreaterThanOrEqual(amountOut);
      // Hardly more than asked, and no exact-input route pays it with a millionth less input.
      expect(Number(route.amountOut - amountOut)).toBeLessThanOrEqual(Number(amountOut) * 1e-6 + 10);
      if (onePath) expect(route.amountIn).toBeLessThanOrEqual(onePath.amountIn);
      const less = route.amountIn - route.amountIn / 1_000_000n - 1n;
      expect(findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.PURR, amountIn: less, multiHop: true }).amountOut).toBeLessThan(amountOut);
      if (whole === 250_000) {
        // More than any one path holds (the core pool 200,000 PURR, the V2 pool 100,000): only a split pays it.
        expect(onePath).toBeUndefined();
        expect(route.split).toBe(true);
      }
    }
  });
});

describe('never worse than the best one-path route', () => {
  const symbols = Object.keys(TOKENS) as Symbol[];
  const usd: Record<Symbol, number> = { WHYPE: 25, USDC: 1, USDT: 1, PURR: 0.25, DAI: 1, MEME: 0.002 };

  /** A random graph: V2 pools between random pairs (several per pair at times), priced off the tokens' prices by up to 3%, a stable pool and a core pool. */
  function randomGraph(seed: bigint): PoolSnapshot[] {
    const r = rng(seed);
    const pools: PoolSnapshot[] = [];
    const count = 6 + Math.floor(r.float() * 10);
    for (let i = 0; i < count; i++) {
      const a = symbols[Math.floor(r.float() * symbols.length)];
      let b = symbols[Math.floor(r.float() * symbols.length)];
      if (a === b) b = a === 'USDC' ? 'WHYPE' : 'USDC';
      const depth = 10 ** (3 + r.float() * 3);
      const skew = 1 + (r.float() - 0.5) * 0.06;
      pools.push(v2(a, b, ((depth / usd[a]) * skew).toFixed(6), (depth / usd[b]).toFixed(6), [5, 10, 30, 100][Math.floor(r.float() * 4)], 1 + Math.floor(r.float() * 2)));
    }
    pools.push(stable('USDC', 'USDT', (400_000 * (1 + r.float() * 0.2)).toFixed(0), 400_000, 4));
    pools.push(core('WHYPE', 'USDC', (x) => (x * 25n * 997n) / (1000n * 10n ** 12n), (x) => (x * 10n ** 12n * 997n) / (25n * 1000n), units('WHYPE', 1_000), units('USDC', 25_000), 18));
    return pools;
  }

  it('exact input and exact output, over random graphs and sizes', () => {
    let splits = 0;
    for (let g = 1n; g <= 12n; g++) {
      const graph = buildGraph(snapshot(...randomGraph(g * 7919n)));
      const r = rng(g);
      for (let q = 0; q < 8; q++) {
        const a = symbols[Math.floor(r.float() * symbols.length)];
        const b = symbols[Math.floor(r.float() * symbols.length)];
        if (a === b) continue;
        const amountIn = units(a, ((10 ** (r.float() * 5)) / usd[a]).toFixed(6));
        const request = { tokenIn: TOKENS[a], tokenOut: TOKENS[b], multiHop: true };
        const onePath = bestOnePathExactIn(graph, TOKENS[a], TOKENS[b], amountIn, request);
        let route: Route | undefined;
        try {
          route = findRoute(graph, { ...request, amountIn });
        } catch (err) {
          expect(err).toBeInstanceOf(NoRouteError);
          expect(onePath).toBeUndefined();
          continue;
        }
        expectWellFormed(route);
        if (route.split) splits++;
        expect(route.amountOut).toBeGreaterThanOrEqual(onePath?.amountOut ?? 0n);
        if (route.amountOut < 1_000n) continue;
        // Exact output: ask for what the exact input paid.
        const out = findRoute(graph, { ...request, amountOut: route.amountOut });
        expectWellFormed(out);
        expect(out.amountOut).toBeGreaterThanOrEqual(route.amountOut);
        const onePathOut = bestOnePathExactOut(graph, TOKENS[a], TOKENS[b], route.amountOut, request);
        if (onePathOut) expect(out.amountIn).toBeLessThanOrEqual(onePathOut.amountIn);
      }
    }
    expect(splits).toBeGreaterThan(5);
  });
});

describe('loops of the flows that pay at zero size', () => {
  /** Arcs between token indices at the given zero-size rates. */
  const arcs = (...sides: [number, number, number][]): FlowArc[] =>
    sides.map(([from, to, spotRate], index) => ({ index, leg: { spotRate } as Leg, from, to, weight: 1 }));

  it('tells a loop whose rates multiply above 1 from one below it, and from flows without a loop', () => {
    // 0 -> 2 -> 3 -> 2 -> 1: the loop 2 -> 3 -> 2 at 1.25 x 0.81 = 1.0125 pays.
    expect(arcsPay(arcs([0, 2, 1], [2, 3, 1.25], [3, 2, 0.81], [2, 1, 1]), 4)).toBe(true);
    // At 1.25 x 0.79 = 0.9875 it loses: a back-flow of flows not yet converged, not a loop the optimum pumps.
    expect(arcsPay(arcs([0, 2, 1], [2, 3, 1.25], [3, 2, 0.79], [2, 1, 1]), 4)).toBe(false);
    // A diamond: no loop at all, however good its rates.
    expect(arcsPay(arcs([0, 2, 5], [0, 3, 5], [2, 1, 5], [3, 1, 5]), 4)).toBe(false);
    // A longer loop (2 -> 3 -> 4 -> 2) pays through the best of a pair's parallel legs.
    expect(arcsPay(arcs([0, 2, 1], [2, 3, 1.1], [3, 4, 1], [4, 2, 0.9], [4, 2, 0.92], [2, 1, 1]), 5)).toBe(true);
  });
});
