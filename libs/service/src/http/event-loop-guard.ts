/**
 * Early refusal of HTTP requests while the service cannot keep up with them. A process past its capacity does not
 * hold its excess as requests in flight: they wait in its socket buffers and event loop, where no queue limit sees
 * them, and every one of them is still parsed, validated and sent on before its answer (at the gateway: a bus
 * request, a reply to serialise), so latency grows without bound. What shows it is the event loop's lag: how late
 * a timer due every `SAMPLE_MS` runs. While the lag is above the limit, a request is answered at arrival (before its
 * body is read or validated) with `503 Service overloaded` and `Retry-After`, which costs a fraction of answering
 * it; the requests still admitted keep their latency. Health probes and metric scrapes are always served.
 */
import { SERVICE_OVERLOADED } from '@dex/messages';
import type { FastifyInstance } from 'fastify';
import type { MetricsRegistry } from '../metrics/metrics';
import { isProbeOrScrape } from './http-observability';

/** How often the loop's lag is sampled, milliseconds. */
export const SAMPLE_MS = 10;

/** The event loop's lag, sampled by a timer due every `SAMPLE_MS` (it keeps no process alive). */
export class EventLoopLag {
  private lastTick = performance.now();
  private drift = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly onSample?: (lagMs: number) => void) {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.drift = Math.max(0, now - this.lastTick - SAMPLE_MS);
      this.lastTick = now;
      this.onSample?.(this.drift);
    }, SAMPLE_MS);
    this.timer.unref();
  }

  /** The lag now, milliseconds: the last sample's, or how late the next one already is when that is more. */
  get lagMs(): number {
    return Math.max(this.drift, performance.now() - this.lastTick - SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface EventLoopGuardOptions {
  /** Requests arriving while the loop lags more than this (milliseconds) are refused. */
  readonly maxLagMs: number;
  readonly metrics: MetricsRegistry;
}

/**
 * The refusal hook on the service's Fastify instance (see the module note); metrics `event_loop_lag_seconds` and
 * `http_refused_total{route}`. Returns the lag monitor (stopped when the server closes).
 */
export function guardEventLoop(fastify: FastifyInstance, options: EventLoopGuardOptions): EventLoopLag {
  const lagGauge = options.metrics.gauge('event_loop_lag_seconds', 'How late the event loop ran a timer at its last sample');
  const refused = options.metrics.counter('http_refused_total', 'HTTP requests refused at arrival while the event loop lagged, by route template');
  const lag = new EventLoopLag((ms) => lagGauge.set({}, ms / 1000));
  fastify.addHook('onClose', (_instance, done) => {
    lag.stop();
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const lagMs = lag.lagMs;
    // Probes and scrapes must answer under load.
    if (lagMs <= options.maxLagMs || isProbeOrScrape(request.routeOptions.url ?? request.url.split('?')[0])) return done();
    refused.inc({ route: request.routeOptions.url ?? 'unmatched' });
    void reply
      .code(503)
      .header('retry-after', '1')
      .send({ success: false, error: SERVICE_OVERLOADED, details: `the service is behind by ${Math.round(lagMs)} ms (more than ${options.maxLagMs} ms): try again shortly` });
  });
  return lag;
}
