import { CORE_LADDER_NEAR_BOUND, CORE_LADDER_SIZE, coreBoundEstimate, coreLadder, geometricLadder } from './sample-core-pools';

describe('geometricLadder', () => {
  it('is strictly increasing from low to high', () => {
    const ladder = geometricLadder(1_000n, 10n ** 12n, 16);
    expect(ladder).toHaveLength(16);
    expect(ladder[0]).toBe(1_000n);
    expect(ladder[15]).toBe(10n ** 12n);
    for (let i = 1; i < ladder.length; i++) expect(ladder[i]).toBeGreaterThan(ladder[i - 1]);
    const tiny = geometricLadder(1n, 3n, 16);
    for (let i = 1; i < tiny.length; i++) expect(tiny[i]).toBeGreaterThan(tiny[i - 1]);
  });
});

describe('coreLadder', () => {
  // A pool quoting 4 PURR (18 decimals) per USDC (6 decimals) less a fee growing with size: 200,000 PURR out at most.
  const reserveOut = 200_000n * 10n ** 18n;
  const quote = (a: bigint) => ((a - (a * (30n + a / 10n ** 9n)) / 10_000n) * 4n * 10n ** 12n);
  const bound = (() => {
    let lo = 0n;
    let hi = 10n ** 12n;
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (quote(mid) <= reserveOut) lo = mid;
      else hi = mid;
    }
    return lo;
  })();

  it('without a rate runs to half the input reserve, blind', () => {
    const ladder = coreLadder(50_000n * 10n ** 6n, reserveOut, undefined);
    expect(ladder.blind).toBe(true);
    expect(ladder.single).toEqual([]);
    expect(ladder.batch).toHaveLength(CORE_LADDER_SIZE);
    expect(ladder.batch[ladder.batch.length - 1]).toBe(25_000n * 10n ** 6n);
    expect(coreLadder(0n, reserveOut, undefined).batch).toEqual([]);
  });

  it('estimates the bound from the largest paying sample, never above it for a concave quote', () => {
    for (const top of [10n ** 9n, 25_000n * 10n ** 6n, bound - 10n ** 6n, bound]) {
      const estimate = coreBoundEstimate(reserveOut, [{ amountIn: 10n, amountOut: 0n }, { amountIn: top, amountOut: quote(top) }])!.lower;
      expect(estimate).toBeLessThanOrEqual(bound);
      if (top > bound / 2n) expect(Number(estimate)).toBeGreaterThan(Number(bound) * 0.995);
    }
    expect(coreBoundEstimate(reserveOut, [{ amountIn: 10n, amountOut: 0n }])).toBeUndefined();
  });

  it('runs from a millionth of the bound and closes in on it, the last inputs quoted one by one', () => {
    const first = coreLadder(50_000n * 10n ** 6n, reserveOut, [{ amountIn: 25_000n * 10n ** 6n, amountOut: quote(25_000n * 10n ** 6n) }]);
    const estimate = coreBoundEstimate(reserveOut, [{ amountIn: 25_000n * 10n ** 6n, amountOut: quote(25_000n * 10n ** 6n) }])!.lower;
    expect(first.blind).toBe(false);
    expect(first.batch).toHaveLength(CORE_LADDER_SIZE - CORE_LADDER_NEAR_BOUND);
    expect(first.single).toHaveLength(CORE_LADDER_NEAR_BOUND);
    const all = [...first.batch, ...first.single];
    for (let i = 1; i < all.length; i++) expect(all[i]).toBeGreaterThan(all[i - 1]);
    expect(first.batch[0]).toBe(estimate / 1_000_000n);
    expect(first.batch).toContain(estimate / 2n);
    expect(first.single[first.single.length - 1]).toBe(estimate - (estimate >> 10n));
    // Two samples far apart: the near-bound inputs follow the fee's growth, within 0.2% of the bound at once.
    const two = [10n ** 9n, 25_000n * 10n ** 6n].map((amountIn) => ({ amountIn, amountOut: quote(amountIn) }));
    const informed = coreLadder(50_000n * 10n ** 6n, reserveOut, two);
    const last = informed.single[informed.single.length - 1];
    expect(quote(last)).toBeLessThanOrEqual(reserveOut);
    expect(Number(last)).toBeGreaterThan(Number(bound) * 0.998);
    // Every input is quoted (at most the bound), and laid on its own top sample the next ladder's top is within
    // 0.1% of the bound.
    for (const a of all) expect(quote(a)).toBeLessThanOrEqual(reserveOut);
    const top = all[all.length - 1];
    const next = coreLadder(50_000n * 10n ** 6n, reserveOut, [{ amountIn: top, amountOut: quote(top) }]);
    const nextTop = next.single[next.single.length - 1];
    expect(quote(nextTop)).toBeLessThanOrEqual(reserveOut);
    expect(Number(nextTop)).toBeGreaterThan(Number(bound) * 0.998);
  });

  it('keeps its shape for short ladders', () => {
    const ladder = coreLadder(10n ** 9n, 10n ** 9n, [{ amountIn: 10n ** 8n, amountOut: 9n * 10n ** 7n }], 4);
    expect(ladder.batch.length + ladder.single.length).toBe(4);
    expect(ladder.single).toHaveLength(1);
  });
});
