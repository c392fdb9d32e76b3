// readCorePools, readOraclePrices and readPendingRefFees (libs/chain), as the keeper reads what it would
// distribute, on a real chain: after a swap with a referral code the code's claimable fees are listed, pool by
// pool, as each pool's getRefClaimable answers, and the prices are the oracle's getPriceUsd.
import { ammPoolAbi, ammRouterAbi, refCodeRegistryAbi, settablePriceOracleAbi } from '@dex/abis';
import { createChainClient, readCorePools, readOraclePrices, readPendingRefFees, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import type { Address } from 'viem';

jest.setTimeout(60_000);

describe('pending referral fee reads', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const core = () => chain().sources.find((s) => s.kind === 'core')!.addresses as { router: Address; registry: Address; oracle: Address };

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it("lists the router's pools and the oracle's prices", async () => {
    const pools = await readCorePools(client, { router: core().router });
    expect(pools).toEqual(await client.readContract({ address: core().router, abi: ammRouterAbi, functionName: 'getPools' }));
    expect(new Set(pools)).toEqual(new Set(chain().pools.filter((p) => p.kind === 'core').map((p) => p.address)));
    const tokens = [...new Set(chain().pools.filter((p) => p.kind === 'core').flatMap((p) => [p.token0 as Address, p.token1 as Address]))];
    const prices = await readOraclePrices(client, { oracle: core().oracle, tokens });
    for (const [i, token] of tokens.entries()) {
      const own = await client.readContract({ address: core().oracle, abi: settablePriceOracleAbi, functionName: 'getPriceUsd', args: [token] }).then(
        ([price]) => price,
        () => undefined,
      );
      expect(prices[i]).toBe(own);
    }
    expect(prices.some((p) => p !== undefined && p > 0n)).toBe(true);
  });

  it("answers each pool's getRefClaimable for every active code with something claimable", async () => {
    const { router, registry } = core();
    const entries = await readPendingRefFees(client, { router, registry });
    const pools = await readCorePools(client, { router });
    const count = await client.readContract({ address: registry, abi: refCodeRegistryAbi, functionName: 'refCodeCount' });
    const expected = [];
    for (const pool of pools) {
      const [token0, token1] = await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'getTokens' });
      for (let i = 0n; i < count; i++) {
        const refCode = await client.readContract({ address: registry, abi: refCodeRegistryAbi, functionName: 'refCodeAt', args: [i] });
        if (!(await client.readContract({ address: registry, abi: refCodeRegistryAbi, functionName: 'isActive', args: [refCode] }))) continue;
        const [amount0, amount1] = await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [refCode] });
        if (amount0 > 0n || amount1 > 0n) expected.push({ pool, refCode, token0, token1, amount0, amount1 });
      }
    }
    expect(entries).toEqual(expected);
  });
});
