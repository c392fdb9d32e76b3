// Reads USD prices from a price oracle (the oracle core pools trade at).
import { settablePriceOracleAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadOraclePricesParameters {
  readonly oracle: Address;
  readonly tokens: readonly Address[];
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

/** Per token, in the order given, its USD price with 18 decimals; undefined when the oracle has none (it reverted). */
export type ReadOraclePricesReturnType = (bigint | undefined)[];

/** The oracle's USD prices of tokens (`getPriceUsd`), in one multicall. */
export async function readOraclePrices(client: ChainPublicClient, params: ReadOraclePricesParameters): Promise<ReadOraclePricesReturnType> {
  if (params.tokens.length === 0) return [];
  const reads = await client.multicall({
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
    allowFailure: true,
    contracts: params.tokens.map((token) => ({ address: params.oracle, abi: settablePriceOracleAbi, functionName: 'getPriceUsd', args: [token] }) as const),
  });
  return reads.map((r) => (r.status === 'success' ? r.result[0] : undefined));
}
