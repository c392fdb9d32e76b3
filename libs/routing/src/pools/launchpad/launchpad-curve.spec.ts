import {
  CURVE_SALE_SUPPLY,
  curveBuyCapacity,
  curveFromReserves,
  GRADUATION_TOKEN_RESERVE,
  launchCurveStatus,
  CurveLiquidityError,
  curveSellCapacity,
  grossForNet,
  quoteCurveBuy,
  quoteCurveSell,
  TOTAL_SUPPLY,
  VIRTUAL_NATIVE_LIQUIDITY,
  type CurveState,
} from './launchpad-curve';

const E18 = 10n ** 18n;
/** A fresh curve: 300 native virtual, 1.125B tokens virtual reserve of which 750M for sale. */
const fresh: CurveState = { nativeReserve: VIRTUAL_NATIVE_LIQUIDITY, tokenReserve: 1_125_000_000n * 10n ** 6n, tokensForSale: 750_000_000n * 10n ** 6n };

/** The curve after a buy (as the launchpad updates it). */
function afterBuy(state: CurveState, nativeIn: bigint): CurveState {
  const buy = quoteCurveBuy(state, nativeIn);
  const net = buy.nativeUsed - buy.fee;
  return {
    nativeReserve: state.nativeReserve + net,
    tokenReserve: state.tokenReserve - buy.tokensOut,
    tokensForSale: state.tokensForSale - buy.tokensOut,
  };
}

describe('launchpad bonding curve', () => {
  it('has the spec constants', () => {
    expect(VIRTUAL_NATIVE_LIQUIDITY).toBe(300n * E18);
    expect(TOTAL_SUPPLY).toBe(1_000_000_000n * 10n ** 6n);
  });

  it('buys: 1% fee rounded up from the input, tokens out rounded down', () => {
    // 1 native: fee 0.01, net 0.99; y' = ceil(300e18 * 1.125e15 / 300.99e18).
    const buy = quoteCurveBuy(fresh, E18);
    expect(buy.fee).toBe(10n ** 16n);
    const k = 300n * E18 * 1_125_000_000_000_000n;
    const newNative = 300n * E18 + 99n * 10n ** 16n;
    const newToken = (k + newNative - 1n) / newNative;
    expect(buy.tokensOut).toBe(1_125_000_000_000_000n - newToken);
    // 1.125e15 * 0.99 / 300.99 = 3,700,289,046,147.7: rounded down.
    expect(buy.tokensOut).toBe(3_700_289_046_147n);
    expect(buy.nativeUsed).toBe(E18);
    // A fee of 1 wei on 1 wei (ceil): nothing bought.
    expect(quoteCurveBuy(fresh, 1n).tokensOut).toBe(0n);
  });

  it('sells out with a partial fill: exactly the allotment, the least gross that pays for it', () => {
    const buy = quoteCurveBuy(fresh, 1000n * E18);
    expect(buy.soldOut).toBe(true);
    expect(buy.tokensOut).toBe(750_000_000n * 10n ** 6n);
    // x must reach 300 * 1125 / 375 = 900 native: 600 net, gross = ceil(600e18 / 0.99) = 606.060606...607.
    expect(buy.nativeUsed).toBe(606_060_606_060_606_060_607n);
    expect(buy.nativeUsed - buy.fee).toBe(600n * E18);
    expect(curveBuyCapacity(fresh)).toBe(buy.nativeUsed);
    expect(quoteCurveBuy(fresh, buy.nativeUsed - 1n).soldOut).toBe(false);
  });

  it('grossForNet is the least gross whose net reaches the target', () => {
    for (const net of [1n, 99n, 100n, 12_345n, 10n ** 18n + 7n]) {
      const g = grossForNet(net);
      expect(g - (g * 100n + 9_999n) / 10_000n).toBeGreaterThanOrEqual(net);
      expect(g - 1n - ((g - 1n) * 100n + 9_999n) / 10_000n).toBeLessThan(net);
    }
  });

  it('sells: 1% fee rounded up from the output; a round trip loses at least both fees', () => {
    const state = afterBuy(fresh, 10n * E18);
    const tokens = fresh.tokenReserve - state.tokenReserve;
    const sell = quoteCurveSell(state, tokens);
    expect(sell.fee).toBe((sell.grossOut * 100n + 9_999n) / 10_000n);
    expect(sell.nativeOut).toBeLessThan((10n * E18 * 99n * 99n) / 10_000n + 1n);
    expect(sell.grossOut).toBeLessThanOrEqual(state.nativeReserve - VIRTUAL_NATIVE_LIQUIDITY);
  });

  it('the product of the reserves never decreases', () => {
    let state = fresh;
    let k = state.nativeReserve * state.tokenReserve;
    for (const v of [1n, 10n ** 15n, 3n * E18, 77n * E18]) {
      state = afterBuy(state, v);
      const nk = state.nativeReserve * state.tokenReserve;
      expect(nk).toBeGreaterThanOrEqual(k);
      k = nk;
    }
  });

  it('refuses a sale above what the curve raised; capacity is the largest payable sale', () => {
    const state = afterBuy(fresh, 5n * E18);
    const cap = curveSellCapacity(state);
    expect(() => quoteCurveSell(state, cap)).not.toThrow();
    expect(() => quoteCurveSell(state, cap + 1n)).toThrow(CurveLiquidityError);
    expect(curveSellCapacity(fresh)).toBe(0n);
  });
});

describe('launchCurveStatus', () => {
  const at = (tokenReserve: bigint, graduated = false) => ({ nativeReserve: VIRTUAL_NATIVE_LIQUIDITY + E18, tokenReserve, graduated });

  it('is trading while the curve has tokens for sale, the curve of curveFromReserves', () => {
    expect(launchCurveStatus(at(GRADUATION_TOKEN_RESERVE + 1n))).toBe('trading');
    expect(launchCurveStatus(at(GRADUATION_TOKEN_RESERVE + CURVE_SALE_SUPPLY))).toBe('trading');
    expect(curveFromReserves(at(GRADUATION_TOKEN_RESERVE + 1n))?.tokensForSale).toBe(1n);
  });

  it('is graduating once the sale allotment is sold out and graduate has not run', () => {
    expect(launchCurveStatus(at(GRADUATION_TOKEN_RESERVE))).toBe('graduating');
    expect(curveFromReserves(at(GRADUATION_TOKEN_RESERVE))).toBeUndefined();
  });

  it('is graduated once the DEX pool is seeded, whatever the reserves say', () => {
    expect(launchCurveStatus(at(GRADUATION_TOKEN_RESERVE, true))).toBe('graduated');
    expect(launchCurveStatus(at(GRADUATION_TOKEN_RESERVE + 1n, true))).toBe('graduated');
  });

  it('sells the allotment between the initial virtual reserve and the graduation reserve', () => {
    expect(fresh.tokenReserve - GRADUATION_TOKEN_RESERVE).toBe(CURVE_SALE_SUPPLY);
    expect(fresh.tokensForSale).toBe(CURVE_SALE_SUPPLY);
  });
});
