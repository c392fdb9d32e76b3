/**
 * The Uniswap V3 kind against Uniswap's own V3 SDK (`Pool.getOutputAmount` / `getInputAmount` over a
 * `TickListDataProvider`): 10,000 random swaps on random pool states, equal to the wei, with the state after
 * each swap (price, tick, liquidity).
 */
import { Token, CurrencyAmount } from '@uniswap/sdk-core';
import { Pool, Tick, TickListDataProvider } from '@uniswap/v3-sdk';
import JSBI from 'jsbi';
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../src/pools/concentrated/tick-math';
import { TickTable, type ConcentratedPoolState } from '../src/pools/concentrated/tick-table';
import { priceLimit } from '../src/pools/concentrated/swap-ladder';
import { swapUniswapV3, type SwapResult } from '../src/pools/concentrated/concentrated-math';
import { mulberry32, randomAmount, randomConcentratedState, type ConcentratedState } from './concentrated-fixtures';

const TOKEN0 = new Token(999, '0x1000000000000000000000000000000000000001', 18);
const TOKEN1 = new Token(999, '0x2000000000000000000000000000000000000002', 18);

function sdkPool(s: ConcentratedState): Pool {
  const ticks = s.ticks.map((t) => new Tick({ index: t.index, liquidityGross: JSBI.BigInt(0), liquidityNet: JSBI.BigInt(t.liquidityNet.toString()) }));
  return new Pool(TOKEN0, TOKEN1, s.fee, JSBI.BigInt(s.sqrtPriceX96.toString()), JSBI.BigInt(s.liquidity.toString()), s.tick, new TickListDataProvider(ticks, s.tickSpacing));
}

const engineState = (s: ConcentratedState): ConcentratedPoolState => ({ ...s, ticks: new TickTable(s.ticks) });

type Outcome = { amountIn: string; amountOut: string; sqrtPriceX96: string; tick: number; liquidity: string } | 'reverts';

const ours = (f: () => SwapResult): Outcome => {
  try {
    const r = f();
    return { amountIn: String(r.amountIn), amountOut: String(r.amountOut), sqrtPriceX96: String(r.sqrtPriceX96), tick: r.tick, liquidity: String(r.liquidity) };
  } catch {
    return 'reverts';
  }
};

/**
 * The price limit of a swap: RouterV2's (just inside the pool's range) for a fifth of the swaps on tick spacings
 * from 10, else a price up to 20,000 ticks past the last initialized tick, between two ticks' prices. The SDK, like
 * the pool, walks the tick bitmap word by word (256 tick spacings) up to the limit, tens of milliseconds per swap
 * in JSBI on spacing 1 from the middle of the range to its end: stopping short keeps the run short (the on-chain
 * differential test runs every swap to RouterV2's limit). For the same reason full-range positions come on
 * spacings from 60 here.
 */
function limitFor(random: () => number, s: ConcentratedState, zeroForOne: boolean): bigint {
  if (random() < 0.2 && s.tickSpacing >= 10) return priceLimit(zeroForOne);
  const last = zeroForOne ? s.ticks[0].index : s.ticks[s.ticks.length - 1].index;
  const t = Math.max(MIN_TICK + 1, Math.min(MAX_TICK - 2, last + (zeroForOne ? -1 : 1) * Math.floor(random() * 20_000)));
  const a = getSqrtRatioAtTick(t);
  const limit = a + 1n + BigInt(Math.floor(random() * Number(getSqrtRatioAtTick(t + 1) - a - 1n)));
  return (zeroForOne ? limit < s.sqrtPriceX96 : limit > s.sqrtPriceX96) ? limit : priceLimit(zeroForOne);
}

describe('uniswap-v3 maths against @uniswap/v3-sdk', () => {
  it('10,000 random swaps: exact input and output, both directions, dust to past the last tick, equal to the wei', async () => {
    const random = mulberry32(20261124);
    let swaps = 0;
    let crossing = 0;
    let partial = 0;
    let reverts = 0;
    while (swaps < 10_000) {
      const s = randomConcentratedState(random, 60);
      const pool = sdkPool(s);
      const state = engineState(s);
      for (const zeroForOne of [true, false]) {
        // What the pool takes and pays at most in this direction.
        const limit = limitFor(random, s, zeroForOne);
        const whole = swapUniswapV3(state, zeroForOne, 1n << 250n, limit);
        const sdkLimit = JSBI.BigInt(limit.toString());
        for (let i = 0; i < 5; i++) {
          const exactIn = i % 2 === 0;
          const amount = randomAmount(random, exactIn ? whole.amountIn : whole.amountOut);
          const expected = ours(() => swapUniswapV3(state, zeroForOne, exactIn ? amount : -amount, limit));
          let sdk: Outcome;
          try {
            const [token, other] = zeroForOne ? [TOKEN0, TOKEN1] : [TOKEN1, TOKEN0];
            if (exactIn) {
              const [out, after] = await pool.getOutputAmount(CurrencyAmount.fromRawAmount(token, amount.toString()), sdkLimit);
              sdk = { amountIn: expected === 'reverts' ? '' : expected.amountIn, amountOut: out.quotient.toString(), sqrtPriceX96: after.sqrtRatioX96.toString(), tick: after.tickCurrent, liquidity: after.liquidity.toString() };
            } else {
              const [input, after] = await pool.getInputAmount(CurrencyAmount.fromRawAmount(other, amount.toString()), sdkLimit);
              sdk = { amountIn: input.quotient.toString(), amountOut: expected === 'reverts' ? '' : expected.amountOut, sqrtPriceX96: after.sqrtRatioX96.toString(), tick: after.tickCurrent, liquidity: after.liquidity.toString() };
            }
          } catch {
            sdk = 'reverts';
          }
          expect(expected).toEqual(sdk);
          swaps++;
          if (expected === 'reverts') reverts++;
          else {
            if (expected.liquidity !== String(s.liquidity)) crossing++;
            if (exactIn ? BigInt(expected.amountIn) < amount : BigInt(expected.amountOut) < amount) partial++;
          }
        }
      }
    }
    // The random states cover swaps that cross ticks and swaps past the last initialized tick.
    expect(crossing).toBeGreaterThan(1500);
    expect(partial).toBeGreaterThan(500);
    expect(reverts).toBeLessThan(swaps / 100);
  });
});
