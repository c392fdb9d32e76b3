import type { INestApplication, LoggerService, ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { healthContract, type MessageContract } from '@dex/messages';
import { NatsBus } from './bus/nats-bus';
import { DEFAULT_ADMISSION, type AdmissionLimits } from './bus/admission';
import { TransientFailureInterceptor } from './bus/bus-error';
import { NatsBusServer } from './bus/nats-bus.server';
import { ConfigError, LOG_LEVELS } from './config/config';
import { guardEventLoop } from './http/event-loop-guard';
import { httpServerOptions, observeHttp } from './http/http-observability';
import { createJsonLogger } from './logging/logger';
import { MetricsRegistry } from './metrics/metrics';
import type { TransientFailureClassifier } from './bus/transient';
import { TRANSIENT_FAILURES } from './service.module';

export interface ServiceDefinition<C> {
  /** Service name: NATS connection name, queue group and log context. */
  readonly name: string;
  /** Reads and validates the settings; throws ConfigError naming what is missing. */
  readonly loadConfig: () => C & BaseConfig;
  /** The root module, given the config and the bus. */
  readonly module: (config: C, bus: NatsBus) => Required<Pick<ModuleMetadata, 'imports'>>['imports'][number];
  /** Subjects this service answers, with their contracts. */
  readonly serves?: readonly MessageContract[];
  /**
   * Admission control of the subjects it answers: the service's limits for every subject, and for some subjects
   * apart (see `AdmissionGate`); `BUS_MAX_IN_FLIGHT`, `BUS_MAX_QUEUED` and `BUS_MAX_QUEUE_WAIT_MS` override both.
   */
  readonly admission?: { readonly all?: Partial<AdmissionLimits>; readonly subjects?: Readonly<Record<string, Partial<AdmissionLimits>>> };
  /** One log line per HTTP request served (the gateway's access log). */
  readonly accessLog?: boolean;
  /**
   * HTTP requests are refused at arrival (503 `Service overloaded`) while the event loop lags more than
   * `HTTP_MAX_EVENT_LOOP_LAG_MS` (`event-loop-guard.ts`): the gateway, whose excess would otherwise wait unseen.
   */
  readonly guardEventLoop?: boolean;
  /** How the HTTP server answers failures met before any route (a malformed URL, headers too large). */
  readonly httpErrors?: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;
}

/** The settings every service has (`baseSettings`). */
interface BaseConfig {
  NATS_URL: string;
  LOG_LEVEL: (typeof LOG_LEVELS)[number];
  HTTP_HOST: string;
  HTTP_PORT: number;
  BUS_TIMEOUT_MS: number;
  BUS_MAX_IN_FLIGHT?: number;
  BUS_MAX_QUEUED?: number;
  BUS_MAX_QUEUE_WAIT_MS?: number;
  HTTP_MAX_EVENT_LOOP_LAG_MS: number;
}

/** The admission limits of a service: its own over the defaults, the settings over both. */
export function admissionOptions(definition: Pick<ServiceDefinition<unknown>, 'admission'>, config: Partial<BaseConfig>): { admission: AdmissionLimits; subjects: Record<string, Partial<AdmissionLimits>> } {
  const set: Partial<AdmissionLimits> = {
    ...(config.BUS_MAX_IN_FLIGHT === undefined ? {} : { inFlight: config.BUS_MAX_IN_FLIGHT }),
    ...(config.BUS_MAX_QUEUED === undefined ? {} : { queued: config.BUS_MAX_QUEUED }),
    ...(config.BUS_MAX_QUEUE_WAIT_MS === undefined ? {} : { maxQueueWaitMs: config.BUS_MAX_QUEUE_WAIT_MS }),
  };
  return {
    admission: { ...DEFAULT_ADMISSION, ...definition.admission?.all, ...set },
    subjects: Object.fromEntries(Object.entries(definition.admission?.subjects ?? {}).map(([subject, limits]) => [subject, { ...limits, ...set }])),
  };
}

export interface RunningService<C> {
  readonly app: INestApplication;
  readonly bus: NatsBus;
  /** The service's metrics, served at `GET /metrics`. */
  readonly metrics: MetricsRegistry;
  readonly config: C;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Boots a service: validated config (exit with the setting's name if one is missing), JSON logs, the NATS
 * bus with a queue group named after the service, and the HTTP server for health and metrics (and, at the
 * gateway, the REST API). One metrics registry serves them all: HTTP requests, bus requests made and
 * handled, and the service's own figures. NATS may be down at boot: the service starts, reports itself not
 * ready, and recovers.
 */
export async function startService<C>(definition: ServiceDefinition<C>, overrides?: { logger?: LoggerService }): Promise<RunningService<C>> {
  const config = definition.loadConfig();
  const logger = overrides?.logger ?? createJsonLogger(definition.name, config.LOG_LEVEL);
  const metrics = new MetricsRegistry(definition.name);
  const bus = new NatsBus({ url: config.NATS_URL, name: definition.name, logger, requestTimeoutMs: config.BUS_TIMEOUT_MS, metrics });
  const adapter = new FastifyAdapter({ ...httpServerOptions(), ...definition.httpErrors });
  observeHttp(adapter.getInstance(), { metrics, logger, accessLog: definition.accessLog, deadlineMs: config.BUS_TIMEOUT_MS });
  if (definition.guardEventLoop) guardEventLoop(adapter.getInstance(), { maxLagMs: config.HTTP_MAX_EVENT_LOOP_LAG_MS, metrics });
  const app = await NestFactory.create<NestFastifyApplication>(definition.module(config, bus) as never, adapter, { logger, abortOnError: false });
  const server = new NatsBusServer(bus, definition.name, [healthContract(definition.name), ...(definition.serves ?? [])], {
    ...admissionOptions(definition, config),
    defaultTimeoutMs: config.BUS_TIMEOUT_MS,
  });
  // Before the microservice is connected: connecting sets up its handlers, each with the global interceptors of that
  // moment (it shares the app's settings; the interceptor lets HTTP requests pass untouched, though each pays for
  // its run). A service whose modules know no failure of a store or a chain (the gateway: it reaches neither) takes
  // none, so that its public HTTP requests do not pay for it.
  const transientFailures = transientFailuresOf(app);
  if (transientFailures.length > 0) app.useGlobalInterceptors(new TransientFailureInterceptor(transientFailures));
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  app.enableShutdownHooks();
  void bus.connect();
  await app.startAllMicroservices();
  await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  const url = await app.getUrl();
  logger.log({ msg: 'service started', url: url.replace('[::1]', '127.0.0.1') }, definition.name);
  return {
    app,
    bus,
    metrics,
    config,
    url: url.replace('[::1]', '127.0.0.1'),
    close: async () => {
      await app.close();
      await bus.close();
    },
  };
}

/** The failures the service's modules know as busy or out of reach (ServiceModule's `transientFailures`). */
function transientFailuresOf(app: INestApplication): readonly TransientFailureClassifier[] {
  try {
    return app.get<readonly TransientFailureClassifier[]>(TRANSIENT_FAILURES, { strict: false });
  } catch {
    // A root module that is not built on ServiceModule declares none.
    return [];
  }
}

/** Entry point for `main.ts`: start, or print the reason as a JSON line and exit non-zero. */
export function runService<C>(definition: ServiceDefinition<C>): void {
  startService(definition).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      JSON.stringify({ level: 'fatal', context: definition.name, message, problems: err instanceof ConfigError ? err.problems : undefined, timestamp: new Date().toISOString() }) + '\n',
    );
    process.exit(err instanceof ConfigError ? 78 : 1);
  });
}
