/**
 * eth_getLogs as public providers allow it. Providers refuse a block range above their limit (or answers above a
 * result count) with a JSON-RPC error, and refuse callers above their rate with HTTP 429. A refused range is split in
 * two, or cut to the limit the refusal names, and that limit (or the half) becomes the one every later request of
 * the chain is cut to (so a refusal or two, not one per batch); a rate-limited request waits (the provider's Retry-After, else 0.25 s doubling
 * to 8 s) and is asked again, whole; a node that cannot be reached is an error for the caller, not a reason to split.
 */
import { isUnreachable } from '@dex/chain';
import { BaseError, HttpRequestError, RpcRequestError } from 'viem';

/** Does a JSON-RPC error refuse the request's size (block range, result count) rather than anything else? */
export function isRangeRefusal(err: unknown): boolean {
  const text = err instanceof BaseError ? [err.shortMessage, err.details, err.message].join(' ') : String(err);
  return /range|too (large|many|big)|exceed|limit|max(imum)? (block|result)|10000 results|query returned more than|response size/i.test(text) && !isRateLimit(err);
}

/** Is the request refused for the caller's rate (HTTP 429, or a JSON-RPC error saying so)? */
export function isRateLimit(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  const http = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  if (http?.status === 429) return true;
  const rpc = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  return !!rpc && /rate.?limit|too many requests|throttl/i.test(`${rpc.shortMessage} ${rpc.details}`);
}

/** Seconds the provider asked to wait, from the Retry-After header of a 429 (when the client kept it). */
function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const http = err.walk((e) => e instanceof HttpRequestError) as (HttpRequestError & { headers?: Headers }) | null;
  const value = http?.headers?.get?.('retry-after');
  const seconds = value === undefined || value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_BACKOFF_MS) : undefined;
}

/** The block range a refusal names as the most allowed ("max block range 1000", "maximum of 2000 blocks"), if any. */
function statedLimit(err: unknown): bigint | undefined {
  const text = err instanceof BaseError ? `${err.shortMessage} ${err.details}` : String(err);
  const match = /max(?:imum)?\D{0,24}?(\d{1,9})/i.exec(text);
  return match ? BigInt(match[1]) : undefined;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;
/** Rate-limited tries of one request before its error goes to the caller. */
const MAX_RATE_LIMITED_TRIES = 8;

export interface LogRangeOptions {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onRateLimited?: (waitMs: number) => void;
  readonly onLimitLearned?: (blocks: bigint) => void;
}

/** The getLogs policy of one chain: the block range limit learned from its providers. */
export class LogRanges {
  /** The widest range (blocks, inclusive) the providers answered after refusing a wider one; none until one refuses. */
  private limit: bigint | undefined;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: LogRangeOptions = {}) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The learned limit, for logs and tests. */
  get maxRange(): bigint | undefined {
    return this.limit;
  }

  /** `fetch` over `from`..`to` (inclusive), cut to the learned limit, split where refused, retried where rate-limited. */
  async fetch<T>(from: bigint, to: bigint, fetch: (from: bigint, to: bigint) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (let a = from; a <= to; ) {
      const b = this.limit !== undefined && to - a + 1n > this.limit ? a + this.limit - 1n : to;
      out.push(...(await this.range(a, b, fetch)));
      a = b + 1n;
    }
    return out;
  }

  private async range<T>(a: bigint, b: bigint, fetch: (from: bigint, to: bigint) => Promise<T[]>): Promise<T[]> {
    for (let tries = 1, wait = FIRST_BACKOFF_MS; ; tries++, wait = Math.min(wait * 2, MAX_BACKOFF_MS)) {
      try {
        return await fetch(a, b);
      } catch (err) {
        if (isRateLimit(err) && tries < MAX_RATE_LIMITED_TRIES) {
          const ms = retryAfterMs(err) ?? wait;
          this.options.onRateLimited?.(ms);
          await this.sleep(ms);
          continue;
        }
        // A node out of reach (no answer, a transport failure other than 429) is not split on.
        if (isRateLimit(err) || isUnreachable(err) || b <= a) throw err;
        // A refused size: the limit the provider names where it names one below the range asked, else the half.
        // (A JSON-RPC error that does not say what it refuses is split on all the same, without learning a limit.)
        const mid = a + (b - a) / 2n;
        const named = statedLimit(err);
        const width = named !== undefined && named >= 1n && named < b - a + 1n ? named : mid - a + 1n;
        if (isRangeRefusal(err) && (this.limit === undefined || width < this.limit)) {
          this.limit = width;
          this.options.onLimitLearned?.(width);
        }
        // Both parts cut to the limit as it now stands.
        if (this.limit !== undefined && this.limit < b - a + 1n) return this.fetch(a, b, fetch);
        return [...(await this.fetch(a, mid, fetch)), ...(await this.fetch(mid + 1n, b, fetch))];
      }
    }
  }
}
