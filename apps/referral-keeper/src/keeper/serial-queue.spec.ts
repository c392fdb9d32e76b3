import { SerialQueue } from './serial-queue';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('SerialQueue', () => {
  it('runs the jobs of a key one after another, in order, and those of other keys alongside', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const job = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run(999, job('a')), queue.run(999, job('b')), queue.run(4663, job('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('a end')).toBeLessThan(log.indexOf('b start'));
    expect(log.indexOf('c start')).toBeLessThan(log.indexOf('a end'));
  });

  it('goes on after a job that failed, which fails for its caller only', async () => {
    const queue = new SerialQueue();
    const failing = queue.run(999, async () => {
      await tick();
      throw new Error('reverted');
    });
    const next = queue.run(999, async () => 'sent');
    await expect(failing).rejects.toThrow('reverted');
    await expect(next).resolves.toBe('sent');
  });

  it('is busy on a key while a job is queued or running there', async () => {
    const queue = new SerialQueue();
    expect(queue.busy(999)).toBe(false);
    let release!: () => void;
    const job = queue.run(999, () => new Promise<void>((r) => (release = r)));
    expect(queue.busy(999)).toBe(true);
    expect(queue.busy(4663)).toBe(false);
    await tick();
    release();
    await job;
    await tick();
    expect(queue.busy(999)).toBe(false);
  });
});
