/**
 * Live routes (`GET /v2/route/stream`): standing route requests, each searched again when aggregator-router announces
 * a new liquidity view of its chain (`aggregator.view.<chainId>`), its answer sent to every stream watching it when it
 * changed. Identical requests share one standing request: a thousand clients watching the same pair and size cost one
 * search per view.
 */
import { aggregatorViewSchema, aggregatorViewTopic, routeContract, SERVICE_OVERLOADED, TOO_MANY_STREAMS, type BusErrorBody, type RequestOf, type RouteResponse } from '@dex/messages';
import { runWithRequest, type NatsBus } from '@dex/service';
import { randomUUID } from 'node:crypto';
import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { ApiError } from '../http/api-error';

export type RouteStreamRequest = RequestOf<typeof routeContract>;

/** Where a stream's events go: the client's Server-Sent Events connection. */
export interface StreamSink {
  /** An event (`event:` name, `data:` JSON, `id:` the block). */
  event(name: string, data: string, id?: string): void;
  /** A comment line (`: text`), which clients ignore: the heartbeat. */
  comment(text: string): void;
  /** Ends the response. */
  end(): void;
}

export interface RouteStreamLimits {
  /** Streams one client (its address) may hold at once. */
  readonly perClient: number;
  /** Streams the gateway holds at once. */
  readonly total: number;
  /** How long a stream lasts before the gateway ends it (`event: end`), milliseconds. */
  readonly maxDurationMs: number;
  /** The longest silence: a heartbeat comment when no view came for this long, milliseconds. */
  readonly heartbeatMs: number;
  /**
   * Searches the streams have in flight at once (the rest wait their turn): below aggregator-router's admission (16
   * in flight), so that the searches of one view are not refused as a burst.
   */
  readonly concurrentSearches: number;
}

interface Stream {
  readonly client: string;
  readonly sink: StreamSink;
  readonly timer: NodeJS.Timeout;
}

/** One standing request and the streams watching it. */
interface Standing {
  readonly key: string;
  readonly request: RouteStreamRequest;
  readonly streams: Set<Stream>;
  /** What the last answer was, as the streams compare it (`answerFingerprint`), and its event. */
  fingerprint?: string;
  last?: { readonly name: string; readonly data: string; readonly id?: string };
  searching: boolean;
  /** Waiting for a search slot. */
  queued: boolean;
  /** A view came while searching: search again once done. */
  again: boolean;
  /** A search again after a transient refusal, when no view comes first. */
  retry?: NodeJS.Timeout;
}

/** Refusals that say "later", not "no": the service was busy or slow. A stream keeps its answer and searches again. */
function transient(error: BusErrorBody): boolean {
  return (error.status === 503 && error.message === SERVICE_OVERLOADED) || error.status === 504;
}

/**
 * What makes two answers the same for a stream: the amounts, the path, the pools and their amounts, the transaction
 * (`execution` without the deadline, which a request without one gets anew at each answer), the simulation's verdict
 * and a signed route's nonce. The block, the quote id and the gas price are not the answer.
 */
export function answerFingerprint(data: RouteResponse): string {
  const { deadline: _deadline, ...details } = data.execution.details;
  return JSON.stringify([
    data.amountIn,
    data.amountOut,
    data.execution.to,
    data.execution.value,
    details,
    data.simulation ? [data.simulation.success, data.simulation.failure ?? null, data.simulation.amountOut ?? null] : null,
    data.permit2?.nonce ?? null,
  ]);
}

export class RouteStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger('RouteStreams');
  private readonly standing = new Map<string, Standing>();
  private readonly byClient = new Map<string, number>();
  /** The view subscription of each chain with standing requests. */
  private readonly views = new Map<number, () => void>();
  private streams = 0;
  /** Searches in flight, and the standing requests waiting for a slot (in the order they asked). */
  private searching = 0;
  private readonly waiting: Standing[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly metrics;

  constructor(
    private readonly bus: NatsBus,
    private readonly limits: RouteStreamLimits,
  ) {
    this.metrics = {
      open: bus.metrics.gauge('route_streams_open', 'Live route streams open'),
      standing: bus.metrics.gauge('route_streams_standing', 'Distinct standing route requests the streams watch'),
      searches: bus.metrics.counter('route_stream_searches_total', 'Route searches made for the streams (one per standing request per view)'),
      events: bus.metrics.counter('route_stream_events_total', 'Events sent to streams, by name'),
      refused: bus.metrics.counter('route_streams_refused_total', 'Streams refused past the limits, by limit'),
      deferred: bus.metrics.counter('route_stream_searches_deferred_total', 'Stream searches the service refused as busy or slow, searched again later'),
    };
    this.heartbeat = setInterval(() => this.beat(), limits.heartbeatMs);
    this.heartbeat.unref();
    this.report();
  }

  /**
   * Opens a stream of `request` for `client` into `sink`: its first event at once (the standing request's last answer,
   * or a search made now), then one per view whose answer changed. Throws a 429 past the limits. Returns the stream's
   * close (call it when the client goes).
   */
  open(client: string, request: RouteStreamRequest, sink: StreamSink): () => void {
    this.admit(client);
    const held = this.byClient.get(client) ?? 0;
    const key = JSON.stringify(request);
    let standing = this.standing.get(key);
    if (!standing) {
      standing = { key, request, streams: new Set(), searching: false, queued: false, again: false };
      this.standing.set(key, standing);
      this.watchChain(request.chainId);
    }
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearTimeout(stream.timer);
      this.remove(standing, stream);
    };
    const timer = setTimeout(() => {
      sink.event('end', JSON.stringify({ reason: 'maxDuration', maxDurationSeconds: this.limits.maxDurationMs / 1000 }));
      this.metrics.events.inc({ event: 'end' });
      close();
      sink.end();
    }, this.limits.maxDurationMs);
    timer.unref();
    const stream: Stream = { client, sink, timer };
    standing.streams.add(stream);
    this.byClient.set(client, held + 1);
    this.streams += 1;
    this.report();
    // Its first answer: the standing request's last, or the one its search under way (or about to start) brings.
    if (standing.last) this.send(stream, standing.last);
    else if (!standing.searching) this.search(standing);
    return close;
  }

  /** Throws the 429 a new stream of `client` gets past the limits (streams of the client, streams in all). */
  admit(client: string): void {
    if (this.streams >= this.limits.total) {
      this.metrics.refused.inc({ limit: 'total' });
      throw new ApiError(429, TOO_MANY_STREAMS, `the gateway holds its most streams (${this.limits.total}); try again later`);
    }
    if ((this.byClient.get(client) ?? 0) >= this.limits.perClient) {
      this.metrics.refused.inc({ limit: 'client' });
      throw new ApiError(429, TOO_MANY_STREAMS, `a client may hold ${this.limits.perClient} streams at once; close one first`);
    }
  }

  /** The gateway stops: its streams end first, so that the HTTP server is not kept open by them. */
  beforeApplicationShutdown(): void {
    this.close();
  }

  /** Ends every stream (the gateway stops). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const standing of [...this.standing.values()]) {
      for (const stream of [...standing.streams]) {
        clearTimeout(stream.timer);
        this.remove(standing, stream);
        stream.sink.end();
      }
    }
  }

  private watchChain(chainId: number): void {
    if (this.views.has(chainId)) return;
    try {
      this.views.set(
        chainId,
        this.bus.subscribe(aggregatorViewTopic(chainId), aggregatorViewSchema, (view) => this.onView(view.chainId)),
      );
    } catch (err) {
      // The bus is away: the streams get their first answer, then heartbeats until a later stream subscribes.
      this.logger.warn({ msg: 'views not followed', chainId, err: String(err) });
    }
  }

  private onView(chainId: number): void {
    for (const standing of this.standing.values()) if (standing.request.chainId === chainId) this.search(standing);
  }

  /**
   * Searches the standing request again: once at a time (a view during its search makes one more after it), and at
   * most `concurrentSearches` of all standing requests at once (the others wait their turn, in order).
   */
  private search(standing: Standing): void {
    if (standing.searching) {
      standing.again = true;
      return;
    }
    if (standing.queued) return;
    if (this.searching >= this.limits.concurrentSearches) {
      standing.queued = true;
      this.waiting.push(standing);
      return;
    }
    clearTimeout(standing.retry);
    standing.retry = undefined;
    standing.searching = true;
    this.searching += 1;
    this.metrics.searches.inc();
    // Outside any HTTP request's context: a stream's searches have no request's deadline, each its own request id.
    void runWithRequest({ requestId: `stream-${randomUUID()}` }, () => this.bus.request(routeContract, standing.request))
      .then((reply) => (reply.ok ? this.answered(standing, reply.data) : this.failed(standing, reply.error)))
      .catch((err: unknown) => this.failed(standing, { status: 503, message: 'Message bus unavailable', details: String(err) }))
      .finally(() => {
        standing.searching = false;
        this.searching -= 1;
        const live = this.standing.get(standing.key) === standing;
        if (standing.again && live) {
          standing.again = false;
          this.search(standing);
        }
        this.next();
      });
  }

  /** Gives a free search slot to the standing request that has waited longest (and still has streams). */
  private next(): void {
    while (this.searching < this.limits.concurrentSearches && this.waiting.length > 0) {
      const standing = this.waiting.shift()!;
      standing.queued = false;
      if (this.standing.get(standing.key) === standing) this.search(standing);
    }
  }

  private answered(standing: Standing, data: RouteResponse): void {
    const fingerprint = answerFingerprint(data);
    if (fingerprint === standing.fingerprint) {
      this.broadcast(standing, undefined, `block ${data.blockNumber}: unchanged`);
      return;
    }
    standing.fingerprint = fingerprint;
    standing.last = { name: 'route', data: JSON.stringify({ success: true, data }), id: data.blockNumber };
    this.broadcast(standing, standing.last);
  }

  /**
   * A refusal or a failure, as an event in the API's error shape (once, until the answer changes). A transient one
   * (the service busy or slow) is not the route's answer: the stream keeps its last one and the request is searched
   * again after the refusal's `retryAfterMs` (or a second), unless a view comes first.
   */
  private failed(standing: Standing, error: BusErrorBody): void {
    if (transient(error)) {
      this.metrics.deferred.inc();
      this.broadcast(standing, undefined, `busy: searching again (${error.message})`);
      clearTimeout(standing.retry);
      standing.retry = setTimeout(() => {
        standing.retry = undefined;
        if (this.standing.get(standing.key) === standing) this.search(standing);
      }, error.retryAfterMs ?? 1_000);
      standing.retry.unref();
      return;
    }
    const fingerprint = `error:${error.status}:${error.message}`;
    if (fingerprint === standing.fingerprint) {
      this.broadcast(standing, undefined, `unchanged: ${error.message}`);
      return;
    }
    standing.fingerprint = fingerprint;
    const body = { success: false, error: error.message, status: error.status, ...(error.details !== undefined ? { details: error.details } : {}) };
    standing.last = { name: 'error', data: JSON.stringify(body) };
    this.broadcast(standing, standing.last);
  }

  private broadcast(standing: Standing, event: Standing['last'], comment?: string): void {
    for (const stream of standing.streams) {
      if (event) this.send(stream, event);
      else stream.sink.comment(comment ?? 'heartbeat');
    }
  }

  private send(stream: Stream, event: NonNullable<Standing['last']>): void {
    stream.sink.event(event.name, event.data, event.id);
    this.metrics.events.inc({ event: event.name });
  }

  /** The heartbeat of the streams: a comment, so that a quiet chain does not look like a dead connection. */
  private beat(): void {
    for (const standing of this.standing.values()) for (const stream of standing.streams) stream.sink.comment('heartbeat');
  }

  private remove(standing: Standing, stream: Stream): void {
    if (!standing.streams.delete(stream)) return;
    this.streams -= 1;
    const held = (this.byClient.get(stream.client) ?? 1) - 1;
    if (held > 0) this.byClient.set(stream.client, held);
    else this.byClient.delete(stream.client);
    if (standing.streams.size === 0) {
      this.standing.delete(standing.key);
      clearTimeout(standing.retry);
      const chainId = standing.request.chainId;
      if (![...this.standing.values()].some((s) => s.request.chainId === chainId)) {
        this.views.get(chainId)?.();
        this.views.delete(chainId);
      }
    }
    this.report();
  }

  private report(): void {
    this.metrics.open.set({}, this.streams);
    this.metrics.standing.set({}, this.standing.size);
  }
}
