import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import { describeIssues, REQUEST_ID_HEADER, REQUEST_TIMEOUT_HEADER, type MessageContract, type Reply } from '@dex/messages';
import { lastValueFrom } from 'rxjs';
import { JSONCodec, type Msg, type Subscription } from 'nats';
import { requestIdFrom, runWithRequest } from '../context/request-context';
import type { Counter, Gauge, Histogram } from '../metrics/metrics';
import { natsHandlerHistogram, replyOutcome, subjectLabel } from '../metrics/service-metrics';
import { AdmissionGate, DEFAULT_ADMISSION, overloaded, type AdmissionLimits } from './admission';
import { BusError } from './bus-error';
import type { NatsBus } from './nats-bus';

const codec = JSONCodec<unknown>();

/** What a handler receives besides the validated payload. */
export class BusContext {
  constructor(
    readonly subject: string,
    /** The requester's `x-request-id`, or a new id when it sent none (or an unusable one). */
    readonly requestId: string,
  ) {}
}

export interface NatsBusServerOptions {
  /** Limits of every subject served (`BUS_MAX_IN_FLIGHT`, `BUS_MAX_QUEUED`, `BUS_MAX_QUEUE_WAIT_MS`). */
  readonly admission?: AdmissionLimits;
  /** Limits of particular subjects, over `admission`. */
  readonly subjects?: Readonly<Record<string, Partial<AdmissionLimits>>>;
  /** The time a requester that sends no `x-request-timeout-ms` waits, milliseconds (the bus timeout). */
  readonly defaultTimeoutMs?: number;
}

/** Longest `x-request-timeout-ms` taken from a requester. */
const MAX_TIMEOUT_MS = 600_000;

/**
 * Nest transport that serves `@MessagePattern(subject)` handlers over NATS in the service's queue group.
 * Each subject must have a registered contract: the payload is validated before the handler runs (a bad
 * payload gets a 400 reply) and the result is validated before it is sent. Replies are
 * `{ok: true, data}` or `{ok: false, error: {status, message, details}}`.
 *
 * Each request is handled within its request id (the `x-request-id` header, or a new one): log lines
 * written and bus requests made while it is handled carry that id. The time to the reply is recorded in
 * `nats_handler_duration_seconds` of the bus's metrics.
 *
 * Load is refused early, never answered late: each subject admits a bounded number of handlers and waiting
 * requests (`AdmissionGate`); past that, or once the requester's deadline (`x-request-timeout-ms`, else the bus
 * timeout) has passed, or when the handler has not answered shortly before it, the reply is a 503 `Service
 * overloaded` with `retryAfterMs`. A failure of a busy or unreachable dependency is a 503 too, not a 500
 * (`TransientFailureInterceptor`, which `startService` registers: Nest's exception layer turns every other error into
 * a generic one before it reaches this server). Counted in
 * `nats_handler_refused_total{subject,reason}`, with `nats_handler_queue_length` and `nats_handler_in_flight`.
 */
export class NatsBusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private readonly contracts = new Map<string, MessageContract>();
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly handlerDuration: Histogram;

  private readonly gates = new Map<string, AdmissionGate>();
  private readonly refused: Counter;
  private readonly queueLength: Gauge;
  private readonly inFlight: Gauge;

  constructor(
    private readonly bus: NatsBus,
    private readonly queue: string,
    contracts: readonly MessageContract[],
    private readonly options: NatsBusServerOptions = {},
  ) {
    super();
    for (const contract of contracts) this.contracts.set(contract.subject, contract);
    this.handlerDuration = natsHandlerHistogram(bus.metrics);
    this.refused = bus.metrics.counter('nats_handler_refused_total', 'Bus requests answered 503 without an answer, by subject and reason (queue_full, queue_wait, deadline, late)');
    this.queueLength = bus.metrics.gauge('nats_handler_queue_length', 'Bus requests waiting for a handler slot, by subject');
    this.inFlight = bus.metrics.gauge('nats_handler_in_flight', 'Bus requests being handled, by subject');
  }

  /** The gate of a subject; health checks are never held back (a busy service is still alive). */
  private gateOf(subject: string): AdmissionGate | undefined {
    if (subject.startsWith('health.')) return undefined;
    let gate = this.gates.get(subject);
    if (!gate) {
      const label = subjectLabel(subject);
      const limits = { ...DEFAULT_ADMISSION, ...this.options.admission, ...this.options.subjects?.[subject] };
      gate = new AdmissionGate(limits, {
        queueLength: (n) => this.queueLength.set({ subject: label }, n),
        inFlight: (n) => this.inFlight.set({ subject: label }, n),
        refused: (reason) => this.refused.inc({ subject: label, reason }),
      });
      this.gates.set(subject, gate);
    }
    return gate;
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    for (const pattern of this.messageHandlers.keys()) {
      if (!this.contracts.has(pattern)) {
        callback(new Error(`no message contract registered for subject ${pattern}`));
        return;
      }
    }
    // Ready at once; subscriptions are made when NATS is reached, and survive reconnects.
    callback();
    void this.bus.connect().then((nc) => {
      for (const [pattern] of this.messageHandlers) {
        const sub = nc.subscribe(pattern, {
          queue: this.queue,
          callback: (err, msg) => {
            if (err) {
              this.logger.error({ msg: 'subscription error', subject: pattern, err: String(err) });
              return;
            }
            void this.handle(pattern, msg);
          },
        });
        this.subscriptions.push(sub);
        this.logger.log({ msg: 'serving subject', subject: pattern, queue: this.queue });
      }
    });
  }

  private async handle(pattern: string, msg: Msg): Promise<void> {
    const contract = this.contracts.get(pattern)!;
    const requestId = requestIdFrom(msg.headers?.get(REQUEST_ID_HEADER));
    const started = performance.now();
    // The answer is due a little before the requester stops waiting, so that it still arrives in time: the margin
    // (a tenth of the budget, at most ANSWER_MARGIN_MS) covers the transit both ways and timers firing late on a busy
    // machine (with 50 ms, a loaded CI machine saw the requester's 504 come first).
    const budget = timeoutFrom(msg.headers?.get(REQUEST_TIMEOUT_HEADER)) ?? this.options.defaultTimeoutMs ?? 5_000;
    const dueAt = started + budget - answerMargin(budget);
    const gate = this.gateOf(pattern);
    const entered = gate?.enter(dueAt) ?? null;
    const refusal = entered instanceof Promise ? await entered : entered;
    let reply: Reply<unknown>;
    if (refusal) {
      reply = overloaded(pattern, refusal);
    } else {
      const work = runWithRequest({ requestId, deadlineAt: dueAt }, () => this.dispatch(contract, msg, requestId));
      if (gate) {
        const admittedAt = performance.now();
        void work.finally(() => gate.release(performance.now() - admittedAt));
      }
      reply = await beforeDeadline(work, dueAt, () => {
        this.refused.inc({ subject: subjectLabel(pattern), reason: 'late' });
        return overloaded(pattern, { reason: 'late', retryAfterMs: 1_000 });
      });
    }
    this.handlerDuration.observe({ subject: subjectLabel(pattern), outcome: replyOutcome(reply) }, (performance.now() - started) / 1000);
    if (msg.reply) msg.respond(codec.encode(reply));
  }

  private async dispatch(contract: MessageContract, msg: Msg, requestId: string): Promise<Reply<unknown>> {
    let raw: unknown;
    try {
      raw = codec.decode(msg.data);
    } catch {
      return { ok: false, error: { status: 400, message: 'Invalid request', details: 'payload is not JSON' } };
    }
    const parsed = contract.request.safeParse(raw);
    if (!parsed.success) {
      return { ok: false, error: { status: 400, message: 'Invalid request', details: describeIssues(parsed.error) } };
    }
    const handler = this.handlerOf(contract.subject);
    if (!handler) return { ok: false, error: { status: 501, message: 'Not implemented', details: contract.subject } };
    try {
      const result = await lastValueFrom(
        this.transformToObservable(await handler(parsed.data, new BusContext(contract.subject, requestId))),
      );
      const checked = contract.response.safeParse(result);
      if (!checked.success) {
        this.logger.error({
          msg: 'handler produced an invalid reply',
          subject: contract.subject,
          issues: describeIssues(checked.error),
        });
        return { ok: false, error: { status: 500, message: 'Internal error', details: contract.subject } };
      }
      return { ok: true, data: checked.data };
    } catch (err) {
      const known = BusError.bodyOf(err);
      if (known) return { ok: false, error: known };
      this.logger.error({ msg: 'handler failed', subject: contract.subject, err: String(err) });
      return { ok: false, error: { status: 500, message: 'Internal error', details: contract.subject } };
    }
  }

  /** The handler of a subject, looked up once (Nest's lookup first tries the subject as a JSON pattern). */
  private handlerOf(subject: string): MessageHandler | null {
    let handler = this.handlers.get(subject) ?? null;
    if (!handler) {
      handler = this.getHandlerByPattern(subject);
      if (handler) this.handlers.set(subject, handler);
    }
    return handler;
  }

  close(): void {
    for (const sub of this.subscriptions.splice(0)) sub.unsubscribe();
  }

  on(): void {
    throw new Error('NatsBusServer does not emit transport events');
  }

  unwrap<T>(): T {
    return this.bus as T;
  }
}

/** The most a handler's answer is due before its requester's timeout, milliseconds. */
export const ANSWER_MARGIN_MS = 250;

/** How long before a requester's `budget` runs out its answer is due: a tenth of it, at most ANSWER_MARGIN_MS. */
export function answerMargin(budget: number): number {
  return Math.min(ANSWER_MARGIN_MS, budget / 10);
}

/** A usable `x-request-timeout-ms` value (whole milliseconds, 1 to 10 minutes), else undefined. */
function timeoutFrom(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const ms = Number(value);
  return ms >= 1 && ms <= MAX_TIMEOUT_MS ? ms : undefined;
}


/** `work`'s reply, or `late()`'s if it is not ready by `dueAt` (the work goes on; its reply is dropped). */
async function beforeDeadline(work: Promise<Reply<unknown>>, dueAt: number, late: () => Reply<unknown>): Promise<Reply<unknown>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Reply<unknown>>((resolve) => {
    timer = setTimeout(() => resolve(late()), Math.max(0, dueAt - performance.now()));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
