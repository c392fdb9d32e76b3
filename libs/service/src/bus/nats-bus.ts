import type { LoggerService } from '@nestjs/common';
import {
  describeIssues,
  replySchema,
  REQUEST_ID_HEADER,
  REQUEST_TIMEOUT_HEADER,
  type MessageContract,
  type Reply,
  type RequestOf,
  type ResponseOf,
} from '@dex/messages';
import { randomUUID } from 'node:crypto';
import { connect, ErrorCode, headers, JSONCodec, NatsError, type NatsConnection } from 'nats';
import type { z } from 'zod';
import { currentRequestContext } from '../context/request-context';
import { MetricsRegistry, type Histogram } from '../metrics/metrics';
import { overloaded } from './admission';
import { natsRequestHistogram, replyOutcome, subjectLabel, type BusRequestOutcome } from '../metrics/service-metrics';

export interface NatsBusOptions {
  readonly url: string;
  /** Connection name, shown by the server; the service name. */
  readonly name: string;
  readonly logger: LoggerService;
  /** Default timeout of requests, milliseconds. */
  readonly requestTimeoutMs?: number;
  /** The service's metrics (served at `GET /metrics`); a registry of its own when not given. */
  readonly metrics?: MetricsRegistry;
}

export interface RequestOptions {
  readonly timeoutMs?: number;
  /** Sent as the `x-request-id` header; by default the id of the request being handled, or a new one. */
  readonly requestId?: string;
}

const codec = JSONCodec<unknown>();
/** How long a connection attempt may take, from the socket to the server's first PONG. */
const HANDSHAKE_TIMEOUT_MS = 2_000;
/** What an in-flight request resolves with when the connection is lost under it. */
const LOST = Symbol('connection lost');

/** The reply schema of each response schema, built once (a zod schema is compiled on its first parse). */
const replySchemas = new WeakMap<MessageContract['response'], ReturnType<typeof replySchema>>();
function replySchemaOf(contract: MessageContract): ReturnType<typeof replySchema> {
  let schema = replySchemas.get(contract.response);
  if (!schema) replySchemas.set(contract.response, (schema = replySchema(contract.response)));
  return schema;
}

/**
 * The service's connection to NATS. It connects in the background and keeps reconnecting forever, so a
 * service boots (and reports itself not ready) while NATS is down and recovers without a restart.
 */
export class NatsBus {
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private closed = false;
  /**
   * Set from the connection's `disconnect` until its `reconnect`: requests made meanwhile fail at once, and the
   * requests in flight when it was lost are answered 503 at once too (their replies went down with the server).
   */
  private outage?: { since: number };
  /** The requests in flight, each by the function that fails it when the connection is lost. */
  private readonly inFlight = new Set<() => void>();
  /** The service's metrics; the bus records `nats_request_duration_seconds` in it, its server `nats_handler_duration_seconds`. */
  readonly metrics: MetricsRegistry;
  private readonly requestDuration: Histogram;

  constructor(private readonly options: NatsBusOptions) {
    this.metrics = options.metrics ?? new MetricsRegistry(options.name);
    this.requestDuration = natsRequestHistogram(this.metrics);
  }

  /** Resolves with the connection once the first connect succeeds; safe to call many times. */
  connect(): Promise<NatsConnection> {
    this.connecting ??= connect({
      servers: this.options.url.split(',').map((s) => s.trim()).filter(Boolean),
      name: this.options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      pingInterval: 5_000,
      maxPingOut: 2,
      // A server that dies between its INFO and its PONG (one of a cluster killed while the client reconnects
      // to it) leaves the client waiting for that PONG until this limit (the library's default is 20 s): the
      // whole cluster back, the service stayed cut off for another 10 s. A handshake on a live server takes
      // milliseconds.
      timeout: HANDSHAKE_TIMEOUT_MS,
      // No stack captured per request for a timeout the caller may never see: failures become replies by code.
      noAsyncTraces: true,
    }).then((nc) => {
      this.connection = nc;
      this.options.logger.log({ msg: 'connected to NATS', server: nc.getServer() }, 'NatsBus');
      void this.watch(nc);
      if (this.closed) void nc.close();
      return nc;
    });
    return this.connecting;
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        this.markDisconnected();
        this.options.logger.warn({ msg: 'NATS disconnect', server: String(status.data) }, 'NatsBus');
      } else if (status.type === 'reconnect') {
        const downMs = this.outage ? Math.round(performance.now() - this.outage.since) : undefined;
        this.outage = undefined;
        this.options.logger.warn({ msg: 'NATS reconnect', server: String(status.data), downMs }, 'NatsBus');
      }
    }
    // The status iterator ends when the connection is closed for good.
    this.markDisconnected();
  }

  private markDisconnected(): void {
    if (this.outage) return;
    this.outage = { since: performance.now() };
    for (const lose of this.inFlight) lose();
    this.inFlight.clear();
  }

  /** Whether the connection is up now: connected once and not lost since (a lost one reconnects by itself). */
  get connected(): boolean {
    const nc = this.connection;
    return !!nc && !nc.isClosed() && !this.outage;
  }

  /** The live connection, if the first connect has happened. */
  get current(): NatsConnection | undefined {
    return this.connection;
  }

  /** Round trip to the server (PING/PONG) within `timeoutMs`; rejects when NATS is unreachable. */
  async ping(timeoutMs = 1_500): Promise<number> {
    const nc = this.connection;
    if (!nc) throw new Error('not connected to NATS yet');
    if (nc.isClosed()) throw new Error('NATS connection closed');
    const started = performance.now();
    await withTimeout(nc.flush(), timeoutMs, `NATS did not answer within ${timeoutMs} ms`);
    return performance.now() - started;
  }

  /**
   * Sends a request under `contract` and returns the validated reply. Transport failures come back as
   * error replies (503 when nobody serves the subject or NATS is down, 504 on timeout), never as throws.
   * The `x-request-id` header carries `options.requestId`, else the id of the request being handled (so a
   * service asking another while it handles a request passes the id on), else a new one. The
   * `x-request-timeout-ms` header carries the time the reply is waited for: the timeout, cut to what is left of the
   * handled request's deadline (none left: a 503 without sending). Each request that
   * is sent, or that fails for want of a connection, is recorded in `nats_request_duration_seconds`.
   */
  async request<C extends MessageContract>(
    contract: C,
    payload: RequestOf<C>,
    options: RequestOptions = {},
  ): Promise<Reply<ResponseOf<C>>> {
    const parsed = contract.request.safeParse(payload);
    if (!parsed.success) {
      return { ok: false, error: { status: 400, message: 'Invalid request', details: describeIssues(parsed.error) } };
    }
    const started = performance.now();
    const done = <R extends Reply<ResponseOf<C>>>(reply: R, outcome: BusRequestOutcome = replyOutcome(reply)): R => {
      this.requestDuration.observe({ subject: subjectLabel(contract.subject), outcome }, (performance.now() - started) / 1000);
      return reply;
    };
    const nc = this.connection;
    // While the connection is down a request would wait in the client's buffer for the whole timeout: fail fast.
    if (!nc || nc.isClosed() || this.outage) {
      return done({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } }, 'unavailable');
    }
    const context = currentRequestContext();
    let timeout = options.timeoutMs ?? this.options.requestTimeoutMs ?? 5_000;
    // Made on behalf of a request being handled: only the time its requester still waits.
    if (context?.deadlineAt !== undefined) {
      const left = Math.floor(context.deadlineAt - performance.now());
      if (left <= 0) {
        return done(overloaded(contract.subject, { reason: 'unsent', retryAfterMs: 1_000 }), 'timeout');
      }
      timeout = Math.min(timeout, left);
    }
    const h = headers();
    h.set(REQUEST_ID_HEADER, options.requestId ?? context?.requestId ?? randomUUID());
    h.set(REQUEST_TIMEOUT_HEADER, String(timeout));
    const lost = this.lostSignal();
    try {
      const msg = await Promise.race([nc.request(contract.subject, codec.encode(parsed.data), { timeout, headers: h }), lost.promise]);
      if (msg === LOST) {
        return done({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } }, 'unavailable');
      }
      const reply = replySchemaOf(contract).safeParse(codec.decode(msg.data));
      if (!reply.success) {
        this.options.logger.error(
          { msg: 'malformed reply', subject: contract.subject, issues: describeIssues(reply.error) },
          'NatsBus',
        );
        return done({ ok: false, error: { status: 502, message: 'Malformed reply from upstream service', details: contract.subject } }, 'error');
      }
      return done(reply.data as Reply<ResponseOf<C>>);
    } catch (err) {
      if (err instanceof NatsError && err.code === ErrorCode.NoResponders) {
        return done({ ok: false, error: { status: 503, message: 'No service is answering', details: contract.subject } }, 'no_responders');
      }
      if (err instanceof NatsError && err.code === ErrorCode.Timeout) {
        return done({ ok: false, error: { status: 504, message: 'Upstream service timed out', details: contract.subject } }, 'timeout');
      }
      this.options.logger.error({ msg: 'bus request failed', subject: contract.subject, err: String(err) }, 'NatsBus');
      return done({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } }, 'error');
    } finally {
      lost.cancel();
    }
  }

  /** Resolves with LOST if the connection is lost before `cancel` (called once the request has its answer). */
  private lostSignal(): { promise: Promise<typeof LOST>; cancel: () => void } {
    let lose!: () => void;
    const promise = new Promise<typeof LOST>((resolve) => (lose = () => resolve(LOST)));
    this.inFlight.add(lose);
    return { promise, cancel: () => this.inFlight.delete(lose) };
  }

  /** Publishes a fact (fire and forget) after validating it against `schema`. */
  publish<T>(subject: string, schema: { parse(value: unknown): T }, payload: T): void {
    const nc = this.connection;
    if (!nc || nc.isClosed()) throw new Error('not connected to NATS');
    nc.publish(subject, codec.encode(schema.parse(payload)));
  }

  /**
   * Subscribes to a topic (`aggregator.view.<chainId>`, a quote topic): each message is validated against `schema`
   * (a malformed one is logged and dropped) and handed to `onMessage`. The subscription lives through reconnections;
   * the returned function ends it. Throws when the bus is not connected.
   */
  subscribe<T>(subject: string, schema: z.ZodType<T>, onMessage: (payload: T) => void): () => void {
    const nc = this.connection;
    if (!nc || nc.isClosed()) throw new Error('not connected to NATS');
    const sub = nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        let decoded: unknown;
        try {
          decoded = codec.decode(msg.data);
        } catch {
          decoded = undefined;
        }
        const parsed = schema.safeParse(decoded);
        if (!parsed.success) {
          this.options.logger.warn({ msg: 'malformed message', subject }, 'NatsBus');
          return;
        }
        onMessage(parsed.data);
      },
    });
    return () => sub.unsubscribe();
  }

  async close(): Promise<void> {
    this.closed = true;
    const nc = this.connection;
    if (nc && !nc.isClosed()) await nc.drain().catch(() => nc.close());
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
