import { toBaseUnits } from './route-request';

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
