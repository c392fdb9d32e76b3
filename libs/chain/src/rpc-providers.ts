// Several RPC providers for one chain: requests go to the first provider that is usable (it answered the last look
// at the head, and its head is not behind the others'), through viem's fallback transport, which moves on to the
// next provider when one fails. A look at every provider's head each `probeIntervalMs` keeps the picture current
// and tells how long ago some provider last gave a usable block (`freshness`), which services use to refuse to
// quote from state nobody refreshes.
import { fallback, http, HttpRequestError, TimeoutError, type Transport } from 'viem';
import { rpcFetch } from './rpc-fetch';

export interface RpcProviderOptions {
  /** How often every provider is asked for its head (`eth_blockNumber`), milliseconds. */
  readonly probeIntervalMs?: number;
  /** A provider whose head is more than this many blocks below the highest head seen recently is passed over. */
  readonly maxLagBlocks?: number;
  /** After this long without a usable block from any provider the chain is stale, milliseconds. */
  readonly staleAfterMs?: number;
}

export const RPC_PROVIDER_DEFAULTS = { probeIntervalMs: 1_000, maxLagBlocks: 5, staleAfterMs: 10_000 } as const;

/** One provider as last seen. */
export interface RpcProviderStatus {
  readonly url: string;
  /** `up`: answered the last look and is not behind; `behind`: answered, more than maxLagBlocks below; `down`: failed. */
  readonly state: 'up' | 'behind' | 'down';
  readonly head?: string;
  /** Milliseconds since it last answered with a usable head. */
  readonly lastBlockAgoMs?: number;
  readonly error?: string;
}

export interface RpcFreshness {
  readonly chainId: number;
  /** No provider has given a usable block for longer than `staleAfterMs`. */
  readonly stale: boolean;
  /** Milliseconds since a provider last gave a usable block (since the look began, before any answered). */
  readonly sinceMs: number;
  readonly staleAfterMs: number;
  readonly providers: readonly RpcProviderStatus[];
}

interface Provider {
  readonly url: string;
  readonly transport: Transport;
  head?: bigint;
  /** When it last answered, and when it last answered with a head that was not behind. */
  answeredAt?: number;
  usableAt?: number;
  down: boolean;
  behind: boolean;
  error?: string;
}

/** The URLs of an `RPC_URL_<chainId>` value: comma-separated, blanks ignored. */
export function splitRpcUrls(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An error that makes the fallback transport try the next provider without asking this one. */
class ProviderPassedOver extends Error {
  constructor(url: string, why: string) {
    super(`RPC provider ${url} passed over: ${why}`);
    this.name = 'ProviderPassedOver';
  }
}

export class RpcProviders {
  readonly options: Required<RpcProviderOptions>;
  private readonly providers: Provider[];
  private readonly startedAt = Date.now();
  /** The highest heads seen, with when: the reference a provider's lag is measured against. */
  private readonly recentHeads: { head: bigint; at: number }[] = [];
  private timer?: NodeJS.Timeout;
  private started = false;
  private stopped = false;
  private lastUsableAt?: number;

  constructor(
    readonly chainId: number,
    urls: readonly string[],
    options: RpcProviderOptions & { timeoutMs?: number } = {},
  ) {
    if (urls.length === 0) throw new Error(`no RPC URL for chain ${chainId}`);
    this.options = {
      probeIntervalMs: options.probeIntervalMs ?? RPC_PROVIDER_DEFAULTS.probeIntervalMs,
      maxLagBlocks: options.maxLagBlocks ?? RPC_PROVIDER_DEFAULTS.maxLagBlocks,
      staleAfterMs: options.staleAfterMs ?? RPC_PROVIDER_DEFAULTS.staleAfterMs,
    };
    // A provider that answers late is slow, not gone: its answer counts as long as it comes within the staleness
    // bound (a busy node answering in seconds keeps the chain fresh; one that answers nothing makes it stale).
    const probeTimeout = this.options.staleAfterMs;
    this.providers = urls.map((url) => ({ url, transport: http(url, { timeout: probeTimeout, retryCount: 0, fetchFn: rpcFetch }), down: false, behind: false }));
  }

  get urls(): string[] {
    return this.providers.map((p) => p.url);
  }

  /** Starts looking at the providers' heads (idempotent); the timer does not keep the process alive. */
  start(): this {
    if (this.started) return this;
    this.started = true;
    const tick = () => {
      void this.probe().finally(() => {
        if (this.stopped) return;
        this.timer = setTimeout(tick, this.options.probeIntervalMs);
        this.timer.unref();
      });
    };
    tick();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Asks every provider for its head once, in parallel, and updates what is known of each. */
  async probe(): Promise<void> {
    await Promise.all(
      this.providers.map(async (p) => {
        try {
          const hex = (await p.transport({ chain: undefined, retryCount: 0 }).request({ method: 'eth_blockNumber' })) as string;
          p.head = BigInt(hex);
          p.answeredAt = Date.now();
          p.down = false;
          p.error = undefined;
        } catch (err) {
          p.down = true;
          p.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
        }
      }),
    );
    const now = Date.now();
    for (const p of this.providers) if (!p.down && p.head !== undefined) this.recentHeads.push({ head: p.head, at: now });
    // The reference head is the highest one seen within the staleness bound: a provider that dies does not make a
    // lagging one look current at once.
    while (this.recentHeads.length && now - this.recentHeads[0].at > this.options.staleAfterMs) this.recentHeads.shift();
    if (this.recentHeads.length > 1_000) this.recentHeads.splice(0, this.recentHeads.length - 1_000);
    const reference = this.recentHeads.reduce<bigint | undefined>((max, h) => (max === undefined || h.head > max ? h.head : max), undefined);
    for (const p of this.providers) {
      p.behind = !p.down && p.head !== undefined && reference !== undefined && p.head + BigInt(this.options.maxLagBlocks) < reference;
      if (!p.down && !p.behind) {
        p.usableAt = now;
        this.lastUsableAt = now;
      }
    }
  }

  private usable(p: Provider): boolean {
    return !p.down && !p.behind;
  }

  /** A provider is passed over while it is down or behind, unless no provider is usable (then each is tried). */
  private passOver(p: Provider): string | undefined {
    if (this.usable(p) || !this.providers.some((o) => this.usable(o))) return undefined;
    return p.down ? `down (${p.error ?? 'no answer'})` : `behind: head ${p.head} more than ${this.options.maxLagBlocks} blocks below the others`;
  }

  /**
   * viem's fallback transport over the providers, in the configured order, each passed over while it is down or
   * behind. A provider that fails a request for want of an answer (HTTP failure, timeout) counts as down until
   * the next look at it; a revert or other JSON-RPC error is an answer and is not retried elsewhere.
   */
  transport(options: { timeoutMs?: number } = {}): Transport {
    if (this.providers.length > 1) this.start();
    const timeout = options.timeoutMs ?? 10_000;
    const gated = this.providers.map((p): Transport => {
      const inner = http(p.url, { timeout, retryCount: 0, fetchFn: rpcFetch });
      return (params) => {
        const t = inner(params);
        return {
          ...t,
          request: (async (args: never, opts: never) => {
            const why = this.passOver(p);
            if (why) throw new ProviderPassedOver(p.url, why);
            try {
              return await t.request(args, opts);
            } catch (err) {
              if ((err instanceof HttpRequestError || err instanceof TimeoutError) && this.providers.length > 1) {
                p.down = true;
                p.error = err.shortMessage;
              }
              throw err;
            }
          }) as typeof t.request,
        };
      };
    });
    return gated.length === 1 ? gated[0] : fallback(gated, { rank: false, retryCount: 0 });
  }

  /** Whether some provider gave a usable block within `staleAfterMs`, and how each provider stands. */
  freshness(): RpcFreshness {
    this.start();
    const now = Date.now();
    const sinceMs = now - (this.lastUsableAt ?? this.startedAt);
    return {
      chainId: this.chainId,
      stale: sinceMs > this.options.staleAfterMs,
      sinceMs,
      staleAfterMs: this.options.staleAfterMs,
      providers: this.providers.map((p) => ({
        url: redact(p.url),
        state: p.down ? 'down' : p.behind ? 'behind' : 'up',
        ...(p.head === undefined ? {} : { head: p.head.toString() }),
        ...(p.usableAt === undefined ? {} : { lastBlockAgoMs: now - p.usableAt }),
        ...(p.error ? { error: p.error } : {}),
      })),
    };
  }
}

/** A provider URL without its path and query, which often carry an API key. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' && !u.search ? '' : '/…'}`;
  } catch {
    return '<invalid url>';
  }
}

/** One set of providers per chain and `RPC_URL_<chainId>` value in the process, shared by every client of it. */
const shared = new Map<string, RpcProviders>();

/** The providers of `rpcUrl` (comma-separated URLs) for `chainId`; the first call's options set them up. */
export function rpcProviders(chainId: number, rpcUrl: string, options?: RpcProviderOptions): RpcProviders {
  const key = `${chainId} ${rpcUrl}`;
  let providers = shared.get(key);
  if (!providers) shared.set(key, (providers = new RpcProviders(chainId, splitRpcUrls(rpcUrl), options)));
  return providers;
}
