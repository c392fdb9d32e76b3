import { createChainClient, type ChainPublicClient } from '@dex/chain';
import type { ChainEndpoint } from '@dex/chain-service';
import { loadSourcesConfig, sourceContracts } from '@dex/service';
import type { Address } from 'viem';
import { SERVICE, type Config } from '../config';

export interface CoreChain {
  readonly chainId: number;
  /** The AMM router of the chain: finds the pool of a pair and quotes in batches. */
  readonly router: Address;
  readonly client: ChainPublicClient;
  /** Its RPC settings (one or several providers). */
  readonly endpoint: ChainEndpoint;
}

/** The AMM router and an RPC client per served chain, from the `core` source of the sources file. */
export class CoreChains {
  private constructor(private readonly chains: ReadonlyMap<number, CoreChain>) {}

  static fromConfig(config: Config): CoreChains {
    const routers = sourceContracts(SERVICE, loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId)), 'core', ['router']);
    const chains = new Map<number, CoreChain>();
    for (const endpoint of config.chains) {
      chains.set(endpoint.chainId, {
        chainId: endpoint.chainId,
        router: routers.get(endpoint.chainId)!.router,
        client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, providers: endpoint.providers, timeoutMs: 5_000, pollingIntervalMs: config.BLOCK_POLL_MS }),
        endpoint,
      });
    }
    return new CoreChains(chains);
  }

  get(chainId: number): CoreChain | undefined {
    return this.chains.get(chainId);
  }

  all(): CoreChain[] {
    return [...this.chains.values()];
  }
}
