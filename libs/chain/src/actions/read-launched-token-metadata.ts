// Reads launched tokens' metadata (name, symbol, image and links, creator, creation time) from the launchpad.
import { launchpadAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';
import type { LaunchedTokenMetadata } from './read-launched-tokens';

export interface ReadLaunchedTokenMetadataParameters {
  readonly launchpad: Address;
  /** Launched tokens; each must be the launchpad's (otherwise the read throws its TokenNotFound revert). */
  readonly tokens: readonly Address[];
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

/** Per token, in the order given. */
export type ReadLaunchedTokenMetadataReturnType = LaunchedTokenMetadata[];

/** The metadata of launched tokens, in one multicall of the launchpad's `getTokenMetadata`; throws the first failure. */
export async function readLaunchedTokenMetadata(client: ChainPublicClient, params: ReadLaunchedTokenMetadataParameters): Promise<ReadLaunchedTokenMetadataReturnType> {
  if (params.tokens.length === 0) return [];
  return client.multicall({
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
    allowFailure: false,
    contracts: params.tokens.map((token) => ({ address: params.launchpad, abi: launchpadAbi, functionName: 'getTokenMetadata', args: [token] }) as const),
  });
}
