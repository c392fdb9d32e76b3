/**
 * A private anvil chain for the on-chain differential tests (the routing engine's against real pools, the indexer's
 * Uniswap V4 facts against the PoolManager): a read client and a wallet, deployment and transactions
 * (`contractWriter`), a block gas limit with room for quotes that walk the whole tick range, and a pool of concurrent
 * calls.
 */
import { devAccounts, startAnvil, type AnvilNode } from '@dex/devnet-kit';
import { createPublicClient, createWalletClient, defineChain, http, toHex, type Abi, type Address, type Hex, type PublicClient, type TransactionReceipt, type WalletClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { contractWriter, type ContractWriter } from './contracts';

export const ONCHAIN_CHAIN_ID = 31_337;
/** eth_call gas: a swap to the price limit on tick spacing 1 walks thousands of bitmap words. */
export const ONCHAIN_CALL_GAS = 4_000_000_000n;

export interface OnchainChain extends ContractWriter {
  readonly node: AnvilNode;
  readonly client: PublicClient;
  readonly wallet: WalletClient;
  readonly account: PrivateKeyAccount;
}

/** A private anvil chain of id `chainId` (default `ONCHAIN_CHAIN_ID`: one of the product's for a service's client). */
export async function startOnchainChain(options: { readonly chainId?: number } = {}): Promise<OnchainChain> {
  const chainId = options.chainId ?? ONCHAIN_CHAIN_ID;
  const node = await startAnvil({ chainId, accounts: 1 });
  const chain = defineChain({ id: chainId, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.rpcUrl] } } });
  const transport = http(node.rpcUrl, { timeout: 120_000 });
  const client = createPublicClient({ chain, transport, pollingInterval: 20, cacheTime: 0 });
  const account = privateKeyToAccount(devAccounts()[0].privateKey);
  const wallet = createWalletClient({ chain, transport, account });
  // Room for quotes that walk the whole tick range.
  await client.request({ method: 'evm_setBlockGasLimit' as never, params: [toHex(ONCHAIN_CALL_GAS * 2n)] as never });
  const { deploy, send } = contractWriter(client, wallet, account);
  return { node, client, wallet, account, deploy, send };
}

/** Runs `f` over `items` with at most `limit` at a time. */
export async function inParallel<T, R>(items: readonly T[], limit: number, f: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await f(items[i], i);
      }
    }),
  );
  return results;
}

/**
 * Sends the transactions one after the other without waiting (anvil mines each at once), then waits for them all,
 * eight at a time.
 */
export async function sendAll(chain: OnchainChain, calls: readonly { address: Address; abi: Abi; functionName: string; args: readonly unknown[]; value?: bigint }[]): Promise<TransactionReceipt[]> {
  const { client, wallet, account } = chain;
  const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hex[] = [];
  for (const [i, c] of calls.entries()) {
    hashes.push(await wallet.writeContract({ ...c, account, chain: wallet.chain, gas: 30_000_000n, nonce: nonce + i } as never));
  }
  return inParallel(hashes, 8, (hash) => client.waitForTransactionReceipt({ hash }));
}
