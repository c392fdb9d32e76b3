import { createChainClient, probeRpc, rpcProviders, type ChainPublicClient, type RpcFreshness } from '@dex/chain';
import type { HealthCheck } from '@dex/service';
import type { ChainEndpoint } from '../config/chain-settings';

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
