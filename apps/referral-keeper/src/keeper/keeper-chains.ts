import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { ConfigError, loadSourcesConfig } from '@dex/service';
import { getAddress, type Address } from 'viem';
import { SERVICE, type Config } from '../config';

export interface KeeperChain {
  readonly chainId: number;
  readonly router: Address;
  readonly registry: Address;
  readonly oracle: Address;
  readonly client: ChainPublicClient;
  readonly wallet: ChainWalletClient;
}

/** The AMM contracts and the keeper's clients per served chain, from the `core` source of the sources file. */
export function keeperChains(config: Config): KeeperChain[] {
  const sources = loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId));
  return config.chains.map((endpoint) => {
    const core = sources.get(endpoint.chainId)?.find((s) => s.kind === 'core');
    const { router, registry, oracle } = core?.addresses ?? {};
    if (!router || !registry || !oracle) {
      throw new ConfigError(SERVICE, [`invalid setting SOURCES_CONFIG: chain ${endpoint.chainId} has no core source with router, registry and oracle addresses`]);
    }
    return {
      chainId: endpoint.chainId,
      router: getAddress(router),
      registry: getAddress(registry),
      oracle: getAddress(oracle),
      client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, pollingIntervalMs: 250 }),
      wallet: createChainWalletClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, account: config.keeper, pollingIntervalMs: 250 }),
    };
  });
}
