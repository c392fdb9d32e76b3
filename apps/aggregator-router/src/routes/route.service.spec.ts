import { geometricLadder } from '../liquidity/liquidity.service';
import { isNative, toBaseUnits } from './route.service';

describe('toBaseUnits', () => {
  it('converts human-readable amounts with the token decimals', () => {
    expect(toBaseUnits('1.5', 6, 'amountIn')).toBe(1_500_000n);
    expect(toBaseUnits('.000001', 6, 'amountIn')).toBe(1n);
    expect(toBaseUnits('3', 18, 'amountOut')).toBe(3n * 10n ** 18n);
  });

  it('rejects more decimals than the token has, and zero', () => {
    expect(() => toBaseUnits('1.0000001', 6, 'amountIn')).toThrow('Invalid amountIn: more decimals than the token has');
    expect(() => toBaseUnits('0.000', 6, 'amountOut')).toThrow('Invalid amountOut: must be a positive decimal number');
  });
});

describe('isNative', () => {
  it('accepts the zero address and the 0xEeee spelling', () => {
    expect(isNative('0x0000000000000000000000000000000000000000')).toBe(true);
    expect(isNative('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')).toBe(true);
    expect(isNative('0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0')).toBe(false);
  });
});

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
