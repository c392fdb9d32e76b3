import { bpsOf, FeeMathError, minAmountOut, percentToBps, splitOutput } from './fees';

describe('fee math', () => {
  it('takes bps rounding down', () => {
    expect(bpsOf(10_000n, 30n)).toBe(30n);
    expect(bpsOf(9_999n, 30n)).toBe(29n);
    expect(bpsOf(0n, 100n)).toBe(0n);
  });

  it('computes minAmountOut as amountOut * (10000 - slippageBps) / 10000', () => {
    expect(minAmountOut(1_000_000n, 100n)).toBe(990_000n);
    expect(minAmountOut(999n, 100n)).toBe(989n);
    expect(minAmountOut(5n, 0n)).toBe(5n);
    expect(() => minAmountOut(5n, 10_000n)).toThrow(FeeMathError);
    expect(() => minAmountOut(5n, -1n)).toThrow(FeeMathError);
  });

  it('converts slippage percent to bps', () => {
    expect(percentToBps(1)).toBe(100n);
    expect(percentToBps(0.5)).toBe(50n);
    expect(percentToBps(0.01)).toBe(1n);
    expect(() => percentToBps(0.001)).toThrow('two decimals');
    expect(() => percentToBps(100)).toThrow(FeeMathError);
    expect(() => percentToBps(Number.NaN)).toThrow(FeeMathError);
  });

  it('splits the integrator fee 97.5 / 2.5 and the parts sum to the gross output', () => {
    const s = splitOutput({ grossAmountOut: 1_000_000n, expectedAmountOut: 1_000_000n, feeBps: 100n, hasFeeRecipient: true });
    expect(s.integratorFee).toBe(9_750n);
    expect(s.protocolFee).toBe(250n);
    expect(s.userAmount).toBe(990_000n);
    expect(s.userAmount + s.integratorFee + s.recipientSlippage + s.protocolFee).toBe(1_000_000n);
  });

  it.each([
    ['captures half of the positive slippage, split between recipient and protocol', 1_100n, true, { positiveSlippage: 100n, recipientSlippage: 25n, protocolSlippage: 25n, userAmount: 1_050n }],
    ['sends all captured slippage to the protocol without a recipient', 1_101n, false, { positiveSlippage: 101n, recipientSlippage: 0n, protocolSlippage: 50n, userAmount: 1_051n }],
  ])('%s', (_, grossAmountOut, hasFeeRecipient, expected) => {
    expect(splitOutput({ grossAmountOut, expectedAmountOut: 1_000n, feeBps: 0n, hasFeeRecipient })).toMatchObject(expected);
  });

  it('captures nothing at or below the expected amount', () => {
    const s = splitOutput({ grossAmountOut: 900n, expectedAmountOut: 1_000n, feeBps: 0n, hasFeeRecipient: false });
    expect(s.positiveSlippage).toBe(0n);
    expect(s.userAmount).toBe(900n);
  });

  it('rejects a fee above 100 bps or without a recipient', () => {
    expect(() => splitOutput({ grossAmountOut: 1n, expectedAmountOut: 1n, feeBps: 101n, hasFeeRecipient: true })).toThrow(FeeMathError);
    expect(() => splitOutput({ grossAmountOut: 1n, expectedAmountOut: 1n, feeBps: 10n, hasFeeRecipient: false })).toThrow('recipient');
  });

  it('conserves the gross output for many inputs', () => {
    let seed = 12345n;
    const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    for (let i = 0; i < 2_000; i++) {
      const gross = next() % 10n ** 24n;
      const expected = next() % 10n ** 24n;
      const feeBps = next() % 101n;
      const hasFeeRecipient = feeBps > 0n || next() % 2n === 0n;
      const s = splitOutput({ grossAmountOut: gross, expectedAmountOut: expected, feeBps, hasFeeRecipient });
      expect(s.userAmount + s.integratorFee + s.recipientSlippage + s.protocolFee).toBe(gross);
      expect(s.userAmount).toBeGreaterThanOrEqual(0n);
    }
  });
});
