// Follows the indexer's chain facts (`chain.<chainId>.<fact>` on the JetStream stream) for a service's
// in-memory state: an ordered consumer per subscription, validated payloads, no fact skipped across failures.
import { CHAIN_EVENTS_STREAM, chainEventSchemas, chainFactsFilter, parseChainSubject, type ChainFact, type ChainFactPayload } from '@dex/messages';
import type { LoggerService } from '@nestjs/common';
import { DeliverPolicy, JSONCodec, type ConsumerMessages } from 'nats';
import type { Counter } from '../metrics/metrics';
import type { NatsBus } from './nats-bus';

const codec = JSONCodec<unknown>();

/** One fact as a subscriber receives it: the chain, the fact's name and its validated payload. */
export type ChainFactMessage = { [F in ChainFact]: { chainId: number; fact: F; payload: ChainFactPayload<F>; seq: number } }[ChainFact];

export interface ChainFactsOptions {
  bus: NatsBus;
  logger: LoggerService;
  /** The logger context, e.g. the service's name. */
  context: string;
  chainIds: readonly number[];
  facts: readonly ChainFact[];
  /** Called once per fact, in stream order; the next fact waits for it. A throw is logged and the fact skipped. */
  onFact: (message: ChainFactMessage) => void | Promise<void>;
  /** Wait between attempts while the stream is missing or NATS is down (default 2 s). */
  retryMs?: number;
  stream?: string;
  /**
   * Start this long before `start` was called (default 0): for a service that reads a stored state right after
   * starting and must not miss a fact published after that state was committed, whatever the clocks say.
   */
  startMarginMs?: number;
}

/**
 * A subscription to chain facts. It starts with the facts published from the moment `start` is called, to the
 * millisecond (what was there before is the state the service reads from the chain at boot; a fact of that
 * very millisecond may be delivered too, so handlers are idempotent) and then follows the stream in
 * order. When the stream does not exist yet (the indexer has not started) or NATS goes away, it retries, and
 * resumes after the last fact it handled, so none is skipped or handled twice.
 */
export class ChainFactsSubscription {
  private running?: Promise<void>;
  private messages?: ConsumerMessages;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private wake?: () => void;
  private startTime?: Date;
  private lastSeq = 0;
  private readonly received?: Counter;

  constructor(private readonly options: ChainFactsOptions) {
    this.received = options.bus.metrics.counter('chain_facts_received_total', 'Chain facts received from the indexer, by chain, fact and outcome');
  }

  start(): void {
    if (this.running || this.stopped) return;
    this.startTime = new Date(Date.now() - (this.options.startMarginMs ?? 0));
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
    this.messages?.stop();
    await this.running;
  }

  /**
   * The consumer's subject filter: the facts of the one chain served, or of all chains. One filter, because a
   * consumer with several needs NATS 2.10; the facts and chains not wanted are dropped here.
   */
  private get filter(): string {
    const { chainIds } = this.options;
    return chainIds.length === 1 ? chainFactsFilter(chainIds[0]) : chainFactsFilter();
  }

  private wanted(chainId: number, fact: ChainFact): boolean {
    return this.options.chainIds.includes(chainId) && this.options.facts.includes(fact);
  }

  private async loop(): Promise<void> {
    let failing = false;
    while (!this.stopped) {
      try {
        await this.consume();
        failing = false;
      } catch (error) {
        if (this.stopped) break;
        // Logged once per outage, not on every retry.
        if (!failing) this.options.logger.warn({ msg: 'chain facts unavailable; retrying', error: (error as Error).message }, this.options.context);
        failing = true;
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.options.retryMs ?? 2_000);
        this.timer.unref();
      });
    }
  }

  private async consume(): Promise<void> {
    const nc = this.options.bus.current ?? (await this.options.bus.connect());
    const stream = this.options.stream ?? CHAIN_EVENTS_STREAM;
    const consumer = await nc.jetstream().consumers.get(stream, {
      filterSubjects: this.filter,
      ...(this.lastSeq > 0
        ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSeq + 1 }
        : { deliver_policy: DeliverPolicy.StartTime, opt_start_time: this.startTime!.toISOString() }),
    });
    const messages = await consumer.consume();
    this.messages = messages;
    // Stopped while the consumer was being set up: `stop` found nothing to stop yet.
    if (this.stopped) {
      await messages.close();
      return;
    }
    this.options.logger.log({ msg: 'following chain facts', stream, filter: this.filter, facts: this.options.facts, fromSeq: this.lastSeq + 1 }, this.options.context);
    for await (const m of messages) {
      this.lastSeq = m.seq;
      await this.handle(m.subject, m.seq, () => codec.decode(m.data));
      if (this.stopped) break;
    }
  }

  private async handle(subject: string, seq: number, decode: () => unknown): Promise<void> {
    const parsed = parseChainSubject(subject);
    if (!parsed || !this.wanted(parsed.chainId, parsed.fact)) return;
    const labels = { chain: parsed.chainId, fact: parsed.fact };
    let payload: unknown;
    try {
      payload = chainEventSchemas[parsed.fact].parse(decode());
    } catch (error) {
      this.received?.inc({ ...labels, outcome: 'invalid' });
      this.options.logger.warn({ msg: 'invalid chain fact skipped', subject, seq, error: (error as Error).message }, this.options.context);
      return;
    }
    try {
      await this.options.onFact({ chainId: parsed.chainId, fact: parsed.fact, payload, seq } as ChainFactMessage);
      this.received?.inc({ ...labels, outcome: 'handled' });
    } catch (error) {
      this.received?.inc({ ...labels, outcome: 'failed' });
      this.options.logger.warn({ msg: 'chain fact not handled', subject, seq, error: (error as Error).message }, this.options.context);
    }
  }
}
