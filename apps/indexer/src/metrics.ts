// A small in-memory metrics registry: counters and gauges with labels, rendered in the Prometheus text
// format for `GET /metrics` and as plain objects for logs.

type Labels = Record<string, string | number>;

interface Family {
  type: 'counter' | 'gauge';
  help: string;
  values: Map<string, { labels: Labels; value: number }>;
}

const key = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');

export class MetricsRegistry {
  private readonly families = new Map<string, Family>();

  private family(name: string, type: Family['type'], help: string): Family {
    let family = this.families.get(name);
    if (!family) {
      family = { type, help, values: new Map() };
      this.families.set(name, family);
    }
    return family;
  }

  counter(name: string, help: string) {
    const family = this.family(name, 'counter', help);
    return {
      inc: (labels: Labels = {}, by = 1) => {
        const k = key(labels);
        const entry = family.values.get(k) ?? { labels, value: 0 };
        entry.value += by;
        family.values.set(k, entry);
      },
      get: (labels: Labels = {}) => family.values.get(key(labels))?.value ?? 0,
    };
  }

  gauge(name: string, help: string) {
    const family = this.family(name, 'gauge', help);
    return {
      set: (labels: Labels, value: number) => void family.values.set(key(labels), { labels, value }),
      get: (labels: Labels = {}) => family.values.get(key(labels))?.value ?? 0,
    };
  }

  /** Prometheus text exposition format (version 0.0.4). */
  render(): string {
    const lines: string[] = [];
    for (const [name, family] of this.families) {
      lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
      for (const { labels, value } of family.values.values()) {
        const rendered = Object.entries(labels)
          .map(([k, v]) => `${k}="${String(v).replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\' + c))}"`)
          .join(',');
        lines.push(`${name}${rendered ? `{${rendered}}` : ''} ${value}`);
      }
    }
    return lines.join('\n') + '\n';
  }
}

/** Where the indexer's metrics go: the service's registry (served at `GET /metrics`), or a registry of its own. */
export interface MetricsSink {
  counter(name: string, help: string): { inc(labels?: Labels, by?: number): void; get(labels?: Labels): number };
  gauge(name: string, help: string): { set(labels: Labels, value: number): void };
}

/** The indexer's metrics, per chain. */
export function indexerMetrics(registry: MetricsSink = new MetricsRegistry()) {
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
    behind: registry.gauge('indexer_blocks_behind', 'Blocks between the head and the last processed block'),
    blocksPerSecond: registry.gauge('indexer_blocks_per_second', 'Blocks processed per second over the last progress interval'),
    logsPerSecond: registry.gauge('indexer_logs_per_second', 'Logs processed per second over the last progress interval'),
  };
}

export type IndexerMetrics = ReturnType<typeof indexerMetrics>;
