import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { coreQuoteContract, coreWatchContract, type ParsedRequestOf } from '@dex/messages';
import { LiveQuotesService } from './live-quotes.service';
import { QuoteService } from './quote.service';

@Controller()
export class QuoteHandler {
  constructor(
    @Inject(QuoteService) private readonly quotes: QuoteService,
    @Inject(LiveQuotesService) private readonly live: LiveQuotesService,
  ) {}

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
