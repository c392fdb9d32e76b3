import { SwapMath, TickMath } from '@uniswap/v3-sdk';
import JSBI from 'jsbi';
import { mulberry32, randomAmount, randomConcentratedState, stateAt } from '../../../test/concentrated-fixtures';
import { mulDiv, mulDivRoundingUp, Q96 } from './full-math';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tick-math';
import { computeSwapStep, movePriceTowardsTarget } from './swap-step';
import { TickTable } from './tick-table';
import { SwapLadder } from './swap-ladder';
import { swapAlgebra, swapUniswapV3 } from './concentrated-math';

const step = (r: ReturnType<typeof computeSwapStep>) => [r.sqrtPriceNextX96, r.amountIn, r.amountOut, r.feeAmount].map(String);

describe('concentrated maths', () => {
  it('FullMath: floor and ceiling of a * b / d, reverting on overflow and division by zero', () => {
    expect(mulDiv(Q96, Q96 * 3n, Q96 * 2n)).toBe((Q96 * 3n) / 2n);
    expect(mulDivRoundingUp(7n, 3n, 2n)).toBe(11n);
    expect(mulDiv(7n, 3n, 2n)).toBe(10n);
    expect(mulDiv((1n << 256n) - 1n, (1n << 256n) - 1n, (1n << 256n) - 1n)).toBe((1n << 256n) - 1n);
    expect(() => mulDiv(1n << 255n, 4n, 1n)).toThrow('overflow');
    expect(() => mulDivRoundingUp((1n << 256n) - 1n, (1n << 256n) - 1n, (1n << 256n) - 2n)).toThrow('overflow');
    expect(() => mulDiv(1n, 1n, 0n)).toThrow('division by zero');
  });

  it("TickMath: Uniswap's vectors at and next to the extreme ticks, and the inverse", () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MIN_TICK + 1)).toBe(4295343490n);
    expect(getSqrtRatioAtTick(MAX_TICK - 1)).toBe(1461373636630004318706518188784493106690254656249n);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    expect(getSqrtRatioAtTick(0)).toBe(Q96);
    expect(() => getSqrtRatioAtTick(MIN_TICK - 1)).toThrow('out of range');
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow('out of range');
    expect(getTickAtSqrtRatio(MIN_SQRT_RATIO)).toBe(MIN_TICK);
    expect(getTickAtSqrtRatio(4295343490n)).toBe(MIN_TICK + 1);
    expect(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1);
    expect(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n)).toThrow('out of range');
    expect(() => getTickAtSqrtRatio(MAX_SQRT_RATIO)).toThrow('out of range');
  });

  it("TickMath: equal to the SDK's at 2,000 random ticks and prices", () => {
    const random = mulberry32(7);
    for (let i = 0; i < 1000; i++) {
      const tick = MIN_TICK + Math.floor(random() * (MAX_TICK - MIN_TICK + 1));
      expect(getSqrtRatioAtTick(tick).toString()).toBe(TickMath.getSqrtRatioAtTick(tick).toString());
      const a = getSqrtRatioAtTick(tick);
      const b = tick < MAX_TICK ? getSqrtRatioAtTick(tick + 1) : a + 1n;
      const price = a + BigInt(Math.floor(random() * Number(b - a)));
      if (price >= MAX_SQRT_RATIO) continue;
      expect(getTickAtSqrtRatio(price)).toBe(TickMath.getTickAtSqrtRatio(JSBI.BigInt(price.toString())));
      expect(getTickAtSqrtRatio(price)).toBe(tick);
    }
  });

  it("SwapMath.computeSwapStep: Uniswap's vectors", () => {
    // Amount out capped at the desired amount out.
    expect(step(computeSwapStep(417332158212080721273783715441582n, 1452870262520218020823638996n, 159344665391607089467575320103n, -1n, 1))).toEqual([
      '417332158212080721273783715441581',
      '1',
      '1',
      '1',
    ]);
    // Target price of 1 uses partial input amount.
    expect(step(computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1))).toEqual(['1', '39614081257132168796771975168', '0', '39614120871253040049813']);
    // Entire input amount taken as fee.
    expect(step(computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872))).toEqual(['2413', '0', '0', '10']);
    // Intermediate insufficient liquidity, exact output, both directions.
    const price = 20282409603651670423947251286016n;
    expect(step(computeSwapStep(price, (price * 11n) / 10n, 1024n, -4n, 3000))).toEqual([String((price * 11n) / 10n), '26215', '0', '79']);
    expect(step(computeSwapStep(price, (price * 9n) / 10n, 1024n, -263000n, 3000))).toEqual([String((price * 9n) / 10n), '1', '26214', '1']);
  });

  it("SwapMath.computeSwapStep: equal to the SDK's on 5,000 random steps; Algebra's step equal to it where the protocols agree", () => {
    const random = mulberry32(11);
    let agreed = 0;
    for (let i = 0; i < 5000; i++) {
      const tick = Math.floor((random() * 2 - 1) * 300_000);
      const current = getSqrtRatioAtTick(tick) + BigInt(Math.floor(random() * 1e6));
      const zeroForOne = random() < 0.5;
      const target = getSqrtRatioAtTick(tick + (zeroForOne ? -1 : 1) * Math.ceil(random() ** 3 * 20_000));
      const liquidity = BigInt(Math.floor(10 ** (random() * 24)));
      const amount = BigInt(Math.floor(10 ** (random() * 27))) * (random() < 0.5 ? 1n : -1n);
      const fee = [0, 1, 100, 500, 3000, 10000, 999_999][Math.floor(random() * 7)];
      const ours = step(computeSwapStep(current, target, liquidity, amount, fee));
      const sdk = SwapMath.computeSwapStep(JSBI.BigInt(current.toString()), JSBI.BigInt(target.toString()), JSBI.BigInt(liquidity.toString()), JSBI.BigInt(amount.toString()), fee);
      expect(ours).toEqual(sdk.map(String));
      // Algebra's step differs only where an exact input stops short of its target (it then recomputes the
      // input from the new price and asserts the price is not the target).
      let algebra: string[] | undefined;
      try {
        algebra = step(movePriceTowardsTarget(zeroForOne, current, target, liquidity, amount, fee));
      } catch {
        algebra = undefined;
      }
      if (amount < 0n || ours[0] !== String(target)) {
        expect(algebra).toEqual(ours);
        agreed++;
      } else if (algebra) {
        expect(algebra[0]).toBe(ours[0]);
      }
    }
    expect(agreed).toBeGreaterThan(2500);
  });

  it("V3 steps at the bitmap's word edges (256 tick spacings) and at every initialized tick, net 0 included; Algebra only at initialized ticks", () => {
    // One position over 24 words of spacing 1; the same pool with a tick of net 0 inside (two positions meeting).
    const wide = stateAt(0, [{ lower: -3000, upper: 3000, liquidity: 10n ** 22n }], 500, 1, 0.5);
    const meeting = stateAt(0, [
      { lower: -3000, upper: -1000, liquidity: 10n ** 22n },
      { lower: -1000, upper: 3000, liquidity: 10n ** 22n },
    ], 500, 1, 0.5);
    expect(meeting.ticks.find((t) => t.index === -1000)!.liquidityNet).toBe(0n);
    const state = (s: typeof wide) => ({ ...s, ticks: new TickTable(s.ticks) });
    const amount = 10n ** 21n; // moves the price about 2,000 ticks down
    const v3 = swapUniswapV3(state(wide), true, amount);
    const algebra = swapAlgebra(state(wide), true, amount);
    expect(v3.amountIn).toBe(amount);
    expect(v3.tick).toBeLessThan(-1500);
    // The same curve, rounded once per step: V3's extra steps (word edges at -256, -512, ...) each round in the
    // pool's favour.
    expect(algebra.amountOut - v3.amountOut).toBeGreaterThan(0n);
    expect(algebra.amountOut - v3.amountOut).toBeLessThanOrEqual(20n);
    // An initialized tick of net 0 is one more step for both.
    expect(swapAlgebra(state(meeting), true, amount).amountOut).toBeLessThan(algebra.amountOut);
    expect(swapUniswapV3(state(meeting), true, amount).amountOut).toBeLessThanOrEqual(v3.amountOut);
  });

  it.each([
    ['uniswap-v3', swapUniswapV3],
    ['algebra', swapAlgebra],
  ] as const)('%s: a swap resumed after the steps a SwapLadder recorded is the swap walked from the price (300 random pools, amounts in random order and on the gates)', (_kind, swap) => {
    const random = mulberry32(_kind === 'algebra' ? 11 : 12);
    const outcome = (f: () => ReturnType<typeof swapUniswapV3>) => {
      try {
        const r = f();
        return [r.amountIn, r.amountOut, r.sqrtPriceX96, r.liquidity, r.tick].map(String).join(' ');
      } catch (err) {
        return `reverts: ${(err as Error).message}`;
      }
    };
    let resumed = 0;
    for (let n = 0; n < 300; n++) {
      const raw = randomConcentratedState(random, 60);
      const state = { ...raw, ticks: new TickTable(raw.ticks) };
      for (const zeroForOne of [true, false]) {
        const ladder = new SwapLadder(zeroForOne);
        const scale = swap(state, zeroForOne, 1n << 200n).amountIn;
        const amounts = Array.from({ length: 12 }, () => randomAmount(random, scale > 0n ? scale : 10n ** 18n));
        for (let i = 0; i < amounts.length; i++) {
          const x = amounts[i];
          if (ladder.taken(x) > 0) resumed++;
          expect(outcome(() => swap(state, zeroForOne, x, undefined, ladder))).toBe(outcome(() => swap(state, zeroForOne, x)));
          // Then on and next to what the recorded steps need and use (where a resumed swap starts with nothing left).
          if (i === amounts.length - 1) {
            for (let k = 0; k < ladder.length; k++) {
              for (const y of [ladder.gate[k] - 1n, ladder.gate[k], ladder.used[k], ladder.used[k] + 1n]) {
                if (y <= 0n) continue;
                expect(outcome(() => swap(state, zeroForOne, y, undefined, ladder))).toBe(outcome(() => swap(state, zeroForOne, y)));
              }
            }
          }
        }
      }
    }
    expect(resumed).toBeGreaterThan(1000);
  });
});
