import { createChainClient, createChainWalletClient, getChainInfo, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { ConfigError, loadSourcesConfig } from '@dex/service';
import { getAddress, type Address } from 'viem';
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
  return config.chains.map((endpoint) => {
    const core = sources.get(endpoint.chainId)?.find((s) => s.kind === 'core');
    const { router, registry, oracle } = core?.addresses ?? {};
    if (!router || !registry || !oracle) {
      throw new ConfigError(SERVICE, [`invalid setting SOURCES_CONFIG: chain ${endpoint.chainId} has no core source with router, registry and oracle addresses`]);
    }
    const launchpad = sources.get(endpoint.chainId)?.find((s) => s.kind === 'launchpad')?.addresses.launchpad;
    const smallBlockGasLimit = getChainInfo(endpoint.chainId).smallBlockGasLimit;
    return {
      chainId: endpoint.chainId,
      router: getAddress(router),
      registry: getAddress(registry),
      oracle: getAddress(oracle),
      ...(launchpad ? { launchpad: getAddress(launchpad) } : {}),
      ...(smallBlockGasLimit ? { smallBlockGasLimit: BigInt(smallBlockGasLimit) } : {}),
      client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, pollingIntervalMs: 250 }),
      wallet: createChainWalletClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, account: config.keeper, pollingIntervalMs: 250 }),
    };
  });
}
