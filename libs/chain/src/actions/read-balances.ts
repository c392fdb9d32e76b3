// Reads a wallet's balances at one block: ERC-20 tokens in one multicall, and the native coin.
import { erc20Abi, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadBalancesParameters {
  readonly owner: Address;
  /** ERC-20 tokens to read the balance of. */
  readonly tokens: readonly Address[];
  /** Whether to read the native coin's balance too. */
  readonly native?: boolean;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

export interface ReadBalancesReturnType {
  /** The native coin's balance, when asked for. */
  readonly native: bigint | undefined;
  /** Per token, in the order given. */
  readonly tokens: bigint[];
}

/** A wallet's balances of the native coin and of ERC-20 tokens at one block; throws the first failure. */
export async function readBalances(client: ChainPublicClient, params: ReadBalancesParameters): Promise<ReadBalancesReturnType> {
  const at = params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber };
  const [native, tokens] = await Promise.all([
    params.native ? client.getBalance({ address: params.owner, ...at }) : Promise.resolve(undefined),
    params.tokens.length === 0
      ? Promise.resolve([])
      : client.multicall({
          ...at,
          allowFailure: false,
          contracts: params.tokens.map((token) => ({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [params.owner] }) as const),
        }),
  ]);
  return { native, tokens: [...tokens] };
}
