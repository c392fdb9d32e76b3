import { getAmountIn, getAmountOut, InsufficientLiquidityError } from './constant-product';

describe('constant-product math', () => {
  it('matches the pair formula on known values', () => {
    // 1 token in, 0.3% fee, reserves 100 / 200 (18 decimals): 997 * 200 / (100000 + 997) * 1e18
    const e18 = 10n ** 18n;
    expect(getAmountOut(e18, 100n * e18, 200n * e18, 30n)).toBe(1_974_316_068_794_122_597n);
  });

  it('inverts: getAmountIn gives the smallest input that reaches the output', () => {
    let seed = 7n;
    const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    for (let i = 0; i < 1_000; i++) {
      const reserveIn = (next() % 10n ** 24n) + 10n ** 6n;
      const reserveOut = (next() % 10n ** 24n) + 10n ** 6n;
      const feeBps = next() % 100n;
      const amountOut = (next() % (reserveOut - 1n)) + 1n;
      const amountIn = getAmountIn(amountOut, reserveIn, reserveOut, feeBps);
      expect(getAmountOut(amountIn, reserveIn, reserveOut, feeBps)).toBeGreaterThanOrEqual(amountOut);
      if (amountIn > 1n) expect(getAmountOut(amountIn - 1n, reserveIn, reserveOut, feeBps)).toBeLessThanOrEqual(amountOut);
    }
  });

  it('rejects empty pools and outputs beyond the reserve', () => {
    expect(() => getAmountOut(1n, 0n, 1n, 30n)).toThrow(InsufficientLiquidityError);
    expect(() => getAmountIn(10n, 100n, 10n, 30n)).toThrow(InsufficientLiquidityError);
    expect(getAmountOut(0n, 10n, 10n, 30n)).toBe(0n);
  });
});
