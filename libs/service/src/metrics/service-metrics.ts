/**
 * The metrics every service records the same way: HTTP requests it serves, bus requests it makes and bus
 * requests it handles. Label values are kept to a bounded set: HTTP routes are the route templates, bus
 * subjects have their variable parts replaced by `*`.
 */
import type { Reply } from '@dex/messages';
import type { Counter, Histogram, MetricsRegistry } from './metrics';

/** Seconds; up to the default bus timeout and beyond. */
export const LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The `route` label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface HttpMetrics {
  readonly duration: Histogram;
  readonly requests: Counter;
}

/** `http_request_duration_seconds{method,route,status}` and `http_requests_total{method,route,status}`. */
export function httpMetrics(registry: MetricsRegistry): HttpMetrics {
  return {
    duration: registry.histogram('http_request_duration_seconds', 'HTTP requests served, by method, route template and status', LATENCY_BUCKETS),
    requests: registry.counter('http_requests_total', 'HTTP requests served, by method, route template and status'),
  };
}

/** How a bus request ended, seen by the requester. */
export type BusRequestOutcome = 'ok' | 'error' | 'timeout' | 'no_responders' | 'unavailable';
/** How the handling of a bus request ended, seen by the handler. */
export type BusHandlerOutcome = 'ok' | 'error';

/** `nats_request_duration_seconds{subject,outcome}`: bus requests this service made, until the reply or failure. */
export function natsRequestHistogram(registry: MetricsRegistry): Histogram {
  return registry.histogram('nats_request_duration_seconds', 'Bus requests made, by subject and outcome (ok, error, timeout, no_responders)', LATENCY_BUCKETS);
}

/** `nats_handler_duration_seconds{subject,outcome}`: bus requests this service handled, until the reply was ready. */
export function natsHandlerHistogram(registry: MetricsRegistry): Histogram {
  return registry.histogram('nats_handler_duration_seconds', 'Bus requests handled, by subject and outcome (ok, error)', LATENCY_BUCKETS);
}

const VARIABLE_TOKEN = /^(?:\d+|0x[0-9a-fA-F]*|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/**
 * The `subject` label of a bus subject: tokens that vary per request (numbers such as chain ids, hex such as
 * addresses, UUIDs, anything longer than 32 characters) become `*`, so `quotes.999.0xab….0xcd…` is
 * `quotes.*.*.*` and the label keeps a bounded set of values.
 */
export function subjectLabel(subject: string): string {
  return subject
    .split('.')
    .map((token) => (VARIABLE_TOKEN.test(token) || token.length > 32 ? '*' : token))
    .join('.');
}

/**
 * `ok` for a reply the service meant to give: its data, or a failure below 500 (bad input, not found), which
 * is the caller's concern rather than a fault of the service; `error` for a failure of 500 or above.
 */
export function replyOutcome(reply: Reply<unknown>): 'ok' | 'error' {
  return reply.ok || reply.error.status < 500 ? 'ok' : 'error';
}
