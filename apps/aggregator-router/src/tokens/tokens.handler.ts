import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CheckpointRepository, TokenRepository, type DbClient } from '@dex/db';
import { hasControlCharacters, INVALID_SEARCH_CONTROL, listTokensContract, type ParsedRequestOf, type ResponseOf } from '@dex/messages';
import { BusError, DB_CLIENT } from '@dex/service';
import { getAddress } from 'viem';
import { SourceRegistry } from '../sources/source-registry';

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
    const records = page.tokens.map((t) => ({ ...t, address: getAddress(t.address) }));
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
}
