import { Controller, Get, Inject, Req } from '@nestjs/common';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { forward, routeOf } from '../http/endpoint';

/** Launchpad read endpoints. */
@Controller()
export class LaunchpadController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /launchpad/tokens?chainId=&offset=&limit=`: launched tokens, newest first. */
  @Get(routeOf('launchpadTokens'))
  async list(@Req() req: FastifyRequest) {
    return forward(this.bus, 'launchpadTokens', req);
  }

  /** `GET /launchpad/tokens/:address?chainId=`: one launched token. */
  @Get(routeOf('launchpadToken'))
  async token(@Req() req: FastifyRequest) {
    return forward(this.bus, 'launchpadToken', req);
  }

  /** `GET /launchpad/tokens/:address/trades?chainId=&limit=`: recent curve trades, newest first. */
  @Get(routeOf('launchpadTrades'))
  async trades(@Req() req: FastifyRequest) {
    return forward(this.bus, 'launchpadTrades', req);
  }

  /** `GET /launchpad/estimate?chainId=&token=&side=buy|sell&amount=`: a curve trade's output, fee included. */
  @Get(routeOf('launchpadEstimate'))
  async estimate(@Req() req: FastifyRequest) {
    return forward(this.bus, 'launchpadEstimate', req);
  }
}
