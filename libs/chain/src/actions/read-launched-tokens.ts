// Lists the launchpad's tokens: how many it launched, and a page of them in creation order with their metadata.
import { launchpadAbi } from '@dex/abis';
import { getAddress, type Address, type ContractFunctionReturnType } from 'viem';
import type { ChainPublicClient } from '../clients';

/** A launched token's metadata as the launchpad stores it (`getTokenMetadata`). */
export type LaunchedTokenMetadata = ContractFunctionReturnType<typeof launchpadAbi, 'view', 'getTokenMetadata'>;

export interface ReadLaunchedTokensParameters {
  readonly launchpad: Address;
  /** The index of the first token, in creation order (0 is the first launch). */
  readonly start: number;
  /** How many tokens from `start` (the launchpad answers fewer past its last token). */
  readonly count: number;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

/** The page's tokens in creation order, each with its metadata. */
export type ReadLaunchedTokensReturnType = { readonly address: Address; readonly metadata: LaunchedTokenMetadata }[];

/**
 * A page of launched tokens with their metadata, in one call (`getPaginatedTokensWithMetadata`).
 *
 * @example
 * const count = await readLaunchedTokenCount(client, { launchpad });
 * const newest = await readLaunchedTokens(client, { launchpad, start: Math.max(0, count - 20), count: 20 });
 */
export async function readLaunchedTokens(client: ChainPublicClient, params: ReadLaunchedTokensParameters): Promise<ReadLaunchedTokensReturnType> {
  if (params.count <= 0) return [];
  const [addresses, metadata] = await client.readContract({
    address: params.launchpad,
    abi: launchpadAbi,
    functionName: 'getPaginatedTokensWithMetadata',
    args: [BigInt(params.start), BigInt(params.count)],
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
  });
  return addresses.map((address, i) => ({ address: getAddress(address), metadata: metadata[i] }));
}
