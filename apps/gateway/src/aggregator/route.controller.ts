import { Controller, Get, Inject, Req } from '@nestjs/common';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { forward, routeOf } from '../http/endpoint';

/** The aggregator's route search, pool discovery and wallet balances. */
@Controller()
export class AggregatorRouteController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /v2/route`: the best route and ready-to-send RouterV2 calldata. */
  @Get(routeOf('route'))
  async route(@Req() req: FastifyRequest) {
    return forward(this.bus, 'route', req);
  }

  /** `GET /pools`: every pool trading tokenA against tokenB (order does not matter). */
  @Get(routeOf('findPools'))
  async pools(@Req() req: FastifyRequest) {
    return forward(this.bus, 'findPools', req);
  }

  /** `GET /tokens/balances`: a wallet's balances of the chain's known tokens and native coin. */
  @Get(routeOf('tokenBalances'))
  async balances(@Req() req: FastifyRequest) {
    return forward(this.bus, 'tokenBalances', req);
  }
}
