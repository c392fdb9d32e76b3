import { Controller, Get, Inject, Req } from '@nestjs/common';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { forward, routeOf } from '../http/endpoint';

@Controller()
export class TokensController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /tokens?chainId=&search=&limit=&offset=&metadata=`: tokens sorted by transfers in the last 24 hours. */
  @Get(routeOf('listTokens'))
  async list(@Req() req: FastifyRequest) {
    return forward(this.bus, 'listTokens', req);
  }
}
