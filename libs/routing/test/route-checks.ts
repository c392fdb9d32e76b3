/** Checks shared by the route tests: a route executes under RouterV2's stage semantics exactly as quoted. */
import { replayStages } from '../src/router-replay';
import type { Route } from '../src/route';

/**
 * Replays the route's stages for its input, each share priced by its leg's exact quote: every swap receives its
 * quoted input and pays its quoted output, and the route pays its amountOut; a linear route's stages chain token
 * by token.
 */
export function expectExecutesAsQuoted(route: Route): void {
  const executed = replayStages(route.hopSwaps, route.tokens[0], route.tokens[route.tokens.length - 1], route.amountIn, (stage, shares) =>
    shares.map((share, j) => (share > 0n ? route.hopSwaps[stage][j].leg.quote(share) : 0n)),
  );
  expect(executed).toBeDefined();
  executed!.stages.forEach((stage, k) => {
    expect(stage.amountsIn).toEqual(route.hopSwaps[k].map((s) => s.amountIn));
    expect(stage.amountsOut).toEqual(route.hopSwaps[k].map((s) => s.amountOut));
  });
  expect(executed!.amountOut).toBe(route.amountOut);
  for (const stage of route.hopSwaps) for (const s of stage) expect(s.amountOut).toBeGreaterThan(0n);
  if (!route.split) {
    expect(route.hopSwaps).toHaveLength(route.tokens.length - 1);
    route.hopSwaps.forEach((hop, h) => hop.forEach((s) => expect([s.tokenIn, s.tokenOut]).toEqual([route.tokens[h], route.tokens[h + 1]])));
  }
}
