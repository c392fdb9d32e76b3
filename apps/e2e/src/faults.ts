// Measuring a fault under load: a steady stream of requests with each answer's send time, status and latency; the
// error window of a fault (how long after it new requests still failed) and its error count; and the chain facts
// aggregator-router handled against what the JetStream stream holds (none lost, none applied twice).
// Shared by the fault tests and `bench/faults`, so it uses nothing of jest.
import { connect, type NatsConnection } from 'nats';

export interface LoadSample {
  /** When the request was sent and answered, `performance.now()` milliseconds. */
  readonly sentAt: number;
  readonly doneAt: number;
  /** HTTP status; 0 when no answer came (connection refused, timeout). */
  readonly status: number;
  /** The `error` of a failure envelope, or the transport error. */
  readonly error?: string;
}

export interface Load {
  /** The answers so far (requests still in flight are not in it). */
  readonly samples: readonly LoadSample[];
  /** Stops sending and resolves with every answer once the requests in flight are done. */
  stop(): Promise<LoadSample[]>;
}

/** Sends GET `url` `ratePerSecond` times a second, on schedule whatever the answers, until stopped. */
export function startLoad(url: string, ratePerSecond: number, timeoutMs = 10_000): Load {
  const samples: LoadSample[] = [];
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / ratePerSecond;
  const t0 = performance.now();
  let sent = 0;
  let stopped = false;
  const send = () => {
    const sentAt = performance.now();
    const request = fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
      .then(async (res) => {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        samples.push({ sentAt, doneAt: performance.now(), status: res.status, ...(res.ok ? {} : { error: body.error }) });
      })
      .catch((err: unknown) => {
        samples.push({ sentAt, doneAt: performance.now(), status: 0, error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  let timer: NodeJS.Timeout;
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    while (t0 + sent * interval <= now) {
      sent++;
      send();
    }
    timer = setTimeout(tick, Math.max(1, t0 + sent * interval - performance.now()));
  };
  tick();
  return {
    samples,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      while (inFlight.size) await Promise.all([...inFlight]);
      return [...samples].sort((a, b) => a.sentAt - b.sentAt);
    },
  };
}

export interface FaultFigures {
  /** Requests sent from the fault to `until`. */
  readonly requests: number;
  readonly errors: number;
  /** From the fault to the send time of the last request that failed: new requests succeed after it (0: none failed). */
  readonly errorWindowMs: number;
  /** The longest a failed request waited for its answer. */
  readonly slowestFailureMs: number;
  /** Failures by status and message, e.g. `503 Message bus unavailable: 12`. */
  readonly failures: Record<string, number>;
}

/** The figures of a fault at `at` (a `performance.now()` time) over the requests sent from then until `until`. */
export function faultFigures(samples: readonly LoadSample[], at: number, until: number): FaultFigures {
  const during = samples.filter((s) => s.sentAt >= at && s.sentAt < until);
  // A request sent just before the fault may still fail of it: count it too.
  const failed = samples.filter((s) => s.status !== 200 && s.doneAt >= at && s.sentAt < until);
  const failures: Record<string, number> = {};
  for (const s of failed) {
    const key = `${s.status} ${s.error ?? ''}`.trim();
    failures[key] = (failures[key] ?? 0) + 1;
  }
  return {
    requests: during.length,
    errors: failed.length,
    errorWindowMs: failed.length ? Math.max(0, Math.max(...failed.map((s) => s.sentAt)) - at) : 0,
    slowestFailureMs: failed.length ? Math.max(...failed.map((s) => s.doneAt - s.sentAt)) : 0,
    failures,
  };
}

export interface FactAccount {
  /** Facts of the chain, of the kinds aggregator-router follows, that the stream holds. */
  readonly inStream: number;
  /** Those aggregator-router handled (whatever the outcome), by its `chain_facts_received_total`. */
  readonly handled: number;
  /** Messages of the stream published under a Nats-Msg-Id that another message already had. */
  readonly duplicatedInStream: number;
  /** inStream - handled when positive: facts never handled. */
  readonly lost: number;
  /** handled - inStream when positive, plus the stream's duplicates: facts applied twice. */
  readonly duplicated: number;
}

/** Sums `chain_facts_received_total` of a chain over `facts` from a service's `/metrics`. */
export async function factsHandled(serviceUrl: string, chainId: number, facts: readonly string[]): Promise<number> {
  const text = await fetch(`${serviceUrl}/metrics`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.text());
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^chain_facts_received_total\{(.*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (labels.chain === String(chainId) && facts.includes(labels.fact)) sum += Number(m[2]);
  }
  return sum;
}

/** What the stream holds of a chain's facts and how many of its messages repeat a Nats-Msg-Id. */
export async function streamFacts(nc: NatsConnection, stream: string, chainId: number, facts: readonly string[]): Promise<{ inStream: number; duplicatedInStream: number }> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(stream, { subjects_filter: `chain.${chainId}.>` });
  const subjects = info.state.subjects ?? {};
  const inStream = facts.reduce((n, fact) => n + (subjects[`chain.${chainId}.${fact}`] ?? 0), 0);
  // Every message of the chain, read once in order, by its de-duplication id.
  const seen = new Set<string>();
  let duplicatedInStream = 0;
  const total = Object.values(subjects).reduce((a, b) => a + b, 0);
  if (total > 0) {
    const consumer = await nc.jetstream().consumers.get(stream, { filterSubjects: `chain.${chainId}.>` });
    const messages = await consumer.consume();
    let read = 0;
    for await (const m of messages) {
      const id = m.headers?.get('Nats-Msg-Id') ?? `seq:${m.seq}`;
      if (seen.has(id)) duplicatedInStream++;
      seen.add(id);
      if (++read >= total) break;
    }
    await messages.close();
  }
  return { inStream, duplicatedInStream };
}

/** Facts of `chainId` of the given kinds: what the stream holds against what the service handled. */
export async function factAccount(natsUrl: string, serviceUrl: string, chainId: number, facts: readonly string[], stream = 'CHAIN_EVENTS'): Promise<FactAccount> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fact-account' });
  try {
    const { inStream, duplicatedInStream } = await streamFacts(nc, stream, chainId, facts);
    const handled = await factsHandled(serviceUrl, chainId, facts);
    return { inStream, handled, duplicatedInStream, lost: Math.max(0, inStream - handled), duplicated: Math.max(0, handled - inStream) + duplicatedInStream };
  } finally {
    await nc.close();
  }
}

/** The name of the server that leads a stream on a cluster (JetStream's stream info). */
export async function streamLeader(natsUrl: string, stream = 'CHAIN_EVENTS'): Promise<string | undefined> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'stream-leader' });
  try {
    const info = await (await nc.jetstreamManager()).streams.info(stream);
    return info.cluster?.leader;
  } finally {
    await nc.close();
  }
}
