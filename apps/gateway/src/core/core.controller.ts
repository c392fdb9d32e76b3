import { Controller, Get, Inject, Query as QueryParams, Req } from '@nestjs/common';
import { coreQuoteContract } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../http/api-error';
import type { Query } from '../http/query';
import { parseQuoteQuery } from './quote-query';

/** The AMM's REST API under `/core`. */
@Controller('core')
export class CoreController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /core/quote`: one quote per amountIn on the pair's pool, optionally with router calldata. */
  @Get('quote')
  async quote(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const request = parseQuoteQuery(query);
    const reply = await this.bus.request(coreQuoteContract, request, { requestId: req.id });
    if (!reply.ok && reply.error.status >= 500 && reply.error.status !== 503) {
      throw new ApiError(500, 'Failed to fetch quote', reply.error.details ?? reply.error.message);
    }
    return envelope(reply);
  }
}
