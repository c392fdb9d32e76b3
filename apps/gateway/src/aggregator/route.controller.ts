import { Controller, Get, Inject, Query as QueryParams, Req } from '@nestjs/common';
import { balancesContract, poolsContract, routeContract } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { envelope } from '../http/api-error';
import type { Query } from '../http/query';
import { parseBalancesQuery, parsePoolsQuery, parseRouteQuery } from './route-query';

/** The aggregator's route search, pool discovery and wallet balances. */
@Controller()
export class AggregatorRouteController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /v2/route`: the best route and ready-to-send RouterV2 calldata. */
  @Get('v2/route')
  async route(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    return envelope(await this.bus.request(routeContract, parseRouteQuery(query), { requestId: req.id }));
  }

  /** `GET /pools`: every pool trading tokenA against tokenB (order does not matter). */
  @Get('pools')
  async pools(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    return envelope(await this.bus.request(poolsContract, parsePoolsQuery(query), { requestId: req.id }));
  }

  /** `GET /tokens/balances`: a wallet's balances of the chain's known tokens and native coin. */
  @Get('tokens/balances')
  async balances(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    return envelope(await this.bus.request(balancesContract, parseBalancesQuery(query), { requestId: req.id }));
  }
}
