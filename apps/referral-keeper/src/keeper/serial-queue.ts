/**
 * Runs jobs one after another per key (a chain id): a job starts once every job queued before it on the same
 * key has settled, whatever its outcome. No I/O of its own.
 */
export class SerialQueue {
  private readonly tails = new Map<number, Promise<void>>();

  /** Queues `job` on `key`; resolves or rejects with it. */
  run<T>(key: number, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether a job is queued or running on `key`. */
  busy(key: number): boolean {
    return this.tails.has(key);
  }
}
