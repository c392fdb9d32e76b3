import { assembleRoute, buildGraph, legsOf, type CorePoolSnapshot, type Leg, type UniswapV2PoolSnapshot } from '@dex/routing';
import { BusError } from '@dex/service';
import { afterTransferFee, requoteRoute, searchRoute } from './route-quote';
import type { RouteOrder } from './route-request';
import { coreQuotingClient } from './test/core-client';

const WHYPE = '0x1000000000000000000000000000000000000001';
const USDC = '0x2000000000000000000000000000000000000002';
const E18 = 10n ** 18n;
const identity = { token0: WHYPE, token1: USDC, decimals0: 18, decimals1: 6 };
const v2: UniswapV2PoolSnapshot = { kind: 'uniswap-v2', address: '0xa000000000000000000000000000000000000001', routerIndex: 1, ...identity, reserve0: 4_000n * E18, reserve1: 100_000n * 10n ** 6n, feeBps: 30 };
// A core pool sampled at 25 USDC per WHYPE (and back), up to 1,000 WHYPE.
const ladder = (top: bigint, rate: (x: bigint) => bigint) => [1n, 10n, 100n, 1_000n].map((f) => ({ amountIn: (top * f) / 1_000n, amountOut: rate((top * f) / 1_000n) }));
const core: CorePoolSnapshot = {
  kind: 'core',
  address: '0xc000000000000000000000000000000000000001',
  routerIndex: 0,
  ...identity,
  samples0to1: ladder(1_000n * E18, (x) => (x * 25n) / 10n ** 12n),
  samples1to0: ladder(25_000n * 10n ** 6n, (x) => (x * 10n ** 12n) / 25n),
};
const sell = (pool: UniswapV2PoolSnapshot | CorePoolSnapshot): Leg => legsOf(pool).find((l) => l.tokenIn === WHYPE)!;
const [v2Leg, coreLeg] = [sell(v2), sell(core)];

/** One hop, WHYPE -> USDC, split 600/400 across the V2 and the core pool. */
const route = assembleRoute([
  { legs: [v2Leg, coreLeg], amountsIn: [600n * E18, 400n * E18], amountsOut: [v2Leg.quote(600n * E18), coreLeg.quote(400n * E18)], amountIn: 1_000n * E18, amountOut: 0n },
]);

/** A client whose core pools quote through `estimate`, recording the multicalls. */
const client = (estimate: (amountIn: bigint) => bigint | undefined | Error) => coreQuotingClient((_pool, amountIn) => estimate(amountIn));

const body = (p: Promise<unknown>) => p.then(() => 'resolved', (err: unknown) => (err instanceof BusError ? err.toBody() : err));

describe('requoteRoute', () => {
  it("prices the core swaps by the pools' estimateSwap at the block (one multicall per hop), the others by their legs", async () => {
    const { client: c, calls } = client((x) => (x * 24n) / 10n ** 12n);
    const quote = await requoteRoute(c, 77n, route);
    expect(calls).toHaveLength(1);
    expect(calls[0].blockNumber).toBe(77n);
    expect(calls[0].contracts.map((x) => [x.address.toLowerCase(), x.args[2]])).toEqual([[core.address, 400n * E18]]);
    const [hop] = quote.hops;
    expect(hop.map((s) => [s.swap.leg, s.amountIn, s.amountOut])).toEqual([
      [v2Leg, 600n * E18, v2Leg.quote(600n * E18)],
      [coreLeg, 400n * E18, 9_600n * 10n ** 6n],
    ]);
    expect(quote.amountIn).toBe(1_000n * E18);
    expect(quote.amountOut).toBe(v2Leg.quote(600n * E18) + 9_600n * 10n ** 6n);
    expect(hop[1].priceImpact).toBeCloseTo(0.04, 6);
  });

  it('answers 404 when a core pool does not quote its share, or the core pools cannot be asked', async () => {
    expect(await body(requoteRoute(client(() => undefined).client, 77n, route))).toEqual({
      status: 404,
      message: 'No route found',
      details: `the core pool ${core.address} does not quote the amount at the current block`,
    });
    expect(await body(requoteRoute(client(() => new Error('node down')).client, 77n, route))).toEqual({
      status: 404,
      message: 'No route found',
      details: 'the core pools do not quote at the current block: node down',
    });
    expect(await body(requoteRoute(client(() => 0n).client, 77n, { ...route, stages: [route.stages[0].slice(1)] }))).toEqual({
      status: 404,
      message: 'No route found',
      details: 'the route pays nothing at the current block',
    });
  });
});

describe('searchRoute', () => {
  const order = (multiHop: boolean): RouteOrder => ({
    tokenIn: WHYPE,
    tokenOut: USDC,
    metaIn: { address: WHYPE, symbol: 'WHYPE', name: 'Wrapped HYPE', decimals: 18 },
    metaOut: { address: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6 },
    nativeIn: false,
    unwrap: false,
    amount: { amountIn: E18 },
    multiHop,
    maxSwaps: 24,
    filter: {},
    feeBps: 0,
    slippageBps: 100,
    gasAware: false,
  });
  const empty = buildGraph({ chainId: 999, pools: [] });

  it("finds the engine's route", () => {
    expect(searchRoute(buildGraph({ chainId: 999, pools: [v2] }), order(false)).stages[0][0].leg.pool).toBe(v2);
  });

  it('answers 404 naming the tokens when no path trades the amount', () => {
    expect(() => searchRoute(empty, order(false))).toThrow(BusError);
    const details = (multiHop: boolean) => {
      try {
        searchRoute(empty, order(multiHop));
      } catch (err) {
        return (err as BusError).toBody();
      }
    };
    expect(details(false)).toEqual({ status: 404, message: 'No route found', details: 'no direct pool from WHYPE to USDC can trade the amount with the admitted sources (multiHop=true allows intermediate tokens)' });
    expect(details(true)?.details).toBe('no route from WHYPE to USDC can trade the amount with the admitted sources');
  });
});

describe('requoteRoute with transfer fees', () => {
  it("prices each pool on its share less the input token's fee and counts its output less the output token's", async () => {
    const { client: c } = client((x) => (x * 24n) / 10n ** 12n);
    // WHYPE takes 1%, USDC 0.5%: each of the two legs pays both.
    const quote = await requoteRoute(c, 77n, route, new Map([[WHYPE, 100], [USDC, 50]]));
    const [v2Swap, coreSwap] = quote.hops[0];
    expect(v2Swap.amountIn).toBe(600n * E18);
    expect(v2Swap.poolAmountIn).toBe(594n * E18);
    expect(v2Swap.poolAmountOut).toBe(v2Leg.quote(594n * E18));
    expect(v2Swap.amountOut).toBe((v2Leg.quote(594n * E18) * 9_950n) / 10_000n);
    expect(coreSwap.poolAmountIn).toBe(396n * E18);
    expect(coreSwap.poolAmountOut).toBe((396n * E18 * 24n) / 10n ** 12n);
    expect(quote.amountOut).toBe(v2Swap.amountOut + coreSwap.amountOut);
    // Without fees the amounts are the pools' own.
    const plain = await requoteRoute(c, 77n, route);
    expect(plain.hops[0].map((s) => s.poolAmountIn)).toEqual([600n * E18, 400n * E18]);
    expect(plain.amountOut).toBeGreaterThan(quote.amountOut);
  });

  it('afterTransferFee rounds down and leaves a token without a fee alone', () => {
    expect(afterTransferFee(1_000n, 100)).toBe(990n);
    expect(afterTransferFee(999n, 100)).toBe(989n);
    expect(afterTransferFee(1_000n, 0)).toBe(1_000n);
    expect(afterTransferFee(1_000n, undefined)).toBe(1_000n);
  });
});
