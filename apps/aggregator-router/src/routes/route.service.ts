import { randomUUID } from 'node:crypto';
import { readBalances, shortMessage, simulateRouterCall } from '@dex/chain';
import { checksummed, type ParsedRequestOf, type PoolRecord, type ResponseOf, type RouteResponse, type RouteSimulation, type TokenMeta, balancesContract, CHAIN_DID_NOT_ANSWER, poolsContract } from '@dex/messages';
import { bestPathRate, poolModule, type ChainGraph, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { formatUnits, getAddress, type Address } from 'viem';
import { LiquidityService, type ChainLiquidity, type LiquiditySnapshot } from '../liquidity/liquidity.service';
import { quotedPriceImpact, routeAnswer } from './route-answer';
import { routeExecution, type RouteExecution } from './route-execution';
import { GasPrices, RecipientHoldings, routeGasCost } from './route-gas';
import { requoteRoute, type QuotedRoute } from './route-quote';
import { RouteSearcher } from './route-searcher';
import { TokenTransfers } from '../tokens/token-transfers';
import { resolveRouteRequest, type RouteOrder, type RouteRequest } from './route-request';
import { isNative, knownToken, nativeToken } from './token-meta';

/** A percent as a short figure: 12.3456 -> "12.35", 0.001234 -> "0.001234". */
function percent(value: number): string {
  return String(value >= 1 ? Number(value.toFixed(2)) : Number(value.toPrecision(4)));
}

/** The route's price impact against `maxPriceImpact` (percent); a 422 naming both when it is above. */
export function checkPriceImpact(averagePriceImpact: number, maxPriceImpact: number | undefined): void {
  if (maxPriceImpact === undefined || !(averagePriceImpact * 100 > maxPriceImpact)) return;
  throw new BusError(
    422,
    `Price impact too high: ${percent(averagePriceImpact * 100)}% exceeds maxPriceImpact ${maxPriceImpact}%`,
    `averagePriceImpact ${averagePriceImpact}: the route pays that much less than its input at the pools' zero-size rates; trade a smaller amount or raise maxPriceImpact`,
  );
}

/** Route search, route re-quoting and RouterV2 calldata; pool discovery and wallet balances. */
@Injectable()
export class RouteService implements OnApplicationShutdown {
  private readonly logger = new Logger('RouteService');
  private readonly gasPrices = new GasPrices();
  private readonly recipientHoldings = new RecipientHoldings();

  constructor(
    @Inject(LiquidityService) private readonly liquidity: LiquidityService,
    @Inject(TokenTransfers) private readonly transfers: TokenTransfers,
    /** Where the route searches run (a worker thread in the built app, see `route-searcher.ts`); here by default. */
    @Inject(RouteSearcher) private readonly searcher: RouteSearcher = new RouteSearcher(undefined),
  ) {
    for (const chain of liquidity.chains?.values() ?? []) chain.onView((view) => searcher.publish(chain.chainId, view));
  }

  onApplicationShutdown(): void {
    this.searcher.close();
  }

  /**
   * The request resolved on the current snapshot, the engine's route, its amounts at the snapshot's block, the
   * price-impact guard, its calldata, the simulation from the sender when asked for, the answer under a new quote
   * id (logged with the inputs and the block; the request id is on every log line).
   */
  async route(request: RouteRequest): Promise<RouteResponse> {
    const chain = this.liquidity.chain(request.chainId);
    const resolved = await resolveRouteRequest(chain, request);
    const { snapshot } = resolved;
    // Not from state nobody refreshes: while no RPC provider gives blocks, neither the indexer's facts nor the
    // core pools' prices can be current. (Bad input has had its 400 by now.)
    this.liquidity.assertFresh(chain.chainId);
    const order = resolved.order.gasAware ? { ...resolved.order, gasValue: await this.gasValue(chain, snapshot.graph, snapshot.blockNumber, resolved.order) } : resolved.order;
    let { route, fees } = await this.checkedRoute(chain, snapshot, order, await this.searcher.search(chain.chainId, snapshot, order));
    let quote = await requoteRoute(chain.client, snapshot.blockNumber, route, fees);
    let execution = routeExecution(order, quote, fees.get(order.tokenOut.toLowerCase()) ?? 0);
    // Exact output through tokens that take a transfer fee: the engine sized the input for the pools alone, so the
    // route is searched again for the output scaled by what the fees took, until it delivers the amount asked for.
    if ('amountOut' in order.amount) {
      const asked = order.amount.amountOut;
      for (let attempt = 0; attempt < 3 && execution.amountOut < asked && execution.amountOut > 0n; attempt++) {
        const target = (asked * route.amountOut) / execution.amountOut + 1n;
        const again = { ...order, amount: { amountOut: target } };
        ({ route, fees } = await this.checkedRoute(chain, snapshot, again, await this.searcher.search(chain.chainId, snapshot, again)));
        quote = await requoteRoute(chain.client, snapshot.blockNumber, route, fees);
        execution = routeExecution(order, quote, fees.get(order.tokenOut.toLowerCase()) ?? 0);
      }
    }
    const averagePriceImpact = quotedPriceImpact(quote);
    checkPriceImpact(averagePriceImpact, order.maxPriceImpact);
    const [simulation, gas] = await Promise.all([
      order.sender ? this.simulate(chain, snapshot.blockNumber, order, order.sender, quote, execution) : undefined,
      routeGasCost(this.gasPrices, this.recipientHoldings, chain, snapshot.blockNumber, order, quote, execution),
    ]);
    const quoteId = randomUUID();
    this.logger.log({
      msg: 'route quote',
      quoteId,
      chainId: chain.chainId,
      blockNumber: snapshot.blockNumber.toString(),
      request,
      amountIn: quote.amountIn.toString(),
      amountOut: execution.amountOut.toString(),
      ...([...fees.values()].some((bps) => bps > 0) ? { transferFees: Object.fromEntries(fees) } : {}),
      minAmountOut: execution.minAmountOut.toString(),
      averagePriceImpact,
      gasEstimate: gas.gasEstimate,
      pools: quote.hops.map((hop) => hop.map((s) => s.swap.poolAddress)),
      ...(order.payout ? { recipient: order.payout.recipient, deadline: order.payout.deadline.toString() } : {}),
      ...(simulation ? { simulation: { success: simulation.success, failure: simulation.failure, revertReason: simulation.revertReason } } : {}),
    });
    return routeAnswer(chain, snapshot.blockNumber, order, quote, execution, { quoteId, averagePriceImpact, gas, transferFees: fees, ...(simulation ? { simulation } : {}) });
  }

  /**
   * The route once its tokens' transfers are checked (`TokenTransfers`: from each pool of the route that trades
   * the token, to the router and back): a 422 naming a token whose transfers fail; each token's transfer fee. A
   * token that takes a fee is traded only through V2 and stable pools (RouterV2 prices what those actually
   * received; concentrated, core and launchpad pools expect the amount sent): when the route has another pool
   * on such a token, the search runs again without those kinds of source.
   */
  private async checkedRoute(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, route: Route, searchedAgain = false): Promise<{ route: Route; fees: Map<string, number> }> {
    const { blockNumber } = snapshot;
    const wrapped = chain.wrappedNative.toLowerCase();
    const pairs = new Map<string, { token: string; pool: string }>();
    for (const hop of route.hopSwaps) {
      for (const swap of hop) {
        if (swap.kind === 'launchpad') continue;
        for (const token of [swap.tokenIn, swap.tokenOut]) {
          if (token.toLowerCase() === wrapped) continue;
          pairs.set(`${token.toLowerCase()}|${swap.poolAddress.toLowerCase()}`, { token, pool: swap.poolAddress });
        }
      }
    }
    const checks = this.transfers.chain(chain.chainId);
    const results = await Promise.all(
      [...pairs.values()].map(({ token, pool }) =>
        checks.check(checksummed(token), checksummed(pool), blockNumber).catch((err: unknown) => {
          throw new BusError(503, CHAIN_DID_NOT_ANSWER, `checking the transfers of ${token} at block ${blockNumber}: ${shortMessage(err)}`);
        }),
      ),
    );
    const fees = new Map<string, number>();
    for (const { token, pool, result } of results) {
      const key = token.toLowerCase();
      if (result.ok) {
        fees.set(key, Math.max(fees.get(key) ?? 0, result.transferFeeBps));
        continue;
      }
      // A pool that holds none of the token: nothing could be learnt there (the route's own quote finds it empty).
      if (result.failure === 'unknown') continue;
      const symbol = chain.token(token)?.symbol || token;
      const how = result.failure === 'returnedFalse' ? 'answers false (SafeERC20 treats that as a failed transfer)' : `reverts with ${result.reason}`;
      throw new BusError(422, `Token transfers fail: ${symbol} (${token})`, `a transfer of ${symbol} from ${result.from} to ${result.to} ${how} at block ${blockNumber}; RouterV2 cannot trade it through pool ${pool}`);
    }
    const feeTokens = new Set([...fees].filter(([, bps]) => bps > 0).map(([t]) => t));
    const measuredOnly = (kind: string) => kind === 'uniswap-v2' || kind === 'stable';
    const unfit = route.hopSwaps.flat().filter((s) => !measuredOnly(s.kind) && (feeTokens.has(s.tokenIn.toLowerCase()) || feeTokens.has(s.tokenOut.toLowerCase())));
    if (unfit.length === 0) return { route, fees };
    if (searchedAgain) throw new BusError(404, 'No route found', 'a token of the route takes a transfer fee and only V2 and stable pools can trade it');
    const others = chain.sources.filter((s) => !measuredOnly(s.kind)).map((s) => s.routerIndex);
    const { includeDexes, excludeDexes } = order.filter;
    const filter = includeDexes?.length ? { includeDexes: includeDexes.filter((i) => !others.includes(i)) } : { excludeDexes: [...new Set([...(excludeDexes ?? []), ...others])] };
    if (filter.includeDexes?.length === 0) throw new BusError(404, 'No route found', 'a token of the route takes a transfer fee and only V2 and stable pools can trade it');
    return this.checkedRoute(chain, snapshot, order, await this.searcher.search(chain.chainId, snapshot, { ...order, filter }), true);
  }

  /**
   * What a unit of gas is worth in the search's units (tokenOut for an exact input, tokenIn for an exact output):
   * the chain's gas price at the block (wei of the native coin) times the wrapped native token's best zero-size rate
   * to that token over paths of up to three hops; 0 (gas aside) for a token the native coin has no path to.
   */
  private async gasValue(chain: ChainLiquidity, graph: ChainGraph, blockNumber: bigint, order: RouteOrder): Promise<number> {
    const { gasPrice } = await this.gasPrices.at(chain, blockNumber).catch((err: unknown) => {
      throw new BusError(503, CHAIN_DID_NOT_ANSWER, `gas price at block ${blockNumber}: ${shortMessage(err)}`);
    });
    const token = 'amountIn' in order.amount ? order.tokenOut : order.tokenIn;
    return Number(gasPrice) * bestPathRate(graph, { tokenIn: chain.wrappedNative, tokenOut: token });
  }

  /** The transaction sent from `sender` at the quote's block: balance, allowance to the router, the call. */
  private async simulate(chain: ChainLiquidity, blockNumber: bigint, order: RouteOrder, sender: `0x${string}`, quote: QuotedRoute, execution: RouteExecution): Promise<RouteSimulation> {
    const router = chain.entry.routerV2 as `0x${string}`;
    const required = quote.amountIn;
    const result = await simulateRouterCall(chain.client, {
      router,
      sender,
      tokenIn: order.nativeIn ? undefined : order.tokenIn,
      amountIn: required,
      calldata: execution.calldata,
      value: order.nativeIn ? required : 0n,
      blockNumber,
    }).catch((err: unknown) => {
      throw new BusError(503, CHAIN_DID_NOT_ANSWER, `simulation at block ${blockNumber}: ${shortMessage(err)}`);
    });
    const symbol = order.nativeIn ? nativeToken(chain).symbol : order.metaIn.symbol;
    const decimals = order.metaIn.decimals;
    const base = {
      sender,
      blockNumber: blockNumber.toString(),
      balance: result.balance.toString(),
      required: required.toString(),
      ...(result.allowance !== undefined ? { allowance: result.allowance.toString(), spender: getAddress(router) } : {}),
    };
    if (result.ok) return { ...base, success: true, amountOut: result.amountOut.toString() };
    const message =
      result.reason === 'insufficientBalance'
        ? `the sender holds ${formatUnits(result.balance, decimals)} ${symbol} and the transaction spends ${formatUnits(required, decimals)} ${symbol}`
        : result.reason === 'insufficientAllowance'
          ? `approve ${getAddress(router)} (execution.to) to spend at least ${formatUnits(required, decimals)} ${symbol} (${required} base units) of the sender's; the allowance is ${formatUnits(result.allowance ?? 0n, decimals)}`
          : `the transaction reverts: ${result.revertReason}`;
    return { ...base, success: false, failure: result.reason, message, ...(result.revertReason !== undefined ? { revertReason: result.revertReason } : {}) };
  }

  async pools(request: ParsedRequestOf<typeof poolsContract>): Promise<ResponseOf<typeof poolsContract>> {
    const chain = this.liquidity.chain(request.chainId);
    const snapshot = await chain.current();
    const a = isNative(request.tokenA) ? chain.wrappedNative : getAddress(request.tokenA);
    const b = isNative(request.tokenB) ? chain.wrappedNative : getAddress(request.tokenB);
    if (a.toLowerCase() === b.toLowerCase()) throw new BusError(400, 'Invalid tokenB: must differ from tokenA');
    const metaA = knownToken(chain, a, 'tokenA');
    const metaB = knownToken(chain, b, 'tokenB');
    const include = request.includeDexes?.length ? new Set(request.includeDexes) : undefined;
    const exclude = new Set(request.excludeDexes ?? []);
    const records: PoolRecord[] = [];
    const legs = snapshot.graph.legs.get(a.toLowerCase())?.get(b.toLowerCase()) ?? [];
    for (const pool of snapshot.pools) {
      const tokens = [pool.token0.toLowerCase(), pool.token1.toLowerCase()];
      if (!tokens.includes(a.toLowerCase()) || !tokens.includes(b.toLowerCase())) continue;
      if (include ? !include.has(pool.routerIndex) : exclude.has(pool.routerIndex)) continue;
      const leg = legs.find((l) => l.pool === pool);
      const sym = (t: string) => chain.token(t)?.symbol ?? t;
      const kind = poolModule(pool);
      records.push({
        poolAddress: getAddress(pool.address),
        pairedToken: metaB.address,
        routerIndex: pool.routerIndex,
        protocol: chain.sourceName(pool.routerIndex),
        fee: kind.fee(pool) ?? null,
        ...(kind.tickSpacing(pool) !== undefined ? { tickSpacing: kind.tickSpacing(pool) } : {}),
        stable: kind.stable,
        pair: `${sym(pool.token0)}/${sym(pool.token1)}`,
        price: leg ? leg.spotRate * 10 ** (metaA.decimals - metaB.decimals) : 0,
      });
    }
    return records.sort((x, y) => x.routerIndex - y.routerIndex || x.poolAddress.localeCompare(y.poolAddress));
  }

  async balances(request: ParsedRequestOf<typeof balancesContract>): Promise<ResponseOf<typeof balancesContract>> {
    const chain = this.liquidity.chain(request.chainId);
    await chain.current();
    const wanted = request.tokens?.filter((t) => !isNative(t)) ?? chain.tokenList().map((t) => t.address);
    const withNative = request.tokens === undefined || request.tokens.some(isNative);
    const metas = wanted.map((t, i) => knownToken(chain, t, request.tokens ? `tokens[${i}]` : 'token'));
    const wallet = getAddress(request.wallet);
    const blockNumber = await chain.client.getBlockNumber();
    const { native = 0n, tokens: reads } = await readBalances(chain.client, { owner: wallet, tokens: metas.map((m) => m.address as Address), native: withNative, blockNumber });
    const row = (m: TokenMeta, raw: bigint) => ({ ...m, balance: formatUnits(raw, m.decimals), balanceRaw: raw.toString() });
    return {
      chainId: chain.chainId,
      wallet,
      blockNumber: blockNumber.toString(),
      balances: [...(withNative ? [row(nativeToken(chain), native)] : []), ...metas.map((m, i) => row(m, reads[i]))],
    };
  }
}
