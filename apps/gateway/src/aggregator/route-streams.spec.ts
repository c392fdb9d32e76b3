import { MetricsRegistry, type NatsBus } from '@dex/service';
import type { RouteResponse } from '@dex/messages';
import { answerFingerprint, RouteStreams, type RouteStreamRequest, type StreamSink } from './route-streams';

const REQUEST = { chainId: 999, tokenIn: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', tokenOut: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9', amountIn: '100', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps: 0, gasAware: true, permit2: false } as RouteStreamRequest;

/** An answer at `block` paying `amountOut`. */
function answer(block: number, amountOut: string, deadline = '1900000000'): RouteResponse {
  return {
    quoteId: `q-${block}`,
    chainId: 999,
    blockNumber: String(block),
    amountIn: '100',
    amountOut,
    gasPrice: String(block),
    execution: { to: '0x1', calldata: `0x${block}`, value: '0', details: { path: [], amountIn: '100', amountOut, minAmountOut: '1', feeBps: 0, deadline, hopSwaps: [] } },
  } as unknown as RouteResponse;
}

/** A bus whose route answers are set by the test and whose view topics the test publishes on. */
function fakeBus() {
  const views = new Map<string, (payload: unknown) => void>();
  let next: () => unknown = () => ({ ok: true, data: answer(1, '5') });
  const bus = {
    metrics: new MetricsRegistry('gateway'),
    requests: 0,
    request: async () => {
      bus.requests += 1;
      return next();
    },
    subscribe: (subject: string, _schema: unknown, onMessage: (payload: unknown) => void) => {
      views.set(subject, onMessage);
      return () => views.delete(subject);
    },
  };
  return {
    bus: bus as unknown as NatsBus & { requests: number },
    views,
    answer: (reply: () => unknown) => (next = reply),
    view: (block: number) => views.get('aggregator.view.999')?.({ chainId: 999, blockNumber: String(block) }),
  };
}

function sink() {
  const lines: string[] = [];
  let ended = false;
  const s: StreamSink = { event: (name, data, id) => lines.push(`${name}${id ? `#${id}` : ''} ${data}`), comment: (t) => lines.push(`: ${t}`), end: () => (ended = true) };
  return { s, lines, ended: () => ended };
}

const settle = () => new Promise((r) => setImmediate(r));
const LIMITS = { perClient: 2, total: 3, maxDurationMs: 60_000, heartbeatMs: 60_000, concurrentSearches: 8 };

describe('answerFingerprint', () => {
  it('is the answer, not its block, quote id, gas price or deadline', () => {
    expect(answerFingerprint(answer(1, '5', '100'))).toBe(answerFingerprint({ ...answer(2, '5', '200'), execution: answer(1, '5', '200').execution }));
    expect(answerFingerprint(answer(1, '5'))).not.toBe(answerFingerprint(answer(1, '6')));
  });
});

describe('RouteStreams', () => {
  it('answers a stream at once, then once per view whose answer changed; identical requests share each search', async () => {
    const f = fakeBus();
    const streams = new RouteStreams(f.bus, LIMITS);
    const a = sink();
    const b = sink();
    streams.open('1.1.1.1', REQUEST, a.s);
    await settle();
    streams.open('2.2.2.2', { ...REQUEST }, b.s);
    await settle();
    // One search: the second stream got the first's answer.
    expect(f.bus.requests).toBe(1);
    expect(a.lines).toEqual([`route#1 ${JSON.stringify({ success: true, data: answer(1, '5') })}`]);
    expect(b.lines).toEqual(a.lines);

    f.answer(() => ({ ok: true, data: answer(2, '5') }));
    f.view(2);
    await settle();
    expect(a.lines.at(-1)).toBe(': block 2: unchanged');
    f.answer(() => ({ ok: true, data: answer(3, '7') }));
    f.view(3);
    await settle();
    expect(f.bus.requests).toBe(3);
    expect(a.lines.at(-1)).toMatch(/^route#3 /);
    expect(b.lines).toEqual(a.lines);

    // A refusal is an error event in the API's shape, once.
    f.answer(() => ({ ok: false, error: { status: 404, message: 'No route found', details: 'none' } }));
    f.view(4);
    await settle();
    f.view(5);
    await settle();
    expect(a.lines.slice(-2)).toEqual([`error ${JSON.stringify({ success: false, error: 'No route found', status: 404, details: 'none' })}`, ': unchanged: No route found']);
    streams.close();
  });

  it('gives streams that join a standing request before its first answer that answer, with no search of their own', async () => {
    const f = fakeBus();
    const streams = new RouteStreams(f.bus, { ...LIMITS, perClient: 5, total: 5 });
    const a = sink();
    const b = sink();
    streams.open('1.1.1.1', REQUEST, a.s);
    streams.open('2.2.2.2', { ...REQUEST }, b.s);
    await settle();
    await settle();
    expect(f.bus.requests).toBe(1);
    expect(a.lines).toEqual([`route#1 ${JSON.stringify({ success: true, data: answer(1, '5') })}`]);
    expect(b.lines).toEqual(a.lines);
    streams.close();
  });

  it('refuses past the limits per client and in all with a 429, and forgets a stream that closes', async () => {
    const f = fakeBus();
    const streams = new RouteStreams(f.bus, LIMITS);
    const close1 = streams.open('1.1.1.1', REQUEST, sink().s);
    streams.open('1.1.1.1', { ...REQUEST, amountIn: '2' }, sink().s);
    expect(() => streams.open('1.1.1.1', REQUEST, sink().s)).toThrow(expect.objectContaining({ status: 429 }));
    streams.open('2.2.2.2', REQUEST, sink().s);
    expect(() => streams.open('3.3.3.3', REQUEST, sink().s)).toThrow(expect.objectContaining({ status: 429 }));
    close1();
    close1();
    expect(() => streams.open('1.1.1.1', REQUEST, sink().s)).not.toThrow();
    expect(f.bus.metrics.render()).toMatch(/route_streams_open 3/);
    expect(f.bus.metrics.render()).toMatch(/route_streams_refused_total\{limit="client"\} 1/);
    streams.close();
    // No stream left: the view topic is no longer followed.
    expect(f.views.size).toBe(0);
  });

  it('has at most concurrentSearches searches in flight, the others in turn; a busy refusal is not an event', async () => {
    const f = fakeBus();
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    let busy = true;
    (f.bus as unknown as { request: () => Promise<unknown> }).request = () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise((resolve) =>
        release.push(() => {
          inFlight -= 1;
          resolve(busy ? { ok: false, error: { status: 503, message: 'Service overloaded', details: 'aggregator.route: queue full', retryAfterMs: 60_000 } } : { ok: true, data: answer(1, '5') });
        }),
      );
    };
    const releaseAll = async () => {
      while (release.length > 0) {
        release.shift()!();
        await settle();
      }
    };
    const streams = new RouteStreams(f.bus, { ...LIMITS, perClient: 10, total: 10, concurrentSearches: 2 });
    const sinks = [1, 2, 3, 4, 5].map((i) => {
      const k = sink();
      streams.open('1.1.1.1', { ...REQUEST, amountIn: String(i) }, k.s);
      return k;
    });
    expect(inFlight).toBe(2);
    await releaseAll();
    expect(most).toBe(2);
    // Busy: a comment, no error event.
    for (const k of sinks) expect(k.lines).toEqual([': busy: searching again (Service overloaded)']);
    expect(f.bus.metrics.render()).toMatch(/route_stream_searches_deferred_total 5/);
    // The next view searches them again, two at a time.
    busy = false;
    f.view(2);
    expect(inFlight).toBe(2);
    await releaseAll();
    for (const k of sinks) expect(k.lines.at(-1)).toMatch(/^route#1 /);
    expect(most).toBe(2);
    streams.close();
  });

  it("searches a busy refusal again after its retryAfterMs when no view comes", async () => {
    jest.useFakeTimers();
    try {
      const f = fakeBus();
      f.answer(() => ({ ok: false, error: { status: 503, message: 'Service overloaded', details: 'aggregator.route: queue full', retryAfterMs: 1_000 } }));
      const streams = new RouteStreams(f.bus, LIMITS);
      const a = sink();
      streams.open('1.1.1.1', REQUEST, a.s);
      await jest.advanceTimersByTimeAsync(10);
      expect(f.bus.requests).toBe(1);
      f.answer(() => ({ ok: true, data: answer(2, '5') }));
      await jest.advanceTimersByTimeAsync(1_000);
      expect(f.bus.requests).toBe(2);
      expect(a.lines.at(-1)).toMatch(/^route#2 /);
      streams.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('ends a stream at its maximum duration', async () => {
    jest.useFakeTimers();
    try {
      const f = fakeBus();
      const streams = new RouteStreams(f.bus, { ...LIMITS, maxDurationMs: 1_000 });
      const a = sink();
      streams.open('1.1.1.1', REQUEST, a.s);
      jest.advanceTimersByTime(1_001);
      expect(a.lines.at(-1)).toBe('end {"reason":"maxDuration","maxDurationSeconds":1}');
      expect(a.ended()).toBe(true);
      expect(f.views.size).toBe(0);
      streams.close();
    } finally {
      jest.useRealTimers();
    }
  });
});
