import { readBalances } from '@dex/chain';
import { type ParsedRequestOf, type PoolRecord, type ResponseOf, type RouteResponse, type TokenMeta, balancesContract, poolsContract } from '@dex/messages';
import { poolModule } from '@dex/routing';
import { BusError } from '@dex/service';
import { Inject, Injectable } from '@nestjs/common';
import { formatUnits, getAddress, type Address } from 'viem';
import { LiquidityService } from '../liquidity/liquidity.service';
import { routeAnswer } from './route-answer';
import { routeExecution } from './route-execution';
import { requoteRoute, searchRoute } from './route-quote';
import { resolveRouteRequest, type RouteRequest } from './route-request';
import { isNative, knownToken, nativeToken } from './token-meta';

/** Route search, route re-quoting and RouterV2 calldata; pool discovery and wallet balances. */
@Injectable()
export class RouteService {
  constructor(@Inject(LiquidityService) private readonly liquidity: LiquidityService) {}

  /** The request resolved on the current snapshot, the engine's route, its amounts at the snapshot's block, its calldata, the answer. */
  async route(request: RouteRequest): Promise<RouteResponse> {
    const chain = this.liquidity.chain(request.chainId);
    const { snapshot, order } = await resolveRouteRequest(chain, request);
    // Not from state nobody refreshes: while no RPC provider gives blocks, neither the indexer's facts nor the
    // core pools' prices can be current. (Bad input has had its 400 by now.)
    this.liquidity.assertFresh(chain.chainId);
    const route = searchRoute(snapshot.graph, order);
    const quote = await requoteRoute(chain.client, snapshot.blockNumber, route);
    const execution = routeExecution(order, quote);
    return routeAnswer(chain, snapshot.blockNumber, order, quote, execution);
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
