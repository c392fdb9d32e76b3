import { Controller, Get, Inject, Param, Query as QueryParams, Req } from '@nestjs/common';
import { getLaunchedTokenContract, launchpadEstimateContract, launchpadTradesContract, listLaunchedTokensContract, MAX_LAUNCHPAD_PAGE } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../http/api-error';
import { addressValue as address, integerParam, param, requireChainId, type Query } from '../http/query';

/** Launchpad read endpoints. */
@Controller('launchpad')
export class LaunchpadController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /launchpad/tokens?chainId=&offset=&limit=`: launched tokens, newest first. */
  @Get('tokens')
  async list(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const limit = integerParam(query, 'limit', 1, MAX_LAUNCHPAD_PAGE) ?? 50;
    return envelope(await this.bus.request(listLaunchedTokensContract, { chainId, offset, limit }, { requestId: req.id }));
  }

  /** `GET /launchpad/tokens/:address?chainId=`: one launched token. */
  @Get('tokens/:address')
  async token(@Param('address') token: string, @QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    return envelope(await this.bus.request(getLaunchedTokenContract, { chainId, token: address(token, 'address') }, { requestId: req.id }));
  }

  /** `GET /launchpad/tokens/:address/trades?chainId=&limit=`: recent curve trades, newest first. */
  @Get('tokens/:address/trades')
  async trades(@Param('address') token: string, @QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    const limit = integerParam(query, 'limit', 1, MAX_LAUNCHPAD_PAGE) ?? 50;
    return envelope(await this.bus.request(launchpadTradesContract, { chainId, token: address(token, 'address'), limit }, { requestId: req.id }));
  }

  /** `GET /launchpad/estimate?chainId=&token=&side=buy|sell&amount=`: a curve trade's output, fee included. */
  @Get('estimate')
  async estimate(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    const token = address(param(query, 'token'), 'token');
    const side = param(query, 'side');
    if (side !== 'buy' && side !== 'sell') throw ApiError.badRequest('Invalid side: must be buy or sell', `got ${JSON.stringify(side ?? null)}`);
    const amount = param(query, 'amount');
    if (amount === undefined || !/^\d+$/.test(amount) || BigInt(amount) === 0n || BigInt(amount) >= 2n ** 256n) {
      throw ApiError.badRequest('Invalid amount: must be a positive base-unit integer', `got ${JSON.stringify(amount ?? null)}`);
    }
    return envelope(await this.bus.request(launchpadEstimateContract, { chainId, token, side, amount }, { requestId: req.id }));
  }
}
