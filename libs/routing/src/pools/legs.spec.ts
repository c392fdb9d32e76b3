import { legsOf } from './legs';
import { core, launchpad, stable, units, v2 } from '../../test/fixtures';
import { VIRTUAL_NATIVE_LIQUIDITY } from './launchpad/launchpad-curve';
import { concentrated, stateAt } from '../../test/concentrated-fixtures';

const k = VIRTUAL_NATIVE_LIQUIDITY * 1_125_000_000_000_000n;
const native = VIRTUAL_NATIVE_LIQUIDITY + 80n * 10n ** 18n;
const tokenReserve = (k + native - 1n) / native;

const pools = {
  'uniswap-v2': v2('WHYPE', 'USDC', 4000, 100_000, 30),
  stable: stable('USDC', 'DAI', 600_000, 400_000),
  core: core('WHYPE', 'USDC', (x) => (x * 25n) / 10n ** 12n - (x * x) / 10n ** 33n, (x) => (x * 10n ** 12n) / 25n - (x * x * 10n ** 4n) / 10n ** 12n, units('WHYPE', 1000), units('USDC', 25_000)),
  launchpad: launchpad('MEME', { nativeReserve: native, tokenReserve, tokensForSale: tokenReserve - 375_000_000_000_000n }),
  // WHYPE at 5 USDC (tick -260,000 ~ 5e6 / 1e18 base units): a narrow range around the price, a wide one, one above.
  'uniswap-v3': concentrated('uniswap-v3', 'WHYPE', 'USDC', stateAt(-260_000, [
    { lower: -260_400, upper: -259_200, liquidity: 3n * 10n ** 13n },
    { lower: -280_000, upper: -240_000, liquidity: 10n ** 13n },
    { lower: -258_000, upper: -255_000, liquidity: 10n ** 13n },
  ], 3000, 60, 0.3)),
  algebra: concentrated('algebra', 'WHYPE', 'USDC', stateAt(-260_000, [
    { lower: -260_400, upper: -259_200, liquidity: 3n * 10n ** 13n },
    { lower: -280_020, upper: -240_000, liquidity: 10n ** 13n },
  ], 2500, 60, 0.7)),
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
        if (pool.kind === 'core') {
          // The float curve runs through the samples (less its tilt) and above the exact view's chords between them (the fixture's
          // samples are a decade apart: its chords fall up to 2% under the curve mid-decade).
          expect(approx).toBeGreaterThanOrEqual(exact * (1 - 1e-6) - 2);
          expect(approx).toBeLessThanOrEqual(exact * 1.02);
        } else if (pool.kind === 'uniswap-v3' || pool.kind === 'algebra') {
          // The pool rounds the fee up and the price in its favour: at dust sizes that is worth up to a couple of
          // input units at the spot rate.
          expect(Math.abs(exact - approx)).toBeLessThanOrEqual(Math.max(2, approx * 1e-9, 2 * leg.spotRate));
        } else expect(Math.abs(exact - approx)).toBeLessThanOrEqual(Math.max(2, approx * 1e-9));
        // The marginal rate is the derivative of the float output.
        const h = Number(x) * 1e-2;
        expect(leg.marginal(Number(x)) / ((leg.approxOut(Number(x) + h) - leg.approxOut(Number(x) - h)) / (2 * h))).toBeCloseTo(1, 3);
        // inputAtMarginal inverts the marginal; approxIn inverts approxOut; shape agrees with approxOut and marginal
        // and its curvature with a difference quotient of the marginal rate.
        const lambda = leg.marginal(Number(x));
        expect(leg.approxIn(approx) / Number(x)).toBeCloseTo(1, 6);
        // (A core curve's marginal rate is nearly flat where its price is: its inverse is exact to a millionth of the top.)
        const within = pool.kind === 'core' ? Number(cap) * 1e-6 : Number(x) * 1e-6;
        expect(Math.abs(leg.inputAtMarginal(lambda, Infinity) - Number(x))).toBeLessThanOrEqual(within);
        const shape = { y: 0, slope: 0, curvature: 0 };
        leg.shape(Number(x), shape);
        expect(shape.y / approx).toBeCloseTo(1, 9);
        expect(shape.slope / lambda).toBeCloseTo(1, 9);
        const k = Number(x) * 1e-4;
        const curvature = (leg.marginal(Number(x) + k) - leg.marginal(Number(x) - k)) / (2 * k);
        if (pool.kind !== 'core') expect(shape.curvature / curvature).toBeCloseTo(1, 3);
        else expect(shape.curvature).toBeLessThan(0);
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
