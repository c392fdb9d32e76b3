// The scale profile on a real chain: pools of every kind created and seeded with what the profile planned,
// every trader funded, and a second start with the same profile loaded from the cache (the same pools, with
// the chain's logs, from which an indexer finds them).
import { ammPoolAbi, stablePoolAbi, testERC20Abi, uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV3PoolAbi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAbiItem, toEventSelector, type Address } from 'viem';
import { V3_FEE_TIERS, devAccount, startDevnet, type Devnet, type ScaleOptions } from '../src';

jest.setTimeout(120_000);

describe('startDevnet with the scale profile', () => {
  let dir: string;
  let first: Devnet | undefined;
  let second: Devnet | undefined;
  const trader = devAccount(11).address;
  let options: ScaleOptions;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scale-cache-'));
    options = { pools: 120, tokens: 12, traders: [trader], cacheDir: dir };
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates and seeds the planned pools of every kind, funds the traders, and keeps the chain for the next start', async () => {
    first = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000', scale: options });
    const chain = first.manifest.chains['999'];
    const scale = first.scale!.get(999)!;
    expect(chain.scale?.pools).toEqual({ 'uniswap-v2': 101, stable: 12, core: 1, 'uniswap-v3': 5, algebra: 1 });
    expect(scale.pools).toHaveLength(120);
    expect(scale.tokens).toHaveLength(12);
    const client = createChainClient({ chainId: 999, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 as Address });
    // Seeding mines its bursts of transactions itself, then gives the chain back to automatic mining.
    expect(await client.request({ method: 'anvil_getAutomine' } as never)).toBe(true);
    const reserves = await client.multicall({
      allowFailure: false,
      contracts: scale.pools.filter((p) => p.kind !== 'uniswap-v3' && p.kind !== 'algebra').map((p) =>
        p.kind === 'core'
          ? ({ address: p.address, abi: ammPoolAbi, functionName: 'getReserves' } as const)
          : p.kind === 'stable'
            ? ({ address: p.address, abi: stablePoolAbi, functionName: 'getReserves' } as const)
            : ({ address: p.address, abi: uniswapV2PairAbi, functionName: 'getReserves' } as const),
      ),
    });
    for (const r of reserves) {
      expect((r as readonly bigint[])[0]).toBeGreaterThan(0n);
      expect((r as readonly bigint[])[1]).toBeGreaterThan(0n);
    }
    // The concentrated pools hold liquidity at their price, on their factory's fee tiers.
    const concentrated = scale.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra');
    const liquidity = await client.multicall({
      allowFailure: false,
      contracts: concentrated.map((p) => ({ address: p.address, abi: uniswapV3PoolAbi, functionName: 'liquidity' }) as const),
    });
    for (const l of liquidity) expect(l).toBeGreaterThan(0n);
    for (const p of concentrated) {
      expect(p.tickSpacing).toBe(p.kind === 'algebra' ? 60 : V3_FEE_TIERS[p.fee!]);
      expect(chain.sources.find((s) => s.routerIndex === p.routerIndex)?.kind).toBe(p.kind);
    }
    // The stable pools pair tokens of the same decimals; every pool is distinct per factory.
    const decimals = new Map(scale.tokens.map((t) => [t.address, t.decimals]));
    for (const p of scale.pools.filter((x) => x.kind === 'stable')) expect(decimals.get(p.token0)).toBe(decimals.get(p.token1));
    expect(new Set(scale.pools.map((p) => p.address)).size).toBe(120);
    const balances = await client.multicall({
      allowFailure: false,
      contracts: scale.tokens.map((t) => ({ address: t.address, abi: testERC20Abi, functionName: 'balanceOf', args: [trader] }) as const),
    });
    for (const b of balances) expect(b).toBeGreaterThan(0n);
    expect(readdirSync(dir).sort()).toEqual([expect.stringMatching(/^scale-999-\w+\.json$/), expect.stringMatching(/^scale-999-\w+\.state\.json$/)]);
    const head = await client.getBlockNumber();
    await first.stop();
    first = undefined;

    second = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000', scale: options });
    const again = second.manifest.chains['999'];
    expect(second.scale!.get(999)!.pools).toEqual(scale.pools);
    expect({ ...again, rpcUrl: chain.rpcUrl }).toEqual(chain);
    const loaded = createChainClient({ chainId: 999, rpcUrl: again.rpcUrl, multicall3: again.multicall3 as Address });
    expect(await loaded.getBlockNumber()).toBe(head);
    // The pair creations are there as logs, as an indexer reads them.
    const pairCreated = toEventSelector(getAbiItem({ abi: uniswapV2FactoryAbi, name: 'PairCreated' }));
    const logs = await loaded.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', topics: [pairCreated] }] });
    expect(logs.length).toBeGreaterThanOrEqual(101);
  });
});
