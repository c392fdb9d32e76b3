import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { ConfigError, loadSourcesConfig } from '@dex/service';
import { getAddress, type Address } from 'viem';
import { SERVICE, type Config } from '../config';

export interface CoreChain {
  readonly chainId: number;
  /** The AMM router of the chain: finds the pool of a pair and quotes in batches. */
  readonly router: Address;
  readonly client: ChainPublicClient;
}

/** The AMM router and an RPC client per served chain, from the `core` source of the sources file. */
export class CoreChains {
  private constructor(private readonly chains: ReadonlyMap<number, CoreChain>) {}

  static fromConfig(config: Config): CoreChains {
    const sources = loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId));
    const chains = new Map<number, CoreChain>();
    for (const endpoint of config.chains) {
      const core = sources.get(endpoint.chainId)?.find((s) => s.kind === 'core');
      const router = core?.addresses.router;
      if (!router) {
        throw new ConfigError(SERVICE, [`invalid setting SOURCES_CONFIG: chain ${endpoint.chainId} has no core source with a router address`]);
      }
      chains.set(endpoint.chainId, {
        chainId: endpoint.chainId,
        router: getAddress(router),
        client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, timeoutMs: 5_000, pollingIntervalMs: config.BLOCK_POLL_MS }),
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
