import { interpolateSamples, interpolateSamplesInverse, InvalidSamplesError, sampleCapacity, sampleCurve } from './core-samples';

/** A concave "pool": out = 2x * 1e6 / (1e6 + x) (a constant-product-like curve at rate 2). */
const f = (x: bigint): bigint => (2n * x * 1_000_000n) / (1_000_000n + x);
const ladder = [1_000n, 10_000n, 100_000n, 300_000n, 1_000_000n, 3_000_000n];

describe('core pool samples', () => {
  const curve = sampleCurve(ladder.map((amountIn) => ({ amountIn, amountOut: f(amountIn) })).reverse());

  it('is exact at the samples and quotes nothing above the top one', () => {
    for (const a of ladder) expect(interpolateSamples(curve, a)).toBe(f(a));
    expect(sampleCapacity(curve)).toBe(3_000_000n);
    expect(interpolateSamples(curve, 3_000_001n)).toBe(0n);
    expect(interpolateSamples(curve, 0n)).toBe(0n);
  });

  it('never overestimates a concave pool between samples', () => {
    for (let x = 1n; x <= 3_000_000n; x += 7_919n) expect(interpolateSamples(curve, x)).toBeLessThanOrEqual(f(x));
  });

  it('interpolates linearly (rounded down) on a segment', () => {
    // Between 1,000 and 10,000: 1998 + (5,500 - 1,000) * (19801 - 1998) / 9,000.
    expect(interpolateSamples(curve, 5_500n)).toBe(f(1_000n) + (4_500n * (f(10_000n) - f(1_000n))) / 9_000n);
  });

  it('uses the lower neighbouring rate where the samples are not concave', () => {
    // Rates: 1 on [0, 100], then 3 on [100, 200]: inside the second segment the rate 1 applies.
    const c = sampleCurve([
      { amountIn: 100n, amountOut: 100n },
      { amountIn: 200n, amountOut: 400n },
    ]);
    expect(interpolateSamples(c, 150n)).toBe(150n);
    expect(interpolateSamples(c, 200n)).toBe(400n);
  });

  it('inverts: the smallest input reaching an output', () => {
    for (const out of [1n, 1_998n, 5_000n, 1_000_000n, f(3_000_000n)]) {
      const x = interpolateSamplesInverse(curve, out)!;
      expect(interpolateSamples(curve, x)).toBeGreaterThanOrEqual(out);
      expect(interpolateSamples(curve, x - 1n)).toBeLessThan(out);
    }
    expect(interpolateSamplesInverse(curve, f(3_000_000n) + 1n)).toBeUndefined();
  });

  it('rejects samples whose output falls as the input grows', () => {
    expect(() => sampleCurve([{ amountIn: 1n, amountOut: 5n }, { amountIn: 2n, amountOut: 4n }])).toThrow(InvalidSamplesError);
  });
});
