import { best } from './search-options';
import { rng } from '../../test/fixtures';

describe('the best items by score', () => {
  it('gives the same items in the same order with a bound as without, scoring fewer', () => {
    const r = rng(7n);
    const random = () => r.float();
    for (let trial = 0; trial < 50; trial++) {
      const n = 20 + Math.floor(random() * 300);
      // Scores below their bounds by up to half, some tied, some that say nothing (-Infinity, NaN).
      const items = Array.from({ length: n }, (_, i) => {
        const top = Math.floor(random() * 40) / 4;
        const s = i % 17 === 0 ? -Infinity : i % 23 === 0 ? NaN : top * (0.5 + Math.floor(random() * 3) / 4);
        return { i, top, s };
      });
      let scored = 0;
      const score = (x: (typeof items)[number]) => (scored++, x.s);
      for (const keep of [1, 3, 16]) {
        const all = best(items, (x) => x.s, keep);
        scored = 0;
        expect(best(items, score, keep, (x) => x.top)).toEqual(all);
        if (n > keep * 4) expect(scored).toBeLessThan(n);
        else expect(scored).toBe(n);
      }
    }
  });
});
