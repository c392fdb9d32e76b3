import type { ChainPublicClient } from './clients';

export interface RpcProbe {
  readonly chainId: number;
  readonly blockNumber: bigint;
}

/**
 * Asks the node for its chain id and latest block; rejects when the node is unreachable, too slow,
 * or serves a different chain than configured.
 */
export async function probeRpc(client: ChainPublicClient, timeoutMs = 2_000): Promise<RpcProbe> {
  const expected = client.chain.id;
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new Error(`RPC did not answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  const [chainId, blockNumber] = await Promise.race([
    Promise.all([client.getChainId(), client.getBlockNumber({ cacheTime: 0 })]),
    timeout,
  ]);
  if (chainId !== expected) {
    throw new Error(`RPC serves chainId ${chainId}, expected ${expected}`);
  }
  return { chainId, blockNumber };
}
