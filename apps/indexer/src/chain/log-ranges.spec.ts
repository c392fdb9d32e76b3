import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { isRangeRefusal, isRateLimit, LogRanges } from './log-ranges';

const url = 'http://127.0.0.1:8545';
/** The errors viem raises for what providers answer. */
const rangeRefused = (max: number) => new RpcRequestError({ body: {}, url, error: { code: -32005, message: `query exceeds max block range ${max}` } });
const tooManyResults = () => new RpcRequestError({ body: {}, url, error: { code: -32005, message: 'query returned more than 10000 results' } });
const rateLimited = (retryAfter?: string) => new HttpRequestError({ body: {}, url, status: 429, details: 'Too Many Requests', ...(retryAfter ? { headers: new Headers({ 'retry-after': retryAfter }) } : {}) });
const down = () => new HttpRequestError({ body: {}, url, details: 'fetch failed' });

/** A provider over blocks 0..n-1 (one log a block) with a range limit and a rate limit (refusals before each answer). */
function provider(options: { maxRange?: number; rateLimitedFirst?: number; silent?: boolean } = {}) {
  const calls: [bigint, bigint][] = [];
  let refuseRate = options.rateLimitedFirst ?? 0;
  const fetch = async (a: bigint, b: bigint): Promise<bigint[]> => {
    calls.push([a, b]);
    if (refuseRate > 0) {
      refuseRate--;
      throw rateLimited();
    }
    if (options.maxRange !== undefined && b - a + 1n > BigInt(options.maxRange)) throw options.silent ? tooManyResults() : rangeRefused(options.maxRange);
    const out: bigint[] = [];
    for (let n = a; n <= b; n++) out.push(n);
    return out;
  };
  return { fetch, calls };
}

const blocks = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => BigInt(a + i));

describe('LogRanges', () => {
  it('tells a refused size from a rate limit and from a node out of reach', () => {
    expect(isRangeRefusal(rangeRefused(1000))).toBe(true);
    expect(isRangeRefusal(tooManyResults())).toBe(true);
    expect(isRateLimit(rateLimited())).toBe(true);
    expect(isRangeRefusal(rateLimited())).toBe(false);
    expect(isRateLimit(new RpcRequestError({ body: {}, url, error: { code: -32005, message: 'rate limit exceeded' } }))).toBe(true);
    expect(isRateLimit(down())).toBe(false);
  });

  it('takes the limit a refusal names, and cuts every request to it from then on', async () => {
    const ranges = new LogRanges();
    const p = provider({ maxRange: 7 });
    expect(await ranges.fetch(0n, 99n, p.fetch)).toEqual(blocks(0, 99));
    expect(ranges.maxRange).toBe(7n);
    expect(p.calls.filter(([a, b]) => b - a + 1n > 7n)).toEqual([[0n, 99n]]);
  });

  it('splits a refused range that names no limit, then cuts every later request to the widest that went through', async () => {
    const learned: bigint[] = [];
    const ranges = new LogRanges({ onLimitLearned: (b) => learned.push(b) });
    const p = provider({ maxRange: 100, silent: true });
    expect(await ranges.fetch(0n, 999n, p.fetch)).toEqual(blocks(0, 999));
    expect(ranges.maxRange).toBeLessThanOrEqual(100n);
    expect(learned.length).toBeGreaterThan(0);
    // The next batch: no refusal at all, every request within the limit.
    p.calls.length = 0;
    expect(await ranges.fetch(1000n, 1999n, async (a, b) => (await p.fetch(a, b)))).toEqual(blocks(1000, 1999));
    expect(p.calls.every(([a, b]) => b - a + 1n <= ranges.maxRange!)).toBe(true);
    expect(p.calls).toHaveLength(Math.ceil(1000 / Number(ranges.maxRange)));
  });

  it('waits and asks again, whole, where rate-limited, as long as the provider says (Retry-After), else 0.25 s doubling', async () => {
    const waits: number[] = [];
    const ranges = new LogRanges({ sleep: async (ms) => void waits.push(ms) });
    const p = provider({ rateLimitedFirst: 3 });
    expect(await ranges.fetch(0n, 49n, p.fetch)).toEqual(blocks(0, 49));
    expect(waits).toEqual([250, 500, 1000]);
    expect(p.calls).toEqual([[0n, 49n], [0n, 49n], [0n, 49n], [0n, 49n]]);
    expect(ranges.maxRange).toBeUndefined();
    const told: number[] = [];
    let first = true;
    const polite = new LogRanges({ sleep: async (ms) => void told.push(ms) });
    await polite.fetch(0n, 9n, async (a, b) => {
      if (first) {
        first = false;
        throw rateLimited('2');
      }
      return blocks(Number(a), Number(b));
    });
    expect(told).toEqual([2000]);
  });

  it('gives up on a rate limit that does not lift, and does not split on a node out of reach', async () => {
    const ranges = new LogRanges({ sleep: async () => undefined });
    await expect(ranges.fetch(0n, 9n, provider({ rateLimitedFirst: 100 }).fetch)).rejects.toThrow(HttpRequestError);
    let calls = 0;
    await expect(
      ranges.fetch(0n, 999n, async () => {
        calls++;
        throw down();
      }),
    ).rejects.toThrow(HttpRequestError);
    expect(calls).toBe(1);
    await expect(ranges.fetch(0n, 9n, async () => Promise.reject(new TimeoutError({ body: {}, url })))).rejects.toThrow(TimeoutError);
  });
});
