import { bestSingle, splitExactIn, splitExactOut } from './hop-split';
import { legsOf, type Leg } from '../pools/legs';
import { waterFill } from './water-fill';
import { core, rng, stable, TOKENS, units, v2 } from '../../test/fixtures';

const from = (token: string) => (leg: Leg) => leg.tokenIn === token;

describe('hop split', () => {
  it('is never worse than the best single pool (property, random pools and amounts)', () => {
    const r = rng(42n);
    for (let i = 0; i < 150; i++) {
      const n = 2 + Number(r.next() % 3n);
      const pools = Array.from({ length: n }, () => {
        const whype = 10 + Math.floor(r.float() * 10_000);
        const price = 20 + r.float() * 10;
        return r.float() < 0.3
          ? stable('USDC', 'USDT', Math.floor(whype * price), Math.floor(whype * price * (0.9 + r.float() * 0.2)), 1 + Number(r.next() % 10n))
          : v2('WHYPE', 'USDC', whype, Math.floor(whype * price), Number(r.next() % 100n), 1 + (i % 2));
      });
      const tokenIn = pools[0].kind === 'stable' ? TOKENS.USDC : TOKENS.WHYPE;
      const legs = pools.filter((p) => p.kind === pools[0].kind).flatMap(legsOf).filter(from(tokenIn));
      const amount = (r.next() % (tokenIn === TOKENS.USDC ? units('USDC', 2_000_000) : units('WHYPE', 20_000))) + 1n;
      const split = splitExactIn(legs, amount);
      const single = bestSingle(legs, amount);
      if (!single) continue;
      expect(split).toBeDefined();
      expect(split!.amountOut).toBeGreaterThanOrEqual(single.amountOut);
      expect(split!.amountIn).toBe(amount);
      expect(split!.amountsIn.reduce((a, b) => a + b, 0n)).toBe(amount);
      expect(split!.amountsOut.every((o) => o > 0n)).toBe(true);
      // Outputs are the pools' exact quotes.
      split!.legs.forEach((leg, j) => expect(leg.quote(split!.amountsIn[j])).toBe(split!.amountsOut[j]));
    }
  });

  it('is strictly better than any single pool on uneven pools, and lists the smallest swap last', () => {
    const legs = [v2('WHYPE', 'USDC', 4000, 100_000, 30), v2('WHYPE', 'USDC', 1000, 25_400, 10, 2)].flatMap(legsOf).filter(from(TOKENS.WHYPE));
    const amount = units('WHYPE', 300);
    const split = splitExactIn(legs, amount)!;
    expect(split.legs).toHaveLength(2);
    expect(split.amountOut).toBeGreaterThan(bestSingle(legs, amount)!.amountOut);
    expect(split.amountsIn[0]).toBeGreaterThan(split.amountsIn[1]);
    // Near the optimum: moving 0.1% of the amount either way does not pay more.
    const d = amount / 1000n;
    for (const s of [d, -d]) {
      const a = split.amountsIn[0] + s;
      const b = amount - a;
      expect(split.legs[0].quote(a) + split.legs[1].quote(b)).toBeLessThanOrEqual(split.amountOut);
    }
  });

  it('equalises marginal rates (water-filling) and splits identical pools evenly', () => {
    const legs = [v2('WHYPE', 'USDC', 1000, 25_000), v2('WHYPE', 'USDC', 1000, 25_000)].flatMap(legsOf).filter(from(TOKENS.WHYPE));
    const fill = waterFill(legs, 1e20, 'in');
    expect(fill.inputs[0]).toBeCloseTo(5e19, -8);
    expect(fill.inputs[1]).toBeCloseTo(5e19, -8);
    const uneven = [v2('WHYPE', 'USDC', 4000, 100_000, 30), stable('USDC', 'USDT', 1, 1)].flatMap(legsOf).filter(from(TOKENS.WHYPE));
    const f2 = waterFill([uneven[0], legsOf(v2('WHYPE', 'USDC', 1000, 25_400, 10))[0]], 3e20, 'in');
    const m = f2.inputs.map((x, j) => [uneven[0], legsOf(v2('WHYPE', 'USDC', 1000, 25_400, 10))[0]][j].marginal(x));
    expect(m[0] / m[1]).toBeCloseTo(1, 9);
  });

  it('uses a core pool through its samples, never above its top sample', () => {
    const pool = core('WHYPE', 'USDC', (x) => (x * 25n) / 10n ** 12n, (x) => (x * 10n ** 12n) / 25n, units('WHYPE', 100), units('USDC', 2500));
    const legs = [pool, v2('WHYPE', 'USDC', 1000, 25_000)].flatMap(legsOf).filter(from(TOKENS.WHYPE));
    const split = splitExactIn(legs, units('WHYPE', 500))!;
    const coreShare = split.legs.findIndex((l) => l.pool.kind === 'core');
    expect(split.amountsIn[coreShare]).toBeLessThanOrEqual(units('WHYPE', 100) + 1n);
    expect(split.amountOut).toBeGreaterThan(bestSingle(legs, units('WHYPE', 500))!.amountOut);
  });

  it('exact output: pays at least the output, with the least input of the splits it tries', () => {
    const legs = [v2('WHYPE', 'USDC', 4000, 100_000, 30), v2('WHYPE', 'USDC', 1000, 25_400, 10, 2)].flatMap(legsOf).filter(from(TOKENS.WHYPE));
    for (const out of [1n, units('USDC', 25), units('USDC', 5_000), units('USDC', 60_000)]) {
      const split = splitExactOut(legs, out)!;
      expect(split.amountOut).toBeGreaterThanOrEqual(out);
      for (const leg of legs) {
        const alone = leg.quoteIn(out);
        if (alone !== undefined) expect(split.amountIn).toBeLessThanOrEqual(alone);
      }
    }
    expect(splitExactOut(legs, units('USDC', 125_400))).toBeUndefined();
  });
});
