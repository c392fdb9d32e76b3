/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text exposition
 * format (version 0.0.4) at `GET /metrics` of every service.
 */

type Labels = Record<string, string | number>;

const labelKey = (labels: Labels): string =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

const series = (name: string, key: string, suffix = ''): string => (key ? `${name}${suffix}{${key}}` : `${name}${suffix}`);

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
  ) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`invalid metric name ${name}`);
  }

  abstract lines(): string[];

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...this.lines()].join('\n');
  }
}

export class Counter extends Metric {
  private readonly values = new Map<string, number>();

  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }

  inc(labels: Labels = {}, by = 1): void {
    if (by < 0) throw new Error('a counter only goes up');
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }

  lines(): string[] {
    return [...this.values].map(([key, value]) => `${series(this.name, key)} ${value}`);
  }
}

export class Gauge extends Metric {
  private readonly values = new Map<string, number>();

  constructor(name: string, help: string) {
    super(name, help, 'gauge');
  }

  set(labels: Labels, value: number): void {
    this.values.set(labelKey(labels), value);
  }

  get(labels: Labels = {}): number | undefined {
    return this.values.get(labelKey(labels));
  }

  lines(): string[] {
    return [...this.values].map(([key, value]) => `${series(this.name, key)} ${value}`);
  }
}

export class Histogram extends Metric {
  private readonly data = new Map<string, { counts: number[]; sum: number; count: number }>();

  constructor(
    name: string,
    help: string,
    readonly buckets: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  ) {
    super(name, help, 'histogram');
  }

  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let d = this.data.get(key);
    if (!d) {
      d = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.data.set(key, d);
    }
    this.buckets.forEach((le, i) => {
      if (value <= le) d!.counts[i] += 1;
    });
    d.sum += value;
    d.count += 1;
  }

  lines(): string[] {
    const out: string[] = [];
    for (const [key, d] of this.data) {
      const prefix = key ? `${key},` : '';
      this.buckets.forEach((le, i) => out.push(`${this.name}_bucket{${prefix}le="${le}"} ${d.counts[i]}`));
      out.push(`${this.name}_bucket{${prefix}le="+Inf"} ${d.count}`);
      out.push(`${series(this.name, key, '_sum')} ${d.sum}`);
      out.push(`${series(this.name, key, '_count')} ${d.count}`);
    }
    return out;
  }
}

/** The metrics of one service. */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();

  constructor(readonly service: string) {}

  private add<M extends Metric>(metric: M): M {
    const existing = this.metrics.get(metric.name);
    if (existing) {
      if (existing.type !== metric.type) throw new Error(`metric ${metric.name} exists with type ${existing.type}`);
      return existing as M;
    }
    this.metrics.set(metric.name, metric);
    return metric;
  }

  counter(name: string, help: string): Counter {
    return this.add(new Counter(name, help));
  }

  gauge(name: string, help: string): Gauge {
    return this.add(new Gauge(name, help));
  }

  histogram(name: string, help: string, buckets?: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, buckets));
  }

  render(): string {
    const up = `# HELP service_up Whether the service is running\n# TYPE service_up gauge\nservice_up{service="${this.service}"} 1`;
    return [up, ...[...this.metrics.values()].map((m) => m.render())].join('\n\n') + '\n';
  }
}
