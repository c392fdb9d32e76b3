import { buildGraph } from './graph';
import { findRoute, NoRouteError } from './find-route';
import { findRouteExactIn } from './exact-in';
import { snapshot, stable, TOKENS, units, v2 } from '../test/fixtures';

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
    // Consistent with RouterV2: per hop the quoted inputs add up to the hop's input.
    let hopIn = route.amountIn;
    for (const hop of route.hopSwaps) {
      expect(hop.reduce((a, s) => a + s.amountIn, 0n)).toBe(hopIn);
      hopIn = hop.reduce((a, s) => a + s.amountOut, 0n);
    }
    expect(hopIn).toBe(route.amountOut);
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
});
