import { createPublicClient, createWalletClient, http, numberToHex, type Account, type Address, type Chain, type PublicClient, type Transport, type WalletClient } from 'viem';
import { toViemChain } from './registry';
import { rpcFetch } from './rpc-fetch';
import { rpcProviders, splitRpcUrls, type RpcProviderOptions } from './rpc-providers';

export interface ChainClientOptions {
  readonly chainId: number;
  /** One URL, or several comma-separated: providers tried in order, one that fails or falls behind passed over. */
  readonly rpcUrl: string;
  /** How several providers are watched (the first client of a chain and URL list sets them up). */
  readonly providers?: RpcProviderOptions;
  readonly multicall3?: Address;
  /** Per-request timeout of the RPC transport. */
  readonly timeoutMs?: number;
  /** Polling interval for watchers and receipts; small on local chains. */
  readonly pollingIntervalMs?: number;
  /**
   * Gather reads into Multicall3 calls (default). Off for a chain that may have no Multicall3 yet (the deploy tool
   * on a chain it sets up): each read is then its own eth_call.
   */
  readonly multicallBatching?: boolean;
}

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, Account>;

/**
 * The one place that builds viem read clients. Multicall batches stay small (4 KB) for local nodes. Several
 * comma-separated URLs make one client over all of them (see `RpcProviders`).
 */
export function createChainClient(options: ChainClientOptions): ChainPublicClient {
  const urls = splitRpcUrls(options.rpcUrl);
  const chain = toViemChain(options.chainId, urls[0] ?? options.rpcUrl, options.multicall3);
  const timeout = options.timeoutMs ?? 10_000;
  return createPublicClient({
    chain,
    transport: urls.length > 1 ? rpcProviders(options.chainId, options.rpcUrl, options.providers).transport({ timeoutMs: timeout }) : http(urls[0], { timeout, retryCount: 0, fetchFn: rpcFetch }),
    ...(options.multicallBatching === false ? {} : { batch: { multicall: { batchSize: 4096 } } }),
    cacheTime: 0,
    pollingInterval: options.pollingIntervalMs ?? 1_000,
  });
}

/**
 * Pads gas estimates: the node estimates against a pending block whose timestamp may differ from the block the
 * transaction lands in, and time-dependent code (a V2 pair's first update in a new second writes its price
 * accumulators) can then need more gas than estimated. 25% plus 50,000 covers that with room to spare.
 */
export function withGasMargin(transport: Transport): Transport {
  return (params) => {
    const inner = transport(params);
    return {
      ...inner,
      request: (async (args: { method: string; params?: unknown }) => {
        const result = await inner.request(args as never);
        const pad = (gas: string) => numberToHex((BigInt(gas) * 125n) / 100n + 50_000n);
        if (args.method === 'eth_estimateGas') return pad(result as string);
        // Nodes that fill a transaction request (eth_fillTransaction) estimate its gas the same way.
        const filled = result as { tx?: { gas?: string } } | null;
        if (args.method === 'eth_fillTransaction' && filled?.tx?.gas) return { ...filled, tx: { ...filled.tx, gas: pad(filled.tx.gas) } };
        return result;
      }) as typeof inner.request,
    };
  };
}

/** The one place that builds viem signing clients (devnet seeder and referral keeper only). */
export function createChainWalletClient(options: ChainClientOptions & { account: Account }): ChainWalletClient {
  const urls = splitRpcUrls(options.rpcUrl);
  const chain = toViemChain(options.chainId, urls[0] ?? options.rpcUrl, options.multicall3);
  const timeout = options.timeoutMs ?? 30_000;
  return createWalletClient({
    chain,
    account: options.account,
    transport: withGasMargin(urls.length > 1 ? rpcProviders(options.chainId, options.rpcUrl, options.providers).transport({ timeoutMs: timeout }) : http(urls[0], { timeout, retryCount: 0, fetchFn: rpcFetch })),
    pollingInterval: options.pollingIntervalMs ?? 500,
    cacheTime: 0,
  });
}
