// sampleCorePools (libs/chain), as aggregator-router samples the core pools, on a real chain: the devnet's core pools sampled in one multicall answer, sample by sample,
// what each pool's own estimateSwap answers at the same block, and laying the ladders on given reserves
// reads no reserves first.
import { ammPoolAbi } from '@dex/abis';
import { startTestChains, type TestChains } from '@dex/testing';
import type { Address } from 'viem';
import { createChainClient, sampleCorePools, type ChainPublicClient } from '@dex/chain';

jest.setTimeout(60_000);

describe('sampleCorePools', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it("answers each pool's own estimateSwap at the block, in both directions", async () => {
    const pools = chain().pools.filter((p) => p.kind === 'core').map((p) => ({ address: p.address as Address, token0: p.token0 as Address, token1: p.token1 as Address }));
    expect(pools.length).toBeGreaterThan(0);
    const blockNumber = await client.getBlockNumber();
    const samples = await sampleCorePools(client, { pools, blockNumber, ladderSize: 4 });
    expect(samples).toHaveLength(pools.length);
    for (const [i, pool] of pools.entries()) {
      const s = samples[i]!;
      const [r0, r1] = await client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'getReserves', blockNumber });
      expect([s.reserve0, s.reserve1]).toEqual([r0, r1]);
      expect(s.samples0to1).toHaveLength(4);
      expect(s.samples1to0).toHaveLength(4);
      // The ladder runs from a millionth to half of the input reserve.
      expect(s.samples0to1[3].amountIn).toBe(r0 / 2n);
      for (const [side, list] of [[0, s.samples0to1] as const, [1, s.samples1to0] as const]) {
        const [tokenIn, tokenOut] = side === 0 ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
        for (const { amountIn, amountOut } of list) {
          expect(amountOut).toBe(await client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, amountIn], blockNumber }));
        }
      }
    }
    // Ladders laid on the reserves given: the same samples.
    const again = await sampleCorePools(client, { pools: pools.map((p, i) => ({ ...p, reserves: { reserve0: samples[i]!.reserve0, reserve1: samples[i]!.reserve1 } })), blockNumber, ladderSize: 4 });
    expect(again).toEqual(samples);
  });
});
