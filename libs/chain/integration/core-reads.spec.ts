// The core AMM reads of libs/chain, on a real chain: quoteCoreSwaps (a route's core legs
// re-quoted) and readBalances answer in one multicall what each pool's own estimateSwap and each token's
// balanceOf answer at the same block, a swap the pool refuses is undefined without failing the others;
// sampleCorePools (the core pools sampled every block) answers each pool's own estimateSwap, sample by sample,
// in both directions, up to within 0.2% of the most the pool quotes, first sight or laid on the previous sample.
import { ammPoolAbi } from '@dex/abis';
import { CORE_LADDER_SIZE, createChainClient, quoteCoreSwaps, readBalances, sampleCorePools, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import { erc20Abi, type Address } from 'viem';

jest.setTimeout(60_000);

describe('core AMM reads', () => {
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

  it("samples each core pool as its own estimateSwap answers at the block, in both directions, up to its bound", async () => {
    const pools = chain().pools.filter((p) => p.kind === 'core').map((p) => ({ address: p.address as Address, token0: p.token0 as Address, token1: p.token1 as Address }));
    expect(pools.length).toBeGreaterThan(0);
    const blockNumber = await client.getBlockNumber();
    const own = (pool: (typeof pools)[number], side: 0 | 1, amountIn: bigint) => {
      const [tokenIn, tokenOut] = side === 0 ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
      return client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, amountIn], blockNumber }).catch(() => undefined);
    };
    const check = async (samples: Awaited<ReturnType<typeof sampleCorePools>>) => {
      expect(samples).toHaveLength(pools.length);
      for (const [i, pool] of pools.entries()) {
        const s = samples[i]!;
        const [r0, r1] = await client.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'getReserves', blockNumber });
        expect([s.reserve0, s.reserve1]).toEqual([r0, r1]);
        for (const [side, list, reserveOut] of [[0, s.samples0to1, r1] as const, [1, s.samples1to0, r0] as const]) {
          expect(list).toHaveLength(CORE_LADDER_SIZE);
          for (const { amountIn, amountOut } of list) expect(amountOut).toBe(await own(pool, side, amountIn));
          // The ladder ends within 0.2% of the bound: a little more input than its top is still quoted, 0.2% more is not.
          const top = list[list.length - 1].amountIn;
          expect(list[list.length - 1].amountOut).toBeLessThanOrEqual(reserveOut);
          expect(await own(pool, side, top + top / 500n)).toBeUndefined();
        }
      }
    };
    // Pools seen for the first time: their reserves, a ladder to half of them, then the ladder its rates give.
    const first = await sampleCorePools(client, { pools, blockNumber });
    await check(first);
    // Laid on the previous sample: no reserve read first, the same bound.
    const again = await sampleCorePools(client, { pools: pools.map((p, i) => ({ ...p, previous: first[i] })), blockNumber });
    await check(again);
  });
});
