import { CURVE_LADDER_REFINE, curveSampleLadder, refineSampleLadder } from './curve';

/** A stable pool's output in float: 1:1 until the output coin (`depth`) runs out, bending sharply there (A-like `k`). */
const stableOut = (depth: number, k: number) => (x: number) => (depth * x) / Math.pow(Math.pow(depth, k) + Math.pow(x, k), 1 / k);

/** The worst shortfall, relative to the curve, of the chords through `inputs` against `f`, checked at 4,000 points. */
function worstShortfall(f: (x: number) => number, inputs: readonly bigint[]): number {
  const xs = inputs.map(Number);
  let worst = 0;
  for (let k = 0; k + 1 < xs.length; k++) {
    const [a, b] = [xs[k], xs[k + 1]];
    for (let p = 1; p < 100; p++) {
      const x = a + ((b - a) * p) / 100;
      const chord = f(a) + ((f(b) - f(a)) * (x - a)) / (b - a);
      worst = Math.max(worst, (f(x) - chord) / f(x));
    }
  }
  return worst;
}

describe('Curve sample ladders', () => {
  const depth = 2e12;
  const f = stableOut(depth, 12);
  const samples = (inputs: readonly bigint[]) => inputs.map((amountIn) => ({ amountIn, amountOut: BigInt(Math.floor(f(Number(amountIn)))) }));

  it('lays 56 inputs on the input coin’s balance, from a millionth of it to three times it', () => {
    const ladder = curveSampleLadder(2_000_000n * 10n ** 6n);
    expect(ladder).toHaveLength(56);
    expect(ladder[0]).toBe(2_000_000n);
    expect(ladder[ladder.length - 1]).toBe(6_000_000n * 10n ** 6n);
    expect(ladder.every((x, i) => i === 0 || x > ladder[i - 1])).toBe(true);
    expect(curveSampleLadder(0n)).toEqual([]);
  });

  it('refines where the chords fall furthest under the curve: at the bend, cutting the worst shortfall tenfold and more', () => {
    const first = curveSampleLadder(BigInt(depth));
    const extra = refineSampleLadder(samples(first), CURVE_LADDER_REFINE);
    expect(extra.length).toBe(CURVE_LADDER_REFINE);
    // Every extra input inside the samples' span, and most around the bend (half to twice the output coin's depth).
    expect(extra.every((x) => x > first[0] && x < first[first.length - 1] && !first.includes(x))).toBe(true);
    expect(extra.filter((x) => Number(x) > depth / 2 && Number(x) < depth * 2).length).toBeGreaterThan(CURVE_LADDER_REFINE / 2);
    const before = worstShortfall(f, first);
    const after = worstShortfall(f, [...first, ...extra].sort((a, b) => (a < b ? -1 : 1)));
    expect(before).toBeGreaterThan(1e-3);
    expect(after).toBeLessThan(before / 10);
  });

  it('adds nothing to a straight line or to too few samples', () => {
    const line = [1n, 10n, 100n, 1000n].map((amountIn) => ({ amountIn: amountIn * 10n ** 6n, amountOut: amountIn * 10n ** 6n }));
    expect(refineSampleLadder(line, 10)).toEqual([]);
    expect(refineSampleLadder(line.slice(0, 2), 10)).toEqual([]);
  });
});
