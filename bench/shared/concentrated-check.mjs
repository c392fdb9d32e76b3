// A quick check of the reference's concentrated-liquidity side (route-optimum.mjs `concentratedSide`) against
// `@uniswap/v3-sdk`'s pool maths (the V3 swap loop in integers, JSBI) on random exact-input swaps through the
// concentrated pools of a graph: sizes from $10 to $10M at the tokens' prices (under the side's cap), both
// directions. Algebra pools go through the same V3 loop at their own fee and tick spacing (Algebra's swap steps
// are V3's up to the fee's rounding). Returns the worst relative difference of the output and how many swaps.
import { createRequire } from 'node:module';
import { concentratedSide } from './route-optimum.mjs';
import { rng } from './synthetic-graph.mjs';

const require = createRequire(import.meta.url);

export async function checkConcentratedSides(pools, usdOf, { swaps = 300, seed = 17 } = {}) {
  const { Pool, TickListDataProvider } = require('@uniswap/v3-sdk');
  const { Token, CurrencyAmount } = require('@uniswap/sdk-core');
  const concentrated = pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra');
  const rand = rng(seed);
  let worst = 0;
  let worstAt;
  let checked = 0;
  let failed = 0;
  const sdkPools = new Map();
  for (let n = 0; n < swaps * 20 && checked < swaps && concentrated.length; n++) {
    const p = concentrated[Math.floor(rand() * concentrated.length)];
    const zeroForOne = rand() < 0.5;
    const usd = 10 ** (1 + rand() * 6);
    const [tin, din] = zeroForOne ? [p.token0, p.decimals0] : [p.token1, p.decimals1];
    const price = usdOf(tin);
    if (!(price > 0)) continue;
    const amount = Math.floor((usd / price) * 10 ** din);
    const side = concentratedSide(p, zeroForOne);
    if (!(amount >= 1) || !(amount < side.cap * 0.999)) continue;
    let pool = sdkPools.get(p.address);
    if (!pool) {
      const t0 = new Token(1, p.token0, p.decimals0);
      const t1 = new Token(1, p.token1, p.decimals1);
      const ticks = [...p.ticks]
        .sort((a, b) => a.index - b.index)
        .map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: (t.liquidityNet < 0n ? -t.liquidityNet : t.liquidityNet).toString() }));
      pool = new Pool(t0, t1, p.fee, p.sqrtPriceX96.toString(), p.liquidity.toString(), p.tick, new TickListDataProvider(ticks, p.tickSpacing));
      // The SDK reads the spacing off the V3 fee tier; an Algebra pool has its own.
      Object.defineProperty(pool, 'tickSpacing', { value: p.tickSpacing });
      sdkPools.set(p.address, pool);
    }
    const tokenIn = zeroForOne ? pool.token0 : pool.token1;
    const amountIn = BigInt(Math.round(amount));
    let sdkOut;
    try {
      const [out] = await pool.getOutputAmount(CurrencyAmount.fromRawAmount(tokenIn, amountIn.toString()));
      sdkOut = Number(out.quotient.toString());
    } catch {
      failed++;
      continue;
    }
    checked++;
    const ours = side.out(Number(amountIn));
    // Relative, with a base unit of slack for the integer maths' rounding of small outputs.
    const diff = Math.max(0, Math.abs(ours - sdkOut) - 2) / Math.max(sdkOut, 1);
    if (diff > worst) {
      worst = diff;
      worstAt = { pool: p.address, kind: p.kind, zeroForOne, amountIn: amountIn.toString(), sdk: sdkOut, reference: ours };
    }
  }
  return { swaps: checked, failed, worst, worstAt };
}
