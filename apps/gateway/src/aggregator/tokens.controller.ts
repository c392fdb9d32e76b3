import { Controller, Get, Inject, Query as QueryParams, Req } from '@nestjs/common';
import { listTokensContract, MAX_TOKEN_LIMIT } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../http/api-error';
import { integerParam, param, requireChainId, type Query } from '../http/query';

@Controller()
export class TokensController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** `GET /tokens?chainId=&search=&limit=&offset=&metadata=`: tokens sorted by transfers in the last 24 hours. */
  @Get('tokens')
  async list(@QueryParams() query: Query, @Req() req: FastifyRequest) {
    const chainId = requireChainId(query);
    const search = param(query, 'search');
    if (search !== undefined && search.length > 100) throw ApiError.badRequest('Invalid search: at most 100 characters');
    const limit = integerParam(query, 'limit', 1, MAX_TOKEN_LIMIT);
    const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const rawMetadata = param(query, 'metadata');
    if (rawMetadata !== undefined && rawMetadata !== 'true' && rawMetadata !== 'false') {
      throw ApiError.badRequest('Invalid metadata: must be true or false', `got ${JSON.stringify(rawMetadata)}`);
    }
    const request = { chainId, offset, metadata: rawMetadata !== 'false', ...(search === undefined ? {} : { search }), ...(limit === undefined ? {} : { limit }) };
    return envelope(await this.bus.request(listTokensContract, request, { requestId: req.id }));
  }
}
