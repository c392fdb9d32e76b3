/** Checks shared by the route tests: a route executes under RouterV2's stage semantics exactly as quoted. */
import { replayStages } from '../src/route/router-replay';
import type { Route } from '../src/route/route';

/**
 * Replays the route's stages for its input, each share priced by its leg's exact quote: every swap receives its
 * quoted input and pays its quoted output, and the route pays its amountOut; a linear route's stages chain token
 * by token.
 */
export function expectExecutesAsQuoted(route: Route): void {
  const executed = replayStages(route.stages, route.tokens[0], route.tokens[route.tokens.length - 1], route.amountIn, (stage, shares) =>
    shares.map((share, j) => (share > 0n ? route.stages[stage][j].leg.quote(share) : 0n)),
  );
  expect(executed).toBeDefined();
  executed!.stages.forEach((stage, k) => {
    expect(stage.amountsIn).toEqual(route.stages[k].map((s) => s.amountIn));
    expect(stage.amountsOut).toEqual(route.stages[k].map((s) => s.amountOut));
  });
  expect(executed!.amountOut).toBe(route.amountOut);
  for (const stage of route.stages) for (const s of stage) expect(s.amountOut).toBeGreaterThan(0n);
  if (!route.split) {
    expect(route.stages).toHaveLength(route.tokens.length - 1);
    route.stages.forEach((hop, h) => hop.forEach((s) => expect([s.tokenIn, s.tokenOut]).toEqual([route.tokens[h], route.tokens[h + 1]])));
  }
}

/**
 * A route's stages as RouterV2 needs them: nothing into tokenIn nor out of tokenOut; each token but tokenOut spent in
 * exactly one stage, after every stage that pays it; `tokens` lists tokenIn, every intermediate token once (in the
 * order the stages first produce them), tokenOut.
 */
export function expectStagesWellFormed(route: Route): void {
  const key = (t: string) => t.toLowerCase();
  const tokenIn = key(route.tokens[0]);
  const tokenOut = key(route.tokens[route.tokens.length - 1]);
  const spentIn = new Map<string, number>();
  const paidIn = new Map<string, number[]>();
  route.stages.forEach((stage, k) => {
    for (const s of stage) {
      expect(key(s.tokenOut)).not.toBe(tokenIn);
      expect(key(s.tokenIn)).not.toBe(tokenOut);
      const t = key(s.tokenIn);
      if (spentIn.has(t)) expect(spentIn.get(t)).toBe(k);
      spentIn.set(t, k);
      paidIn.set(key(s.tokenOut), [...(paidIn.get(key(s.tokenOut)) ?? []), k]);
    }
  });
  for (const [t, stages] of paidIn) if (t !== tokenOut) for (const k of stages) expect(spentIn.get(t)).toBeGreaterThan(k);
  expect(spentIn.get(tokenIn)).toBe(0);
  const listed = route.tokens.map(key);
  expect(new Set(listed).size).toBe(listed.length);
  expect(new Set(listed)).toEqual(new Set([tokenOut, ...spentIn.keys()]));
  // RouterV2's token list: the intermediates in the order the stages first produce them; at most one stage per
  // token but the output.
  const produced: string[] = [];
  for (const stage of route.stages) for (const s of stage) if (key(s.tokenOut) !== tokenOut && !produced.includes(key(s.tokenOut))) produced.push(key(s.tokenOut));
  expect(listed.slice(1, -1)).toEqual(produced);
  expect(route.stages.length).toBeLessThanOrEqual(route.tokens.length - 1);
}
