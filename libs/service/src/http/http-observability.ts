import type { LoggerService } from '@nestjs/common';
import { REQUEST_ID_HEADER } from '@dex/messages';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { requestIdFrom, runWithRequest, runWithRequestId, type RequestContext } from '../context/request-context';
import type { MetricsRegistry } from '../metrics/metrics';
import { httpMetrics, UNMATCHED_ROUTE } from '../metrics/service-metrics';

/**
 * Fastify settings of every service's HTTP server: behind a proxy, and each request's id (`request.id`) is
 * the caller's `x-request-id` when it is usable (1 to 128 characters of letters, digits and `._:@/+=-`),
 * otherwise a new UUID.
 */
export function httpServerOptions(): FastifyServerOptions {
  return {
    trustProxy: true,
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => requestIdFrom(req.headers[REQUEST_ID_HEADER]),
  };
}

/** Whether a route (its template, or the path where none matched) is a health probe or a metrics scrape. */
export function isProbeOrScrape(route: string): boolean {
  return route === '/metrics' || route.startsWith('/health');
}

export interface HttpObservabilityOptions {
  readonly metrics: MetricsRegistry;
  readonly logger: LoggerService;
  /**
   * Writes one `http request` line per request (method, route, path, status, durationMs) at `log` level; probes
   * and scrapes (`/health/*`, `/metrics`) are written at `debug` level so they do not drown the log.
   */
  readonly accessLog?: boolean;
  /**
   * Each request's deadline, milliseconds from its arrival (the bus timeout): the bus requests made on its behalf
   * get only what is left of it, so time it spent waiting here is not given again to the services behind.
   */
  readonly deadlineMs?: number;
}

/**
 * Hooks on the service's Fastify instance, added before any route:
 * - each request is handled within its request id (and deadline, with `deadlineMs`), so every log line written and
 *   every bus request made on its behalf carries it; the id is answered in the `x-request-id` header;
 * - every answer, including 404s of unknown paths and failures raised before or by the handler, is recorded
 *   in `http_request_duration_seconds` and `http_requests_total` by method, route template (`/core/pool/:address`,
 *   never the raw URL; `unmatched` for unknown paths) and status;
 * - optionally an access log line.
 */
export function observeHttp(fastify: FastifyInstance, options: HttpObservabilityOptions): void {
  const { duration, requests } = httpMetrics(options.metrics);
  const contexts = new WeakMap<object, RequestContext>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const context: RequestContext = options.deadlineMs === undefined ? { requestId: request.id } : { requestId: request.id, deadlineAt: performance.now() + options.deadlineMs };
    contexts.set(request, context);
    runWithRequest(context, done);
  });
  // The body is read between onRequest and preValidation, by stream events outside the request's context.
  fastify.addHook('preValidation', (request, _reply, done) => runWithRequest(contexts.get(request) ?? { requestId: request.id }, done));
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const labels = { method: request.method, route, status: reply.statusCode };
    duration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
    if (options.accessLog) {
      const write = isProbeOrScrape(route) ? (options.logger.debug?.bind(options.logger) ?? (() => undefined)) : options.logger.log.bind(options.logger);
      runWithRequestId(request.id, () =>
        write(
          {
            msg: 'http request',
            method: request.method,
            route,
            path: request.url.split('?')[0],
            status: reply.statusCode,
            durationMs: Math.round(reply.elapsedTime * 10) / 10,
          },
          'http',
        ),
      );
    }
    done();
  });
}
