// A route split across paths through the service: re-quoted at the block stage by stage (core swaps on chain),
// encoded for RouterV2 with its stages, answered with its intermediate tokens and stages; a linear route as before.
import { routerV2Abi } from '@dex/abis';
import { encodeExecuteSwaps } from '@dex/chain';
import { splitOutput } from '@dex/fee-math';
import { buildGraph, findRoute, stagePriceImpacts } from '@dex/routing';
import { decodeFunctionData, getAddress } from 'viem';
import type { ChainLiquidity } from '../liquidity/liquidity.service';
import { quotedPriceImpact, routeAnswer } from './route-answer';
import { routeExecution } from './route-execution';
import { requoteRoute } from './route-quote';
import type { RouteOrder } from './route-request';
import { coreQuotingClient } from './test/core-client';
import { corePurr, E18, E6, meta, PURR, USDC, v2, WHYPE } from './test/pools';

const QUOTE_ID = '6f1c2a52-3c1e-4b8f-9d2a-1e2f3a4b5c6d';
const GAS = { gasEstimate: 200_000, gasPrice: '1000000000', gasCostNative: '0.0002', gasCostUsd: null };

const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const graph = buildGraph({
  chainId: 999,
  pools: [corePurr, v2(1, WHYPE, USDC, 4_000n * E18, 100_000n * E6), v2(2, WHYPE, PURR, 1_000n * E18, 100_000n * E18, 2)],
});

const order = (amountIn: bigint, extra: Partial<RouteOrder> = {}): RouteOrder => ({
  tokenIn: USDC,
  tokenOut: PURR,
  metaIn: { address: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6 },
  metaOut: { address: PURR, symbol: 'PURR', name: 'Purr', decimals: 18 },
  nativeIn: false,
  unwrap: false,
  amount: { amountIn },
  multiHop: true,
  maxSwaps: 24,
  filter: {},
  feeBps: 0,
  slippageBps: 100,
  gasAware: false,
  ...extra,
});

/** A client whose core pools quote `scale` of what the engine's samples say, recording the multicalls. */
function client(scale: (out: bigint) => bigint) {
  const legs = graph.legs.get(USDC)!.get(PURR)!;
  return coreQuotingClient((pool, amountIn) => scale(legs.find((l) => l.pool.address === pool)!.quote(amountIn)));
}

const chain = {
  chainId: 999,
  entry: { routerV2: ROUTER, nativeSymbol: 'HYPE' },
  wrappedNative: WHYPE,
  sourceName: (i: number) => `source ${i}`,
  token: (address: string) => {
    const m = meta[address.toLowerCase() as keyof typeof meta];
    return m && { address: getAddress(address), name: m.symbol, ...m };
  },
} as unknown as ChainLiquidity;

describe('a route split across paths through the service', () => {
  const amountIn = 100_000n * E6;
  const route = findRoute(graph, { tokenIn: USDC, tokenOut: PURR, amountIn, multiHop: true });

  it('is split: the core pool direct and the path through WHYPE, USDC spent in the first stage', () => {
    expect(route.split).toBe(true);
    expect(route.tokens).toEqual([USDC, WHYPE, PURR]);
    expect(route.stages[0].map((s) => [s.tokenIn, s.tokenOut])).toEqual(
      expect.arrayContaining([
        [USDC, PURR],
        [USDC, WHYPE],
      ]),
    );
    expect(route.stages[1].map((s) => [s.tokenIn, s.tokenOut])).toEqual([[WHYPE, PURR]]);
  });

  it('is re-quoted at the block stage by stage, the core swaps by the pools (one multicall per stage holding any)', async () => {
    // The core pool pays 1% less at the block than its samples said: the route pays that much less, no more.
    const { client: c, calls } = client((out) => (out * 99n) / 100n);
    const quote = await requoteRoute(c, 7n, route);
    expect(calls).toHaveLength(1);
    const core = route.stages[0].find((s) => s.kind === 'core')!;
    expect(calls[0].contracts.map((x) => [x.address.toLowerCase(), x.args[2]])).toEqual([[corePurr.address, core.amountIn]]);
    expect(quote.hops.map((stage) => stage.map((s) => s.amountIn))).toEqual(route.stages.map((stage) => stage.map((s) => s.amountIn)));
    expect(quote.amountOut).toBe(route.amountOut - core.amountOut + (core.amountOut * 99n) / 100n);
  });

  it('is encoded for RouterV2 with its tokens and stages, and answered with its intermediates and stages', async () => {
    const { client: c } = client((out) => out);
    const quote = await requoteRoute(c, 7n, route);
    const execution = routeExecution(order(amountIn), quote);
    const { functionName, args } = decodeFunctionData({ abi: routerV2Abi, data: execution.calldata });
    expect(functionName).toBe('executeSwaps');
    expect(args[0]).toEqual([USDC, WHYPE, PURR].map((t) => getAddress(t)));
    expect(args[1]).toBe(amountIn);
    expect(args[3]).toBe(quote.amountOut);
    expect(args[4]).toEqual(route.stages.map((stage) => stage.map((s) => ({ pool: getAddress(s.poolAddress), tokenIn: getAddress(s.tokenIn), tokenOut: getAddress(s.tokenOut), routerIndex: s.routerIndex, amountIn: s.amountIn, data: '0x' }))));
    const answer = routeAnswer(chain, 7n, order(amountIn), quote, execution, { quoteId: QUOTE_ID, averagePriceImpact: quotedPriceImpact(quote), gas: GAS });
    expect(answer.tokens.intermediates.map((t) => t.address)).toEqual([getAddress(WHYPE)]);
    expect(answer.execution.details.path).toEqual([USDC, WHYPE, PURR].map((t) => getAddress(t)));
    expect(answer.execution.details.hopSwaps.map((stage) => stage.map((s) => [s.tokenIn, s.tokenOut, s.amountIn]))).toEqual(
      route.stages.map((stage) => stage.map((s) => [getAddress(s.tokenIn), getAddress(s.tokenOut), s.amountIn.toString()])),
    );
    const stages = quote.hops.map((stage) => stage.map((s) => ({ leg: s.swap.leg, amountIn: s.amountIn, amountOut: s.amountOut })));
    expect(answer.averagePriceImpact).toBe(stagePriceImpacts(stages, USDC, PURR).averagePriceImpact);
    expect(answer.averagePriceImpact).toBeGreaterThan(0);
  });

  it('leaves a linear route as it was: its path, its hops, the same calldata', async () => {
    const small = findRoute(graph, { tokenIn: USDC, tokenOut: PURR, amountIn: 10n * E6, multiHop: true });
    expect(small.split).toBeUndefined();
    const { client: c } = client((out) => out);
    const quote = await requoteRoute(c, 7n, small);
    const o = order(10n * E6, { feeBps: 5, feeRecipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
    const execution = routeExecution(o, quote);
    const hopSwaps = small.stages.map((hop) => hop.map((s) => ({ pool: s.poolAddress, tokenIn: s.tokenIn, tokenOut: s.tokenOut, routerIndex: s.routerIndex, amountIn: s.amountIn, data: s.data })));
    expect(execution.calldata).toBe(
      encodeExecuteSwaps({ tokens: small.tokens, amountIn: small.amountIn, minAmountOut: execution.minAmountOut, expectedAmountOut: quote.amountOut, hopSwaps, feeBps: 5, feeRecipient: o.feeRecipient }),
    );
    expect(routeAnswer(chain, 7n, o, quote, execution, { quoteId: QUOTE_ID, averagePriceImpact: quotedPriceImpact(quote), gas: GAS }).tokens.intermediates).toEqual(small.tokens.slice(1, -1).map((t) => expect.objectContaining({ address: getAddress(t) })));
  });
});

describe("a route's transaction with what its simulation delivered", () => {
  const amountIn = 10n * E6;
  const small = findRoute(graph, { tokenIn: USDC, tokenOut: PURR, amountIn, multiHop: true });
  const fee = { feeBps: 20, feeRecipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };

  it('answers what arrived, minAmountOut taken from it, the calldata differing from the model in minAmountOut only', async () => {
    const { client: c } = client((out) => out);
    const quote = await requoteRoute(c, 7n, small);
    for (const o of [order(amountIn), order(amountIn, fee)]) {
      const model = routeExecution(o, quote);
      const trial = routeExecution(o, quote, 0, { minAmountOut: 0n });
      expect(trial.minAmountOut).toBe(0n);
      // What the model said arrives (the user's part after the integrator fee): the same answer as the model's.
      const user = splitOutput({ grossAmountOut: quote.amountOut, expectedAmountOut: quote.amountOut, feeBps: BigInt(o.feeBps), hasFeeRecipient: o.feeRecipient !== undefined }).userAmount;
      const same = routeExecution(o, quote, 0, { received: user });
      expect(same.amountOut).toBe(model.amountOut);
      // 3% less arrived (a fee the model did not know): the answer says so, the integrator's part kept out of it.
      const short = (user * 97n) / 100n;
      const executed = routeExecution(o, quote, 0, { received: short });
      expect(executed.amountOut).toBe(model.amountOut - (user - short));
      expect(executed.minAmountOut).toBe((short * 9_900n) / 10_000n);
      // The head words after the selector: the path's offset, amountIn, minAmountOut, expectedAmountOut, ...
      const words = (data: string) => data.slice(10).match(/.{64}/g)!;
      const differing = words(executed.calldata).flatMap((w, i) => (w === words(trial.calldata)[i] ? [] : [i]));
      expect(differing).toEqual([2]);
      expect(BigInt(`0x${words(executed.calldata)[2]}`)).toBe(executed.minAmountOut);
    }
  });
});
