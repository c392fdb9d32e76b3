import { Controller, Get, Inject, Req } from '@nestjs/common';
import { corePoolsContract, coreQuoteContract } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../http/api-error';
import { forward, routeOf, validated } from '../http/endpoint';

/** The AMM's REST API under `/core`. */
@Controller()
export class CoreController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /core/quote`: one quote per amountIn on the pair's pool, optionally with router calldata. */
  @Get(routeOf('coreQuote'))
  async quote(@Req() req: FastifyRequest) {
    const reply = await this.bus.request(coreQuoteContract, validated('coreQuote', req), { requestId: req.id });
    // A busy or unreachable upstream (503) or one that did not answer in time (504) says so; anything else is 500.
    if (!reply.ok && reply.error.status >= 500 && reply.error.status !== 503 && reply.error.status !== 504) {
      throw new ApiError(500, 'Failed to fetch quote', reply.error.details ?? reply.error.message);
    }
    return envelope(reply);
  }

  /** `GET /core/pools?chainId=`: every pool with `totalTVL` and `totals24h` beside `data`. */
  @Get(routeOf('corePools'))
  async pools(@Req() req: FastifyRequest) {
    const reply = await this.bus.request(corePoolsContract, validated('corePools', req), { requestId: req.id });
    if (!reply.ok) throw ApiError.fromBus(reply.error);
    return { success: true, data: reply.data.pools, totalTVL: reply.data.totalTVL, totals24h: reply.data.totals24h };
  }

  /** `GET /core/pool/:address?chainId=`: one pool. */
  @Get(routeOf('corePool'))
  async pool(@Req() req: FastifyRequest) {
    return forward(this.bus, 'corePool', req);
  }
}
