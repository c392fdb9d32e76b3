import { legsOf } from './legs';
import { core, launchpad, stable, units, v2 } from '../test/fixtures';
import { VIRTUAL_NATIVE_LIQUIDITY } from './launchpad-curve';

const k = VIRTUAL_NATIVE_LIQUIDITY * 1_125_000_000_000_000n;
const native = VIRTUAL_NATIVE_LIQUIDITY + 80n * 10n ** 18n;
const tokenReserve = (k + native - 1n) / native;

const pools = {
  'uniswap-v2': v2('WHYPE', 'USDC', 4000, 100_000, 30),
  stable: stable('USDC', 'DAI', 600_000, 400_000),
  core: core('WHYPE', 'USDC', (x) => (x * 25n) / 10n ** 12n - (x * x) / 10n ** 33n, (x) => (x * 10n ** 12n) / 25n - (x * x * 10n ** 4n) / 10n ** 12n, units('WHYPE', 1000), units('USDC', 25_000)),
  launchpad: launchpad('MEME', { nativeReserve: native, tokenReserve, tokensForSale: tokenReserve - 375_000_000_000_000n }),
};

describe('legs: the exact and float views of a pool agree', () => {
  it.each(Object.entries(pools))('%s', (_, pool) => {
    const legs = legsOf(pool);
    expect(legs).toHaveLength(2);
    for (const leg of legs) {
      const cap = leg.maxIn ?? BigInt(Math.floor(leg.liquidity));
      for (const f of [1e-6, 1e-3, 0.1, 0.5]) {
        const x = BigInt(Math.floor(Number(cap) * f)) + 1n;
        const exact = Number(leg.quote(x));
        const approx = leg.approxOut(Number(x));
        expect(Math.abs(exact - approx)).toBeLessThanOrEqual(Math.max(2, approx * 1e-9) + (pool.kind === 'core' ? approx * 1e-3 : 0));
        // The marginal rate is the derivative of the float output.
        const h = Number(x) * 1e-2;
        if (pool.kind !== 'core') expect(leg.marginal(Number(x)) / ((leg.approxOut(Number(x) + h) - leg.approxOut(Number(x) - h)) / (2 * h))).toBeCloseTo(1, 3);
        // inputAtMarginal inverts the marginal; approxIn inverts approxOut.
        if (pool.kind !== 'core') expect(leg.inputAtMarginal(leg.marginal(Number(x)), Infinity) / Number(x)).toBeCloseTo(1, 6);
        expect(leg.approxIn(approx) / Number(x)).toBeCloseTo(1, pool.kind === 'core' ? 2 : 6);
        // quoteIn is the least input reaching an output.
        const out = leg.quote(x);
        if (out > 0n) {
          const need = leg.quoteIn(out)!;
          expect(leg.quote(need)).toBeGreaterThanOrEqual(out);
          expect(need).toBeLessThanOrEqual(x);
          if (need > 1n) expect(leg.quote(need - 1n)).toBeLessThan(out);
        }
      }
      expect(leg.spotRate).toBeGreaterThan(0);
      if (leg.maxIn !== undefined) expect(leg.quote(leg.maxIn + 1n)).toBe(0n);
    }
  });
});
