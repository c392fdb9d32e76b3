import { createChainClient, createChainWalletClient, getChainInfo, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { loadSourcesConfig, sourceContracts } from '@dex/service';
import type { Address } from 'viem';
import { SERVICE, type Config } from '../config';

export interface KeeperChain {
  readonly chainId: number;
  readonly router: Address;
  readonly registry: Address;
  readonly oracle: Address;
  /** The launchpad, from the `launchpad` source; a chain without one has no graduations to finish. */
  readonly launchpad?: Address;
  /** The most gas a transaction may use to fit the chain's regular blocks, where it is less than a block's limit. */
  readonly smallBlockGasLimit?: bigint;
  readonly client: ChainPublicClient;
  readonly wallet: ChainWalletClient;
}

/**
 * The AMM contracts (the `core` source of the sources file), the launchpad (its `launchpad` source, if any) and
 * the keeper's clients, per served chain.
 */
export function keeperChains(config: Config): KeeperChain[] {
  const sources = loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId));
  const cores = sourceContracts(SERVICE, sources, 'core', ['router', 'registry', 'oracle']);
  const launchpads = sourceContracts(SERVICE, sources, 'launchpad', ['launchpad'], { optional: true });
  return config.chains.map((endpoint) => {
    const { router, registry, oracle } = cores.get(endpoint.chainId)!;
    const launchpad = launchpads.get(endpoint.chainId)?.launchpad;
    const smallBlockGasLimit = getChainInfo(endpoint.chainId).smallBlockGasLimit;
    return {
      chainId: endpoint.chainId,
      router,
      registry,
      oracle,
      ...(launchpad ? { launchpad } : {}),
      ...(smallBlockGasLimit ? { smallBlockGasLimit: BigInt(smallBlockGasLimit) } : {}),
      client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, providers: endpoint.providers, pollingIntervalMs: 250 }),
      wallet: createChainWalletClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, providers: endpoint.providers, account: config.keeper, pollingIntervalMs: 250 }),
    };
  });
}
