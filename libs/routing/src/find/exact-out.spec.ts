import { buildGraph } from '../graph/chain-graph';
import { findRoute, NoRouteError } from './find-route';
import { findRouteExactIn } from './exact-in';
import { core, snapshot, stable, TOKENS, units, v2 } from '../../test/fixtures';
import { expectExecutesAsQuoted } from '../../test/route-checks';

describe('findRoute (exact output)', () => {
  const graph = buildGraph(
    snapshot(
      v2('WHYPE', 'USDC', 4000, 100_000, 30, 1),
      v2('WHYPE', 'USDC', 1000, 25_400, 10, 2),
      v2('PURR', 'WHYPE', 100_000, 1000, 30, 1),
      v2('USDT', 'WHYPE', 37_350, 1500, 10, 2),
      stable('USDC', 'USDT', 1_000_000, 1_150_000),
    ),
  );

  it.each([
    ['direct split', TOKENS.WHYPE, TOKENS.USDC, units('USDC', 12_345), false],
    ['two hops', TOKENS.PURR, TOKENS.USDC, units('USDC', 1_000), true],
    ['stable or through WHYPE', TOKENS.USDT, TOKENS.USDC, units('USDC', 250_000), true],
    ['tiny', TOKENS.WHYPE, TOKENS.USDC, 1n, false],
  ])('%s: pays at least the output, with a near-minimal input', (_, tokenIn, tokenOut, amountOut, multiHop) => {
    const route = findRoute(graph, { tokenIn, tokenOut, amountOut, multiHop });
    expect(route.amountOut).toBeGreaterThanOrEqual(amountOut);
    expect(route.requestedAmountOut).toBe(amountOut);
    // Consistent with RouterV2: each stage's swaps get their quoted inputs, the route pays its output.
    expectExecutesAsQuoted(route);
    // Minimal-ish: the best exact-input route for a millionth less input pays less than asked.
    const less = route.amountIn - route.amountIn / 1_000_000n - 1n;
    if (less > 0n) {
      const r = findRouteExactIn(graph, tokenIn, tokenOut, less, { multiHop });
      expect(r === undefined || r.amountOut < amountOut).toBe(true);
    }
  });

  it('fails clearly when the pools cannot pay the output', () => {
    expect(() => findRoute(graph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountOut: units('USDC', 125_400) })).toThrow(NoRouteError);
  });

  // The devnet's chain 999: a core pool at the oracle price ($25, 0.3% fee, sampled up to 1,000 WHYPE) beside the
  // two V2 pools. An output the core pool alone cannot pay puts its share at its very top. With 16 samples the
  // ladder starts at dust inputs whose outputs round to 0 or down.
  describe.each([
    ['7 samples from 0.001 WHYPE', 7],
    ['16 samples from dust', 16],
  ])('with a core pool that runs out (%s)', (_, points) => {
    const usdcPerWhype = (x: bigint) => (x * 25n * 997n) / 1000n / 10n ** 12n;
    const whypePerUsdc = (x: bigint) => (x * 10n ** 12n * 997n) / 1000n / 25n;
    const coreGraph = buildGraph(
      snapshot(
        core('WHYPE', 'USDC', usdcPerWhype, whypePerUsdc, units('WHYPE', 1000), units('USDC', 25_000), points),
        v2('WHYPE', 'USDC', 4000, 100_000, 30, 1),
        v2('WHYPE', 'USDC', 1000, 25_400, 10, 2),
      ),
    );

    it.each([26_000, 30_000, 40_000, 55_000])('%i USDC: pays the output with the least input, not more output than asked', (whole) => {
      const amountOut = units('USDC', whole);
      const route = findRoute(coreGraph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountOut });
      expect(route.amountOut).toBeGreaterThanOrEqual(amountOut);
      // Within a thousandth of the output asked for: an exact-output route does not buy what was not asked.
      expect(route.amountOut - amountOut).toBeLessThanOrEqual(amountOut / 1_000n);
      const less = route.amountIn - route.amountIn / 100_000n - 1n;
      const r = findRouteExactIn(coreGraph, TOKENS.WHYPE, TOKENS.USDC, less);
      expect(r === undefined || r.amountOut < amountOut).toBe(true);
    });

    it('needs more input for more output', () => {
      const inputs = [20_000, 26_000, 30_000, 40_000, 55_000, 60_000].map(
        (whole) => findRoute(coreGraph, { tokenIn: TOKENS.WHYPE, tokenOut: TOKENS.USDC, amountOut: units('USDC', whole) }).amountIn,
      );
      for (let i = 1; i < inputs.length; i++) expect(inputs[i]).toBeGreaterThan(inputs[i - 1]);
    });
  });
});
