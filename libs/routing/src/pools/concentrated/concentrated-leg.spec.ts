import { concentrated, mulberry32, randomAmount, randomConcentratedState, stateAt } from '../../../test/concentrated-fixtures';
import { TOKENS, v2 } from '../../../test/fixtures';
import { swapAlgebra, swapUniswapV3 } from './concentrated-math';
import { splitExactIn, splitExactOut } from '../../search/hop-split';
import { legsOf, type LegShape } from '../legs';
import { ConcentratedLeg } from './concentrated-leg';

const KINDS = ['uniswap-v3', 'algebra'] as const;

describe('concentrated legs', () => {
  it.each(KINDS)('%s: quote is the pool swap taking the whole input, 0 above maxIn; quoteIn is the least input (300 random pools)', (kind) => {
    const random = mulberry32(kind === 'algebra' ? 3 : 4);
    const swap = kind === 'algebra' ? swapAlgebra : swapUniswapV3;
    let checked = 0;
    for (let n = 0; n < 300; n++) {
      const pool = concentrated(kind, 'WHYPE', 'USDC', randomConcentratedState(random, 60));
      for (const leg of legsOf(pool) as ConcentratedLeg[]) {
        const zeroForOne = leg.tokenIn === pool.token0;
        const maxIn = leg.maxIn!;
        expect(maxIn).toBeGreaterThan(0n);
        // maxIn is what a swap to the price limit takes; one more is not taken whole.
        expect(leg.quote(maxIn)).toBe(leg.swapExactIn(maxIn)!.amountOut);
        expect(leg.quote(maxIn + 1n)).toBe(0n);
        expect(swap(leg['state'], zeroForOne, maxIn + 1n).amountIn).toBe(maxIn);
        let previous = 0n;
        const sizes = Array.from({ length: 4 }, () => randomAmount(random, maxIn)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        for (const x of sizes) {
          const out = leg.quote(x);
          const r = swap(leg['state'], zeroForOne, x);
          expect(out).toBe(r.amountIn === x ? r.amountOut : 0n);
          if (x <= maxIn) {
            expect(out).toBeGreaterThanOrEqual(previous);
            previous = out;
          }
          if (out > 0n) {
            const need = leg.quoteIn(out)!;
            expect(leg.quote(need)).toBeGreaterThanOrEqual(out);
            if (need > 1n) expect(leg.quote(need - 1n)).toBeLessThan(out);
            checked++;
          }
        }
        // More than the pool holds in this direction: no input reaches it.
        expect(leg.quoteIn(leg.quote(maxIn) + 1n)).toBeUndefined();
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('the float curve is continuous through tick crossings and gaps, its rate falls, inputAtMarginal inverts it', () => {
    // A gap without liquidity between two ranges below the price, a range above.
    const pool = concentrated(
      'uniswap-v3',
      'WHYPE',
      'USDC',
      stateAt(
        -260_000,
        [
          { lower: -260_600, upper: -259_400, liquidity: 2n * 10n ** 13n },
          { lower: -262_000, upper: -261_000, liquidity: 5n * 10n ** 13n },
          { lower: -259_000, upper: -258_000, liquidity: 10n ** 13n },
        ],
        3000,
        60,
      ),
    );
    const legs = legsOf(pool);
    expect(legs).toHaveLength(2);
    const shape: LegShape = { y: 0, slope: 0, curvature: 0 };
    for (const leg of legs) {
      const top = leg.maxInApprox;
      let lastSlope = Infinity;
      let lastY = 0;
      for (let i = 1; i <= 400; i++) {
        const x = (top * i) / 401;
        leg.shape(x, shape);
        expect(shape.y).toBeGreaterThanOrEqual(lastY);
        expect(shape.slope).toBeLessThanOrEqual(lastSlope * (1 + 1e-12));
        expect(shape.curvature).toBeLessThanOrEqual(0);
        expect(Math.abs(leg.approxOut(x) - shape.y)).toBeLessThanOrEqual(shape.y * 1e-12);
        expect(leg.inputAtMarginal(shape.slope, Infinity) / x).toBeCloseTo(1, 9);
        expect(leg.approxIn(shape.y) / x).toBeCloseTo(1, 9);
        // Exact and float agree to a millionth, or to the wei the pool rounds away at each step (a few steps here).
        const exact = Number(leg.quote(BigInt(Math.floor(x))));
        expect(Math.abs(exact - shape.y)).toBeLessThanOrEqual(Math.max(8, shape.y * 1e-6, 2 * leg.spotRate));
        lastSlope = shape.slope;
        lastY = shape.y;
      }
      // Across the gap the rate jumps: every rate inside the jump gives the gap's input.
      if (leg.tokenIn === pool.token0) {
        const before = leg.marginal(top * 0.5);
        expect(before).toBeGreaterThan(0);
      }
      expect(leg.approxIn(leg.approxOut(top) * 1.000001)).toBe(Infinity);
      leg.shape(top * 2, shape);
      expect(shape.slope).toBe(0);
    }
  });

  it('a hop splits across V2, Uniswap V3 and Algebra pools, exactly, and better than any one of them', () => {
    // WHYPE at 25 USDC in all three (tick -244,140 ~ 25e6 / 1e18 base units).
    const state = stateAt(-244_140, [{ lower: -246_000, upper: -242_000, liquidity: 4n * 10n ** 13n }], 500, 10);
    const pools = [
      v2('WHYPE', 'USDC', 4000, 100_000, 30),
      concentrated('uniswap-v3', 'WHYPE', 'USDC', state),
      concentrated('algebra', 'WHYPE', 'USDC', { ...state, fee: 800 }),
    ];
    const legs = pools.flatMap(legsOf).filter((l) => l.tokenIn === TOKENS.WHYPE);
    expect(legs).toHaveLength(3);
    const amountIn = 400n * 10n ** 18n;
    const split = splitExactIn(legs, amountIn)!;
    expect(split.legs.length).toBe(3);
    expect(split.amountIn).toBe(amountIn);
    split.legs.forEach((leg, j) => expect(leg.quote(split.amountsIn[j])).toBe(split.amountsOut[j]));
    for (const leg of legs) expect(split.amountOut).toBeGreaterThan(leg.quote(amountIn));
    const out = splitExactOut(legs, split.amountOut)!;
    expect(out.amountOut).toBeGreaterThanOrEqual(split.amountOut);
    expect(Number(out.amountIn)).toBeLessThanOrEqual(Number(amountIn) * 1.0001);
  });

  it('depth (liquidity) is what the pool takes before its rate falls by a tenth: a full-range pool has its reserve, a narrow one far less than its virtual reserve', () => {
    const lowest = -887_220;
    const highest = 887_220;
    // Full range: a constant-product pool on the virtual reserves.
    const full = concentrated('uniswap-v3', 'WHYPE', 'USDC', stateAt(-260_000, [{ lower: lowest, upper: highest, liquidity: 10n ** 13n }], 3000, 60));
    for (const leg of legsOf(full) as ConcentratedLeg[]) {
      const reserveIn = leg['ri'][0];
      expect(Math.abs(leg.liquidity / reserveIn - 1)).toBeLessThan(1e-9);
    }
    // A narrow position (+-50 ticks, 0.5%) with ten times the liquidity: its current range's virtual reserve is
    // ten times the full-range pool's, but it is spent long before the rate falls by a tenth.
    const narrow = concentrated('uniswap-v3', 'WHYPE', 'USDC', stateAt(-260_000, [{ lower: -260_040, upper: -259_940, liquidity: 10n ** 14n }], 3000, 60));
    const [fullLeg] = legsOf(full) as ConcentratedLeg[];
    const [narrowLeg] = (legsOf(narrow) as ConcentratedLeg[]).filter((l) => l.tokenIn === fullLeg.tokenIn);
    expect(narrowLeg['ri'][0]).toBeGreaterThan(5 * fullLeg['ri'][0]);
    expect(narrowLeg.liquidity).toBeLessThan(fullLeg.liquidity);
  });
});
