/**
 * How the transfers of a route's tokens shape its answer, in one place. Each token of a route is checked where the
 * route moves it (from each of its pools to the router and back, `TokenTransfers`): a token that takes a fee on
 * transfer is priced with it and kept to the kinds that trade what arrives; a token whose transfers fail from or to
 * some pools is routed around them; an exact output short of what was asked for (fees) is searched again for more;
 * a route whose transaction reverts in its simulation is explained by its tokens' transfers or refused with the
 * revert reason. The search and the execution it drives are the route service's (`AnswerSteps`).
 */
import { isUnreachable, shortMessage } from '@dex/chain';
import { checksummed, CHAIN_DID_NOT_ANSWER, ROUTE_REVERTS } from '@dex/messages';
import { KINDS_TRADING_WHAT_ARRIVES, tradesWhatArrives, transfersTokens, type HopSwap, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { Logger } from '@nestjs/common';
import { formatUnits } from 'viem';
import type { ChainLiquidity, LiquiditySnapshot } from '../liquidity/liquidity.service';
import type { TokenTransfers, TransferCheck } from '../tokens/token-transfers';
import type { RouteExecution } from './route-execution';
import { PoolsRefuseError, throwHookRefusals, type QuotedRoute } from './route-quote';
import type { RouteOrder } from './route-request';

/**
 * The 503 of a read the answer needs: `Chain <id> unavailable` where no provider could be reached (as a route's
 * re-quote says it), `The chain did not answer` where the node answered with an error.
 */
export function chainFailed(chainId: number, what: string, err: unknown): BusError {
  if (isUnreachable(err)) return new BusError(503, `Chain ${chainId} unavailable: no RPC provider is giving blocks`, `${what}: ${shortMessage(err)}`);
  return new BusError(503, CHAIN_DID_NOT_ANSWER, `${what}: ${shortMessage(err)}`);
}

/**
 * A token a route's swap moves between the router and `pool`, the contract holding the swap's tokens (the pool, or
 * the contract holding it: a V4 PoolManager), and `poolId`, the pool's identity in the graph (its address, a V4
 * PoolId): where a check of the token from `pool` fails, the route goes around `poolId`.
 */
export interface RouteTransfer {
  readonly token: string;
  readonly pool: string;
  readonly poolId: string;
  readonly amount: bigint;
}

/**
 * The transfers a route makes between its pools and the router, each token of each swap with the amount the swap
 * moves (what the router hands the pool, what the pool pays): the tokens whose transfers are checked. The wrapped
 * native token (the chain's own) and the kinds whose swaps move no tokens to and from the pool (`transfersTokens`:
 * launchpad curves, which hold native coin) are left out.
 */
export function routeTransfers(stages: readonly (readonly { swap: HopSwap; amountIn: bigint; amountOut: bigint }[])[], wrappedNative: string): RouteTransfer[] {
  const wrapped = wrappedNative.toLowerCase();
  const moves: RouteTransfer[] = [];
  for (const { swap, amountIn, amountOut } of stages.flat()) {
    if (!transfersTokens(swap.kind)) continue;
    const [pool, poolId] = [swap.routerPool, swap.poolAddress];
    if (swap.tokenIn.toLowerCase() !== wrapped) moves.push({ token: swap.tokenIn, pool, poolId, amount: amountIn });
    if (swap.tokenOut.toLowerCase() !== wrapped) moves.push({ token: swap.tokenOut, pool, poolId, amount: amountOut });
  }
  return moves;
}

/** Times a route is searched again without pools where its tokens' transfers fail. */
const MAX_REROUTES = 2;

type FailedTransfer = Extract<TransferCheck['result'], { failure: 'reverted' | 'returnedFalse' }>;

/** A route's amounts at a block and its transaction; the time its simulation took (0 where none ran). */
export interface Executed {
  readonly quote: QuotedRoute;
  readonly execution: RouteExecution;
  readonly simulationMs: number;
}

/** What an order is answered with: the route, its tokens' transfer fees, its amounts and its transaction. */
export interface OrderAnswer extends Executed {
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

/** The steps of an answer the policy drives: a search of an order, and a route's execution with its tokens' fees. */
export interface AnswerSteps {
  search(order: RouteOrder): Promise<Route>;
  execute(order: RouteOrder, route: Route, fees: Map<string, number>): Promise<Executed>;
}

/** The transfer policy of the route service. */
export class TransferPolicy {
  private readonly logger = new Logger('RouteService');

  constructor(
    private readonly transfers: TokenTransfers,
    /** Routes are executed before they are answered (`ROUTE_SIMULATION`): the simulation, not a failed check, decides. */
    private readonly simulate: boolean,
  ) {}

  /**
   * The route for the order and its execution (`steps`), the transfers of its tokens deciding: `answerOrder`, and
   * where a token's transfers fail from or to some pools of the route (found by the transfer
   * checks, or when the route's transaction reverted in its simulation), or pools refuse its swaps (a V4 hook, found by
   * the re-quote or the simulation: `PoolsRefuseError`), the same without those pools, up to `MAX_REROUTES` times: a
   * route through a token paused or blocklisting a pool, or a hook refusing a size, goes around it where another way
   * exists. The first refusal is the answer when no other way is left.
   */
  async answer(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, steps: AnswerSteps): Promise<OrderAnswer> {
    let refusal: TransfersFailError | PoolsRefuseError | undefined;
    let current = order;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.answerOrder(chain, snapshot, current, steps);
      } catch (err) {
        if (refusal && err instanceof BusError && err.status === 404) throw refusal;
        if (!(err instanceof TransfersFailError || err instanceof PoolsRefuseError) || attempt >= MAX_REROUTES) throw refusal ?? err;
        refusal ??= err;
        const excludePools = [...new Set([...(current.filter.excludePools ?? []), ...err.pools.map((p) => p.toLowerCase())])];
        this.logger.log({ msg: `route searched again without pools ${err instanceof PoolsRefuseError ? 'that refuse its swaps' : 'whose token transfers fail'}`, chainId: chain.chainId, blockNumber: snapshot.blockNumber.toString(), excludePools });
        current = { ...current, filter: { ...current.filter, excludePools } };
      }
    }
  }

  /**
   * The engine's route for the order with its tokens' transfers checked, executed (`steps.execute`); for an exact
   * output where what arrives is less than the pools pay (tokens that take a transfer fee, measured or not), the
   * route is searched again for the output scaled by what was lost, until it delivers the amount asked for.
   */
  private async answerOrder(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, steps: AnswerSteps): Promise<OrderAnswer> {
    let { route, fees } = await this.checkedRoute(chain, snapshot, order, await steps.search(order), steps);
    let { quote, execution, simulationMs } = await steps.execute(order, route, fees);
    if (!('amountOut' in order.amount)) return { route, fees, quote, execution, simulationMs };
    const asked = order.amount.amountOut;
    for (let attempt = 0; attempt < 4 && execution.amountOut < asked && execution.amountOut > 0n; attempt++) {
      const target = (asked * route.amountOut) / execution.amountOut + 1n;
      const again = { ...order, amount: { amountOut: target } };
      ({ route, fees } = await this.checkedRoute(chain, snapshot, again, await steps.search(again), steps));
      const executed = await steps.execute(order, route, fees);
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
   * The route once its tokens' transfers are checked (`TokenTransfers`: from each pool of the route that trades
   * the token, to the router and back): each token's transfer fee; without the simulation, a 422 naming a token
   * whose transfers fail. A token that takes a fee is traded only through the kinds that trade what arrives
   * (`tradesWhatArrives`: V2 and stable pools, which RouterV2 prices on what they actually received; concentrated,
   * core and launchpad pools expect the amount sent): when the route has another pool
   * on such a token, the search runs again without those kinds of source.
   */
  private async checkedRoute(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, route: Route, steps: AnswerSteps, searchedAgain = false): Promise<{ route: Route; fees: Map<string, number> }> {
    const { blockNumber } = snapshot;
    const moves = routeTransfers(route.stages.map((hop) => hop.map((swap) => ({ swap, ...swap }))), chain.wrappedNative);
    const pairs = new Map<string, { token: string; pool: string }>();
    for (const { token, pool } of moves) pairs.set(`${token.toLowerCase()}|${pool.toLowerCase()}`, { token, pool });
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
    if (!this.simulate) this.throwTransferFailures(chain, blockNumber, results, moves);
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
    return this.checkedRoute(chain, snapshot, order, await steps.search({ ...order, filter }), steps, true);
  }

  /**
   * A route whose transaction reverted in its simulation: a swap through a V4 pool whose hook its quoter says refuses it
   * is a `PoolsRefuseError` (`throwHookRefusals`); else what is kept of its tokens' transfers is forgotten, and
   * each token is sent, from each pool of the route that trades it, to the router and back, with the amounts the
   * route moves there: a 422 naming the token whose transfer fails (paused, blocklisting, a size limit, ... ,
   * announced or not); where every transfer goes through, a 422 with the transaction's revert reason.
   */
  async explainRevert(chain: ChainLiquidity, snapshot: LiquiditySnapshot, quote: QuotedRoute, revertReason: string): Promise<never> {
    const { blockNumber } = snapshot;
    const checks = this.transfers.chain(chain.chainId);
    const moves = routeTransfers(quote.hops.map((hop) => hop.map((s) => ({ swap: s.swap, amountIn: s.amountIn, amountOut: s.poolAmountOut }))), chain.wrappedNative);
    this.logger.log({ msg: 'route reverts in its simulation', chainId: chain.chainId, blockNumber: blockNumber.toString(), revertReason, pools: quote.hops.map((hop) => hop.map((s) => s.swap.poolAddress)) });
    // A V4 hook that refuses the swap (its quoter reverts too) is routed around before any token is suspected.
    await throwHookRefusals(chain.client, blockNumber, quote, this.quoters(chain));
    checks.forget(moves.map((m) => m.token));
    const unavailable = (token: string) => (err: unknown) => {
      throw chainFailed(chain.chainId, `checking the transfers of ${token} at block ${blockNumber}`, err);
    };
    // First as every route checks them (kept, so that /tokens says what was found), then with the route's amounts.
    const kept = await Promise.all(moves.map(({ token, pool }) => checks.check(checksummed(token), checksummed(pool), blockNumber).catch(unavailable(token))));
    this.throwTransferFailures(chain, blockNumber, kept, moves);
    const sized = await Promise.all(moves.map(({ token, pool, amount }) => checks.checkAmount(checksummed(token), checksummed(pool), amount, blockNumber).catch(unavailable(token))));
    this.throwTransferFailures(chain, blockNumber, sized, moves);
    throw new BusError(422, ROUTE_REVERTS, `RouterV2's transaction for the route reverts at block ${blockNumber} with ${revertReason}, though each of its tokens moves from its pools to the router and back`);
  }

  /** The V4Quoter of each of the chain's V4 sources that names one, by routerIndex. */
  private quoters(chain: ChainLiquidity): Map<number, string> {
    return new Map(chain.sources.flatMap((s) => (s.kind === 'uniswap-v4' && s.addresses.v4Quoter ? [[s.routerIndex, s.addresses.v4Quoter] as const] : [])));
  }

  /**
   * A `TransfersFailError` naming the first failing token and every pool of the route (`moves`) where a check of it
   * failed (every pool a failing holder holds the token for: all the route's V4 pools of a PoolManager that cannot move
   * it); nothing when none did.
   */
  private throwTransferFailures(chain: ChainLiquidity, blockNumber: bigint, checks: readonly TransferCheck[], moves: readonly RouteTransfer[]): void {
    const failed = checks.filter((c): c is TransferCheck & { result: FailedTransfer } => !c.result.ok && c.result.failure !== 'unknown');
    if (failed.length === 0) return;
    const [first] = failed;
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const pools = new Set(failed.flatMap((c) => moves.filter((m) => same(m.token, c.token) && same(m.pool, c.pool)).map((m) => m.poolId.toLowerCase())));
    const symbol = chain.token(first.token)?.symbol || first.token;
    const how = first.result.failure === 'returnedFalse' ? 'answers false (SafeERC20 treats that as a failed transfer)' : `reverts with ${first.result.reason}`;
    throw new TransfersFailError(
      first.token,
      [...pools],
      `Token transfers fail: ${symbol} (${checksummed(first.token)})`,
      `a transfer of ${symbol} from ${first.result.from} to ${first.result.to} ${how} at block ${blockNumber}; RouterV2 cannot trade it through pool ${checksummed(first.pool)}`,
    );
  }
}
