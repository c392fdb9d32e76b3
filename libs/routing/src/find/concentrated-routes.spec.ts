import { concentrated, stateAt } from '../../test/concentrated-fixtures';
import { coreAmm, snapshot, stable, TOKENS, units, v2 } from '../../test/fixtures';
import { expectExecutesAsQuoted, expectStagesWellFormed } from '../../test/route-checks';
import { findRoute } from './find-route';
import { buildGraph } from '../graph/chain-graph';
import { legsOf } from '../pools/legs';
import { bestSingle } from '../search/hop-split';
import { bestOnePathExactIn } from './exact-in';

// Prices are token1 per token0 in base units (tokens sorted by address: WHYPE < USDC < USDT < PURR): WHYPE at 25
// USDC (tick -244,140 ~ 25e6 / 1e18), PURR at 0.1 WHYPE (tick 23,030 ~ 10 PURR per WHYPE), PURR at 2.5 USDC (tick
// 267,180 ~ 0.4e18 / 1e6), USDC at 1 USDT (tick 0). Positions: narrow around the price, wide, one-sided; the sizes
// below cross several ticks.
const whypeUsdcV3 = concentrated(
  'uniswap-v3',
  'WHYPE',
  'USDC',
  stateAt(
    -244_140,
    [
      { lower: -244_200, upper: -244_080, liquidity: 3n * 10n ** 15n },
      { lower: -250_000, upper: -238_000, liquidity: 2n * 10n ** 15n },
      { lower: -244_080, upper: -243_000, liquidity: 5n * 10n ** 14n },
      { lower: -246_000, upper: -244_200, liquidity: 5n * 10n ** 14n },
    ],
    3000,
    60,
    0.4,
  ),
);
const whypeUsdcAlgebra = concentrated(
  'algebra',
  'WHYPE',
  'USDC',
  stateAt(
    -244_150,
    [
      { lower: -244_500, upper: -243_900, liquidity: 10n ** 15n },
      { lower: -260_000, upper: -230_000, liquidity: 10n ** 15n },
    ],
    1700,
    10,
    0.6,
  ),
);
const purrWhypeV3 = concentrated('uniswap-v3', 'PURR', 'WHYPE', stateAt(23_030, [{ lower: 16_000, upper: 30_000, liquidity: 3n * 10n ** 22n }], 500, 10));
const purrUsdcAlgebra = concentrated('algebra', 'PURR', 'USDC', stateAt(267_180, [{ lower: 264_000, upper: 270_000, liquidity: 2n * 10n ** 17n }], 3000, 60));
const usdcUsdtV3 = concentrated('uniswap-v3', 'USDC', 'USDT', stateAt(0, [{ lower: -10, upper: 10, liquidity: 10n ** 16n }], 100, 1));

describe('routes through concentrated pools', () => {
  const pools = [
    v2('WHYPE', 'USDC', 2000, 50_000, 30),
    coreAmm('WHYPE', 'USDC', 40, 1_000, 25, 1),
    whypeUsdcV3,
    whypeUsdcAlgebra,
    purrWhypeV3,
    purrUsdcAlgebra,
    usdcUsdtV3,
    stable('USDC', 'USDT', 200_000, 200_000),
  ];
  const graph = buildGraph(snapshot(...pools));

  it('splits a hop across V2, core, Uniswap V3 and Algebra pools, crossing ticks, and executes as quoted', () => {
    const amountIn = units('WHYPE', 300);
    const route = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountIn });
    expect(route.stages).toHaveLength(1);
    const kinds = new Set(route.stages[0].map((s) => s.kind));
    expect(kinds).toEqual(new Set(['uniswap-v2', 'core', 'uniswap-v3', 'algebra']));
    expectExecutesAsQuoted(route);
    const legs = graph.legs.get(TOKENS.WHYPE.toLowerCase())!.get(TOKENS.USDC.toLowerCase())!;
    expect(route.amountOut).toBeGreaterThan(bestSingle(legs, amountIn)!.amountOut);
    // The V3 share moves the price across initialized ticks.
    const v3 = route.stages[0].find((s) => s.kind === 'uniswap-v3')!;
    const leg = legsOf(whypeUsdcV3).find((l) => l.tokenIn === TOKENS.WHYPE) as unknown as { swapExactIn(x: bigint): { liquidity: bigint } };
    expect(leg.swapExactIn(v3.amountIn).liquidity).not.toBe(whypeUsdcV3.liquidity);
    // The concentrated kinds' fees in their pools' own units (pips), as the hop swap records give them.
    expect(v3.fee).toBe(3000);
    expect(route.stages[0].find((s) => s.kind === 'algebra')!.fee).toBe(whypeUsdcAlgebra.fee);
  });

  it('exact output through the same pools: at least the amount asked, executed as quoted', () => {
    const amountOut = units('USDC', 5_000);
    const route = findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountOut });
    expect(route.amountOut).toBeGreaterThanOrEqual(amountOut);
    expectExecutesAsQuoted(route);
    expect(route.stages[0].some((s) => s.kind === 'uniswap-v3' || s.kind === 'algebra')).toBe(true);
  });

  it('multi-hop at the convex optimum mixes the kinds across paths and executes as quoted', () => {
    const amountIn = units('PURR', 10_000);
    const route = findRoute(graph, { tokenIn: TOKENS.PURR, tokenOut: TOKENS.USDT, amountIn, multiHop: true });
    expectStagesWellFormed(route);
    expectExecutesAsQuoted(route);
    const kinds = new Set(route.stages.flat().map((s) => s.kind));
    expect(kinds.has('uniswap-v3')).toBe(true);
    expect(kinds.has('algebra')).toBe(true);
    const onePath = bestOnePathExactIn(graph, TOKENS.PURR, TOKENS.USDT, amountIn, { multiHop: true })!;
    expect(route.amountOut).toBeGreaterThanOrEqual(onePath.amountOut);
  });

  it('refuses an input a concentrated pool cannot take whole: the route uses what the pool can take', () => {
    const [leg] = legsOf(usdcUsdtV3).filter((l) => l.tokenIn === TOKENS.USDC);
    const cap = leg.maxIn!;
    expect(leg.quote(cap)).toBeGreaterThan(0n);
    expect(leg.quote(cap + 1n)).toBe(0n);
    const route = findRoute(buildGraph(snapshot(usdcUsdtV3, stable('USDC', 'USDT', 200_000, 200_000))), { tokenIn: TOKENS.USDC, tokenOut: TOKENS.USDT, amountIn: cap * 3n });
    const v3 = route.stages[0].find((s) => s.kind === 'uniswap-v3');
    if (v3) expect(v3.amountIn).toBeLessThanOrEqual(cap);
    expectExecutesAsQuoted(route);
  });
});
