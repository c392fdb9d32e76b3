import { Controller, Get, Inject, Query as QueryParams, Req } from '@nestjs/common';
import { listDexesContract } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { envelope } from '../http/api-error';
import { requireChainId, type Query } from '../http/query';

@Controller()
export class DexesController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /dexes?chainId=`: the chain's liquidity sources with their routerIndex values. */
  @Get('dexes')
  async list(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    return envelope(await this.bus.request(listDexesContract, { chainId }, { requestId: req.id }));
  }
}
