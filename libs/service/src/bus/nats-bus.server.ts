import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import { describeIssues, REQUEST_ID_HEADER, type MessageContract, type Reply } from '@dex/messages';
import { lastValueFrom } from 'rxjs';
import { JSONCodec, type Msg, type Subscription } from 'nats';
import { BusError } from './bus-error';
import type { NatsBus } from './nats-bus';

const codec = JSONCodec<unknown>();

/** What a handler receives besides the validated payload. */
export class BusContext {
  constructor(
    readonly subject: string,
    readonly requestId: string | undefined,
  ) {}
}

/**
 * Nest transport that serves `@MessagePattern(subject)` handlers over NATS in the service's queue group.
 * Each subject must have a registered contract: the payload is validated before the handler runs (a bad
 * payload gets a 400 reply) and the result is validated before it is sent. Replies are
 * `{ok: true, data}` or `{ok: false, error: {status, message, details}}`.
 */
export class NatsBusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private readonly contracts = new Map<string, MessageContract>();

  constructor(
    private readonly bus: NatsBus,
    private readonly queue: string,
    contracts: readonly MessageContract[],
  ) {
    super();
    for (const contract of contracts) this.contracts.set(contract.subject, contract);
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
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
    const reply = await this.dispatch(contract, msg, requestId);
    if (msg.reply) msg.respond(codec.encode(reply));
  }

  private async dispatch(contract: MessageContract, msg: Msg, requestId: string | undefined): Promise<Reply<unknown>> {
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
    const handler = this.getHandlerByPattern(contract.subject);
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
          requestId,
          issues: describeIssues(checked.error),
        });
        return { ok: false, error: { status: 500, message: 'Internal error', details: contract.subject } };
      }
      return { ok: true, data: checked.data };
    } catch (err) {
      const known = BusError.bodyOf(err);
      if (known) return { ok: false, error: known };
      this.logger.error({ msg: 'handler failed', subject: contract.subject, requestId, err: String(err) });
      return { ok: false, error: { status: 500, message: 'Internal error', details: contract.subject } };
    }
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
