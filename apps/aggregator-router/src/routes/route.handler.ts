import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { balancesContract, poolsContract, routeContract, type ParsedRequestOf } from '@dex/messages';
import { RouteService } from './route.service';

@Controller()
export class RouteHandler {
  constructor(@Inject(RouteService) private readonly routes: RouteService) {}

  /** `aggregator.route`: the best route and its RouterV2 calldata. */
  @MessagePattern(routeContract.subject)
  route(@Payload() request: ParsedRequestOf<typeof routeContract>) {
    return this.routes.route(request);
  }

  /** `aggregator.pools`: the pools trading a pair. */
  @MessagePattern(poolsContract.subject)
  pools(@Payload() request: ParsedRequestOf<typeof poolsContract>) {
    return this.routes.pools(request);
  }

  /** `aggregator.balances`: a wallet's balances of the chain's known tokens. */
  @MessagePattern(balancesContract.subject)
  balances(@Payload() request: ParsedRequestOf<typeof balancesContract>) {
    return this.routes.balances(request);
  }
}
