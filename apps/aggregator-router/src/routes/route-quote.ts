/**
 * The route for an order: the engine's search on the snapshot's graph, then the route's amounts as RouterV2
 * executes them at the snapshot's block (`replayStagesAsync`: stage by stage, what the router holds of each token
 * shared across the stage's swaps on it in proportion to their quoted inputs; a linear route's stages are its
 * hops), the swaps through pools quoted on chain priced by the pools' own view (core pools' `estimateSwap`,
 * `quoteCoreSwaps`; sampled V4 pools' V4Quoter, `quoteUniswapV4Swaps`; Curve pools' `get_dy`, `quoteCurveSwaps`: one
 * multicall each per stage), every other swap by its leg's exact maths.
 */
import { isUnreachable, quoteCoreSwaps, quoteCurveSwaps, quoteUniswapV4Swaps, shortMessage, type ChainPublicClient, type CurveSwapToQuote } from '@dex/chain';
import { ROUTE_REVERTS } from '@dex/messages';
import {
  findRoute,
  NoRouteError,
  poolModule,
  replayStagesAsync,
  swapHookPermissions,
  swapPriceImpact,
  uniswapV4PoolKey,
  type ChainGraph,
  type CurvePairSnapshotBase,
  type HopSwap,
  type Route,
  type UniswapV4PoolSnapshot,
} from '@dex/routing';
import { BusError } from '@dex/service';
import { getAddress } from 'viem';
import type { RouteOrder } from './route-request';

/** The engine's best route for the order; a 404 when no path can trade the amount with the admitted sources. */
export function searchRoute(graph: ChainGraph, order: RouteOrder): Route {
  try {
    const gasValue = order.gasValue ?? 0;
    return findRoute(graph, { tokenIn: order.tokenIn, tokenOut: order.tokenOut, ...order.amount, multiHop: order.multiHop, maxSwaps: order.maxSwaps, filter: order.filter, gasValue });
  } catch (err) {
    if (err instanceof NoRouteError) throw noRouteFound(order);
    throw err;
  }
}

/** The 404 of an order the engine finds no route for. */
export function noRouteFound(order: RouteOrder): BusError {
  const { multiHop, metaIn, metaOut } = order;
  return new BusError(404, 'No route found', `no ${multiHop ? 'route' : 'direct pool'} from ${metaIn.symbol} to ${metaOut.symbol} can trade the amount with the admitted sources${multiHop ? '' : ' (multiHop=true allows intermediate tokens)'}`);
}

/**
 * A hop swap with the amounts RouterV2 gives and pays it: `amountIn` is what the router hands the pool (its share
 * in the calldata), `amountOut` what arrives where the pool pays (the router, or the recipient). They differ from
 * what the pool itself receives and pays (`poolAmountIn`, `poolAmountOut`) by the transfer fees of tokens that take
 * one.
 */
export interface QuotedSwap {
  readonly swap: HopSwap;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly poolAmountIn: bigint;
  readonly poolAmountOut: bigint;
  readonly priceImpact: number;
}

/** Each token's transfer fee in basis points (lower-case address); a token not in it takes none. */
export type TransferFees = ReadonlyMap<string, number>;

/** What arrives of `amount` sent in a token that takes `bps` of each transfer, rounded down (never more than arrives). */
export function afterTransferFee(amount: bigint, bps: number | undefined): bigint {
  if (!bps) return amount;
  return (amount * BigInt(10_000 - bps)) / 10_000n;
}

/** A route re-quoted at a block: per stage (per hop for a linear route) its swaps, the route's input and (gross) output. */
export interface QuotedRoute {
  readonly route: Route;
  readonly hops: readonly (readonly QuotedSwap[])[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/**
 * The outputs of a stage's swaps for their shares at the block, as they arrive: each pool receives its share less
 * the input token's transfer fee and its output arrives less the output token's (`pool` collects what the pools
 * themselves receive and pay).
 */
async function quoteHop(
  client: ChainPublicClient,
  blockNumber: bigint,
  hop: readonly HopSwap[],
  sent: readonly bigint[],
  fees: TransferFees,
  pool: { amountsIn: bigint[]; amountsOut: bigint[] },
): Promise<bigint[]> {
  const shares = hop.map((swap, j) => afterTransferFee(sent[j], fees.get(swap.tokenIn.toLowerCase())));
  pool.amountsIn = shares;
  const outs = await quotePools(client, blockNumber, hop, shares);
  pool.amountsOut = outs;
  return outs.map((out, j) => afterTransferFee(out, fees.get(hop[j].tokenOut.toLowerCase())));
}

/**
 * The 422 of a route through pools that refuse its swaps at the block (a V4 hook refusing a swap its pool's own
 * quoter reverts on), naming them: the route is searched again without them (`TransferPolicy.answer`).
 */
export class PoolsRefuseError extends BusError {
  constructor(
    readonly pools: readonly string[],
    details: string,
  ) {
    super(422, ROUTE_REVERTS, details);
  }
}

/** The 503 or 404 of a failed on-chain re-quote of `what`. */
function requoteFailed(client: ChainPublicClient, what: string) {
  return (err: unknown): never => {
    if (isUnreachable(err)) throw new BusError(503, `Chain ${client.chain.id} unavailable: no RPC provider is giving blocks`, `${what} could not be read: ${shortMessage(err)}`);
    throw new BusError(404, 'No route found', `${what} do not quote at the current block: ${shortMessage(err)}`);
  };
}

/** The V4Quoter that quotes a swap through a V4 pool on chain again (a sampled pool's, or an exact hook's pool's). */
const v4QuoterOf = (swap: HopSwap): string => {
  const pool = swap.leg.pool as UniswapV4PoolSnapshot;
  return (pool.sampled?.quoter ?? pool.quoter)!;
};

/** A V4 pool's swap as a V4Quoter takes it. */
function v4Swap(swap: HopSwap, amountIn: bigint, quoter: string) {
  const pool = swap.leg.pool as UniswapV4PoolSnapshot;
  return {
    quoter: getAddress(quoter),
    key: uniswapV4PoolKey(pool),
    zeroForOne: swap.tokenIn.toLowerCase() === pool.token0.toLowerCase(),
    amountIn,
  };
}

/** A swap through a Curve pair as its pool's `get_dy` takes it: coin i in, coin j out. */
function curveSwap(swap: HopSwap, amountIn: bigint): CurveSwapToQuote {
  const pair = swap.leg.pool as CurvePairSnapshotBase;
  const forward = swap.tokenIn.toLowerCase() === pair.token0.toLowerCase();
  return {
    pool: getAddress(pair.pool),
    flavor: pair.kind === 'curve-stableswap-ng' ? 'stableswap-ng' : 'twocrypto-ng',
    i: forward ? pair.i : pair.j,
    j: forward ? pair.j : pair.i,
    amountIn,
  };
}

/**
 * What the stage's pools pay for what they receive at the block: the pools quoted on chain by their own view (core
 * pools' `estimateSwap`, sampled V4 pools' V4Quoter, Curve pools' `get_dy`: one `eth_call` each kind), every other by
 * its leg's exact maths.
 */
async function quotePools(client: ChainPublicClient, blockNumber: bigint, hop: readonly HopSwap[], shares: readonly bigint[]): Promise<bigint[]> {
  const onChain = (...kinds: string[]) => hop.flatMap((swap, j) => (kinds.includes(swap.kind) && poolModule(swap.leg.pool).quotedOnChain(swap.leg.pool) && shares[j] > 0n ? [j] : []));
  const [cores, v4s, curves] = [onChain('core'), onChain('uniswap-v4'), onChain('curve-stableswap-ng', 'curve-twocrypto-ng')];
  const [coreOuts, v4Quotes, curveOuts] = await Promise.all([
    quoteCoreSwaps(client, {
      swaps: cores.map((j) => ({ pool: getAddress(hop[j].poolAddress), tokenIn: getAddress(hop[j].tokenIn), tokenOut: getAddress(hop[j].tokenOut), amountIn: shares[j] })),
      blockNumber,
    }).catch(requoteFailed(client, 'the core pools')),
    quoteUniswapV4Swaps(client, { swaps: v4s.map((j) => v4Swap(hop[j], shares[j], v4QuoterOf(hop[j]))), blockNumber }).catch(requoteFailed(client, 'the sampled Uniswap V4 pools')),
    quoteCurveSwaps(client, { swaps: curves.map((j) => curveSwap(hop[j], shares[j])), blockNumber }).catch(requoteFailed(client, 'the Curve pools')),
  ]);
  const curveRefused = curves.filter((j, i) => curveOuts[i] === undefined);
  if (curveRefused.length > 0) {
    const [first] = curveRefused;
    throw new PoolsRefuseError(
      curveRefused.map((j) => hop[j].poolAddress),
      `the Curve pool ${(hop[first].leg.pool as CurvePairSnapshotBase).pool} refuses to quote the swap of ${shares[first]} ${hop[first].tokenIn} at block ${blockNumber}`,
    );
  }
  const refused = v4s.filter((j, i) => v4Quotes[i] === undefined);
  if (refused.length > 0) {
    const [first] = refused;
    throw new PoolsRefuseError(
      refused.map((j) => hop[j].poolAddress),
      `the V4Quoter reverts for the swap of ${shares[first]} through V4 pool ${hop[first].poolAddress} (hook ${hop[first].hooks}) at block ${blockNumber}: its hook refuses it`,
    );
  }
  return hop.map((swap, j) => {
    if (shares[j] === 0n) return 0n;
    if (v4s.includes(j)) return v4Quotes[v4s.indexOf(j)]!.amountOut;
    if (curves.includes(j)) return curveOuts[curves.indexOf(j)]!;
    if (!cores.includes(j)) return swap.leg.quote(shares[j]);
    const out = coreOuts[cores.indexOf(j)];
    if (out === undefined) throw new BusError(404, 'No route found', `the core pool ${swap.poolAddress} does not quote the amount at the current block`);
    return out;
  });
}

/**
 * Where a route's transaction reverted: its swaps through V4 pools whose hook is called on swaps and that were not
 * quoted on chain already (a hook the source lists though it names no V4Quoter, or a source configured with one
 * since) quoted at their amounts by their source's V4Quoter (`quoters`, by routerIndex); a `PoolsRefuseError` naming
 * those whose quote reverts too (a source without a quoter: all its hooked pools of the route). Nothing when the
 * route has no such swap or every one quotes.
 */
export async function throwHookRefusals(client: ChainPublicClient, blockNumber: bigint, quote: QuotedRoute, quoters: ReadonlyMap<number, string>): Promise<void> {
  const hooked = quote.hops.flat().filter(({ swap }) => {
    const pool = swap.leg.pool as UniswapV4PoolSnapshot;
    return swap.kind === 'uniswap-v4' && pool.sampled === undefined && pool.quoter === undefined && swapHookPermissions(pool.hooks).length > 0;
  });
  if (hooked.length === 0) return;
  const quotable = hooked.filter(({ swap }) => quoters.has(swap.routerIndex));
  const answers = await quoteUniswapV4Swaps(client, {
    swaps: quotable.map(({ swap, poolAmountIn }) => v4Swap(swap, poolAmountIn, quoters.get(swap.routerIndex)!)),
    blockNumber,
  }).catch(requoteFailed(client, 'the hooked Uniswap V4 pools'));
  const refusing = [...hooked.filter((s) => !quotable.includes(s)), ...quotable.filter((_, i) => answers[i] === undefined)];
  if (refusing.length === 0) return;
  const [{ swap, poolAmountIn }] = refusing;
  const why = quoters.has(swap.routerIndex) ? `the V4Quoter reverts for its swap of ${poolAmountIn} too` : 'its source names no V4Quoter to tell';
  throw new PoolsRefuseError(
    refusing.map((s) => s.swap.poolAddress),
    `RouterV2's transaction for the route reverts at block ${blockNumber} through V4 pool ${swap.poolAddress}, whose hook ${swap.hooks} may refuse swaps: ${why}`,
  );
}

/**
 * A route through two coin pairs of one Curve pool (USDC -> USDT, then USDT -> DAI through a 3-coin pool) is refused
 * with its later pairs named: each pair is quoted at the block's state, but the later swap meets the pool as the
 * earlier one left it. The route is searched again without them (`PoolsRefuseError`).
 */
function throwCurvePoolReuse(route: Route): void {
  const seen = new Map<string, string>();
  const again: string[] = [];
  for (const swap of route.stages.flat()) {
    const pool = (swap.leg.pool as Partial<CurvePairSnapshotBase>).pool;
    if (!pool || !(swap.kind === 'curve-stableswap-ng' || swap.kind === 'curve-twocrypto-ng')) continue;
    const first = seen.get(pool);
    if (first === undefined) seen.set(pool, swap.poolAddress);
    else if (first !== swap.poolAddress) again.push(swap.poolAddress);
  }
  if (again.length > 0) throw new PoolsRefuseError(again, `the route trades Curve pool ${again[0].split(':')[0]} twice, through two of its coin pairs: each is quoted at the pool's state before the route`);
}

/**
 * The route's amounts as RouterV2 executes them at `blockNumber`, each transfer of a token with a fee in `fees`
 * paying it; a 404 when it pays nothing there. The output is what the router (or the recipient) receives from the
 * last stage's pools.
 */
export async function requoteRoute(client: ChainPublicClient, blockNumber: bigint, route: Route, fees: TransferFees = new Map()): Promise<QuotedRoute> {
  throwCurvePoolReuse(route);
  const pools: { amountsIn: bigint[]; amountsOut: bigint[] }[] = route.stages.map(() => ({ amountsIn: [], amountsOut: [] }));
  const executed = await replayStagesAsync(route.stages, route.tokens[0], route.tokens[route.tokens.length - 1], route.amountIn, (stage, shares) =>
    quoteHop(client, blockNumber, route.stages[stage], shares, fees, pools[stage]),
  );
  const amountOut = executed?.amountOut ?? 0n;
  if (!executed || amountOut === 0n) throw new BusError(404, 'No route found', 'the route pays nothing at the current block');
  const hops = executed.stages.map((stage, h) =>
    route.stages[h].map((swap, j): QuotedSwap => {
      const amountIn = stage.amountsIn[j];
      const out = stage.amountsOut[j];
      const poolAmountIn = pools[h].amountsIn[j] ?? amountIn;
      const poolAmountOut = pools[h].amountsOut[j] ?? out;
      return { swap, amountIn, amountOut: out, poolAmountIn, poolAmountOut, priceImpact: swapPriceImpact(swap.leg, poolAmountIn, poolAmountOut) };
    }),
  );
  return { route, hops, amountIn: route.amountIn, amountOut };
}
