// quoteCoreSwaps and readBalances (libs/chain), as aggregator-router re-quotes a route's core legs and reads a
// wallet's balances, on a real chain: one multicall answers what each pool's own estimateSwap and each token's
// balanceOf answer at the same block, and a swap the pool refuses is undefined without failing the others.
import { ammPoolAbi } from '@dex/abis';
import { createChainClient, quoteCoreSwaps, readBalances, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import { erc20Abi, type Address } from 'viem';

jest.setTimeout(60_000);

describe('quoteCoreSwaps and readBalances', () => {
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

  it("answers each core pool's own estimateSwap at the block, a refused swap undefined", async () => {
    const pools = chain().pools.filter((p) => p.kind === 'core');
    expect(pools.length).toBeGreaterThan(0);
    const blockNumber = await client.getBlockNumber();
    const swaps = pools.flatMap((p) => {
      const [t0, t1] = [p.token0 as Address, p.token1 as Address];
      return [
        { pool: p.address as Address, tokenIn: t0, tokenOut: t1, amountIn: 10n ** 15n },
        { pool: p.address as Address, tokenIn: t1, tokenOut: t0, amountIn: 10n ** 6n },
      ];
    });
    const refused = { ...swaps[0], amountIn: 2n ** 200n };
    const quoted = await quoteCoreSwaps(client, { swaps: [...swaps, refused], blockNumber });
    expect(quoted).toHaveLength(swaps.length + 1);
    for (const [i, s] of swaps.entries()) {
      const own = await client.readContract({ address: s.pool, abi: ammPoolAbi, functionName: 'estimateSwap', args: [s.tokenIn, s.tokenOut, s.amountIn], blockNumber }).catch(() => undefined);
      expect(quoted[i]).toBe(own);
    }
    expect(quoted.slice(0, swaps.length).some((q) => q !== undefined && q > 0n)).toBe(true);
    expect(quoted[swaps.length]).toBeUndefined();
    expect(await quoteCoreSwaps(client, { swaps: [], blockNumber })).toEqual([]);
  });

  it("answers each token's balanceOf and the native balance at the block", async () => {
    const owner = chain().pools.find((p) => p.kind === 'core')!.address as Address;
    const tokens = [...new Set(chain().pools.flatMap((p) => [p.token0 as Address, p.token1 as Address]))];
    const blockNumber = await client.getBlockNumber();
    const read = await readBalances(client, { owner, tokens, native: true, blockNumber });
    expect(read.tokens).toEqual(await Promise.all(tokens.map((t) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner], blockNumber }))));
    expect(read.tokens.some((b) => b > 0n)).toBe(true);
    expect(read.native).toBe(await client.getBalance({ address: owner, blockNumber }));
    expect(await readBalances(client, { owner, tokens: [] })).toEqual({ native: undefined, tokens: [] });
  });
});
