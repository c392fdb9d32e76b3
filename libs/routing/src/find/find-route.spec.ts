import { buildGraph } from '../graph/chain-graph';
import { findRoute, NoRouteError } from './find-route';
import { simulateRouter } from '../search/path-quote';
import { splitExactIn } from '../search/hop-split';
import { legsOf } from '../pools/legs';
import { TOKENS, units, v2, stable, core, launchpad, snapshot } from '../../test/fixtures';
import { VIRTUAL_NATIVE_LIQUIDITY } from '../pools/launchpad/launchpad-curve';
import { routeGas } from '../route/gas-model';

describe('findRoute (exact input)', () => {
  const deep = v2('WHYPE', 'USDC', 4000, 100_000, 30, 1);
  const shallow = v2('WHYPE', 'USDC', 1000, 25_400, 10, 2);
  const purr = v2('PURR', 'WHYPE', 100_000, 1000, 30, 1);
  const poorDirect = v2('PURR', 'USDC', 100, 5, 30, 2);
  const graph = buildGraph(snapshot(deep, shallow, purr, poorDirect));

  it('splits a direct hop across both pools and the quoted inputs add up', () => {
    const route = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 200) });
    expect(route.tokens).toEqual([TOKENS.WHYPE, TOKENS.USDC]);
    expect(route.stages).toHaveLength(1);
    expect(route.stages[0]).toHaveLength(2);
    const hop = route.stages[0];
    expect(hop[0].amountIn + hop[1].amountIn).toBe(units('WHYPE', 200));
    expect(hop[0].amountOut + hop[1].amountOut).toBe(route.amountOut);
    expect(hop[0].data).toBe('0x');
    expect(hop[0].stable).toBe(false);
    expect(hop.map((s) => s.routerIndex).sort()).toEqual([1, 2]);
    for (const single of [deep, shallow]) {
      const [leg] = legsOf(single).filter((l) => l.tokenIn === TOKENS.WHYPE);
      expect(route.amountOut).toBeGreaterThan(leg.quote(units('WHYPE', 200)));
    }
  });

  it('goes through an intermediate token when the direct pool is poor, only with multiHop', () => {
    const direct = findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDC, amountIn: units('PURR', 1000) });
    expect(direct.tokens).toEqual([TOKENS.PURR, TOKENS.USDC]);
    const multi = findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDC, amountIn: units('PURR', 1000), multiHop: true });
    expect(multi.tokens).toEqual([TOKENS.PURR, TOKENS.WHYPE, TOKENS.USDC]);
    expect(multi.amountOut).toBeGreaterThan(direct.amountOut * 10n);
    // Hop 2's quoted inputs add up to hop 1's output.
    const hop1Out = multi.stages[0].reduce((a, s) => a + s.amountOut, 0n);
    expect(multi.stages[1].reduce((a, s) => a + s.amountIn, 0n)).toBe(hop1Out);
  });

  it('executes as quoted under RouterV2 proportional splitting', () => {
    const route = findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDC, amountIn: units('PURR', 5000), multiHop: true });
    const legs = buildGraph(snapshot(deep, shallow, purr, poorDirect));
    const hops = route.stages.map((swaps) => {
      const chosen = swaps.map((s) => legs.legs.get(s.tokenIn.toLowerCase())!.get(s.tokenOut.toLowerCase())!.find((l) => l.pool.address === s.poolAddress)!);
      return { legs: chosen, amountsIn: swaps.map((s) => s.amountIn), amountsOut: swaps.map((s) => s.amountOut), amountIn: 0n, amountOut: 0n };
    });
    const executed = simulateRouter(hops, route.amountIn)!;
    expect(executed[executed.length - 1].amountOut).toBe(route.amountOut);
    executed.forEach((h, i) => expect(h.amountsIn).toEqual(route.stages[i].map((s) => s.amountIn)));
  });

  it('honours includeDexes and excludeDexes (include wins)', () => {
    const only2 = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 10), filter: { includeDexes: [2] } });
    expect(only2.stages.flat().every((s) => s.routerIndex === 2)).toBe(true);
    const no2 = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 10), filter: { excludeDexes: [2] } });
    expect(no2.stages.flat().every((s) => s.routerIndex !== 2)).toBe(true);
    const both = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 10), filter: { includeDexes: [2], excludeDexes: [2] } });
    expect(both.stages.flat().every((s) => s.routerIndex === 2)).toBe(true);
    expect(() => findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDC, amountIn: 10n, multiHop: true, filter: { includeDexes: [3] } })).toThrow(NoRouteError);
  });

  it('leaves out the pools excludePools names, whatever the source filter, on every search it runs', () => {
    const best = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 500) });
    const used = [...new Set(best.stages.flat().map((s) => s.poolAddress.toLowerCase()))];
    expect(used.length).toBeGreaterThan(0);
    for (const amount of [units('WHYPE', '0.01'), units('WHYPE', 500)]) {
      const without = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: amount, filter: { excludePools: [used[0]] } });
      expect(without.stages.flat().map((s) => s.poolAddress.toLowerCase())).not.toContain(used[0]);
      const exactOut = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountOut: without.amountOut, multiHop: true, filter: { excludeDexes: [99], excludePools: [used[0]] } });
      expect(exactOut.stages.flat().map((s) => s.poolAddress.toLowerCase())).not.toContain(used[0]);
    }
    // Every pool of a pair left out: no route.
    const direct = graph.legs.get(TOKENS.WHYPE.toLowerCase())!.get(TOKENS.USDC.toLowerCase())!.map((l) => l.pool.address.toLowerCase());
    expect(() => findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 1), filter: { excludePools: direct } })).toThrow(NoRouteError);
  });

  it('reports price impact per swap and over the route', () => {
    const small = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', '0.01') });
    const large = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 500) });
    // Size effect ~2.5e-6 plus the output's rounding to a base unit (~4e-6).
    expect(small.averagePriceImpact).toBeLessThan(2e-5);
    expect(large.averagePriceImpact).toBeGreaterThan(0.05);
    expect(large.averagePriceImpact).toBeLessThan(0.2);
    for (const s of large.stages[0]) expect(s.priceImpact).toBeGreaterThan(0);
    // V2 impact of a single pool: 1 - out / (in * spot) with spot = 0.997 * 25 USDC/WHYPE (no other pool).
    const lone = buildGraph(snapshot(v2('WHYPE', 'USDC', 4000, 100_000, 30, 1)));
    const r = findRoute(lone, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 400) });
    const spot = 400 * 25 * 0.997 * 1e6;
    expect(r.averagePriceImpact).toBeCloseTo((spot - Number(r.amountOut)) / spot, 9);
    const multi = findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDC, amountIn: units('PURR', 5000), multiHop: true });
    const [a, b] = multi.hopPriceImpacts;
    expect(multi.averagePriceImpact).toBeCloseTo(1 - (1 - a) * (1 - b), 12);
  });

  it('routes across every kind: stable, core samples and the launchpad curve', () => {
    const curve = { nativeReserve: VIRTUAL_NATIVE_LIQUIDITY + 50n * 10n ** 18n, tokenReserve: 1_125_000_000_000_000n - 200_000_000_000_000n, tokensForSale: 550_000_000_000_000n };
    // Keep k: the reserves of a curve that raised 50 (net).
    const k = VIRTUAL_NATIVE_LIQUIDITY * 1_125_000_000_000_000n;
    const tokenReserve = (k + curve.nativeReserve - 1n) / curve.nativeReserve;
    const pad = launchpad('MEME', { ...curve, tokenReserve, tokensForSale: tokenReserve - 375_000_000_000_000n });
    const coreWhypeUsdc = core(
      'WHYPE',
      'USDC',
      (x) => (x * 25n * 995n) / (1000n * 10n ** 12n) - (x * x) / (10n ** 12n * 10n ** 24n),
      (x) => (x * 10n ** 12n * 995n) / (25n * 1000n) - (x * x * 10n ** 6n) / 10n ** 12n,
      units('WHYPE', 2000),
      units('USDC', 50_000),
    );
    const g = buildGraph(snapshot(pad, coreWhypeUsdc, stable('USDC', 'USDT', 1_000_000, 1_150_000), v2('WHYPE', 'USDT', 1500, 37_350, 10, 2)));
    const route = findRoute(g, { tokenIn: TOKENS.MEME, tokenOut: TOKENS.USDT, amountIn: 10_000_000_000_000n, multiHop: true });
    expect(route.tokens[0]).toBe(TOKENS.MEME);
    expect(route.tokens[1]).toBe(TOKENS.WHYPE);
    expect(route.amountOut).toBeGreaterThan(0n);
    expect(route.stages[0][0].poolAddress).toBe(pad.address);
    expect(route.stages[0][0].fee).toBe(100);
    const buy = findRoute(g, { tokenIn: TOKENS.USDT, tokenOut: TOKENS.MEME, amountIn: units('USDT', 1000), multiHop: true });
    expect(buy.tokens[buy.tokens.length - 2]).toBe(TOKENS.WHYPE);
    const coreSwap = findRoute(g, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn: units('WHYPE', 10) });
    expect(coreSwap.stages[0][0].kind).toBe('core');
    expect(coreSwap.stages[0][0].fee).toBeUndefined();
    const stableSwap = findRoute(g, { tokenIn: TOKENS.USDT, tokenOut: TOKENS.USDC, amountIn: units('USDT', 1000) });
    expect(stableSwap.stages[0][0].stable).toBe(true);
    expect(stableSwap.stages[0][0].fee).toBe(4);
  });

  it('refuses unknown tokens, the same token and amounts no pool can take', () => {
    expect(() => findRoute(graph, { tokenIn: TOKENS.DAI, tokenOut: TOKENS.USDC, amountIn: 1n })).toThrow(NoRouteError);
    expect(() => findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.USDC, amountIn: 1n })).toThrow(NoRouteError);
  });

  it('is never worse than the best single pool of the hop (direct)', () => {
    const legs = [...legsOf(deep), ...legsOf(shallow)].filter((l) => l.tokenIn === TOKENS.USDC);
    for (const amount of [1n, 999n, units('USDC', 10), units('USDC', 250_000)]) {
      const r = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountIn: amount });
      for (const l of legs) expect(r.amountOut).toBeGreaterThanOrEqual(l.quote(amount));
      expect(r.amountOut).toBe(splitExactIn(legs, amount)!.amountOut);
    }
  });
});

describe('findRoute net of gas', () => {
  // USDC -> WHYPE over four V2 pools of one price and depth ($100k a side): splitting pays little at $10, much at $50k.
  const pools = [1, 2, 1, 2].map((index) => v2('WHYPE', 'USDC', 4_000, 100_000, 30, index));
  const graph = buildGraph(snapshot(...pools));
  // 10 gwei a gas, WHYPE at $25: a V2 swap's ~67k gas is worth about $0.017.
  const gasValue = 1e10;
  const swaps = (route: { stages: readonly (readonly unknown[])[] }) => route.stages.flat().length;
  const net = (route: ReturnType<typeof findRoute>) => Number(route.amountOut) - routeGas(route) * gasValue;

  it('keeps one pool for a small trade, where the split pays less than its gas', () => {
    const request = { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountIn: units('USDC', 10), multiHop: true };
    const split = findRoute(graph, request);
    const chosen = findRoute(graph, { ...request, gasValue });
    expect(swaps(split)).toBe(4);
    expect(swaps(chosen)).toBe(1);
    expect(net(chosen)).toBeGreaterThan(net(split));
  });

  it('splits a large trade, where the split pays for its gas', () => {
    const request = { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountIn: units('USDC', 50_000), multiHop: true };
    const chosen = findRoute(graph, { ...request, gasValue });
    expect(swaps(chosen)).toBe(4);
    expect(chosen.amountOut).toBe(findRoute(graph, request).amountOut);
  });

  it('weighs each direct pool alone: a cheap shallow pool beats a deep costly one and a longer path net of gas', () => {
    // USDC -> WHYPE: a deep core pool paying 0.1% better than the V2 pool but costing ~42k more gas, and a path
    // through DAI (a V2 pool 1.5% off peg) paying about 1% more for a second swap. At 200 gwei, a $20 trade does
    // best on the V2 pool alone, which a search keeping the pair's deepest pool for one swap never tries.
    const cheap = v2('WHYPE', 'USDC', 40_000, 1_000_000, 30, 1);
    const deep = core('USDC', 'WHYPE', (x) => (x * 10n ** 12n * 9_980n) / 25n / 10_000n, (x) => (x * 25n * 9_980n) / 10n ** 12n / 10_000n, units('USDC', 5_000_000), units('WHYPE', 200_000));
    const tilted = v2('USDC', 'DAI', 1_000_000, 1_015_000, 5, 3);
    const daiWhype = v2('WHYPE', 'DAI', 40_000, 1_000_000, 30, 2);
    const g = buildGraph(snapshot(cheap, deep, tilted, daiWhype));
    const request = { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountIn: units('USDC', 20), multiHop: true };
    const gas200 = 2e11;
    const netAt = (route: ReturnType<typeof findRoute>) => Number(route.amountOut) - routeGas(route) * gas200;
    const aside = findRoute(g, request);
    const chosen = findRoute(g, { ...request, gasValue: gas200 });
    expect(swaps(aside)).toBeGreaterThan(1);
    expect(chosen.stages.flat().map((s) => s.poolAddress)).toEqual([cheap.address]);
    for (const other of [aside, findRoute(g, { ...request, multiHop: false, poolsPerPair: 1, directPools: 1 })]) expect(netAt(chosen)).toBeGreaterThan(netAt(other));
    // Exact output alike, the gas worth in USDC base units (200 gwei of WHYPE at $25: 5 USDC units a gas).
    const out = { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountOut: units('WHYPE', '0.8'), multiHop: true };
    expect(swaps(findRoute(g, out))).toBeGreaterThan(1);
    const chosenOut = findRoute(g, { ...out, gasValue: 5 });
    expect(chosenOut.stages.flat().map((s) => s.poolAddress)).toEqual([cheap.address]);
  });

  it('needs the least input plus gas for an exact output', () => {
    const request = { tokenIn: TOKENS.USDC, tokenOut: TOKENS.WHYPE, amountOut: units('WHYPE', '0.4'), multiHop: true };
    // The same gas worth in USDC base units: about $0.017 for a V2 swap.
    const chosen = findRoute(graph, { ...request, gasValue: 0.25 });
    expect(swaps(findRoute(graph, request))).toBe(4);
    expect(swaps(chosen)).toBe(1);
    expect(chosen.amountOut).toBeGreaterThanOrEqual(units('WHYPE', '0.4'));
  });
});
