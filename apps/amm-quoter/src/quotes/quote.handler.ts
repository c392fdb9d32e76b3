import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { corePoolContract, corePoolsContract, coreQuoteContract, coreWatchContract, type ParsedRequestOf } from '@dex/messages';
import type { Address } from 'viem';
import { PoolStatsService } from './pool-stats.service';
import { LiveQuotesService } from './live-quotes.service';
import { QuoteService } from './quote.service';

@Controller()
export class QuoteHandler {
  constructor(
    @Inject(QuoteService) private readonly quotes: QuoteService,
    @Inject(LiveQuotesService) private readonly live: LiveQuotesService,
    @Inject(PoolStatsService) private readonly stats: PoolStatsService,
  ) {}

  /** `core.pools`: every pool of the chain with prices, reserves, TVL and 24 h stats. */
  @MessagePattern(corePoolsContract.subject)
  pools(@Payload() request: ParsedRequestOf<typeof corePoolsContract>) {
    return this.stats.pools(request.chainId);
  }

  /** `core.pool`: one pool. */
  @MessagePattern(corePoolContract.subject)
  pool(@Payload() request: ParsedRequestOf<typeof corePoolContract>) {
    return this.stats.pool(request.chainId, request.pool as Address);
  }

  /** `core.quote`: quotes on the pair's pool, one per amount, optionally with router calldata. */
  @MessagePattern(coreQuoteContract.subject)
  quote(@Payload() request: ParsedRequestOf<typeof coreQuoteContract>) {
    return this.quotes.quote(request);
  }

  /** `core.watch`: start or renew the pair's live quote topic. */
  @MessagePattern(coreWatchContract.subject)
  watch(@Payload() request: ParsedRequestOf<typeof coreWatchContract>) {
    return this.live.watch(request);
  }
}
