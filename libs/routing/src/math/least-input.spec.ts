import { rng } from '../../test/fixtures';
import { leastPaying, type Paying } from './least-input';

/** The search over `pays` (an output growing with the input), counting probes. */
function search(pays: (x: bigint) => bigint | undefined, hi: bigint, amountOut: bigint, tolerance = 1n, flatTolerance = tolerance) {
  let probes = 0;
  const probe = (x: bigint): Paying<bigint> | undefined => {
    probes++;
    const paid = pays(x);
    return paid === undefined ? undefined : { value: x, paid };
  };
  const found = leastPaying(hi, { value: hi, paid: pays(hi)! }, probe, amountOut, tolerance, flatTolerance);
  return { found, probes };
}

/** The least input paying `amountOut`, by plain bisection below `hi` (the reference), and its probes. */
function bisect(pays: (x: bigint) => bigint | undefined, hi: bigint, amountOut: bigint): { found: bigint; probes: number } {
  let lo = 0n;
  let probes = 0;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    probes++;
    if ((pays(mid) ?? -1n) >= amountOut) hi = mid;
    else lo = mid;
  }
  return { found: hi, probes };
}

describe('leastPaying', () => {
  it('finds the least input of a constant-product pool to the unit, in a fraction of the probes of bisection', () => {
    const r = rng(7n);
    const rand = () => r.float();
    const probes = { search: [] as number[], bisection: [] as number[] };
    for (let i = 0; i < 200; i++) {
      // Half of them with an output token whose unit is worth far more than the input's: many inputs pay the same.
      const [reserveIn, reserveOut] = [BigInt(Math.floor(1e18 * (1 + rand() * 1e6))), BigInt(Math.floor(1e18 * (1 + rand() * (i % 2 ? 1e6 : 1e-3))))];
      const pays = (x: bigint) => (x * 997n * reserveOut) / (reserveIn * 1000n + x * 997n);
      const hi = (reserveIn * BigInt(1 + Math.floor(rand() * 500))) / 1000n;
      const amountOut = (pays(hi) * BigInt(Math.floor(rand() * 1000))) / 1000n + 1n;
      const found = search(pays, hi, amountOut);
      const reference = bisect(pays, hi, amountOut);
      expect(found.found).toBe(reference.found);
      expect(pays(found.found)).toBeGreaterThanOrEqual(amountOut);
      expect(pays(found.found - 1n)).toBeLessThan(amountOut);
      probes.search.push(found.probes);
      probes.bisection.push(reference.probes);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    // Where a unit of the output is worth few of the input, a few probes close in.
    expect(median(probes.search.filter((_, i) => i % 2))).toBeLessThanOrEqual(16);
    expect(median(probes.search)).toBeLessThan(median(probes.bisection) / 2);
  });

  it('stays exact where the payment rises in steps and has plateaus (the secant misleads, bisection takes over)', () => {
    const r = rng(11n);
    const rand = () => r.float();
    for (let i = 0; i < 200; i++) {
      const step = BigInt(1 + Math.floor(rand() * 1e6));
      const rate = BigInt(1 + Math.floor(rand() * 100));
      const pays = (x: bigint) => (x / step) * step * rate + (x > 5_000_000_000n ? 10n ** 12n : 0n);
      const hi = BigInt(Math.floor(1e10 * (1 + rand())));
      const amountOut = BigInt(Math.floor(Number(pays(hi)) * rand())) + 1n;
      const { found, probes } = search(pays, hi, amountOut);
      const reference = bisect(pays, hi, amountOut);
      expect(found).toBe(reference.found);
      expect(probes).toBeLessThanOrEqual(3 * reference.probes);
    }
  });

  it('treats an input that says nothing of its payment as one that does not pay', () => {
    const pays = (x: bigint) => (x < 1_000n ? undefined : x * 2n);
    expect(search(pays, 10n ** 9n, 5_000n).found).toBe(2_500n);
    expect(search(pays, 10n ** 9n, 100n).found).toBe(1_000n);
  });

  it('stops within the tolerance: an input that much below the one found does not pay', () => {
    const pays = (x: bigint) => (x * x) / 10n ** 9n;
    const hi = 10n ** 15n;
    for (const amountOut of [1n, 10n ** 6n, 10n ** 12n, 10n ** 20n]) {
      const tolerance = hi / 1_000_000_000n + 1n;
      const { found } = search(pays, hi, amountOut, tolerance);
      expect(pays(found)).toBeGreaterThanOrEqual(amountOut);
      expect(pays(found - tolerance)).toBeLessThan(amountOut);
    }
  });

  it('a staircase (two inputs paying the same) is searched to the flat tolerance; a smooth payment stays exact to the unit', () => {
    const r = rng(13n);
    const rand = () => r.float();
    for (let i = 0; i < 100; i++) {
      // An 18-decimal input through a 6-decimal token: the payment steps every 1e12 units of the input.
      const rate = BigInt(1 + Math.floor(rand() * 1000));
      const stairs = (x: bigint) => (x / 10n ** 12n) * rate;
      const hi = BigInt(Math.floor(1e22 * (1 + rand())));
      const tolerance = hi / 1_000_000_000n + 1n;
      const amountOut = (stairs(hi) * BigInt(1 + Math.floor(rand() * 998))) / 1000n;
      const flat = search(stairs, hi, amountOut, 1n, tolerance);
      const exact = bisect(stairs, hi, amountOut);
      expect(stairs(flat.found)).toBeGreaterThanOrEqual(amountOut);
      expect(flat.found - exact.found).toBeLessThanOrEqual(tolerance);
      expect(flat.found).toBeGreaterThanOrEqual(exact.found);
      expect(flat.probes).toBeLessThan(exact.probes / 2);
      // The same tolerance offered for a payment without plateaus is not taken: the least input to the unit.
      const smooth = (x: bigint) => (x * 997n * 10n ** 24n) / (10n ** 25n * 1000n + x * 997n);
      const wanted = (smooth(hi) * BigInt(1 + Math.floor(rand() * 998))) / 1000n;
      const found = search(smooth, hi, wanted, 1n, tolerance).found;
      expect(found).toBe(bisect(smooth, hi, wanted).found);
    }
  });

  it('returns what it was given when nothing below pays', () => {
    const pays = (x: bigint) => x;
    expect(search(pays, 100n, 100n).found).toBe(100n);
  });
});
