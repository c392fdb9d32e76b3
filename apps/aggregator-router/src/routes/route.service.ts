import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { readBalances, shortMessage } from '@dex/chain';
import { type ParsedRequestOf, type PoolRecord, type ResponseOf, type RouteResponse, type RouteSimulation, type TokenMeta, balancesContract, CHAIN_DID_NOT_ANSWER, poolsContract } from '@dex/messages';
import { bestPathRate, poolModule, type ChainGraph, type PoolSnapshot, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { formatUnits, getAddress, type Address } from 'viem';
import { LiquidityService, type ChainLiquidity, type LiquiditySnapshot } from '../liquidity/liquidity.service';
import { quotedPriceImpact, routeAnswer, type RouteGasCost } from './route-answer';
import { orderKey, ViewMemo } from './view-memo';
import { routeExecution } from './route-execution';
import { GasPrices, RecipientHoldings, routeGasCost } from './route-gas';
import { requoteRoute } from './route-quote';
import { RouteSearcher } from './route-searcher';
import { RouteSimulator } from './route-simulation';
import { TransferPolicy, type Executed } from './route-transfers';
import { SourceRegistry } from '../sources/source-registry';
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

/** An order's answer at a snapshot, computed once for the identical orders of that snapshot (`ViewMemo`). */
interface MemoAnswer extends Executed {
  readonly order: RouteOrder;
  readonly fees: Map<string, number>;
  readonly simulation: RouteSimulation | undefined;
  readonly gas: RouteGasCost;
  readonly response: RouteResponse;
}

/** How the route service answers. */
export interface RouteServiceOptions {
  /** Execute every answered route's transaction in an `eth_call` first (`ROUTE_SIMULATION`, on by default). */
  readonly simulate: boolean;
}

export const ROUTE_SERVICE_OPTIONS = Symbol('RouteServiceOptions');

/** Route search, route re-quoting and RouterV2 calldata; pool discovery and wallet balances. */
/**
 * Each Curve pool's coins in the pool's order, from its pairs in the view (pair i/j names coin i as token0 and coin j
 * as token1); a coin no routed pair names is left out.
 */
function curvePoolCoins(pools: readonly PoolSnapshot[]): Map<string, string[]> {
  const coins = new Map<string, string[]>();
  for (const pool of pools) {
    if (!('exchangeReceived' in pool)) continue;
    const own = coins.get(pool.pool) ?? [];
    own[pool.i] = pool.token0;
    own[pool.j] = pool.token1;
    coins.set(pool.pool, own);
  }
  for (const [pool, own] of coins) coins.set(pool, own.filter((c) => c !== undefined));
  return coins;
}

@Injectable()
export class RouteService implements OnApplicationShutdown {
  private readonly logger = new Logger('RouteService');
  private readonly gasPrices = new GasPrices();
  private readonly recipientHoldings = new RecipientHoldings();
  /** Identical orders of a view answered once (`view-memo.ts`). */
  private readonly answers = new ViewMemo<LiquiditySnapshot, MemoAnswer>();
  /** How the route's tokens' transfers shape the answer (`route-transfers.ts`). */
  private readonly policy: TransferPolicy;
  /** The route's transaction executed before it is answered, and from the sender (`route-simulation.ts`). */
  private readonly simulator: RouteSimulator;

  constructor(
    @Inject(LiquidityService) private readonly liquidity: LiquidityService,
    @Inject(TokenTransfers) private readonly transfers: TokenTransfers,
    /** Where the route searches run (a worker thread in the built app, see `route-searcher.ts`); here by default. */
    @Inject(RouteSearcher) private readonly searcher: RouteSearcher = new RouteSearcher(undefined),
    @Optional() @Inject(ROUTE_SERVICE_OPTIONS) private readonly options: RouteServiceOptions = { simulate: true },
    /** The sources and what their check against the chain found: routes go through `active` ones only. */
    @Optional() @Inject(SourceRegistry) private readonly sources?: SourceRegistry,
  ) {
    this.policy = new TransferPolicy(transfers, options.simulate);
    this.simulator = new RouteSimulator(transfers, this.policy);
    for (const chain of liquidity.chains?.values() ?? []) chain.onView((view) => searcher.publish(chain.chainId, view));
  }

  onApplicationShutdown(): void {
    this.searcher.close();
  }

  /**
   * `GET /v2/route`, in its steps:
   * 1. `resolve`: the request on the chain's current snapshot, the chain's state fresh, the sources found `active`;
   * 2. `answer`, once for the identical orders of the snapshot (`ViewMemo`): the gas value of a gas-aware order, the
   *    route with its tokens' transfers deciding (`TransferPolicy.answer`: search, transfer checks, `execute`), the
   *    price-impact guard, the sender's simulation and the gas cost, the response;
   * 3. the answer under a new quote id, logged with the inputs and the block (the request id is on every log line).
   */
  async route(request: RouteRequest): Promise<RouteResponse> {
    const { chain, snapshot, order } = await this.resolve(request);
    const { answer, reused } = this.answers.get(snapshot, orderKey(order), () => this.answer(chain, snapshot, order));
    const answered = await answer;
    const quoteId = randomUUID();
    this.logQuote(quoteId, chain, snapshot, request, answered, reused);
    return { ...answered.response, quoteId };
  }

  /** Step 1: the request resolved on the chain's current snapshot, left to the sources found `active`. */
  private async resolve(request: RouteRequest): Promise<{ chain: ChainLiquidity; snapshot: LiquiditySnapshot; order: RouteOrder }> {
    const chain = this.liquidity.chain(request.chainId);
    const { snapshot, order } = await resolveRouteRequest(chain, request);
    // Not from state nobody refreshes: while no RPC provider gives blocks, neither the indexer's facts nor the
    // core pools' prices can be current. (Bad input has had its 400 by now.)
    this.liquidity.assertFresh(chain.chainId);
    return { chain, snapshot, order: this.sources ? { ...order, filter: this.sources.usableFilter(chain.chainId, order.filter) } : order };
  }

  /** Step 2: the answer to an order at the snapshot, without its quote id (shared by the identical orders of the view). */
  private async answer(chain: ChainLiquidity, snapshot: LiquiditySnapshot, checked: RouteOrder): Promise<MemoAnswer> {
    // One read of the block's gas price for the answer: the route is chosen net of the gas cost it reports (a read
    // made later could be newer, the block's own price arriving while the answer is worked out).
    const prices = this.gasPrices.at(chain, snapshot.blockNumber);
    const order = checked.gasAware ? { ...checked, gasValue: await this.gasValue(chain, snapshot.graph, snapshot.blockNumber, prices, checked) } : checked;
    const { fees, quote, execution, simulationMs } = await this.policy.answer(chain, snapshot, order, {
      search: (o) => this.searcher.search(chain.chainId, snapshot, o),
      execute: (o, route, routeFees) => this.execute(chain, snapshot, o, route, routeFees),
    });
    const averagePriceImpact = quotedPriceImpact(quote);
    checkPriceImpact(averagePriceImpact, order.maxPriceImpact);
    const [simulation, gas] = await Promise.all([
      order.sender ? this.simulator.fromSender(chain, snapshot.blockNumber, order, order.sender, quote, execution) : undefined,
      routeGasCost(prices, this.recipientHoldings, chain, snapshot.blockNumber, order, quote, execution),
    ]);
    const response = routeAnswer(chain, snapshot.blockNumber, order, quote, execution, { quoteId: '', averagePriceImpact, gas, transferFees: fees, ...(simulation ? { simulation } : {}) });
    return { order, fees, quote, execution, simulationMs, simulation, gas, response };
  }

  /**
   * A route's amounts at the snapshot's block and its transaction, executed before it is answered
   * (`RouteSimulator.execution`) unless the service runs with `ROUTE_SIMULATION=off`.
   */
  private async execute(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, route: Route, fees: Map<string, number>): Promise<Executed> {
    const quote = await requoteRoute(chain.client, snapshot.blockNumber, route, fees);
    if (!this.options.simulate) return { quote, execution: routeExecution(order, quote, fees.get(order.tokenOut.toLowerCase()) ?? 0), simulationMs: 0 };
    const started = performance.now();
    const execution = await this.simulator.execution(chain, snapshot, order, quote, fees);
    return { quote, execution, simulationMs: performance.now() - started };
  }

  /** Step 3: the quote's log line. */
  private logQuote(quoteId: string, chain: ChainLiquidity, snapshot: LiquiditySnapshot, request: RouteRequest, answered: MemoAnswer, reused: boolean): void {
    const { order, fees, quote, execution, simulationMs, simulation, gas, response } = answered;
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
      averagePriceImpact: response.averagePriceImpact,
      gasEstimate: gas.gasEstimate,
      ...(this.options.simulate ? { simulationMs: Number(simulationMs.toFixed(3)) } : {}),
      pools: quote.hops.map((hop) => hop.map((s) => s.swap.poolAddress)),
      ...(order.payout ? { recipient: order.payout.recipient, deadline: order.payout.deadline.toString() } : {}),
      ...(simulation ? { simulation: { success: simulation.success, failure: simulation.failure, revertReason: simulation.revertReason } } : {}),
      ...(reused ? { reused: true } : {}),
    });
  }

  /**
   * What a unit of gas is worth in the search's units (tokenOut for an exact input, tokenIn for an exact output):
   * the chain's gas price at the block (wei of the native coin) times the wrapped native token's best zero-size rate
   * to that token over paths of up to three hops; 0 (gas aside) for a token the native coin has no path to.
   */
  private async gasValue(chain: ChainLiquidity, graph: ChainGraph, blockNumber: bigint, prices: ReturnType<GasPrices['at']>, order: RouteOrder): Promise<number> {
    const { gasPrice } = await prices.catch((err: unknown) => {
      throw new BusError(503, CHAIN_DID_NOT_ANSWER, `gas price at block ${blockNumber}: ${shortMessage(err)}`);
    });
    const token = 'amountIn' in order.amount ? order.tokenOut : order.tokenIn;
    return Number(gasPrice) * bestPathRate(graph, { tokenIn: chain.wrappedNative, tokenOut: token });
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
    const sym = (t: string) => chain.token(t)?.symbol ?? t;
    const curveCoins = curvePoolCoins(snapshot.pools);
    for (const pool of snapshot.pools) {
      const tokens = [pool.token0.toLowerCase(), pool.token1.toLowerCase()];
      if (!tokens.includes(a.toLowerCase()) || !tokens.includes(b.toLowerCase())) continue;
      if (include ? !include.has(pool.routerIndex) : exclude.has(pool.routerIndex)) continue;
      const leg = legs.find((l) => l.pool === pool);
      const kind = poolModule(pool);
      const target = kind.routerSwap?.(pool);
      records.push({
        poolAddress: getAddress(target?.pool ?? pool.address),
        ...(target?.poolId !== undefined ? { poolId: target.poolId } : {}),
        ...(target?.hooks !== undefined ? { hooks: getAddress(target.hooks) } : {}),
        pairedToken: metaB.address,
        routerIndex: pool.routerIndex,
        protocol: chain.sourceName(pool.routerIndex),
        fee: kind.fee(pool) ?? null,
        ...(kind.tickSpacing(pool) !== undefined ? { tickSpacing: kind.tickSpacing(pool) } : {}),
        ...('exchangeReceived' in pool ? { coins: curveCoins.get(pool.pool)?.map((c) => getAddress(c)), ...(pool.A !== undefined ? { A: Number(pool.A) } : {}) } : {}),
        stable: kind.stable,
        pair: `${sym(pool.token0)}/${sym(pool.token1)}`,
        price: leg ? leg.spotRate * 10 ** (metaA.decimals - metaB.decimals) : 0,
      });
    }
    for (const { pool, reason } of chain.excludedPools(a, b)) {
      if (include ? !include.has(pool.routerIndex) : exclude.has(pool.routerIndex)) continue;
      const v4 = pool.uniswapV4;
      records.push({
        poolAddress: getAddress(v4?.poolManager ?? pool.address),
        ...(v4 ? { poolId: pool.address, hooks: getAddress(v4.hooks) } : {}),
        pairedToken: metaB.address,
        routerIndex: pool.routerIndex,
        protocol: chain.sourceName(pool.routerIndex),
        fee: pool.concentrated?.fee ?? null,
        ...(pool.concentrated?.tickSpacing !== undefined ? { tickSpacing: pool.concentrated.tickSpacing } : {}),
        stable: false,
        pair: `${sym(pool.token0)}/${sym(pool.token1)}`,
        price: 0,
        excluded: reason,
      });
    }
    return records.sort((x, y) => x.routerIndex - y.routerIndex || x.poolAddress.localeCompare(y.poolAddress) || (x.poolId ?? '').localeCompare(y.poolId ?? ''));
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
