// The admission gate on a clock of its own: slots, a bounded queue served in order, refusals at once past it,
// waiters shed once they waited too long or their deadline passed, and a retry delay of whole seconds.
import { AdmissionGate, type RefusalReason } from './admission';

describe('AdmissionGate', () => {
  let now = 0;
  const refused: RefusalReason[] = [];
  const lengths: number[] = [];
  const gate = () => new AdmissionGate({ inFlight: 2, queued: 2, maxQueueWaitMs: 100 }, { queueLength: (n) => lengths.push(n), inFlight: () => undefined, refused: (r) => refused.push(r) }, () => now);

  beforeEach(() => {
    now = 0;
    refused.length = 0;
    lengths.length = 0;
  });

  it('admits up to its slots at once, queues up to its limit in order, and refuses the rest at once', async () => {
    const g = gate();
    expect(g.enter(1_000)).toBeNull();
    expect(g.enter(1_000)).toBeNull();
    const third = g.enter(1_000) as Promise<unknown>;
    const fourth = g.enter(1_000) as Promise<unknown>;
    expect(third).toBeInstanceOf(Promise);
    expect(g.queueLength).toBe(2);
    const fifth = g.enter(1_000);
    expect(fifth).toEqual({ reason: 'queue_full', retryAfterMs: 1_000 });
    const order: string[] = [];
    void third.then(() => order.push('third'));
    void fourth.then(() => order.push('fourth'));
    now = 10;
    g.release(10);
    await Promise.resolve();
    expect(order).toEqual(['third']);
    expect([g.inFlight, g.queueLength]).toEqual([2, 1]);
    g.release(10);
    await expect(fourth).resolves.toBeNull();
    expect(order).toEqual(['third', 'fourth']);
    expect(refused).toEqual(['queue_full']);
  });

  it('sheds a waiter that waited too long, and one whose deadline passed, without taking a slot', async () => {
    const g = gate();
    g.enter(10_000);
    g.enter(10_000);
    const waitedLong = g.enter(10_000) as Promise<unknown>;
    now = 50;
    const dueSoon = g.enter(120) as Promise<unknown>;
    now = 150;
    g.release(150);
    await expect(waitedLong).resolves.toEqual({ reason: 'queue_wait', retryAfterMs: 1_000 });
    await expect(dueSoon).resolves.toEqual({ reason: 'deadline', retryAfterMs: 1_000 });
    expect([g.inFlight, g.queueLength]).toEqual([1, 0]);
    // A request whose deadline has already passed is refused before it waits.
    expect(g.enter(100)).toEqual({ reason: 'deadline', retryAfterMs: 1_000 });
    expect(refused).toEqual(['queue_wait', 'deadline', 'deadline']);
    expect(lengths.at(-1)).toBe(0);
  });

  it('refuses at once a request that would wait past the bound at the recent handler time', () => {
    const g = new AdmissionGate({ inFlight: 1, queued: 10, maxQueueWaitMs: 100 }, undefined, () => now);
    g.enter(1e9);
    for (let i = 0; i < 100; i++) {
      g.release(60);
      g.enter(1e9);
    }
    // One ahead takes 60 ms: the first in the queue waits 60 ms, the second would wait 120.
    expect(g.enter(1e9)).toBeInstanceOf(Promise);
    expect(g.enter(1e9)).toEqual({ reason: 'queue_full', retryAfterMs: 1_000 });
    expect(g.queueLength).toBe(1);
  });

  it('asks for a longer wait when the queue ahead takes longer to drain', () => {
    const g = new AdmissionGate({ inFlight: 1, queued: 0, maxQueueWaitMs: 100 }, undefined, () => now);
    g.enter(1e9);
    for (let i = 0; i < 200; i++) {
      g.release(4_000);
      g.enter(1e9);
    }
    expect(g.enter(1e9)).toEqual({ reason: 'queue_full', retryAfterMs: 4_000 });
  });
});

describe('AdmissionGate on the real clock', () => {
  it('sheds a waiter when its wait is up, though no slot frees', async () => {
    const refused: string[] = [];
    const g = new AdmissionGate({ inFlight: 1, queued: 10, maxQueueWaitMs: 30 }, { queueLength: () => undefined, inFlight: () => undefined, refused: (r) => refused.push(r) });
    expect(g.enter(performance.now() + 10_000)).toBeNull();
    const waiting = g.enter(performance.now() + 10_000) as Promise<unknown>;
    const dueSoon = g.enter(performance.now() + 10) as Promise<unknown>;
    // The slot is never given back: both leave the queue on their own.
    await expect(dueSoon).resolves.toEqual({ reason: 'deadline', retryAfterMs: 1_000 });
    await expect(waiting).resolves.toEqual({ reason: 'queue_wait', retryAfterMs: 1_000 });
    expect([g.inFlight, g.queueLength, refused]).toEqual([1, 0, ['deadline', 'queue_wait']]);
  });

  it('never sheds before the wait is up (timers run on a coarser clock, and may fire a little early)', async () => {
    const g = new AdmissionGate({ inFlight: 1, queued: 100, maxQueueWaitMs: 1_000 });
    expect(g.enter(performance.now() + 10_000)).toBeNull();
    // Deadlines a fraction of a millisecond apart, as requests' are.
    const waiters = Array.from({ length: 60 }, (_, i) => {
      const deadlineAt = performance.now() + 3 + i * 0.37;
      return (g.enter(deadlineAt) as Promise<unknown>).then((refusal) => ({ refusal, early: deadlineAt - performance.now() }));
    });
    const shed = await Promise.all(waiters);
    expect(shed.filter((w) => w.early > 0)).toEqual([]);
    expect(new Set(shed.map((w) => JSON.stringify(w.refusal)))).toEqual(new Set([JSON.stringify({ reason: 'deadline', retryAfterMs: 1_000 })]));
  });
});
