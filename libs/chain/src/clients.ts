import { createPublicClient, createWalletClient, http, type Account, type Address, type Chain, type PublicClient, type Transport, type WalletClient } from 'viem';
import { toViemChain } from './registry';

export interface ChainClientOptions {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly multicall3?: Address;
  /** Per-request timeout of the RPC transport. */
  readonly timeoutMs?: number;
  /** Polling interval for watchers and receipts; small on local chains. */
  readonly pollingIntervalMs?: number;
}

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, Account>;

/** The one place that builds viem read clients. Multicall batches stay small (4 KB) for local nodes. */
export function createChainClient(options: ChainClientOptions): ChainPublicClient {
  const chain = toViemChain(options.chainId, options.rpcUrl, options.multicall3);
  return createPublicClient({
    chain,
    transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 0 }),
    batch: { multicall: { batchSize: 4096 } },
    cacheTime: 0,
    pollingInterval: options.pollingIntervalMs ?? 1_000,
  });
}

/** The one place that builds viem signing clients (devnet seeder and referral keeper only). */
export function createChainWalletClient(options: ChainClientOptions & { account: Account }): ChainWalletClient {
  const chain = toViemChain(options.chainId, options.rpcUrl, options.multicall3);
  return createWalletClient({
    chain,
    account: options.account,
    transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 30_000, retryCount: 0 }),
    pollingInterval: options.pollingIntervalMs ?? 500,
    cacheTime: 0,
  });
}
