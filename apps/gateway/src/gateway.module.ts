import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ServiceModule, type NatsBus } from '@dex/service';
import { DexesController } from './aggregator/dexes.controller';
import { TokensController } from './aggregator/tokens.controller';
import { AggregatorRouteController } from './aggregator/route.controller';
import { CoreController } from './core/core.controller';
import { LaunchpadController } from './launchpad/launchpad.controller';
import { SERVICE, type GatewayConfig } from './config';
import { DocsController } from './docs/docs.controller';
import { GatewayHealthController } from './health/health.controller';
import { ErrorEnvelopeFilter } from './http/error.filter';

/**
 * The public REST surface: validates input, asks the services over NATS, answers in the envelope. It opens no
 * database connection (its settings read no `DATABASE_URL`): its readiness is NATS and each chain's RPC.
 */
export function gatewayModule(config: GatewayConfig, bus: NatsBus): DynamicModule {
  return ServiceModule.forSettings(SERVICE, config, bus, {
    controllers: [DexesController, TokensController, AggregatorRouteController, CoreController, LaunchpadController, DocsController],
    healthControllers: [GatewayHealthController],
    providers: [{ provide: APP_FILTER, useClass: ErrorEnvelopeFilter }],
  });
}
