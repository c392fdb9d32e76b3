import { mulberry32, randomAmount, randomConcentratedState, stateAt, uniswapV4 } from '../../../test/concentrated-fixtures';
import { snapshot, TOKENS, units } from '../../../test/fixtures';
import { expectExecutesAsQuoted } from '../../../test/route-checks';
import { findRoute } from '../../find/find-route';
import { buildGraph } from '../../graph/chain-graph';
import { SWAP_GAS_BY_KIND, swapGas, TICK_GAS } from '../../route/gas-model';
import { ConcentratedLeg, stateOf } from '../concentrated/concentrated-leg';
import { legsOf } from '../legs';
import { poolModule } from '../registry';
import { DYNAMIC_FEE_FLAG, UNISWAP_V4_LADDER_SIZE, uniswapV4PoolKey, uniswapV4SampleLadder, uniswapV4SwapFee } from './uniswap-v4';
import { swapUniswapV4 } from './uniswap-v4-swap';

/** The pool's exact swap as the PoolManager computes it: `amount` > 0 exact input, < 0 exact output. */
const poolSwap = (pool: ReturnType<typeof uniswapV4>, zeroForOne: boolean, amount: bigint) => {
  try {
    return swapUniswapV4({ ...stateOf(pool), fee: uniswapV4SwapFee(pool.fee, pool.protocolFee, zeroForOne) }, zeroForOne, amount);
  } catch {
    return undefined;
  }
};

// USDC per DAI in base units, 1:1 in whole tokens: 1e6 / 1e18 (tick -276,324). DAI stands for the native coin
// here: its address (0x5...) sorts above USDC's (0x2...), and the native coin sorts first in the key.
const daiUsdc = (options: Parameters<typeof uniswapV4>[3] = { native: true }) =>
  uniswapV4(
    'DAI',
    'USDC',
    stateAt(
      -276_324,
      [
        { lower: -276_400, upper: -276_250, liquidity: 4n * 10n ** 17n },
        { lower: -280_000, upper: -272_000, liquidity: 10n ** 17n },
      ],
      500,
      10,
      0.3,
    ),
    options,
  );

describe('uniswap-v4 pools', () => {
  it('quotes each leg with the PoolManager swap, exact input and exact output, at the swap fee of its direction (400 random pools)', () => {
    const random = mulberry32(44);
    let checked = 0;
    for (let n = 0; n < 400; n++) {
      const protocolFee = n % 3 === 0 ? 0 : Math.floor(random() * 1001) + (Math.floor(random() * 1001) << 12);
      const pool = uniswapV4('WHYPE', 'USDC', randomConcentratedState(random, 60), { native: n % 2 === 0, protocolFee });
      for (const leg of legsOf(pool) as ConcentratedLeg[]) {
        const zeroForOne = leg.tokenIn === pool.token0;
        const maxIn = leg.maxIn!;
        for (let i = 0; i < 4; i++) {
          const x = randomAmount(random, maxIn);
          const exactIn = poolSwap(pool, zeroForOne, x);
          expect(leg.swapExactIn(x)).toEqual(exactIn);
          expect(leg.quote(x)).toBe(exactIn && exactIn.amountIn === x ? exactIn.amountOut : 0n);
          const y = randomAmount(random, leg.quote(maxIn));
          expect(leg.swapExactOut(y)).toEqual(poolSwap(pool, zeroForOne, -y));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2_500);
  });

  it('charges the protocol fee on top of the LP fee in the direction it is on (ProtocolFeeLibrary.calculateSwapFee)', () => {
    // 1000 pips zeroForOne, 250 oneForZero.
    const protocolFee = 1000 | (250 << 12);
    expect(uniswapV4SwapFee(3000, protocolFee, true)).toBe(1000 + 3000 - 3);
    expect(uniswapV4SwapFee(3000, protocolFee, false)).toBe(250 + 3000 - 0);
    expect(uniswapV4SwapFee(3000, 0, true)).toBe(3000);
    expect(uniswapV4SwapFee(0, protocolFee, true)).toBe(1000);
    const pool = daiUsdc({ native: true, protocolFee });
    const plain = daiUsdc();
    const amountIn = units('DAI', 50);
    const [withFee] = legsOf(pool).filter((l) => l.tokenIn === pool.token0);
    const [without] = legsOf(plain).filter((l) => l.tokenIn === plain.token0);
    expect(withFee.quote(amountIn)).toBeLessThan(without.quote(amountIn));
    expect(withFee.quote(amountIn)).toBe(swapUniswapV4({ ...stateOf(pool), fee: 1000 + 500 - 0 }, true, amountIn).amountOut);
    // The float view prices the same fee: it agrees with the exact quote to far less than the protocol fee's 0.1%.
    const exact = Number(withFee.quote(amountIn));
    expect(Math.abs(withFee.approxOut(Number(amountIn)) - exact) / exact).toBeLessThan(1e-6);
    expect(withFee.spotRate / without.spotRate).toBeCloseTo((1 - 1500 / 1e6) / (1 - 500 / 1e6), 9);
  });

  it('keeps a native pool in its own token order (token0 above token1) and trades it by direction, not by address order', () => {
    const pool = daiUsdc();
    expect(pool.currency0).toBe('0x0000000000000000000000000000000000000000');
    expect(BigInt(pool.token0)).toBeGreaterThan(BigInt(pool.token1));
    const graph = buildGraph(snapshot(pool));
    const sell = findRoute(graph, { tokenIn: TOKENS.DAI, tokenOut: TOKENS.USDC, amountIn: units('DAI', 100) });
    expect(sell.stages.flat().map((s) => s.kind)).toEqual(['uniswap-v4']);
    // DAI (token0) in: the price falls, zeroForOne.
    expect(sell.amountOut).toBe(poolSwap(pool, true, units('DAI', 100))!.amountOut);
    expectExecutesAsQuoted(sell);
    const buy = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.DAI, amountIn: units('USDC', 100) });
    expect(buy.amountOut).toBe(poolSwap(pool, false, units('USDC', 100))!.amountOut);
    expectExecutesAsQuoted(buy);
    const exactOut = findRoute(graph, { tokenIn: TOKENS.USDC, tokenOut: TOKENS.DAI, amountOut: units('DAI', 20) });
    expect(exactOut.amountOut).toBeGreaterThanOrEqual(units('DAI', 20));
    expectExecutesAsQuoted(exactOut);
  });

  it('gives the key RouterV2 swaps with: the dynamic flag for a dynamic LP fee, the currencies as the key has them', () => {
    const pool = daiUsdc({ native: true, dynamicFee: true, hooks: '0x0000000000000000000000000000000000004010' });
    expect(uniswapV4PoolKey(pool)).toEqual({ currency0: pool.currency0, currency1: TOKENS.USDC, fee: DYNAMIC_FEE_FLAG, tickSpacing: 10, hooks: pool.hooks });
    expect(uniswapV4PoolKey(daiUsdc()).fee).toBe(500);
    expect(poolModule(pool).fee(pool)).toBe(500);
  });

  it('takes at most what a balance delta holds from a pool whose price limit lies beyond it', () => {
    // A full-range position deep enough that selling to the price limit would take more than 2^127 units.
    const pool = uniswapV4('DAI', 'USDC', stateAt(-276_324, [{ lower: -887_270, upper: 887_270, liquidity: 10n ** 30n }], 500, 10, 0.3), { native: false });
    const deltaMax = 1n << 127n;
    for (const leg of legsOf(pool) as ConcentratedLeg[]) {
      // The leg's most is what a delta holds, not nothing (the engine would drop the pool): the PoolManager reverts
      // only a swap whose amounts do not fit, and one of 2^127 fits.
      expect(leg.maxIn).toBe(deltaMax);
      expect(leg.quote(deltaMax)).toBeGreaterThan(0n);
      expect(leg.quote(deltaMax + 1n)).toBe(0n);
      expect(leg.quote(10n ** 24n)).toBeGreaterThan(0n);
    }
  });

  it('has no legs at an LP fee of 100% (the pool pays nothing for any input)', () => {
    expect(legsOf({ ...daiUsdc(), fee: 999_999 })).toHaveLength(2);
    expect(legsOf({ ...daiUsdc(), fee: 1_000_000 })).toEqual([]);
  });

  it('prices a swap at the V4 kind gas, with its tick crossings', () => {
    const pool = daiUsdc();
    const [leg] = legsOf(pool).filter((l) => l.tokenIn === pool.token0);
    const module = poolModule(pool);
    expect(module.gas.swapKind(pool, pool.token0)).toBe('uniswap-v4');
    const small = module.gas.crossings!(leg, pool.token0, 10n ** 15n)!;
    const large = module.gas.crossings!(leg, pool.token0, units('DAI', 50_000))!;
    expect(small.ticks).toBe(0);
    expect(large.ticks).toBeGreaterThan(0);
    // V4's own figures, fitted on executed transactions (bench/gas-model): a swap and a crossed tick cost less than
    // V3's (a V4 tick keeps no oracle values to write when it is crossed).
    expect(SWAP_GAS_BY_KIND['uniswap-v4']).toBeLessThan(SWAP_GAS_BY_KIND['uniswap-v3']);
    expect(TICK_GAS['uniswap-v4']).toBeLessThan(TICK_GAS['uniswap-v3']);
    expect(swapGas('uniswap-v4')).toBeLessThan(swapGas('uniswap-v3'));
  });

  it("trades a sampled pool (a hook listed as sampled) on its V4Quoter's samples, quoted again on chain, at the hooked gas", () => {
    const pool = daiUsdc();
    const [tick] = legsOf(pool).filter((l) => l.tokenIn === pool.token0);
    // A hook that keeps 0.1% of the input: the quoter's answers are the tick maths' at 99.9% of it.
    const ladder = [10n ** 15n, 10n ** 17n, 10n ** 19n, 10n ** 21n, 10n ** 22n];
    const samples0to1 = ladder.map((amountIn) => ({ amountIn, amountOut: tick.quote((amountIn * 999n) / 1000n) }));
    const sampled = { ...pool, hooks: '0x0000000000000000000000000000000000000088', sampled: { quoter: '0x9999999999999999999999999999999999999999', samples0to1, samples1to0: [] } };
    const module = poolModule(sampled);
    const legs = legsOf(sampled);
    // One direction sampled, one leg: exact at each sample, the chord between them (never above the curve), none past the top.
    expect(legs.map((l) => l.tokenIn)).toEqual([pool.token0]);
    for (const s of samples0to1) expect(legs[0].quote(s.amountIn)).toBe(s.amountOut);
    const between = 5n * 10n ** 20n;
    expect(legs[0].quote(between)).toBeLessThanOrEqual(tick.quote((between * 999n) / 1000n));
    expect(legs[0].quote(between)).toBeGreaterThan((tick.quote((between * 999n) / 1000n) * 99n) / 100n);
    expect(legs[0].maxIn).toBe(10n ** 22n);
    expect(legs[0].quote(10n ** 22n + 1n)).toBe(0n);
    expect([module.quotedOnChain(sampled), module.refineSplits(sampled), module.quotedOnChain(pool), module.refineSplits(pool)]).toEqual([true, true, false, false]);
    // An exact hook's pool with its source's quoter: tick legs, its swaps quoted on chain again.
    const exact = { ...pool, hooks: '0x0000000000000000000000000000000000000080', quoter: '0x9999999999999999999999999999999999999999' };
    expect([module.quotedOnChain(exact), module.refineSplits(exact)]).toEqual([true, false]);
    // A hook called on swaps is the hooked gas kind; the ticks a sampled swap crosses are its tick-exact leg's.
    expect(module.gas.swapKind(sampled, pool.token0)).toBe('uniswap-v4-hooked');
    const top = 10n ** 22n;
    expect(module.gas.crossings!(legs[0], pool.token0, top)).toEqual(module.gas.crossings!(tick, pool.token0, top));
    expect(module.gas.crossings!(legs[0], pool.token0, top)!.ticks).toBeGreaterThan(0);
    expect(SWAP_GAS_BY_KIND['uniswap-v4-hooked']).toBeGreaterThan(SWAP_GAS_BY_KIND['uniswap-v4']);
  });

  it("lays a sampled pool's ladder where its curve bends: between samples, within 5e-5 of the tick curve (more past 1% of price impact) on a pool like the devnet's", () => {
    /**
     * The worst shortfall of the leg sampled at its ladder (samples of the tick curve itself) under the tick curve, at
     * `n` random sizes up to its top: relative to the output, two units of input and of output of rounding aside, and
     * past 1% of price impact in hundredths of the impact.
     */
    const worstShortfall = (pool: ReturnType<typeof uniswapV4>, random: () => number, n: number): number => {
      let worst = 0;
      for (const tick of legsOf(pool)) {
        const ladder = uniswapV4SampleLadder(tick);
        if (ladder.length === 0) continue;
        expect(ladder.length).toBeLessThanOrEqual(UNISWAP_V4_LADDER_SIZE);
        expect(ladder.every((a, i) => i === 0 || a > ladder[i - 1])).toBe(true);
        const samples = ladder.map((amountIn) => ({ amountIn, amountOut: tick.quote(amountIn) }));
        const sampled = { ...pool, hooks: '0x0000000000000000000000000000000000000088', sampled: { quoter: '0x9999999999999999999999999999999999999999', samples0to1: samples, samples1to0: samples } };
        const [leg] = legsOf(sampled).filter((l) => l.tokenIn === tick.tokenIn);
        const top = ladder[ladder.length - 1];
        // The top takes 98% of the output side.
        expect(tick.approxOut(Number(top))).toBeGreaterThan(0.97 * tick.approxOut(tick.maxInApprox));
        for (let k = 0; k < n; k++) {
          const x = BigInt(Math.floor(Number(top) * Math.pow(10, -6 * random())));
          const [exact, interpolated] = [tick.quote(x), leg.quote(x)];
          // Never more than the pool pays but for the exact maths' own rounding: of the input (the fee rounded up, a unit
          // of a 6-decimal token worth 1e12 of an 18-decimal one) and of each crossed tick's step.
          const unit = Number(exact) / Number(x);
          expect(Number(interpolated - exact)).toBeLessThanOrEqual(Number(exact) * 1e-7 + 2 * unit + 1);
          const impact = 1 - tick.approxOut(Number(x)) / (Number(x) * tick.spotRate);
          if (exact > 1_000n) worst = Math.max(worst, (Number(exact - interpolated) - 2 * unit - 2) / Number(exact) / Math.max(1, impact / 0.01));
        }
      }
      return worst;
    };
    const random = mulberry32(11);
    // Narrow and wide positions, as the devnet seeds them, native or not.
    for (const native of [true, false]) expect(worstShortfall(daiUsdc({ native }), random, 300)).toBeLessThanOrEqual(5e-5);
    // Random states, thin ranges that bend hard included: the ladder's tolerance rises where 40 inputs cannot hold 2e-5.
    let worst = 0;
    for (let n = 0; n < 30; n++) worst = Math.max(worst, worstShortfall(uniswapV4('DAI', 'USDC', randomConcentratedState(random), { native: random() < 0.5 }), random, 40));
    expect(worst).toBeLessThan(5e-3);
  });
});
