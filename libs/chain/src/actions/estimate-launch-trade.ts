// Asks the launchpad what a trade on a token's curve would give: the launchpad's own estimate is the quote.
import { launchpadAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface EstimateLaunchTradeParameters {
  readonly launchpad: Address;
  readonly token: Address;
  /** `buy`: `amount` is native coin in (fee included); `sell`: `amount` is tokens in. */
  readonly side: 'buy' | 'sell';
  readonly amount: bigint;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

/** Tokens out of a buy, or native coin out of a sale (net of the fee). */
export type EstimateLaunchTradeReturnType = bigint;

/**
 * The launchpad's `estimateBuy` or `estimateSell`. Throws its reverts as they are (see `revertName`): a curve no
 * longer trading reverts `TokenFrozen`, an unknown token `TokenNotFound`, a sale beyond what the curve raised
 * `InsufficientLiquidity`.
 */
export async function estimateLaunchTrade(client: ChainPublicClient, params: EstimateLaunchTradeParameters): Promise<EstimateLaunchTradeReturnType> {
  return client.readContract({
    address: params.launchpad,
    abi: launchpadAbi,
    functionName: params.side === 'buy' ? 'estimateBuy' : 'estimateSell',
    args: [params.token, params.amount],
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
  });
}
