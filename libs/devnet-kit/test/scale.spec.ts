// The scale profile on a real chain: pools of every kind created and seeded with what the profile planned (Uniswap V4
// pools in the devnet's PoolManager among them, with its hooks and the native coin; Curve NG pools through the devnet's
// Curve factories), every trader funded, and a second start with the same profile loaded from the cache (the same
// pools, with the chain's logs, from which an indexer finds them).
import {
  ammPoolAbi,
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapNGStandInAbi,
  curveTwocryptoFactoryNGStandInAbi,
  curveTwocryptoNGStandInAbi,
  poolManagerAbi,
  stablePoolAbi,
  stateViewAbi,
  testERC20Abi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3PoolAbi,
  v4QuoterAbi,
} from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatUnits, getAbiItem, toEventSelector, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { DEVNET_HOOK_SETTINGS, DEVNET_PRICES_USD, DYNAMIC_FEE_FLAG, V3_FEE_TIERS, devAccount, poolIdOf, sqrtPriceX96At, startDevnet, type Devnet, type ScaleOptions } from '../src';

jest.setTimeout(120_000);

/**
 * What a 200-pool profile adds on chain 999: of its 5% concentrated pools, three in five V3 or Algebra, two in five V4;
 * of its 2% Curve pools, three StableswapNG (of two, three and four coins) and one TwocryptoNG.
 */
const COUNTS = { 'uniswap-v2': 164, stable: 20, core: 2, 'uniswap-v3': 3, algebra: 3, 'uniswap-v4': 4, 'curve-stableswap-ng': 3, 'curve-twocrypto-ng': 1 };

describe('startDevnet with the scale profile', () => {
  let dir: string;
  let first: Devnet | undefined;
  let second: Devnet | undefined;
  const trader = devAccount(11).address;
  let options: ScaleOptions;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scale-cache-'));
    options = { pools: 200, tokens: 24, traders: [trader], cacheDir: dir };
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
    expect(chain.scale?.pools).toEqual(COUNTS);
    expect(scale.pools).toHaveLength(200);
    expect(scale.tokens).toHaveLength(24);
    const client = createChainClient({ chainId: 999, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 as Address });
    // Seeding mines its bursts of transactions itself, then gives the chain back to automatic mining.
    expect(await client.request({ method: 'anvil_getAutomine' } as never)).toBe(true);
    const reserves = await client.multicall({
      allowFailure: false,
      contracts: scale.pools.filter((p) => p.kind === 'uniswap-v2' || p.kind === 'stable' || p.kind === 'core').map((p) =>
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

    // The V4 pools: in the chain's PoolManager, named by their key's PoolId, initialized at the oracle prices (the
    // native coin at the wrapped native's), holding liquidity; one on the dynamic-fee hook (its LP fee set by the
    // hook), one on the input-fee hook, one with the native coin as currency0.
    const v4Source = chain.sources.find((s) => s.kind === 'uniswap-v4')!;
    const v4 = scale.pools.filter((p) => p.kind === 'uniswap-v4');
    const stateView = v4Source.addresses.stateView as Address;
    const price = new Map(scale.tokens.map((t) => [t.address as Address, { decimals: t.decimals, priceUsd: formatUnits(t.priceUsd, 18) }]));
    price.set(zeroAddress, { decimals: 18, priceUsd: DEVNET_PRICES_USD[999].WHYPE });
    for (const p of v4) {
      expect(p.address).toBe(v4Source.addresses.poolManager);
      expect(p.routerIndex).toBe(v4Source.routerIndex);
      expect(p.poolId).toBe(poolIdOf({ currency0: p.currency0!, currency1: p.currency1!, fee: p.fee!, tickSpacing: p.tickSpacing!, hooks: p.hooks! }));
      expect(BigInt(p.currency0!)).toBeLessThan(BigInt(p.currency1!));
      expect([p.token0, p.token1]).toEqual([p.currency0, p.currency1].map((c) => (c === zeroAddress ? chain.wrappedNative.address : c)));
    }
    const read = (functionName: string, poolId: Hex) => ({ address: stateView, abi: stateViewAbi as Abi, functionName, args: [poolId] }) as const;
    const slots = (await client.multicall({ allowFailure: false, contracts: v4.map((p) => read('getSlot0', p.poolId!)) } as never)) as unknown as (readonly [bigint, number, number, number])[];
    const v4Liquidity = (await client.multicall({ allowFailure: false, contracts: v4.map((p) => read('getLiquidity', p.poolId!)) } as never)) as unknown as bigint[];
    v4.forEach((p, i) => {
      expect(slots[i][0]).toBe(sqrtPriceX96At(price.get(p.currency0!)!, price.get(p.currency1!)!));
      expect(v4Liquidity[i]).toBeGreaterThan(0n);
    });
    const dynamic = v4.findIndex((p) => p.hook === 'dynamic-fee');
    expect(v4[dynamic]).toMatchObject({ fee: DYNAMIC_FEE_FLAG, hooks: v4Source.addresses.dynamicFeeHook });
    expect(slots[dynamic][3]).toBe(DEVNET_HOOK_SETTINGS.initialDynamicFee);
    expect(v4.filter((p) => p.hook === 'input-fee').map((p) => p.hooks)).toEqual([v4Source.addresses.inputFeeHook]);
    expect(v4.filter((p) => p.currency0 === zeroAddress)).toHaveLength(1);
    for (const p of v4.filter((x) => !x.hook)) expect(p.hooks).toBe(zeroAddress);
    // Each trades: V4Quoter quotes a thousandth of a currency0 token.
    for (const p of v4) {
      const { result } = await client.simulateContract({
        address: v4Source.addresses.v4Quoter as Address,
        abi: v4QuoterAbi as Abi,
        functionName: 'quoteExactInputSingle',
        args: [{ poolKey: { currency0: p.currency0, currency1: p.currency1, fee: p.fee, tickSpacing: p.tickSpacing, hooks: p.hooks }, zeroForOne: true, exactAmount: 10n ** BigInt(price.get(p.currency0!)!.decimals - 3), hookData: '0x' }],
      });
      expect((result as readonly [bigint, bigint])[0]).toBeGreaterThan(0n);
    }
    // The Curve pools: listed by the chain's Curve factories with their coins, seeded, and trading near the coins'
    // oracle prices. The StableswapNG pools hold two, three and four scale stablecoins (priced near $1, of 6 and 18
    // decimals); the TwocryptoNG pool two scale tokens, its price_scale coin1's price in coin0.
    const curve = scale.pools.filter((p) => p.kind === 'curve-stableswap-ng' || p.kind === 'curve-twocrypto-ng');
    const token = new Map(scale.tokens.map((t) => [t.address, t]));
    const usd = (a: Address) => Number(formatUnits(token.get(a)!.priceUsd, 18));
    const stableswap = curve.filter((p) => p.kind === 'curve-stableswap-ng');
    expect(stableswap.map((p) => p.coins!.length)).toEqual([2, 3, 4]);
    const stablecoins = [...new Set(stableswap.flatMap((p) => p.coins!))];
    for (const c of stablecoins) expect(Math.abs(usd(c) - 1)).toBeLessThanOrEqual(0.002);
    expect(new Set(stablecoins.map((c) => token.get(c)!.decimals))).toEqual(new Set([6, 18]));
    for (const p of curve) {
      const source = chain.sources.find((s) => s.routerIndex === p.routerIndex)!;
      expect(source.kind).toBe(p.kind);
      const stable = p.kind === 'curve-stableswap-ng';
      const [factoryAbi, poolAbi] = (stable ? [curveStableSwapFactoryNGStandInAbi, curveStableSwapNGStandInAbi] : [curveTwocryptoFactoryNGStandInAbi, curveTwocryptoNGStandInAbi]) as [Abi, Abi];
      expect(await client.readContract({ address: source.addresses.factory as Address, abi: factoryAbi, functionName: 'get_coins', args: [p.address] })).toEqual(p.coins);
      expect([p.token0, p.token1]).toEqual(p.coins!.slice(0, 2));
      const coins = p.coins!;
      const balances = (await client.multicall({
        allowFailure: false,
        contracts: coins.map((_, k) => ({ address: p.address, abi: poolAbi, functionName: 'balances', args: [BigInt(k)] })),
      } as never)) as unknown as bigint[];
      // Each coin worth $10k to $1M, the pool's coins alike.
      const depths = coins.map((c, k) => Number(formatUnits(balances[k], token.get(c)!.decimals)) * usd(c));
      for (const d of depths) {
        expect(d).toBeGreaterThanOrEqual(9_999);
        expect(d).toBeLessThanOrEqual(1_000_001);
        expect(d / depths[0]).toBeCloseTo(1, 5);
      }
      // $100 of each coin i into every coin j: within the fees and a little impact of the oracle price (1% for a
      // stable pool, whose coins are within 0.2% of $1; 2% for a TwocryptoNG pool, fees up to 0.45%).
      for (let i = 0; i < coins.length; i++) {
        for (let j = 0; j < coins.length; j++) {
          if (i === j) continue;
          const dx = BigInt(Math.round((100 / usd(coins[i])) * 10 ** token.get(coins[i])!.decimals));
          const dy = (await client.readContract({ address: p.address, abi: poolAbi, functionName: 'get_dy', args: [BigInt(i), BigInt(j), dx] })) as bigint;
          const worth = Number(formatUnits(dy, token.get(coins[j])!.decimals)) * usd(coins[j]);
          expect(worth).toBeGreaterThan(stable ? 99 : 98);
          expect(worth).toBeLessThan(stable ? 101 : 100);
        }
      }
      if (!stable) {
        const priceScale = (await client.readContract({ address: p.address, abi: poolAbi, functionName: 'price_scale' })) as bigint;
        expect(Number(formatUnits(priceScale, 18)) / (usd(coins[1]) / usd(coins[0]))).toBeCloseTo(1, 5);
      }
    }

    // The stable pools pair tokens of the same decimals; every pool is distinct per factory.
    const decimals = new Map(scale.tokens.map((t) => [t.address, t.decimals]));
    for (const p of scale.pools.filter((x) => x.kind === 'stable')) expect(decimals.get(p.token0)).toBe(decimals.get(p.token1));
    // The V4 pools share their PoolManager's address; their PoolId names each.
    expect(new Set(scale.pools.map((p) => p.poolId ?? p.address)).size).toBe(200);
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
    expect(logs.length).toBeGreaterThanOrEqual(COUNTS['uniswap-v2']);
    // So are the V4 pools' initializations, in the PoolManager.
    const initialize = toEventSelector(getAbiItem({ abi: poolManagerAbi, name: 'Initialize' }));
    const initialized = await loaded.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: v4Source.addresses.poolManager as Address, topics: [initialize] }] });
    const ids = new Set(initialized.map((l) => l.topics[1]));
    for (const p of v4) expect(ids.has(p.poolId!)).toBe(true);
  });
});
