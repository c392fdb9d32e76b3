import { launchedTokenSchema } from '@dex/messages';
import { GRADUATION_TOKEN_RESERVE, launchCurveStatus, VIRTUAL_NATIVE_LIQUIDITY } from '@dex/routing';

// A token's status is readLaunchCurves' (libs/chain), by the one rule of @dex/routing.
describe('launched token status', () => {
  const at = (tokenReserve: bigint, graduated: boolean) => launchCurveStatus({ nativeReserve: VIRTUAL_NATIVE_LIQUIDITY, tokenReserve, graduated });

  it('is trading while the curve has tokens for sale', () => {
    expect(at(GRADUATION_TOKEN_RESERVE + 1n, false)).toBe('trading');
    expect(at(GRADUATION_TOKEN_RESERVE + 750_000_000_000_000n, false)).toBe('trading');
  });

  it('is graduating once the curve sold out and graduate has not run: not graduated', () => {
    expect(at(GRADUATION_TOKEN_RESERVE, false)).toBe('graduating');
  });

  it('is graduated once the DEX pool is seeded', () => {
    expect(at(GRADUATION_TOKEN_RESERVE, true)).toBe('graduated');
  });

  it('is one of the documented statuses', () => {
    expect(launchedTokenSchema.shape.status.options).toEqual(['trading', 'graduating', 'graduated']);
    const statuses: (typeof launchedTokenSchema.shape.status.options)[number][] = [at(GRADUATION_TOKEN_RESERVE + 1n, false), at(GRADUATION_TOKEN_RESERVE, false), at(GRADUATION_TOKEN_RESERVE, true)];
    expect(statuses).toEqual(['trading', 'graduating', 'graduated']);
  });
});
