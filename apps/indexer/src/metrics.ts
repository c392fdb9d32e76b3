// The indexer's metrics, recorded in the service's registry (served at `GET /metrics`).
import { MetricsRegistry } from '@dex/service';

type Labels = Record<string, string | number>;

/** Where the indexer's metrics go: the service's registry (served at `GET /metrics`), or a registry of its own. */
export interface MetricsSink {
  counter(name: string, help: string): { inc(labels?: Labels, by?: number): void; get(labels?: Labels): number };
  gauge(name: string, help: string): { set(labels: Labels, value: number): void };
}

/** The indexer's metrics, per chain. */
export function indexerMetrics(registry: MetricsSink = new MetricsRegistry('indexer')) {
  return {
    registry,
    blocks: registry.counter('indexer_blocks_total', 'Blocks processed'),
    logs: registry.counter('indexer_logs_total', 'Logs processed'),
    batches: registry.counter('indexer_batches_total', 'Batches committed'),
    reorgs: registry.counter('indexer_reorgs_total', 'Reorgs undone'),
    errors: registry.counter('indexer_errors_total', 'Failed batch attempts'),
    eventsPublished: registry.counter('indexer_events_published_total', 'Chain events acknowledged by JetStream'),
    head: registry.gauge('indexer_head_block', 'Chain head as last seen'),
    lastProcessed: registry.gauge('indexer_last_processed_block', 'Last block fully processed'),
    /** The indexer's lag: head minus last processed block, set at every look at the head. */
    behind: registry.gauge('indexer_blocks_behind', 'Blocks between the head and the last processed block'),
    /** After a start at the head: blocks of the activity window (the 24 hours before it) still to read. */
    activityBackfillLeft: registry.gauge('indexer_activity_backfill_blocks_left', 'Blocks of the activity window before a start at the head still to read'),
    blocksPerSecond: registry.gauge('indexer_blocks_per_second', 'Blocks processed per second over the last progress interval'),
    logsPerSecond: registry.gauge('indexer_logs_per_second', 'Logs processed per second over the last progress interval'),
  };
}

export type IndexerMetrics = ReturnType<typeof indexerMetrics>;
