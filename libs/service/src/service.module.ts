import { Controller, Inject, Module, type DynamicModule, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { healthContract } from '@dex/messages';
import { BusModule } from './bus/bus.module';
import type { NatsBus } from './bus/nats-bus';
import type { ChainEndpoint } from './config/config';
import { connectDatabase, DatabaseModule, databaseCheck } from './database/database.module';
import { natsCheck, rpcCheck, type HealthCheck } from './health/health';
import { HealthModule, HealthService } from './health/health.module';
import { MetricsRegistry } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';

export interface ServiceModuleOptions {
  readonly service: string;
  /** The service's bus; its metrics registry is the one served at `GET /metrics` and injected as MetricsRegistry. */
  readonly bus: NatsBus;
  /** Chains whose RPC the service needs; each becomes a readiness check. */
  readonly chains?: readonly ChainEndpoint[];
  /** When set, the service gets `DB_CLIENT` and a Postgres readiness check. */
  readonly databaseUrl?: string;
  readonly imports?: ModuleMetadata['imports'];
  readonly controllers?: Type[];
  readonly providers?: Provider[];
  /** Extra HTTP controllers beside `/health/live` and `/health/ready`. */
  readonly healthControllers?: Type[];
  readonly extraChecks?: readonly HealthCheck[];
}

/** A handler answering `<service>.health` over the bus with the readiness report. */
function busHealthHandler(service: string): Type {
  @Controller()
  class BusHealthHandler {
    constructor(@Inject(HealthService) private readonly health: HealthService) {}

    @MessagePattern(healthContract(service).subject)
    check() {
      return this.health.readiness();
    }
  }
  return BusHealthHandler;
}

/**
 * The root module every service is built from: the bus, optionally the database, readiness checks for
 * each dependency (NATS, Postgres, each chain's RPC) and the service's own controllers and providers.
 */
@Module({})
export class ServiceModule {
  static register(options: ServiceModuleOptions): DynamicModule {
    const db = options.databaseUrl === undefined ? undefined : connectDatabase(options.databaseUrl);
    const checks = (): HealthCheck[] => [
      natsCheck(options.bus),
      ...(db ? [databaseCheck(db)] : []),
      ...(options.chains ?? []).map((endpoint) => rpcCheck(endpoint)),
      ...(options.extraChecks ?? []),
    ];
    return {
      module: ServiceModule,
      imports: [
        BusModule.forRoot(options.bus),
        ...(db ? [DatabaseModule.forRoot(db)] : []),
        HealthModule.register({ service: options.service, checks, controllers: options.healthControllers }),
        ...(options.imports ?? []),
      ],
      controllers: [busHealthHandler(options.service), MetricsController, ...(options.controllers ?? [])],
      providers: [{ provide: MetricsRegistry, useValue: options.bus.metrics }, ...(options.providers ?? [])],
    };
  }

  /**
   * `register` from a service's settings: a readiness check for each of its chains, and its database when its
   * settings read `DATABASE_URL` (`databaseSettings`); the service adds its own controllers and providers.
   */
  static forSettings(
    service: string,
    settings: { readonly chains?: readonly ChainEndpoint[]; readonly DATABASE_URL?: string },
    bus: NatsBus,
    own: Omit<ServiceModuleOptions, 'service' | 'bus' | 'chains' | 'databaseUrl'>,
  ): DynamicModule {
    const database = settings.DATABASE_URL === undefined ? {} : { databaseUrl: settings.DATABASE_URL };
    return ServiceModule.register({ service, bus, chains: settings.chains, ...database, ...own });
  }
}
