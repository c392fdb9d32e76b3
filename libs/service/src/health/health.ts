import { createChainClient, probeRpc, rpcProviders, type ChainPublicClient, type RpcFreshness } from '@dex/chain';
import { withTimeout, type NatsBus } from '../bus/nats-bus';
import type { ChainEndpoint } from '../config/config';

/** One dependency the service needs to do its work. `run` rejects when the dependency is unusable. */
export interface HealthCheck {
  readonly name: string;
  run(): Promise<Record<string, unknown> | void>;
}

export interface CheckResult {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: 'ok' | 'error';
  service: string;
  checks: Record<string, CheckResult>;
}

/** Runs every check in parallel, each bounded by `timeoutMs`. */
export async function runChecks(service: string, checks: readonly HealthCheck[], timeoutMs = 2_500): Promise<HealthReport> {
  const entries = await Promise.all(
    checks.map(async (check): Promise<[string, CheckResult]> => {
      const started = performance.now();
      try {
        const details = await withTimeout(check.run(), timeoutMs, `no answer within ${timeoutMs} ms`);
        return [check.name, { status: 'up', latencyMs: Math.round(performance.now() - started), ...(details ?? {}) }];
      } catch (err) {
        return [
          check.name,
          { status: 'down', latencyMs: Math.round(performance.now() - started), error: err instanceof Error ? err.message : String(err) },
        ];
      }
    }),
  );
  const results = Object.fromEntries(entries);
  const ok = entries.every(([, r]) => r.status === 'up');
  return { status: ok ? 'ok' : 'error', service, checks: results };
}

/** NATS answers a PING. */
export function natsCheck(bus: NatsBus): HealthCheck {
  return {
    name: 'nats',
    run: async () => ({ rttMs: Math.round((await bus.ping()) * 10) / 10 }),
  };
}

/**
 * The chain's node answers and serves the configured chain id (through the providers' fallback when there are
 * several); with several providers the report also says how each one stands.
 */
export function rpcCheck(endpoint: ChainEndpoint, client?: ChainPublicClient): HealthCheck {
  const rpc = client ?? createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, timeoutMs: 2_000, providers: endpoint.providers });
  const several = endpoint.rpcUrl.includes(',');
  return {
    name: `rpc:${endpoint.chainId}`,
    run: async () => {
      const probe = await probeRpc(rpc);
      return { blockNumber: probe.blockNumber.toString(), ...(several ? { providers: chainFreshness(endpoint).providers } : {}) };
    },
  };
}

/** How fresh the chain's RPC providers are (the look at their heads starts with the first call). */
export function chainFreshness(endpoint: ChainEndpoint): RpcFreshness {
  return rpcProviders(endpoint.chainId, endpoint.rpcUrl, endpoint.providers).freshness();
}

/** The `details` of a 503 for a stale chain: how long, the bound, and each provider's state. */
export function staleChainDetails(f: RpcFreshness): string {
  const providers = f.providers.map((p) => `${p.url} ${p.state}${p.head ? ` at block ${p.head}` : ''}${p.error ? ` (${p.error})` : ''}`).join('; ');
  return `no usable block from any RPC provider for ${Math.round(f.sinceMs / 1000)} s (bound ${f.staleAfterMs / 1000} s): ${providers}`;
}
