import { chainSeed, Random } from './random';

describe('Random', () => {
  it('replays the same sequence from the same seed, and another from another seed', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, ((r) => () => r.next())(new Random(seed)));
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const x of draw(7)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('gives each chain its own stream', () => {
    expect(chainSeed(1, 999)).not.toBe(chainSeed(1, 4663));
    expect(chainSeed(1, 999)).toBe(chainSeed(1, 999));
  });

  it('draws keys in proportion to their weights and never one weighted 0', () => {
    const r = new Random(3);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 10_000; i++) counts[r.weighted({ a: 3, b: 1, c: 0 })] += 1;
    expect(counts.c).toBe(0);
    expect(counts.a / counts.b).toBeGreaterThan(2.6);
    expect(counts.a / counts.b).toBeLessThan(3.4);
    expect(() => r.weighted({ a: 0 })).toThrow();
  });

  it('takes a fraction of an amount within the basis points asked', () => {
    const r = new Random(9);
    for (let i = 0; i < 1_000; i++) {
      const x = r.bpsOf(1_000_000n, 5, 30);
      expect(x >= 500n && x <= 3_000n).toBe(true);
    }
    expect(r.shuffle([1, 2, 3, 4]).sort()).toEqual([1, 2, 3, 4]);
  });
});
