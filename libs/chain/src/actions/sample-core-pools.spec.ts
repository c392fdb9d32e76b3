import { geometricLadder } from './sample-core-pools';

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
