import { Controller, Get, Inject, Req } from '@nestjs/common';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { forward, routeOf } from '../http/endpoint';

@Controller()
export class DexesController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /dexes?chainId=`: the chain's liquidity sources with their routerIndex values. */
  @Get(routeOf('listDexes'))
  async list(@Req() req: FastifyRequest) {
    return forward(this.bus, 'listDexes', req);
  }
}
