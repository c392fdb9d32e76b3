import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { serviceCheck, ServiceModule, type NatsBus } from '@dex/service';
import { DexesController } from './aggregator/dexes.controller';
import { TokensController } from './aggregator/tokens.controller';
import { AggregatorRouteController } from './aggregator/route.controller';
import { RouteStreamController } from './aggregator/route-stream.controller';
import { RouteStreams } from './aggregator/route-streams';
import { CoreController } from './core/core.controller';
import { LaunchpadController } from './launchpad/launchpad.controller';
import { SERVICE, type GatewayConfig } from './config';
import { DocsController } from './docs/docs.controller';
import { GatewayHealthController, SERVICE_CHECKS } from './health/health.controller';
import { ErrorEnvelopeFilter } from './http/error.filter';

/**
 * The public REST surface: validates input, asks the services over NATS, answers in the envelope. It opens no
 * database connection and no chain client: its own readiness is NATS; `GET /health` adds each service's, asked
 * over NATS.
 */
export function gatewayModule(config: GatewayConfig, bus: NatsBus): DynamicModule {
  const services = config.HEALTH_SERVICES.map((service) => serviceCheck(bus, service, config.HEALTH_SERVICE_TIMEOUT_MS));
  return ServiceModule.register({
    service: SERVICE,
    bus,
    controllers: [DexesController, TokensController, AggregatorRouteController, RouteStreamController, CoreController, LaunchpadController, DocsController, GatewayHealthController],
    providers: [
      { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      { provide: SERVICE_CHECKS, useValue: services },
      {
        provide: RouteStreams,
        useFactory: () =>
          new RouteStreams(bus, {
            perClient: config.ROUTE_STREAMS_PER_CLIENT,
            total: config.ROUTE_STREAMS_MAX,
            maxDurationMs: config.ROUTE_STREAM_MAX_SECONDS * 1_000,
            heartbeatMs: config.ROUTE_STREAM_HEARTBEAT_MS,
            concurrentSearches: config.ROUTE_STREAM_SEARCH_CONCURRENCY,
          }),
      },
    ],
  });
}
