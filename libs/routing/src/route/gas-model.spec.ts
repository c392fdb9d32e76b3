import { concentrated, stateAt } from '../../test/concentrated-fixtures';
import { TOKENS, units, v2 } from '../../test/fixtures';
import {
  AVERAGE_TICKS_CROSSED,
  calldataGas,
  NEW_ACCOUNT_GAS,
  NEW_TOKEN_HOLDER_GAS,
  ROUTER_GAS,
  routeBaseGas,
  routeGas,
  shapeGas,
  SWAP_GAS_BY_KIND,
  swapGas,
  TICK_GAS,
  TICK_WORD_GAS,
  TX_BASE_GAS,
  type GasShape,
} from './gas-model';
import { legsOf, type Leg } from '../pools/legs';
import { concentratedCrossings as crossingsOf } from '../pools/concentrated/concentrated-leg';

import { assembleRoute, type Route } from './route';

/** What a route's swap crosses (its kind's `gas.crossings`). */
const concentratedCrossings = (s: Route['stages'][number][number]) => crossingsOf(s.leg, s.tokenIn, s.amountIn);

const { WHYPE, USDC, PURR } = TOKENS;

/** A linear route of one swap per hop over legs, each hop's output the next one's input. */
function routeOf(legs: readonly Leg[], amountIn: bigint): Route {
  let amount = amountIn;
  const hops = legs.map((leg) => {
    const out = leg.quote(amount);
    const hop = { legs: [leg], amountsIn: [amount], amountsOut: [out], amountIn: amount, amountOut: out };
    amount = out;
    return hop;
  });
  return assembleRoute(hops);
}

const legOf = (pool: Parameters<typeof legsOf>[0], tokenIn: string): Leg => legsOf(pool).find((l) => l.tokenIn === tokenIn)!;

/** A one-swap V2 shape, token in and out, paid straight to the caller. */
const oneSwap = (extra: Partial<GasShape> = {}): GasShape => ({
  tokens: [USDC, WHYPE],
  stages: [[{ kind: 'uniswap-v2', tokenIn: USDC, tokenOut: WHYPE }]],
  calldata: '0x',
  ...extra,
});

describe('gas model', () => {
  it('every constant is non-negative: none of the work it stands for gives gas back', () => {
    for (const v of [...Object.values(ROUTER_GAS), ...Object.values(SWAP_GAS_BY_KIND), ...Object.values(TICK_GAS), TICK_WORD_GAS, AVERAGE_TICKS_CROSSED]) {
      expect(v).toBeGreaterThanOrEqual(0);
    }
  });

  it('calldata costs 4 per zero byte and 16 per other byte, with or without 0x', () => {
    expect(calldataGas('0x')).toBe(0);
    expect(calldataGas('0x00ff0001')).toBe(4 + 16 + 4 + 16);
    expect(calldataGas('00ff0001')).toBe(40);
    expect(calldataGas('0x10')).toBe(16);
  });

  it('a one-swap route is the intrinsic gas, its calldata, RouterV2 and the swap', () => {
    expect(shapeGas(oneSwap())).toBe(TX_BASE_GAS + ROUTER_GAS.base + SWAP_GAS_BY_KIND['uniswap-v2']);
    expect(shapeGas(oneSwap({ calldata: '0x0101' }))).toBe(TX_BASE_GAS + 32 + ROUTER_GAS.base + SWAP_GAS_BY_KIND['uniswap-v2']);
  });

  it('each of the transaction settings adds its own work', () => {
    const plain = shapeGas(oneSwap());
    expect(shapeGas(oneSwap({ withData: true })) - plain).toBe(ROUTER_GAS.withData);
    // Signed through Permit2: RouterV2Permit2 calls executeSwapsWithData; a nonce opening a word costs more.
    expect(shapeGas(oneSwap({ withData: true, permit2: { newNonceWord: false } })) - plain).toBe(ROUTER_GAS.withData + ROUTER_GAS.permit2);
    expect(shapeGas(oneSwap({ withData: true, permit2: { newNonceWord: true } })) - plain).toBe(ROUTER_GAS.withData + ROUTER_GAS.permit2 + ROUTER_GAS.permit2NewNonceWord);
    expect(shapeGas(oneSwap({ nativeIn: true })) - plain).toBe(ROUTER_GAS.nativeIn);
    // The native coin out goes through the router: its unwrap covers the payout.
    expect(shapeGas(oneSwap({ nativeOut: true })) - plain).toBe(ROUTER_GAS.nativeOut);
    // A fee: the output paid through the router, and the fee recipient's and treasury's transfers.
    expect(shapeGas(oneSwap({ feeBps: 30 })) - plain).toBe(ROUTER_GAS.routerPayout + ROUTER_GAS.fee);
    expect(shapeGas(oneSwap({ feeBps: 0 }))).toBe(plain);
    // A recipient holding none of the output: its balance slot set from zero, or its account created.
    expect(shapeGas(oneSwap({ recipientHoldsOutput: false })) - plain).toBe(NEW_TOKEN_HOLDER_GAS);
    expect(shapeGas(oneSwap({ recipientHoldsOutput: false, nativeOut: true })) - shapeGas(oneSwap({ nativeOut: true }))).toBe(NEW_ACCOUNT_GAS);
    expect(shapeGas(oneSwap({ recipientHoldsOutput: true }))).toBe(plain);
  });

  it('a split last stage and a multi-hop route pay through the router; each token between is held by it', () => {
    const swap = (kind: 'uniswap-v2' | 'stable', tokenIn: string, tokenOut: string) => ({ kind, tokenIn, tokenOut });
    const split = shapeGas({ tokens: [USDC, WHYPE], stages: [[swap('uniswap-v2', USDC, WHYPE), swap('stable', USDC, WHYPE)]], calldata: '0x' });
    expect(split).toBe(TX_BASE_GAS + ROUTER_GAS.base + ROUTER_GAS.routerPayout + SWAP_GAS_BY_KIND['uniswap-v2'] + SWAP_GAS_BY_KIND.stable);
    // Two hops: the last one pays the caller directly; PURR is held by the router between them.
    const twoHops = shapeGas({ tokens: [USDC, PURR, WHYPE], stages: [[swap('uniswap-v2', USDC, PURR)], [swap('uniswap-v2', PURR, WHYPE)]], calldata: '0x' });
    expect(twoHops).toBe(TX_BASE_GAS + ROUTER_GAS.base + ROUTER_GAS.extraToken + 2 * SWAP_GAS_BY_KIND['uniswap-v2']);
    // A path beside a direct swap: an earlier stage makes some of the output, so the router pays it.
    const paths = shapeGas({ tokens: [USDC, PURR, WHYPE], stages: [[swap('uniswap-v2', USDC, PURR), swap('uniswap-v2', USDC, WHYPE)], [swap('uniswap-v2', PURR, WHYPE)]], calldata: '0x' });
    expect(paths - twoHops).toBe(ROUTER_GAS.routerPayout + SWAP_GAS_BY_KIND['uniswap-v2']);
  });

  it("swapGas of a launchpad swap is the mean of a buy and a sale", () => {
    expect(swapGas('launchpad') - swapGas('uniswap-v2')).toBe(Math.round((SWAP_GAS_BY_KIND['launchpad-buy'] + SWAP_GAS_BY_KIND['launchpad-sell']) / 2) - SWAP_GAS_BY_KIND['uniswap-v2']);
  });

  it('one more swap of a kind adds its swapGas to a route estimated from its shape; routeBaseGas is a one-swap route less its swap', () => {
    const pool = v2('USDC', 'WHYPE', 1_000_000, 25_000);
    const other = v2('USDC', 'WHYPE', 500_000, 12_500, 30, 2);
    const one = routeOf([legOf(pool, USDC)], units('USDC', 1_000));
    expect(routeGas(one)).toBe(routeBaseGas() + swapGas('uniswap-v2'));
    const a = legOf(pool, USDC);
    const b = legOf(other, USDC);
    const split = assembleRoute([{ legs: [a, b], amountsIn: [units('USDC', 600), units('USDC', 400)], amountsOut: [a.quote(units('USDC', 600)), b.quote(units('USDC', 400))], amountIn: units('USDC', 1_000), amountOut: 0n }]);
    expect(routeGas(split) - routeGas(one)).toBe(swapGas('uniswap-v2') + ROUTER_GAS.routerPayout);
    // Concentrated kinds: at the average ticks crossed.
    for (const kind of ['uniswap-v3', 'algebra'] as const) {
      expect(swapGas(kind) - swapGas('uniswap-v2')).toBe(Math.round(SWAP_GAS_BY_KIND[kind] + TICK_GAS[kind] * AVERAGE_TICKS_CROSSED) - SWAP_GAS_BY_KIND['uniswap-v2']);
    }
  });

  describe('concentrated swaps', () => {
    // Nested ranges around tick 0 on a 60 spacing: 3 initialized ticks below the price, 3 above.
    const L = 10n ** 20n;
    const positions = [
      { lower: -1200, upper: 1200, liquidity: L },
      { lower: -2400, upper: 2400, liquidity: L },
      { lower: -3600, upper: 3600, liquidity: L },
    ];
    const pool = concentrated('uniswap-v3', 'WHYPE', 'PURR', stateAt(0, positions, 3000, 60));
    const down = legOf(pool, pool.token0) as Leg & { maxIn?: bigint };

    it('count the initialized ticks the exact swap crosses and the bitmap words it moves across', () => {
      const tiny = routeOf([down], 10n ** 12n);
      expect(concentratedCrossings(tiny.stages[0][0])).toEqual({ ticks: 0, words: 0 });
      // Growing inputs cross one tick after another, never fewer.
      let previous = 0;
      const seen = new Set<number>();
      for (let i = 1n; i <= 40n; i++) {
        const c = concentratedCrossings(routeOf([down], (down.maxIn! * i) / 40n).stages[0][0])!;
        expect(c.ticks).toBeGreaterThanOrEqual(previous);
        previous = c.ticks;
        seen.add(c.ticks);
      }
      // To the price limit: all three ticks below the price.
      expect(concentratedCrossings(routeOf([down], down.maxIn!).stages[0][0])!.ticks).toBe(3);
      expect([...seen].sort()).toEqual([0, 1, 2, 3]);
    });

    it('cost the kind, each tick crossed and each word moved across', () => {
      const tiny = routeOf([down], 10n ** 12n);
      const size = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n].map((k) => (down.maxIn! * k) / 10n).find((x) => concentratedCrossings(routeOf([down], x).stages[0][0])!.ticks === 2)!;
      const two = routeOf([down], size);
      const c = concentratedCrossings(two.stages[0][0])!;
      // The same calldata for both, so only the swap's crossings differ.
      expect(routeGas(two, { calldata: '0x' }) - routeGas(tiny, { calldata: '0x' })).toBe(Math.round(2 * TICK_GAS['uniswap-v3'] + c.words * TICK_WORD_GAS));
    });
  });
});
