import { Controller, Inject, Module, type DynamicModule, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { healthContract } from '@dex/messages';
import { BusModule } from './bus/bus.module';
import type { NatsBus } from './bus/nats-bus';
import type { TransientFailureClassifier } from './bus/transient';
import { natsCheck, type HealthCheck } from './health/health';
import { HealthModule, HealthService } from './health/health.module';
import { MetricsRegistry } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';

/** The failures the service's modules know as a dependency busy or out of reach (see TransientFailureInterceptor). */
export const TRANSIENT_FAILURES = Symbol('TRANSIENT_FAILURES');

export interface ServiceModuleOptions {
  readonly service: string;
  /** The service's bus; its metrics registry is the one served at `GET /metrics` and injected as MetricsRegistry. */
  readonly bus: NatsBus;
  readonly imports?: ModuleMetadata['imports'];
  readonly controllers?: Type[];
  readonly providers?: Provider[];
  /** Readiness checks beside NATS: the service's other dependencies. */
  readonly extraChecks?: readonly HealthCheck[];
  /** Failures of those dependencies that the bus answers 503 (busy or out of reach) rather than 500. */
  readonly transientFailures?: readonly TransientFailureClassifier[];
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
 * The root module every service is built from: the bus, readiness checks (NATS, and each dependency the service
 * adds: `@dex/chain-service` adds Postgres and each chain's RPC) served at `/health/ready` and on `<service>.health`,
 * `/metrics`, and the service's own controllers and providers.
 */
@Module({})
export class ServiceModule {
  static register(options: ServiceModuleOptions): DynamicModule {
    const checks = (): HealthCheck[] => [natsCheck(options.bus), ...(options.extraChecks ?? [])];
    return {
      module: ServiceModule,
      imports: [BusModule.forRoot(options.bus), HealthModule.register({ service: options.service, checks }), ...(options.imports ?? [])],
      controllers: [busHealthHandler(options.service), MetricsController, ...(options.controllers ?? [])],
      providers: [
        { provide: MetricsRegistry, useValue: options.bus.metrics },
        { provide: TRANSIENT_FAILURES, useValue: options.transientFailures ?? [] },
        ...(options.providers ?? []),
      ],
    };
  }
}
