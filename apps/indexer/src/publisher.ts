// Publishes committed chain events from the outbox to JetStream, oldest first, each with its Nats-Msg-Id,
// and deletes them once JetStream acknowledged them. A crash between commit and acknowledgement publishes
// them again on restart; JetStream drops the duplicates within its de-duplication window.
import type { IndexerStore } from '@dex/db';
import { CHAIN_EVENTS_STREAM, chainFactsFilter } from '@dex/messages';
import type { NatsBus } from '@dex/service';
import type { LoggerService } from '@nestjs/common';
import { JSONCodec, nanos, NatsError, type JetStreamClient } from 'nats';
import type { IndexerMetrics } from './metrics';

const codec = JSONCodec<unknown>();
/** JetStream's error code for a stream that does not exist (JSStreamNotFoundErr). */
const STREAM_NOT_FOUND = 10059;

export interface PublisherOptions {
  stream?: string;
  /** How long JetStream keeps facts (default 7 days). */
  maxAgeMs?: number;
  /** De-duplication window of the stream (default 10 minutes). */
  duplicateWindowMs?: number;
  /** Copies of the stream on a NATS cluster (default 1); an existing stream with another count is changed to it. */
  replicas?: number;
  retryMs?: number;
}

export class OutboxPublisher {
  private js?: JetStreamClient;
  private running?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly stream: string;

  constructor(
    private readonly store: IndexerStore,
    private readonly bus: NatsBus,
    private readonly logger: LoggerService,
    private readonly metrics: IndexerMetrics,
    private readonly options: PublisherOptions = {},
  ) {
    this.stream = options.stream ?? CHAIN_EVENTS_STREAM;
  }

  /** Publishes what is pending, now or right after the run in progress. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when nothing is pending or in flight. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.drain();
  }

  private async jetstream(): Promise<JetStreamClient> {
    if (this.js) return this.js;
    const nc = this.bus.current;
    if (!nc || nc.isClosed()) throw new Error('not connected to NATS');
    const jsm = await nc.jetstreamManager();
    const replicas = this.options.replicas ?? 1;
    const existing = await jsm.streams.info(this.stream).catch((err: unknown) => {
      if (err instanceof NatsError && err.api_error?.err_code === STREAM_NOT_FOUND) return undefined;
      throw err;
    });
    if (!existing) {
      await jsm.streams.add({
        name: this.stream,
        subjects: [chainFactsFilter()],
        max_age: nanos(this.options.maxAgeMs ?? 7 * 24 * 3_600_000),
        duplicate_window: nanos(this.options.duplicateWindowMs ?? 600_000),
        num_replicas: replicas,
      });
      this.logger.log({ msg: 'created stream', stream: this.stream, subjects: chainFactsFilter(), replicas }, 'publisher');
    } else if (existing.config.num_replicas !== replicas) {
      await jsm.streams.update(this.stream, { num_replicas: replicas });
      this.logger.log({ msg: 'changed the stream replicas', stream: this.stream, from: existing.config.num_replicas, to: replicas }, 'publisher');
    }
    this.js = nc.jetstream();
    return this.js;
  }

  private async run(): Promise<void> {
    try {
      const js = await this.jetstream();
      for (;;) {
        const pending = await this.store.pendingEvents(500);
        if (pending.length === 0) return;
        const acks = await Promise.all(pending.map((e) => js.publish(e.subject, codec.encode(e.payload), { msgID: e.msgId })));
        await this.store.deleteEvents(pending.map((e) => e.id));
        this.metrics.eventsPublished.inc({}, acks.filter((a) => !a.duplicate).length);
      }
    } catch (error) {
      this.js = undefined;
      if (this.closed) return;
      this.logger.warn({ msg: 'publishing chain events failed; retrying', error: (error as Error).message }, 'publisher');
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.kick(), this.options.retryMs ?? 2_000);
      this.timer.unref();
    }
  }
}
