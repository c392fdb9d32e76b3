import { routerV2Abi } from '@dex/abis';
import { quoteCoreSwaps, readBalances, shortMessage } from '@dex/chain';
import { minAmountOut, splitOutput } from '@dex/fee-math';
import {
  INVALID_FEE_RECIPIENT,
  NATIVE_TOKEN_ADDRESS,
  NATIVE_TOKEN_ALIAS,
  type HopSwapRecord,
  type ParsedRequestOf,
  type PoolRecord,
  type ResponseOf,
  type RouteResponse,
  type TokenMeta,
  balancesContract,
  poolsContract,
  routeContract,
} from '@dex/messages';
import { findRoute, hopPriceImpact, NoRouteError, routePriceImpact, swapPriceImpact, type ChainGraph, type HopSwap, type Leg, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { Inject, Injectable } from '@nestjs/common';
import { encodeFunctionData, formatUnits, getAddress, zeroAddress, type Address, type Hex } from 'viem';
import { LiquidityService, type ChainLiquidity, type LiquiditySnapshot } from '../liquidity/liquidity.service';

export const isNative = (address: string): boolean => {
  const a = address.toLowerCase();
  return a === NATIVE_TOKEN_ADDRESS || a === NATIVE_TOKEN_ALIAS.toLowerCase();
};

/** A human-readable amount in base units; more decimals than the token has is a 400 naming the parameter. */
export function toBaseUnits(value: string, decimals: number, param: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  if (fraction.length > decimals) {
    throw new BusError(400, `Invalid ${param}: more decimals than the token has`, `the token has ${decimals} decimals, got ${JSON.stringify(value)}`);
  }
  const units = BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  // The gateway's message for a zero amount, so bus clients read the same.
  if (units <= 0n) throw new BusError(400, `Invalid ${param}: must be a positive decimal number`, `got ${JSON.stringify(value)}`);
  if (units >= 2n ** 256n) throw new BusError(400, `Invalid ${param}: too large`);
  return units;
}

/** The engine's leg for a hop swap (the graph keeps one leg per pool and direction). */
function legOf(graph: ChainGraph, swap: HopSwap): Leg {
  const legs = graph.legs.get(swap.tokenIn.toLowerCase())?.get(swap.tokenOut.toLowerCase()) ?? [];
  const leg = legs.find((l) => l.pool.address.toLowerCase() === swap.poolAddress.toLowerCase() && l.pool.routerIndex === swap.routerIndex);
  if (!leg) throw new Error(`no leg for pool ${swap.poolAddress}`);
  return leg;
}

interface ExactSwap {
  readonly swap: HopSwap;
  readonly leg: Leg;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly priceImpact: number;
}

/** Route search, route re-quoting and RouterV2 calldata; pool discovery and wallet balances. */
@Injectable()
export class RouteService {
  constructor(@Inject(LiquidityService) private readonly liquidity: LiquidityService) {}

  private meta(chain: ChainLiquidity, address: string, param: string): TokenMeta {
    const meta = chain.token(address);
    if (!meta) throw new BusError(400, `Unknown token: ${param}`, `${address} is not traded by any pool of chain ${chain.chainId}`);
    return meta;
  }

  private nativeMeta(chain: ChainLiquidity): TokenMeta {
    return { address: NATIVE_TOKEN_ADDRESS, symbol: chain.entry.nativeSymbol, name: chain.entry.nativeSymbol, decimals: chain.token(chain.wrappedNative)?.decimals ?? 18 };
  }

  async route(request: ParsedRequestOf<typeof routeContract>): Promise<RouteResponse> {
    const chain = this.liquidity.chain(request.chainId);
    // RouterV2 reverts on these recipients (InvalidFeeRecipient; FeeRecipientRequired for the zero address with a fee).
    const feeRecipient = request.feeRecipient?.toLowerCase();
    if (feeRecipient === chain.entry.routerV2.toLowerCase() || (feeRecipient === zeroAddress && request.feeBps > 0)) {
      const why = feeRecipient === zeroAddress ? 'the zero address cannot receive a fee (feeBps > 0)' : `${chain.entry.routerV2} is the router of chain ${chain.chainId}`;
      throw new BusError(400, INVALID_FEE_RECIPIENT, why);
    }
    // Token metadata is read with the first snapshot: wait for it before judging a token unknown.
    const snapshot = await chain.current();
    const wrapped = chain.wrappedNative;
    const nativeIn = isNative(request.tokenIn);
    const nativeOut = isNative(request.tokenOut);
    const tokenIn = nativeIn ? wrapped : getAddress(request.tokenIn);
    const tokenOut = nativeOut ? wrapped : getAddress(request.tokenOut);
    if (tokenIn.toLowerCase() === tokenOut.toLowerCase()) {
      throw new BusError(400, 'Invalid tokenOut: must differ from tokenIn', 'wrapping or unwrapping the native coin is not a route');
    }
    const metaIn = this.meta(chain, tokenIn, 'tokenIn');
    const metaOut = this.meta(chain, tokenOut, 'tokenOut');
    const unwrap = nativeOut || (request.unwrapNative && tokenOut.toLowerCase() === wrapped.toLowerCase());

    const filter = { includeDexes: request.includeDexes, excludeDexes: request.excludeDexes };
    let route: Route;
    try {
      route =
        request.amountIn !== undefined
          ? findRoute(snapshot.graph, { tokenIn, tokenOut, amountIn: toBaseUnits(request.amountIn, metaIn.decimals, 'amountIn'), multiHop: request.multiHop, filter })
          : findRoute(snapshot.graph, { tokenIn, tokenOut, amountOut: toBaseUnits(request.amountOut!, metaOut.decimals, 'amountOut'), multiHop: request.multiHop, filter });
    } catch (err) {
      if (err instanceof NoRouteError) {
        throw new BusError(404, 'No route found', `no ${request.multiHop ? 'route of up to 3 hops' : 'direct pool'} from ${metaIn.symbol} to ${metaOut.symbol} can trade the amount with the admitted sources${request.multiHop ? '' : ' (multiHop=true allows intermediate tokens)'}`);
      }
      throw err;
    }

    const hops = await this.requote(chain, snapshot, route);
    const amountIn = route.amountIn;
    const gross = hops[hops.length - 1].reduce((a, s) => a + s.amountOut, 0n);
    if (gross === 0n) throw new BusError(404, 'No route found', 'the route pays nothing at the current block');
    const feeBps = BigInt(request.feeBps);
    const userAmount = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps, hasFeeRecipient: request.feeRecipient !== undefined }).userAmount;
    const minOut = minAmountOut(userAmount, BigInt(request.slippageBps));

    const path = route.tokens.map((t) => getAddress(t));
    if (nativeIn) path[0] = zeroAddress;
    if (unwrap) path[path.length - 1] = zeroAddress;
    const calldata = encodeFunctionData({
      abi: routerV2Abi,
      functionName: 'executeSwaps',
      args: [
        path,
        amountIn,
        minOut,
        gross,
        hops.map((hop) =>
          hop.map((s) => ({
            pool: getAddress(s.swap.poolAddress),
            tokenIn: getAddress(s.swap.tokenIn),
            tokenOut: getAddress(s.swap.tokenOut),
            routerIndex: s.swap.routerIndex,
            amountIn: s.amountIn,
            data: s.swap.data as Hex,
          })),
        ),
        feeBps,
        (request.feeRecipient ?? zeroAddress) as Address,
      ],
    });
    const hopImpacts = hops.map((hop) => hopPriceImpact(hop.map((s) => s.leg), hop.map((s) => s.amountIn), hop.map((s) => s.amountOut)));
    return {
      chainId: chain.chainId,
      blockNumber: snapshot.blockNumber.toString(),
      tokens: {
        tokenIn: nativeIn ? this.nativeMeta(chain) : metaIn,
        tokenOut: unwrap ? this.nativeMeta(chain) : metaOut,
        intermediates: route.tokens.slice(1, -1).map((t) => this.meta(chain, t, 'intermediate')),
      },
      amountIn: formatUnits(amountIn, metaIn.decimals),
      amountOut: formatUnits(gross, metaOut.decimals),
      averagePriceImpact: routePriceImpact(hopImpacts),
      execution: {
        to: chain.entry.routerV2,
        calldata,
        value: nativeIn ? amountIn.toString() : '0',
        details: {
          path,
          amountIn: amountIn.toString(),
          amountOut: gross.toString(),
          minAmountOut: minOut.toString(),
          feeBps: request.feeBps,
          hopSwaps: hops.map((hop) => hop.map((s) => this.record(chain, s))),
        },
      },
    };
  }

  private record(chain: ChainLiquidity, s: ExactSwap): HopSwapRecord {
    return {
      tokenIn: getAddress(s.swap.tokenIn),
      tokenOut: getAddress(s.swap.tokenOut),
      poolAddress: getAddress(s.swap.poolAddress),
      routerIndex: s.swap.routerIndex,
      routerName: s.swap.routerName ?? chain.sourceName(s.swap.routerIndex),
      ...(s.swap.fee !== undefined ? { fee: s.swap.fee } : {}),
      stable: s.swap.stable,
      data: s.swap.data,
      amountIn: s.amountIn.toString(),
      amountOut: s.amountOut.toString(),
      priceImpact: s.priceImpact,
    };
  }

  /**
   * The route's amounts as RouterV2 executes them: hop by hop, the hop's input split in proportion to the quoted
   * inputs (floor, the last swap takes the remainder); a hop's core swaps priced with their pools' own
   * `estimateSwap` at the snapshot's block (one multicall per hop, `quoteCoreSwaps`), every other kind with the
   * engine's exact pool math.
   */
  private async requote(chain: ChainLiquidity, snapshot: LiquiditySnapshot, route: Route): Promise<ExactSwap[][]> {
    const hops: ExactSwap[][] = [];
    let amount = route.amountIn;
    for (const hop of route.hopSwaps) {
      const total = hop.reduce((a, s) => a + s.amountIn, 0n);
      let remaining = amount;
      const shares = hop.map((s, j) => {
        const share = j === hop.length - 1 ? remaining : (amount * s.amountIn) / total;
        remaining -= share;
        return share;
      });
      const core = hop.flatMap((swap, j) => (swap.kind === 'core' && shares[j] > 0n ? [j] : []));
      const quoted = await quoteCoreSwaps(chain.client, {
        swaps: core.map((j) => ({ pool: getAddress(hop[j].poolAddress), tokenIn: getAddress(hop[j].tokenIn), tokenOut: getAddress(hop[j].tokenOut), amountIn: shares[j] })),
        blockNumber: snapshot.blockNumber,
      }).catch((err: unknown) => {
        throw new BusError(404, 'No route found', `the core pools do not quote at the current block: ${shortMessage(err)}`);
      });
      const exact = hop.map((swap, j): ExactSwap => {
        const leg = legOf(snapshot.graph, swap);
        const amountIn = shares[j];
        let amountOut: bigint;
        if (amountIn === 0n) amountOut = 0n;
        else if (swap.kind === 'core') {
          const out = quoted[core.indexOf(j)];
          if (out === undefined) throw new BusError(404, 'No route found', `the core pool ${swap.poolAddress} does not quote the amount at the current block`);
          amountOut = out;
        } else amountOut = leg.quote(amountIn);
        return { swap, leg, amountIn, amountOut, priceImpact: swapPriceImpact(leg, amountIn, amountOut) };
      });
      hops.push(exact);
      amount = exact.reduce((a, s) => a + s.amountOut, 0n);
    }
    return hops;
  }

  async pools(request: ParsedRequestOf<typeof poolsContract>): Promise<ResponseOf<typeof poolsContract>> {
    const chain = this.liquidity.chain(request.chainId);
    const snapshot = await chain.current();
    const a = isNative(request.tokenA) ? chain.wrappedNative : getAddress(request.tokenA);
    const b = isNative(request.tokenB) ? chain.wrappedNative : getAddress(request.tokenB);
    if (a.toLowerCase() === b.toLowerCase()) throw new BusError(400, 'Invalid tokenB: must differ from tokenA');
    const metaA = this.meta(chain, a, 'tokenA');
    const metaB = this.meta(chain, b, 'tokenB');
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
      records.push({
        poolAddress: getAddress(pool.address),
        pairedToken: metaB.address,
        routerIndex: pool.routerIndex,
        protocol: chain.sourceName(pool.routerIndex),
        fee: pool.kind === 'core' ? null : pool.kind === 'launchpad' ? Number(pool.curve.feeBps ?? 100n) : pool.feeBps,
        stable: pool.kind === 'stable',
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
    const metas = wanted.map((t, i) => this.meta(chain, t, request.tokens ? `tokens[${i}]` : 'token'));
    const wallet = getAddress(request.wallet);
    const blockNumber = await chain.client.getBlockNumber();
    const { native = 0n, tokens: reads } = await readBalances(chain.client, { owner: wallet, tokens: metas.map((m) => m.address as Address), native: withNative, blockNumber });
    const row = (m: TokenMeta, raw: bigint) => ({ ...m, balance: formatUnits(raw, m.decimals), balanceRaw: raw.toString() });
    return {
      chainId: chain.chainId,
      wallet,
      blockNumber: blockNumber.toString(),
      balances: [...(withNative ? [row(this.nativeMeta(chain), native)] : []), ...metas.map((m, i) => row(m, reads[i]))],
    };
  }
}
