import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CheckpointRepository, TokenRepository, type DbClient } from '@dex/db';
import { hasControlCharacters, INVALID_SEARCH_CONTROL, listTokensContract, type ParsedRequestOf, type ResponseOf } from '@dex/messages';
import { DB_CLIENT } from '@dex/chain-service';
import { poolModule, transfersTokens } from '@dex/routing';
import { BusError } from '@dex/service';
import { getAddress } from 'viem';
import { LiquidityService } from '../liquidity/liquidity.service';
import { SourceRegistry } from '../sources/source-registry';
import { TokenTransfers, type TransferCheck } from './token-transfers';

/** How many tokens of a page have their transfers checked at once. */
const CHECK_CONCURRENCY = 8;
/**
 * At most this many tokens of a page that were never checked are checked for one request (a page of every token of a
 * large chain would otherwise make thousands of calls); the others show what is already known of them, if anything.
 */
const MAX_NEW_CHECKS = 100;

/**
 * `aggregator.tokens`: the chain's tokens as the indexer knows them, sorted by transfers in the rolling 24 hours
 * (highest first), with the indexer's status and last processed block.
 */
@Controller()
export class TokensHandler {
  private readonly tokens: TokenRepository;
  private readonly checkpoints: CheckpointRepository;

  constructor(
    @Inject(DB_CLIENT) db: DbClient,
    @Inject(SourceRegistry) private readonly sources: SourceRegistry,
    @Inject(LiquidityService) private readonly liquidity: LiquidityService,
    @Inject(TokenTransfers) private readonly transfers: TokenTransfers,
  ) {
    this.tokens = new TokenRepository(db);
    this.checkpoints = new CheckpointRepository(db);
  }

  @MessagePattern(listTokensContract.subject)
  async list(@Payload() r: ParsedRequestOf<typeof listTokensContract>): Promise<ResponseOf<typeof listTokensContract>> {
    if (!this.sources.servesChain(r.chainId)) {
      throw new BusError(400, `Unsupported chainId: ${r.chainId}`, `supported chains: ${this.sources.chainIds().join(', ')}`);
    }
    // Postgres refuses a NUL in a query parameter; bus clients reach here without the gateway's check.
    if (r.search !== undefined && hasControlCharacters(r.search)) {
      throw new BusError(400, INVALID_SEARCH_CONTROL, `got ${JSON.stringify(r.search)}`);
    }
    const search = r.search?.trim() || undefined;
    const [page, checkpoint] = await Promise.all([
      this.tokens.list({ chainId: r.chainId, search, limit: r.limit, offset: r.offset }),
      this.checkpoints.get(r.chainId),
    ]);
    const nextOffset = r.offset + page.tokens.length;
    const listed = page.tokens.map((t) => ({ ...t, address: getAddress(t.address) }));
    const records = r.metadata ? await this.withTransfers(r.chainId, listed) : listed;
    return {
      chainId: r.chainId,
      ...(r.metadata ? { tokens: records } : { addresses: records.map((t) => t.address) }),
      count: page.count,
      limitedCount: records.length,
      offset: r.offset,
      nextOffset,
      hasMore: nextOffset < page.count,
      searchApplied: search !== undefined,
      limitApplied: r.limit !== undefined,
      serviceStatus: checkpoint?.status ?? 'starting',
      lastProcessedBlock: (checkpoint?.lastProcessedBlock ?? 0n).toString(),
    };
  }

  /**
   * Each token with how its transfers behave (`TokenTransfers`, checked from the deepest pool of the liquidity
   * snapshot that trades it, kept between requests): `transferFeeBps`, or `transferFailure`. A token no pool of the
   * snapshot trades, or whose check the chain did not answer, is listed without them.
   */
  private async withTransfers<T extends { address: `0x${string}` }>(chainId: number, tokens: T[]): Promise<(T & { transferFeeBps?: number; transferFailure?: string })[]> {
    const chain = this.liquidity.chain(chainId);
    const snapshot = await chain.current().catch(() => undefined);
    if (!snapshot) return tokens;
    const checks = this.transfers.chain(chainId);
    const wrapped = chain.wrappedNative.toLowerCase();
    const holder = (token: string): string | undefined => {
      let best: { pool: string; liquidity: number } | undefined;
      for (const legs of snapshot.graph.legs.get(token.toLowerCase())?.values() ?? []) {
        for (const leg of legs) {
          if (!transfersTokens(leg.pool.kind)) continue;
          // The contract holding the pool's tokens: the pool, or the one it lives in (a V4 PoolManager).
          const pool = poolModule(leg.pool).routerSwap?.(leg.pool).pool ?? leg.pool.address;
          if (!best || leg.liquidity > best.liquidity) best = { pool, liquidity: leg.liquidity };
        }
      }
      return best?.pool;
    };
    let fresh = 0;
    const out: (T & { transferFeeBps?: number; transferFailure?: string })[] = [];
    for (let i = 0; i < tokens.length; i += CHECK_CONCURRENCY) {
      const batch = tokens.slice(i, i + CHECK_CONCURRENCY);
      out.push(
        ...(await Promise.all(
          batch.map(async (t) => {
            const pool = t.address.toLowerCase() === wrapped ? undefined : holder(t.address);
            if (!pool) return t;
            const kept = checks.known(t.address).find((c) => c.pool.toLowerCase() === pool.toLowerCase());
            if (!kept && ++fresh > MAX_NEW_CHECKS) return t;
            const check: TransferCheck | undefined = await checks.check(t.address, getAddress(pool), snapshot.blockNumber).catch(() => undefined);
            if (!check) return t;
            if (check.result.ok) return { ...t, transferFeeBps: check.result.transferFeeBps };
            if (check.result.failure === 'unknown') return t;
            return { ...t, transferFailure: `${check.result.failure === 'returnedFalse' ? 'transfer() answers false' : `transfers revert: ${check.result.reason}`} (from ${check.result.from} to ${check.result.to})` };
          }),
        )),
      );
    }
    return out;
  }
}
