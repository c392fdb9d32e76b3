import { launchedTokenSchema } from '@dex/messages';
import { tokenStatus } from './launchpad-reader';

describe('tokenStatus', () => {
  it('is trading while the curve has tokens for sale', () => {
    expect(tokenStatus(false, 1n)).toBe('trading');
    expect(tokenStatus(false, 750_000_000_000_000n)).toBe('trading');
  });

  it('is graduating once the curve sold out and graduate has not run: not graduated', () => {
    expect(tokenStatus(false, 0n)).toBe('graduating');
  });

  it('is graduated once the DEX pool is seeded', () => {
    expect(tokenStatus(true, 0n)).toBe('graduated');
  });

  it('is one of the documented statuses', () => {
    expect(launchedTokenSchema.shape.status.options).toEqual(['trading', 'graduating', 'graduated']);
  });
});
