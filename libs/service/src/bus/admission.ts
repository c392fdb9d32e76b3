// Admission control for the bus requests a service handles: each subject runs at most `inFlight` handlers at once
// and keeps at most `queued` waiting; a request past that, or one that would wait longer than `maxQueueWaitMs` at the
// recent handler time, is refused at once; one that did wait longer, or whose requester's deadline has passed, is
// shed without being worked on. A refusal is a 503 with a retry delay, so the requester (the gateway: `Retry-After`)
// tries again later or elsewhere instead of waiting out its timeout.
import { SERVICE_OVERLOADED, type BusErrorBody } from '@dex/messages';

/** Limits of one subject. */
export interface AdmissionLimits {
  /** Handlers of the subject running at once. */
  readonly inFlight: number;
  /** Requests waiting for a slot; one more is refused at once. */
  readonly queued: number;
  /**
   * The longest a request waits for a slot: one that would wait longer (the queue ahead of it at the recent handler
   * time) is refused at once, and one that did wait longer is shed (its answer would come too late to be useful).
   */
  readonly maxQueueWaitMs: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { inFlight: 32, queued: 256, maxQueueWaitMs: 500 };

/** Why a request was not worked on. */
export type RefusalReason = 'queue_full' | 'queue_wait' | 'deadline';

export interface Refusal {
  readonly reason: RefusalReason;
  /** How long the requester should wait before trying again, milliseconds. */
  readonly retryAfterMs: number;
}

/** What the gate reports, for the service's metrics. */
export interface AdmissionObserver {
  queueLength(length: number): void;
  inFlight(count: number): void;
  refused(reason: RefusalReason): void;
}

const realNow = (): number => performance.now();

interface Waiter {
  readonly enqueuedAt: number;
  readonly deadlineAt: number;
  readonly resolve: (admitted: Refusal | null) => void;
  /** Sheds the waiter once it has waited the longest wait (or reached its deadline), if no slot came first. */
  timer?: NodeJS.Timeout;
}

/** The slots and queue of one subject. */
export class AdmissionGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Recent handler durations (an exponential mean, milliseconds), for the retry delay. */
  private meanServiceMs = 10;

  /** Whether waiters are shed by timers (on the real clock); on a clock of the caller's, only as slots free. */
  private readonly sheds: boolean;

  constructor(
    readonly limits: AdmissionLimits,
    private readonly observer?: AdmissionObserver,
    private readonly now: () => number = realNow,
  ) {
    this.sheds = now === realNow;
  }

  get inFlight(): number {
    return this.running;
  }

  get queueLength(): number {
    return this.waiting.length;
  }

  /**
   * Waits for a slot; resolves with null once the request holds one (it must `release` it), or with the refusal.
   * `deadlineAt` is when the requester stops waiting for the answer (on the `now` clock).
   */
  enter(deadlineAt: number): Promise<Refusal | null> | Refusal | null {
    const now = this.now();
    if (deadlineAt <= now) return this.refuse('deadline');
    if (this.running < this.limits.inFlight && this.waiting.length === 0) {
      this.take();
      return null;
    }
    // Full, or so long that the new request would wait past the bound: refused now rather than after the wait.
    if (this.waiting.length >= this.limits.queued || this.expectedWaitMs(this.waiting.length + 1) > this.limits.maxQueueWaitMs) return this.refuse('queue_full');
    return new Promise((resolve) => {
      const waiter: Waiter = { enqueuedAt: now, deadlineAt, resolve };
      this.waiting.push(waiter);
      this.observer?.queueLength(this.waiting.length);
      // Shed when the wait is up, not when a slot next frees (slow handlers free them late).
      if (this.sheds) this.shedWhenDue(waiter, now);
    });
  }

  /** Gives back a slot (with how long the handler took), and hands it to the next waiter still worth serving. */
  release(serviceMs: number): void {
    this.meanServiceMs = this.meanServiceMs * 0.9 + serviceMs * 0.1;
    this.running -= 1;
    this.drain();
    this.observer?.inFlight(this.running);
  }

  /** When a waiter's wait is up: the longest wait after it came, or its deadline if sooner. */
  private dueAt(waiter: Waiter): number {
    return Math.min(waiter.enqueuedAt + this.limits.maxQueueWaitMs, waiter.deadlineAt);
  }

  /** Sheds the waiter (`shed`) once its wait is up, `now` being the time on the gate's clock. */
  private shedWhenDue(waiter: Waiter, now: number): void {
    waiter.timer = setTimeout(() => this.shed(waiter), Math.max(0, this.dueAt(waiter) - now) + 1);
    waiter.timer.unref?.();
  }

  /**
   * A waiter whose wait is up leaves the queue with its refusal. A timer that fires before it (the event loop's clock
   * lags a busy loop by some milliseconds) is set again for the time left: a waiter never leaves early.
   */
  private shed(waiter: Waiter): void {
    const at = this.waiting.indexOf(waiter);
    if (at < 0) return;
    const now = this.now();
    if (now < this.dueAt(waiter)) {
      this.shedWhenDue(waiter, now);
      return;
    }
    this.waiting.splice(at, 1);
    waiter.resolve(this.refuse(waiter.deadlineAt <= now ? 'deadline' : 'queue_wait'));
    this.observer?.queueLength(this.waiting.length);
  }

  private drain(): void {
    while (this.running < this.limits.inFlight && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      clearTimeout(next.timer);
      const now = this.now();
      if (next.deadlineAt <= now) next.resolve(this.refuse('deadline'));
      else if (now - next.enqueuedAt > this.limits.maxQueueWaitMs) next.resolve(this.refuse('queue_wait'));
      else {
        this.take();
        next.resolve(null);
      }
    }
    this.observer?.queueLength(this.waiting.length);
  }

  /** How long the `n`-th request in the queue waits for a slot, at the recent handler time. */
  private expectedWaitMs(n: number): number {
    return (n * this.meanServiceMs) / Math.max(1, this.limits.inFlight);
  }

  private take(): void {
    this.running += 1;
    this.observer?.inFlight(this.running);
  }

  private refuse(reason: RefusalReason): Refusal {
    this.observer?.refused(reason);
    // The time the queue ahead takes to drain, at least a second: clients round Retry-After to whole seconds.
    const drainMs = this.expectedWaitMs(this.waiting.length + 1);
    return { reason, retryAfterMs: Math.max(1_000, Math.ceil(drainMs / 1_000) * 1_000) };
  }
}

/** Why a request got no answer, as its 503 says it. */
const UNANSWERED: Record<RefusalReason | 'late' | 'unsent', string> = {
  queue_full: 'too many requests are waiting',
  queue_wait: 'the request waited too long for its turn',
  deadline: "the request's deadline passed before its turn",
  late: "no answer within the request's deadline",
  unsent: "the request's deadline passed before it was sent",
};

/** The 503 `Service overloaded` reply of a request of `subject` that got no answer, and why. */
export function overloaded(subject: string, refusal: { reason: keyof typeof UNANSWERED; retryAfterMs: number }): { ok: false; error: BusErrorBody } {
  return { ok: false, error: { status: 503, message: SERVICE_OVERLOADED, details: `${subject}: ${UNANSWERED[refusal.reason]}`, retryAfterMs: refusal.retryAfterMs } };
}
