import type { LoggerService } from '@nestjs/common';
import {
  describeIssues,
  replySchema,
  REQUEST_ID_HEADER,
  type MessageContract,
  type Reply,
  type RequestOf,
  type ResponseOf,
} from '@dex/messages';
import { randomUUID } from 'node:crypto';
import { connect, ErrorCode, headers, JSONCodec, NatsError, type NatsConnection } from 'nats';
import { currentRequestId } from '../context/request-context';
import { MetricsRegistry, type Histogram } from '../metrics/metrics';
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
      servers: this.options.url.split(','),
      name: this.options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      pingInterval: 5_000,
      maxPingOut: 2,
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
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        this.options.logger.warn({ msg: `NATS ${status.type}`, server: String(status.data) }, 'NatsBus');
      }
    }
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
   * service asking another while it handles a request passes the id on), else a new one. Each request that
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
    if (!nc || nc.isClosed()) {
      return done({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } }, 'error');
    }
    const timeout = options.timeoutMs ?? this.options.requestTimeoutMs ?? 5_000;
    const h = headers();
    h.set(REQUEST_ID_HEADER, options.requestId ?? currentRequestId() ?? randomUUID());
    try {
      const msg = await nc.request(contract.subject, codec.encode(parsed.data), { timeout, headers: h });
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
    }
  }

  /** Publishes a fact (fire and forget) after validating it against `schema`. */
  publish<T>(subject: string, schema: { parse(value: unknown): T }, payload: T): void {
    const nc = this.connection;
    if (!nc || nc.isClosed()) throw new Error('not connected to NATS');
    nc.publish(subject, codec.encode(schema.parse(payload)));
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
