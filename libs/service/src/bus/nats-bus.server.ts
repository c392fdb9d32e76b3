import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import { describeIssues, REQUEST_ID_HEADER, type MessageContract, type Reply } from '@dex/messages';
import { lastValueFrom } from 'rxjs';
import { JSONCodec, type Msg, type Subscription } from 'nats';
import { requestIdFrom, runWithRequestId } from '../context/request-context';
import type { Histogram } from '../metrics/metrics';
import { natsHandlerHistogram, replyOutcome, subjectLabel } from '../metrics/service-metrics';
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

/**
 * Nest transport that serves `@MessagePattern(subject)` handlers over NATS in the service's queue group.
 * Each subject must have a registered contract: the payload is validated before the handler runs (a bad
 * payload gets a 400 reply) and the result is validated before it is sent. Replies are
 * `{ok: true, data}` or `{ok: false, error: {status, message, details}}`.
 *
 * Each request is handled within its request id (the `x-request-id` header, or a new one): log lines
 * written and bus requests made while it is handled carry that id. The time to the reply is recorded in
 * `nats_handler_duration_seconds` of the bus's metrics.
 */
export class NatsBusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private readonly contracts = new Map<string, MessageContract>();
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly handlerDuration: Histogram;

  constructor(
    private readonly bus: NatsBus,
    private readonly queue: string,
    contracts: readonly MessageContract[],
  ) {
    super();
    for (const contract of contracts) this.contracts.set(contract.subject, contract);
    this.handlerDuration = natsHandlerHistogram(bus.metrics);
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
    const reply = await runWithRequestId(requestId, () => this.dispatch(contract, msg, requestId));
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
