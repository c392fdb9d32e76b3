import { Controller, Get, Inject, Param, Query as QueryParams, Req } from '@nestjs/common';
import { corePoolContract, corePoolsContract, coreQuoteContract } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../http/api-error';
import { addressValue, requireChainId, type Query } from '../http/query';
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

  /** `GET /core/pools?chainId=`: every pool with `totalTVL` and `totals24h` beside `data`. */
  @Get('pools')
  async pools(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    const reply = await this.bus.request(corePoolsContract, { chainId }, { requestId: req.id });
    if (!reply.ok) throw ApiError.fromBus(reply.error);
    return { success: true, data: reply.data.pools, totalTVL: reply.data.totalTVL, totals24h: reply.data.totals24h };
  }

  /** `GET /core/pool/:address?chainId=`: one pool. */
  @Get('pool/:address')
  async pool(@Param('address') address: string, @QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    return envelope(await this.bus.request(corePoolContract, { chainId, pool: addressValue(address, 'address') }, { requestId: req.id }));
  }
}
