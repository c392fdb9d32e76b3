import { FlowGraph } from './flow-graph';
import { buildGraph } from '../graph/chain-graph';
import { cyclePeriod, solveFlow, type FlowSolution } from './interior-flow';
import { startPrices } from './token-order';
import { snapshot, TOKENS, units, v2 } from '../../test/fixtures';

/** The residuals and outputs of `steps` steps, each given by `at(step)`. */
function history(steps: number, at: (step: number) => [number, number]): [Float64Array, Float64Array] {
  const worst = new Float64Array(steps);
  const output = new Float64Array(steps);
  for (let i = 0; i < steps; i++) [worst[i], output[i]] = at(i);
  return [worst, output];
}

describe('cycles of the interior-point iterates', () => {
  const two: [number, number][] = [
    [0.047484106747087473, 0.93289965253001139],
    [0.0014125170590139069, 0.93329716739274771],
  ];
  const three: [number, number][] = [
    [1.75e-8, 3.1474204927],
    [0.0991, 3.15275324999],
    [0.0348, 3.13962780375],
  ];

  it('finds the period of points that come back every two or three steps (within a billionth)', () => {
    const [w2, o2] = history(40, (i) => (i < 20 ? [1 / (i + 1), i] : [two[i % 2][0] * (1 + 1e-12 * (i % 5)), two[i % 2][1]]));
    expect(cyclePeriod(w2, o2, 39)).toBe(2);
    const [w3, o3] = history(60, (i) => (i < 30 ? [1 / (i + 1), i] : three[i % 3]));
    expect(cyclePeriod(w3, o3, 59)).toBe(3);
  });

  it('waits for the repeats: a cycle of two just started, or of three seen less than twice over, is none yet', () => {
    const [w2, o2] = history(40, (i) => (i < 35 ? [1 / (i + 1), i] : two[i % 2]));
    expect(cyclePeriod(w2, o2, 39)).toBe(0);
    expect(cyclePeriod(w2, o2, 36)).toBe(0);
    const [w3, o3] = history(60, (i) => (i < 54 ? [1 / (i + 1), i] : three[i % 3]));
    expect(cyclePeriod(w3, o3, 59)).toBe(0);
  });

  it('is not fooled by points that drift, converge, or repeat one figure only', () => {
    // Back every two steps but drifting by a millionth each time.
    const [wd, od] = history(40, (i) => [two[i % 2][0] * (1 + 1e-6 * i), two[i % 2][1]]);
    expect(cyclePeriod(wd, od, 39)).toBe(0);
    // Converging: the residual falls every step.
    const [wc, oc] = history(40, (i) => [0.1 * 0.7 ** i, 1 - 0.5 ** i]);
    expect(cyclePeriod(wc, oc, 39)).toBe(0);
    // The same residual every other step, the output still moving.
    const [wr, or] = history(40, (i) => [two[i % 2][0], 0.9 + i * 1e-4]);
    expect(cyclePeriod(wr, or, 39)).toBe(0);
  });
});

describe('a solve asked at a step whether the point reached will do', () => {
  // USDC to PURR through WHYPE or through DAI (a diamond of V2 pools).
  const chain = buildGraph(snapshot(v2('USDC', 'WHYPE', 100_000, 4_000, 30, 1), v2('WHYPE', 'PURR', 1_000, 100_000, 30, 1), v2('USDC', 'DAI', 60_000, 60_000, 5, 2), v2('DAI', 'PURR', 40_000, 160_000, 30, 2)));
  const flow = FlowGraph.create(chain, TOKENS.USDC, TOKENS.PURR)!;
  const scale = startPrices(flow, undefined);
  const amountIn = Number(units('USDC', 20_000));
  const whole = solveFlow(flow, amountIn, scale)!;

  it('ends where the answer is yes, with the point it was shown', () => {
    expect(whole.iterations).toBeGreaterThan(4);
    const shown: FlowSolution[] = [];
    const stopped = solveFlow(flow, amountIn, scale, { checkAt: 3, stopIf: (s) => shown.push(s) > 0 })!;
    expect(shown).toHaveLength(1);
    expect(stopped.iterations).toBe(3);
    expect(stopped).toEqual(shown[0]);
    // Three steps in, the flows are not the optimum's yet.
    expect(stopped.amountOut).not.toBe(whole.amountOut);
  });

  it('goes on to the same optimum where the answer is no, and does not ask a solve that ended before the step', () => {
    let asked = 0;
    const goneOn = solveFlow(flow, amountIn, scale, { checkAt: 3, stopIf: () => (asked++, false) })!;
    expect(asked).toBe(1);
    expect(goneOn).toEqual(whole);
    const late = solveFlow(flow, amountIn, scale, { checkAt: whole.iterations + 1, stopIf: () => (asked++, true) })!;
    expect(asked).toBe(1);
    expect(late).toEqual(whole);
  });
});
