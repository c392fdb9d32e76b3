import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isUnreachable, readBalances, shortMessage, simulateRoute, simulateRouterCall } from '@dex/chain';
import { checksummed, type ParsedRequestOf, type PoolRecord, type ResponseOf, type RouteResponse, type RouteSimulation, type TokenMeta, balancesContract, CHAIN_DID_NOT_ANSWER, poolsContract, ROUTE_REVERTS } from '@dex/messages';
import { bestPathRate, KINDS_TRADING_WHAT_ARRIVES, poolModule, tradesWhatArrives, transfersTokens, type ChainGraph, type HopSwap, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { formatUnits, getAddress, type Address } from 'viem';
import { LiquidityService, type ChainLiquidity, type LiquiditySnapshot } from '../liquidity/liquidity.service';
import { quotedPriceImpact, routeAnswer, type RouteGasCost } from './route-answer';
import { orderKey, ViewMemo } from './view-memo';
import { routeExecution, type RouteExecution } from './route-execution';
import { GasPrices, RecipientHoldings, routeGasCost } from './route-gas';
import { requoteRoute, type QuotedRoute } from './route-quote';
import { RouteSearcher } from './route-searcher';
import { SourceRegistry } from '../sources/source-registry';
import { TokenTransfers, type TransferCheck } from '../tokens/token-transfers';
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

/**
 * The 503 of a read the answer needs: `Chain <id> unavailable` where no provider could be reached (as a route's
 * re-quote says it), `The chain did not answer` where the node answered with an error.
 */
function chainFailed(chainId: number, what: string, err: unknown): BusError {
  if (isUnreachable(err)) return new BusError(503, `Chain ${chainId} unavailable: no RPC provider is giving blocks`, `${what}: ${shortMessage(err)}`);
  return new BusError(503, CHAIN_DID_NOT_ANSWER, `${what}: ${shortMessage(err)}`);
}

/**
 * The transfers a route makes between its pools and the router, each token of each swap with the amount the swap
 * moves (what the router hands the pool, what the pool pays): the tokens whose transfers are checked. The wrapped
 * native token (the chain's own) and the kinds whose swaps move no tokens to and from the pool (`transfersTokens`:
 * launchpad curves, which hold native coin) are left out.
 */
function routeTransfers(stages: readonly (readonly { swap: HopSwap; amountIn: bigint; amountOut: bigint }[])[], wrappedNative: string): { token: string; pool: string; amount: bigint }[] {
  const wrapped = wrappedNative.toLowerCase();
  const moves: { token: string; pool: string; amount: bigint }[] = [];
  for (const { swap, amountIn, amountOut } of stages.flat()) {
    if (!transfersTokens(swap.kind)) continue;
    if (swap.tokenIn.toLowerCase() !== wrapped) moves.push({ token: swap.tokenIn, pool: swap.poolAddress, amount: amountIn });
    if (swap.tokenOut.toLowerCase() !== wrapped) moves.push({ token: swap.tokenOut, pool: swap.poolAddress, amount: amountOut });
  }
  return moves;
}

/** An order's answer at a snapshot, computed once for the identical orders of that snapshot (`ViewMemo`). */
interface MemoAnswer extends Executed {
  readonly order: RouteOrder;
  readonly fees: Map<string, number>;
  readonly simulation: RouteSimulation | undefined;
  readonly gas: RouteGasCost;
  readonly response: RouteResponse;
}

/** Times a route is searched again without pools where its tokens' transfers fail. */
const MAX_REROUTES = 2;

type FailedTransfer = Extract<TransferCheck['result'], { failure: 'reverted' | 'returnedFalse' }>;

/** A route's amounts at a block and its transaction; the time its simulation took (0 where none ran). */
interface Executed {
  readonly quote: QuotedRoute;
  readonly execution: RouteExecution;
  readonly simulationMs: number;
}

/** What an order is answered with: the route, its tokens' transfer fees, its amounts and its transaction. */
interface OrderAnswer extends Executed {
  readonly route: Route;
  readonly fees: Map<string, number>;
}

/** The 422 of a token whose transfers fail, with the pools where they do (for a search without them). */
export class TransfersFailError extends BusError {
  constructor(
    readonly token: string,
    readonly pools: readonly string[],
    message: string,
    details: string,
  ) {
    super(422, message, details);
  }
}

/** How the route service answers. */
export interface RouteServiceOptions {
  /** Execute every answered route's transaction in an `eth_call` first (`ROUTE_SIMULATION`, on by default). */
  readonly simulate: boolean;
}

export const ROUTE_SERVICE_OPTIONS = Symbol('RouteServiceOptions');

/** Route search, route re-quoting and RouterV2 calldata; pool discovery and wallet balances. */
@Injectable()
export class RouteService implements OnApplicationShutdown {
  private readonly logger = new Logger('RouteService');
  private readonly gasPrices = new GasPrices();
  private readonly recipientHoldings = new RecipientHoldings();
  /** Identical orders of a view answered once (`view-memo.ts`). */
  private readonly answers = new ViewMemo<LiquiditySnapshot, MemoAnswer>();

  constructor(
    @Inject(LiquidityService) private readonly liquidity: LiquidityService,
    @Inject(TokenTransfers) private readonly transfers: TokenTransfers,
    /** Where the route searches run (a worker thread in the built app, see `route-searcher.ts`); here by default. */
    @Inject(RouteSearcher) private readonly searcher: RouteSearcher = new RouteSearcher(undefined),
    @Optional() @Inject(ROUTE_SERVICE_OPTIONS) private readonly options: RouteServiceOptions = { simulate: true },
    /** The sources and what their check against the chain found: routes go through `active` ones only. */
    @Optional() @Inject(SourceRegistry) private readonly sources?: SourceRegistry,
  ) {
    for (const chain of liquidity.chains?.values() ?? []) chain.onView((view) => searcher.publish(chain.chainId, view));
  }

  onApplicationShutdown(): void {
    this.searcher.close();
  }

  /**
   * The request resolved on the current snapshot and left to the sources found `active`, the engine's route (searched
   * again around pools where its tokens' transfers fail), its amounts at the snapshot's block, its transaction
   * executed in an eth_call before it is answered (what that delivers is the answer), the price-impact guard, the
   * simulation from the sender when asked for, the answer under a new quote id (logged with the inputs and the block;
   * the request id is on every log line).
   */
  async route(request: RouteRequest): Promise<RouteResponse> {
    const chain = this.liquidity.chain(request.chainId);
    const resolved = await resolveRouteRequest(chain, request);
    const { snapshot } = resolved;
    // Not from state nobody refreshes: while no RPC provider gives blocks, neither the indexer's facts nor the
    // core pools' prices can be current. (Bad input has had its 400 by now.)
    this.liquidity.assertFresh(chain.chainId);
    const checked = this.sources ? { ...resolved.order, filter: this.sources.usableFilter(chain.chainId, resolved.order.filter) } : resolved.order;
    const { answer, reused } = this.answers.get(snapshot, orderKey(checked), () => this.answer(chain, snapshot, checked));
    const { order, fees, quote, execution, simulationMs, simulation, gas, response } = await answer;
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
      averagePriceImpact: response.averagePriceImpact,
      gasEstimate: gas.gasEstimate,
      ...(this.options.simulate ? { simulationMs: Number(simulationMs.toFixed(3)) } : {}),
      pools: quote.hops.map((hop) => hop.map((s) => s.swap.poolAddress)),
      ...(order.payout ? { recipient: order.payout.recipient, deadline: order.payout.deadline.toString() } : {}),
      ...(simulation ? { simulation: { success: simulation.success, failure: simulation.failure, revertReason: simulation.revertReason } } : {}),
      ...(reused ? { reused: true } : {}),
    });
    return { ...response, quoteId };
  }

  /** The answer to an order at the snapshot, without its quote id (shared by the identical orders of the view). */
  private async answer(chain: ChainLiquidity, snapshot: LiquiditySnapshot, checked: RouteOrder): Promise<MemoAnswer> {
    const order = checked.gasAware ? { ...checked, gasValue: await this.gasValue(chain, snapshot.graph, snapshot.blockNumber, checked) } : checked;
    const { fees, quote, execution, simulationMs } = await this.reroutedAnswer(chain, snapshot, order);
    const averagePriceImpact = quotedPriceImpact(quote);
    checkPriceImpact(averagePriceImpact, order.maxPriceImpact);
    const [simulation, gas] = await Promise.all([
      order.sender ? this.simulate(chain, snapshot.blockNumber, order, order.sender, quote, execution) : undefined,
      routeGasCost(this.gasPrices, this.recipientHoldings, chain, snapshot.blockNumber, order, quote, execution),
    ]);
    const response = routeAnswer(chain, snapshot.blockNumber, order, quote, execution, { quoteId: '', averagePriceImpact, gas, transferFees: fees, ...(simulation ? { simulation } : {}) });
    return { order, fees, quote, execution, simulationMs, simulation, gas, response };
  }

  /**
   * `answerOrder`, and where a token's transfers fail from or to some pools of the route (found by the transfer
   * checks, or when the route's transaction reverted in its simulation), the same without those pools, up to
   * `MAX_REROUTES` times: a route through a token paused or blocklisting a pool goes around it where another way
   * exists. The first refusal is the answer when no other way is left.
   */
  private async reroutedAnswer(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder): Promise<OrderAnswer> {
    let refusal: TransfersFailError | undefined;
    let current = order;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.answerOrder(chain, snapshot, current);
      } catch (err) {
        if (refusal && err instanceof BusError && err.status === 404) throw refusal;
        if (!(err instanceof TransfersFailError) || attempt >= MAX_REROUTES) throw refusal ?? err;
        refusal ??= err;
        const excludePools = [...new Set([...(current.filter.excludePools ?? []), ...err.pools.map((p) => p.toLowerCase())])];
        this.logger.log({ msg: 'route searched again without pools whose token transfers fail', chainId: chain.chainId, blockNumber: snapshot.blockNumber.toString(), excludePools });
        current = { ...current, filter: { ...current.filter, excludePools } };
      }
    }
  }

  /**
   * The engine's route for the order with its tokens' transfers checked, executed (`executedRoute`); for an exact
   * output where what arrives is less than the pools pay (tokens that take a transfer fee, measured or not), the
   * route is searched again for the output scaled by what was lost, until it delivers the amount asked for.
   */
  private async answerOrder(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder): Promise<OrderAnswer> {
    let { route, fees } = await this.checkedRoute(chain, snapshot, order, await this.searcher.search(chain.chainId, snapshot, order));
    let { quote, execution, simulationMs } = await this.executedRoute(chain, snapshot, order, route, fees);
    if (!('amountOut' in order.amount)) return { route, fees, quote, execution, simulationMs };
    const asked = order.amount.amountOut;
    for (let attempt = 0; attempt < 4 && execution.amountOut < asked && execution.amountOut > 0n; attempt++) {
      const target = (asked * route.amountOut) / execution.amountOut + 1n;
      const again = { ...order, amount: { amountOut: target } };
      ({ route, fees } = await this.checkedRoute(chain, snapshot, again, await this.searcher.search(chain.chainId, snapshot, again)));
      const executed = await this.executedRoute(chain, snapshot, order, route, fees);
      ({ quote, execution } = executed);
      simulationMs += executed.simulationMs;
    }
    if (execution.amountOut < asked) {
      const { decimals, symbol } = order.metaOut;
      throw new BusError(404, 'No route found', `no route found delivers ${formatUnits(asked, decimals)} ${symbol}: the best found delivers ${formatUnits(execution.amountOut, decimals)} ${symbol} after the tokens' transfer fees`);
    }
    return { route, fees, quote, execution, simulationMs };
  }

  /**
   * The route's amounts at the snapshot's block and its transaction, executed before it is answered (unless the
   * service runs with `ROUTE_SIMULATION=off`): the exact calldata, from a virtual payer given the input, in one
   * `eth_call` (`simulateRoute`). What the recipient received there is the answer's output and the base of its
   * `minAmountOut` (it differs from the model where a token takes a fee the transfer check did not measure as it
   * is: a fixed fee, a tax that depends on the direction, a fee that changed). A transaction that reverts is
   * explained (`explainRevert`) and refused.
   */
  private async executedRoute(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, route: Route, fees: Map<string, number>): Promise<Executed> {
    const quote = await requoteRoute(chain.client, snapshot.blockNumber, route, fees);
    if (!this.options.simulate) return { quote, execution: routeExecution(order, quote, fees.get(order.tokenOut.toLowerCase()) ?? 0), simulationMs: 0 };
    const started = performance.now();
    const execution = await this.simulatedExecution(chain, snapshot, order, quote, fees);
    return { quote, execution, simulationMs: performance.now() - started };
  }

  /** `executedRoute`'s simulation of a quoted route: the execution it answers. */
  private async simulatedExecution(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, quote: QuotedRoute, fees: Map<string, number>): Promise<RouteExecution> {
    const { blockNumber } = snapshot;
    const outputFee = fees.get(order.tokenOut.toLowerCase()) ?? 0;
    const checks = this.transfers.chain(chain.chainId);
    const unavailable = (err: unknown): never => {
      throw chainFailed(chain.chainId, `the simulation at block ${blockNumber}`, err);
    };
    const balanceSlot = order.nativeIn ? undefined : await checks.balanceSlot(order.tokenIn, blockNumber).catch(unavailable);
    if (!order.nativeIn && !balanceSlot) {
      // No storage slot alone holds an account's balance of the input (computed balances): the transaction cannot be
      // funded in an eth_call, and the model's amounts are answered as they are.
      this.logger.warn({ msg: 'route not simulated: no balance slot for the input', chainId: chain.chainId, token: order.tokenIn });
      return routeExecution(order, quote, outputFee);
    }
    const trial = routeExecution(order, quote, outputFee, { minAmountOut: 0n });
    const result = await simulateRoute(chain.client, {
      router: getAddress(chain.entry.routerV2),
      tokenIn: order.nativeIn ? undefined : order.tokenIn,
      balanceSlot,
      amountIn: quote.amountIn,
      tokenOut: order.unwrap ? undefined : order.tokenOut,
      recipient: order.payout?.recipient,
      calldata: trial.calldata,
      blockNumber,
    }).catch(unavailable);
    if (result.ok) {
      if (result.received === 0n) throw new BusError(404, 'No route found', `the route delivers nothing at block ${blockNumber}`);
      const execution = routeExecution(order, quote, outputFee, { received: result.received });
      if (execution.amountOut !== trial.amountOut) {
        this.logger.log({ msg: 'route delivers other than its model', chainId: chain.chainId, blockNumber: blockNumber.toString(), modelled: trial.amountOut.toString(), executed: execution.amountOut.toString() });
      }
      return execution;
    }
    if (result.reason === 'unfunded') {
      // The slot no longer holds the balance (an upgraded token): found again for the next request.
      checks.forgetBalanceSlot(order.tokenIn);
      this.logger.warn({ msg: 'route not simulated: the balance override did not fund the payer', chainId: chain.chainId, token: order.tokenIn, balance: result.balance.toString() });
      return routeExecution(order, quote, outputFee);
    }
    return this.explainRevert(chain, snapshot, quote, result.revertReason);
  }

  /**
   * A route whose transaction reverted in its simulation: what is kept of its tokens' transfers is forgotten, and
   * each token is sent, from each pool of the route that trades it, to the router and back, with the amounts the
   * route moves there: a 422 naming the token whose transfer fails (paused, blocklisting, a size limit, ... ,
   * announced or not); where every transfer goes through, a 422 with the transaction's revert reason.
   */
  private async explainRevert(chain: ChainLiquidity, snapshot: LiquiditySnapshot, quote: QuotedRoute, revertReason: string): Promise<never> {
    const { blockNumber } = snapshot;
    const checks = this.transfers.chain(chain.chainId);
    const moves = routeTransfers(quote.hops.map((hop) => hop.map((s) => ({ swap: s.swap, amountIn: s.amountIn, amountOut: s.poolAmountOut }))), chain.wrappedNative);
    checks.forget(moves.map((m) => m.token));
    this.logger.log({ msg: 'route reverts in its simulation', chainId: chain.chainId, blockNumber: blockNumber.toString(), revertReason, pools: quote.hops.map((hop) => hop.map((s) => s.swap.poolAddress)) });
    const unavailable = (token: string) => (err: unknown) => {
      throw chainFailed(chain.chainId, `checking the transfers of ${token} at block ${blockNumber}`, err);
    };
    // First as every route checks them (kept, so that /tokens says what was found), then with the route's amounts.
    const kept = await Promise.all(moves.map(({ token, pool }) => checks.check(checksummed(token), checksummed(pool), blockNumber).catch(unavailable(token))));
    this.throwTransferFailures(chain, blockNumber, kept);
    const sized = await Promise.all(moves.map(({ token, pool, amount }) => checks.checkAmount(checksummed(token), checksummed(pool), amount, blockNumber).catch(unavailable(token))));
    this.throwTransferFailures(chain, blockNumber, sized);
    throw new BusError(422, ROUTE_REVERTS, `RouterV2's transaction for the route reverts at block ${blockNumber} with ${revertReason}, though each of its tokens moves from its pools to the router and back`);
  }

  /** A `TransfersFailError` naming the first failing token and every pool where a check of it failed; nothing when none did. */
  private throwTransferFailures(chain: ChainLiquidity, blockNumber: bigint, checks: readonly TransferCheck[]): void {
    const failed = checks.filter((c): c is TransferCheck & { result: FailedTransfer } => !c.result.ok && c.result.failure !== 'unknown');
    if (failed.length === 0) return;
    const [first] = failed;
    const symbol = chain.token(first.token)?.symbol || first.token;
    const how = first.result.failure === 'returnedFalse' ? 'answers false (SafeERC20 treats that as a failed transfer)' : `reverts with ${first.result.reason}`;
    throw new TransfersFailError(
      first.token,
      failed.map((c) => c.pool),
      `Token transfers fail: ${symbol} (${checksummed(first.token)})`,
      `a transfer of ${symbol} from ${first.result.from} to ${first.result.to} ${how} at block ${blockNumber}; RouterV2 cannot trade it through pool ${checksummed(first.pool)}`,
    );
  }

  /**
   * The route once its tokens' transfers are checked (`TokenTransfers`: from each pool of the route that trades
   * the token, to the router and back): each token's transfer fee; without the simulation, a 422 naming a token
   * whose transfers fail. A token that takes a fee is traded only through the kinds that trade what arrives
   * (`tradesWhatArrives`: V2 and stable pools, which RouterV2 prices on what they actually received; concentrated,
   * core and launchpad pools expect the amount sent): when the route has another pool
   * on such a token, the search runs again without those kinds of source.
   */
  private async checkedRoute(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, route: Route, searchedAgain = false): Promise<{ route: Route; fees: Map<string, number> }> {
    const { blockNumber } = snapshot;
    const pairs = new Map<string, { token: string; pool: string }>();
    for (const { token, pool } of routeTransfers(route.stages.map((hop) => hop.map((swap) => ({ swap, ...swap }))), chain.wrappedNative)) {
      pairs.set(`${token.toLowerCase()}|${pool.toLowerCase()}`, { token, pool });
    }
    const checks = this.transfers.chain(chain.chainId);
    const results = await Promise.all(
      [...pairs.values()].map(({ token, pool }) =>
        checks.check(checksummed(token), checksummed(pool), blockNumber).catch((err: unknown) => {
          throw chainFailed(chain.chainId, `checking the transfers of ${token} at block ${blockNumber}`, err);
        }),
      ),
    );
    // A pool that holds none of the token ('unknown'): nothing could be learnt there (the route's own quote finds it empty).
    // A check that failed refuses the route at once only where routes are not executed before they are answered: the
    // check sends a tenth of the pool's balance and back, which a token may refuse where the route's own transfers
    // go through (a maximum transfer size, a balance that reads more than it holds); the simulation decides, and
    // `explainRevert` names the token if it fails.
    if (!this.options.simulate) this.throwTransferFailures(chain, blockNumber, results);
    const fees = new Map<string, number>();
    for (const { token, result } of results) if (result.ok) fees.set(token.toLowerCase(), Math.max(fees.get(token.toLowerCase()) ?? 0, result.transferFeeBps));
    const feeTokens = new Set([...fees].filter(([, bps]) => bps > 0).map(([t]) => t));
    const unfit = route.stages.flat().filter((s) => !tradesWhatArrives(s.kind) && (feeTokens.has(s.tokenIn.toLowerCase()) || feeTokens.has(s.tokenOut.toLowerCase())));
    if (unfit.length === 0) return { route, fees };
    const onlyThose = `a token of the route takes a transfer fee and only ${KINDS_TRADING_WHAT_ARRIVES.join(' and ')} pools can trade it`;
    if (searchedAgain) throw new BusError(404, 'No route found', onlyThose);
    const others = chain.sources.filter((s) => !tradesWhatArrives(s.kind)).map((s) => s.routerIndex);
    const { includeDexes, excludeDexes } = order.filter;
    const filter = { ...order.filter, ...(includeDexes?.length ? { includeDexes: includeDexes.filter((i) => !others.includes(i)) } : { excludeDexes: [...new Set([...(excludeDexes ?? []), ...others])] }) };
    if (filter.includeDexes?.length === 0) throw new BusError(404, 'No route found', onlyThose);
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
