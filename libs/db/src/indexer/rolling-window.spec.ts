import { hourOf, rollingWindow, windowEnd } from './rolling-window';

describe('rolling windows', () => {
  it('splits a 24 h window into whole hours and two exactly counted edge hours', () => {
    const w = rollingWindow(100_000n);
    expect(w).toEqual({ start: 13_600n, end: 100_000n, lowHour: 10_800n, highHour: 97_200n });
    expect(w.highHour - w.lowHour).toBe(86_400n);
    expect(hourOf(3_599n)).toBe(0n);
    expect(hourOf(3_600n)).toBe(3_600n);
  });

  it('ends at the later of the wall clock and the last indexed block time', () => {
    const now = new Date(1_000_000_000);
    expect(windowEnd(null, now)).toBe(1_000_000n);
    expect(windowEnd(999_000n, now)).toBe(1_000_000n);
    expect(windowEnd(1_090_000n, now)).toBe(1_090_000n);
  });
});
