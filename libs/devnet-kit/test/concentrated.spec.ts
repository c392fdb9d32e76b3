// Starts both devnet chains for real (anvil) and checks the concentrated-liquidity sources deployConcentrated left
// on them: Uniswap V3 (two factories) and Algebra Integral on the protocols' own bytecode, their pools, positions,
// QuoterV2, and RouterV2 trading through them for exactly the quoted amount.
import { algebraFactoryAbi, algebraPoolAbi, poolQuoterAbi, quoterV2Abi, routerV2Abi, testERC20Abi, uniswapV2CoreFactoryAbi, uniswapV2FactoryAbi, uniswapV3FactoryAbi, uniswapV3PoolAbi } from '@dex/abis';
import { getChainInfo } from '@dex/chain';
import type { ManifestChain, ManifestPool } from '@dex/messages';
import { erc20Abi, maxUint256, parseUnits, zeroAddress, type Abi, type Address } from 'viem';
import { DEVNET_CONCENTRATED_SOURCES, DEVNET_SOURCES, V3_FEE_TIERS, deployContext, devAccount, send, sqrtPriceX96At, startDevnet, type DeployContext, type Devnet } from '../src';

jest.setTimeout(90_000);

const CHAIN_IDS = [999, 4663] as const;
const trader = devAccount(2);

describe('startDevnet with concentrated liquidity', () => {
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const chainOf = (chainId: number): ManifestChain => devnet.manifest.chains[String(chainId)];
  const ctxOf = (chainId: number): DeployContext => deployContext(chainId, chainOf(chainId).rpcUrl);
  const sourceOf = (chain: ManifestChain, routerIndex: number) => chain.sources.find((s) => s.routerIndex === routerIndex) ?? fail(`no source ${routerIndex}`);
  const tokenOf = (chain: ManifestChain, symbol: string) => [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol) ?? fail(`no token ${symbol}`);
  const concentrated = (chain: ManifestChain) => chain.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra');
  const read = <T>(ctx: DeployContext, address: Address, abi: unknown, functionName: string, args: readonly unknown[] = []) =>
    ctx.publicClient.readContract({ address, abi: abi as Abi, functionName, args }) as Promise<T>;

  /** QuoterV2's exact-input quote on a V3 pool: output and initialized ticks crossed. */
  async function quoteV3(ctx: DeployContext, chain: ManifestChain, pool: ManifestPool, tokenIn: Address, amountIn: bigint) {
    const tokenOut = tokenIn === pool.token0 ? pool.token1 : pool.token0;
    const { result } = await ctx.publicClient.simulateContract({
      address: sourceOf(chain, pool.routerIndex).addresses.quoterV2 as Address,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee!, sqrtPriceLimitX96: 0n }],
    });
    const [amountOut, , ticksCrossed] = result as readonly [bigint, bigint, number, bigint];
    return { amountOut, ticksCrossed: Number(ticksCrossed) };
  }

  /** The Algebra pool's own quote (through the devnet's PoolQuoter). */
  async function quoteAlgebra(ctx: DeployContext, chain: ManifestChain, pool: ManifestPool, tokenIn: Address, amountIn: bigint) {
    const { result } = await ctx.publicClient.simulateContract({
      address: sourceOf(chain, pool.routerIndex).addresses.quoter as Address,
      abi: poolQuoterAbi,
      functionName: 'quoteExactInput',
      args: [pool.address, tokenIn, amountIn],
    });
    return (result as readonly [bigint, bigint])[0];
  }

  const tick = async (ctx: DeployContext, pool: ManifestPool): Promise<number> =>
    pool.kind === 'uniswap-v3'
      ? Number((await read<readonly [bigint, number]>(ctx, pool.address, uniswapV3PoolAbi, 'slot0'))[1])
      : Number((await read<readonly [bigint, number]>(ctx, pool.address, algebraPoolAbi, 'globalState'))[1]);

  describe.each(CHAIN_IDS)('chain %i', (chainId) => {
    it('registers two Uniswap V3 sources and one Algebra source on RouterV2 after the others, with their factories', async () => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      const seeds = DEVNET_CONCENTRATED_SOURCES[chainId];
      expect(seeds.map((s) => [s.name, s.kind, s.routerIndex])).toEqual([
        ['DevSwap V3', 'uniswap-v3', 5],
        ['LiteSwap V3', 'uniswap-v3', 6],
        ['AlgebraSwap', 'algebra', 7],
      ]);
      const v3Factories = new Set<string>();
      for (const seed of seeds) {
        const source = sourceOf(chain, seed.routerIndex);
        expect(source).toMatchObject({ name: seed.name, kind: seed.kind });
        const registered = await read<{ kind: number; factory: Address }>(ctx, chain.routerV2, routerV2Abi, 'getSource', [seed.routerIndex]);
        expect([Number(registered.kind), registered.factory]).toEqual([seed.kind === 'uniswap-v3' ? 5 : 6, source.addresses.factory]);
        if (seed.kind === 'uniswap-v3') {
          v3Factories.add(source.addresses.factory);
          expect(await read(ctx, source.addresses.quoterV2 as Address, quoterV2Abi, 'factory')).toBe(source.addresses.factory);
          expect(await read(ctx, source.addresses.quoterV2 as Address, quoterV2Abi, 'WETH9')).toBe(chain.wrappedNative.address);
        } else {
          expect(await read(ctx, source.addresses.factory as Address, algebraFactoryAbi, 'poolDeployer')).toBe(source.addresses.poolDeployer);
        }
      }
      expect(v3Factories.size).toBe(2);
    });

    it('creates every pool at its factory, on the fee tiers, at the oracle price, with liquidity', async () => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      const pools = concentrated(chain);
      expect(pools).toHaveLength(DEVNET_CONCENTRATED_SOURCES[chainId].reduce((n, s) => n + s.pools.length, 0));
      expect(new Set(pools.filter((p) => p.kind === 'uniswap-v3' && p.routerIndex === 5).map((p) => p.fee))).toEqual(new Set([100, 500, 3000, 10_000]));
      // The same pair and tier on the two V3 factories: two pools.
      const usdc = tokenOf(chain, 'USDC').address;
      const twin = (routerIndex: number) =>
        pools.find((p) => p.routerIndex === routerIndex && p.fee === 3000 && [p.token0, p.token1].includes(usdc) && [p.token0, p.token1].includes(chain.wrappedNative.address))?.address;
      expect(twin(5)).toBeDefined();
      expect(twin(6)).toBeDefined();
      expect(twin(5)).not.toBe(twin(6));

      for (const pool of pools) {
        const factory = sourceOf(chain, pool.routerIndex).addresses.factory as Address;
        expect(BigInt(pool.token0) < BigInt(pool.token1)).toBe(true);
        const abi = pool.kind === 'uniswap-v3' ? uniswapV3PoolAbi : algebraPoolAbi;
        expect([await read(ctx, pool.address, abi, 'token0'), await read(ctx, pool.address, abi, 'token1')]).toEqual([pool.token0, pool.token1]);
        expect(Number(await read(ctx, pool.address, abi, 'tickSpacing'))).toBe(pool.tickSpacing);
        expect(Number(await read(ctx, pool.address, abi, 'liquidity'))).toBeGreaterThan(0);
        if (pool.kind === 'uniswap-v3') {
          expect(await read(ctx, factory, uniswapV3FactoryAbi, 'getPool', [pool.token1, pool.token0, pool.fee])).toBe(pool.address);
          expect(Number(await read(ctx, pool.address, abi, 'fee'))).toBe(pool.fee);
          expect(pool.tickSpacing).toBe(V3_FEE_TIERS[pool.fee!]);
        } else {
          expect(await read(ctx, factory, algebraFactoryAbi, 'poolByPair', [pool.token1, pool.token0])).toBe(pool.address);
          expect(Number(await read(ctx, pool.address, abi, 'fee'))).toBe(pool.fee);
        }
      }
    });

    it('initializes the pools at the prices the other pools are seeded at (decimals and token order minded)', async () => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      const native = chain.wrappedNative.symbol;
      const usdc = tokenOf(chain, 'USDC');
      const pool = concentrated(chain).find((p) => p.routerIndex === 5 && p.fee === 500 && [p.token0, p.token1].includes(usdc.address))!;
      // 1 wrapped native in USDC, from the pool's sqrt price: 25 on chain 999, 3000 on chain 4663.
      const [sqrtPrice] = await read<readonly [bigint]>(ctx, pool.address, uniswapV3PoolAbi, 'slot0');
      const nativeIs0 = pool.token0 === chain.wrappedNative.address;
      const q192 = 1n << 192n;
      const usdcPerNative = nativeIs0 ? (sqrtPrice * sqrtPrice * 10n ** 18n) / q192 : (q192 * 10n ** 18n) / (sqrtPrice * sqrtPrice);
      const expected = parseUnits(chainId === 999 ? '25' : '3000', 6);
      expect(Number(usdcPerNative - expected)).toBeLessThanOrEqual(Number(expected) / 1000);
      expect(Number(expected - usdcPerNative)).toBeLessThanOrEqual(Number(expected) / 1000);
      expect(native).toBe(getChainInfo(chainId).wrappedNativeSymbol);
    });

    it('QuoterV2 quotes a swap that crosses initialized ticks', async () => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      const usdc = tokenOf(chain, 'USDC');
      const pool = concentrated(chain).find((p) => p.routerIndex === 5 && p.fee === 3000 && [p.token0, p.token1].includes(usdc.address))!;
      const small = await quoteV3(ctx, chain, pool, usdc.address, parseUnits('10', 6));
      const large = await quoteV3(ctx, chain, pool, usdc.address, parseUnits('5000', 6));
      expect(small.amountOut).toBeGreaterThan(0n);
      expect(large.ticksCrossed).toBeGreaterThanOrEqual(1);
      expect(large.amountOut).toBeGreaterThan(small.amountOut);
    });

    it.each([5, 6, 7])('RouterV2 swaps through source %i for exactly the reference quote, crossing ticks', async (routerIndex) => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      const usdc = tokenOf(chain, 'USDC');
      const pool = concentrated(chain).find((p) => p.routerIndex === routerIndex && [p.token0, p.token1].includes(usdc.address) && [p.token0, p.token1].includes(chain.wrappedNative.address))!;
      const tokenIn = usdc.address;
      const tokenOut = chain.wrappedNative.address;
      const amountIn = parseUnits(chainId === 999 ? '4000' : '40000', 6);
      const before = await tick(ctx, pool);
      const quoted = pool.kind === 'uniswap-v3' ? (await quoteV3(ctx, chain, pool, tokenIn, amountIn)).amountOut : await quoteAlgebra(ctx, chain, pool, tokenIn, amountIn);
      expect(quoted).toBeGreaterThan(0n);

      await send(ctx, { address: tokenIn, abi: testERC20Abi as Abi, functionName: 'approve', args: [chain.routerV2, maxUint256] }, trader);
      const held = await read<bigint>(ctx, tokenOut, erc20Abi, 'balanceOf', [trader.address]);
      await send(
        ctx,
        {
          address: chain.routerV2,
          abi: routerV2Abi as Abi,
          functionName: 'executeSwaps',
          args: [[tokenIn, tokenOut], amountIn, quoted, quoted, [[{ pool: pool.address, tokenIn, tokenOut, routerIndex, amountIn, data: '0x' }]], 0n, zeroAddress],
        },
        trader,
      );
      expect((await read<bigint>(ctx, tokenOut, erc20Abi, 'balanceOf', [trader.address])) - held).toBe(quoted);
      // The swap moved the price by more than the narrow position's half-width (two tick spacings): it crossed ticks.
      expect(Math.abs((await tick(ctx, pool)) - before)).toBeGreaterThan(2 * pool.tickSpacing!);
    });

    it('runs each V2 source on the bytecode its seed names: Uniswap V2 core or the clone', async () => {
      const chain = chainOf(chainId);
      const ctx = ctxOf(chainId);
      for (const seed of DEVNET_SOURCES[chainId].filter((s) => s.kind === 'uniswap-v2')) {
        const factory = sourceOf(chain, seed.routerIndex).addresses.factory as Address;
        // Both answer feeToSetter; only the clone has a fee getter (Uniswap's pair fee is fixed at 0.3%).
        expect(await read(ctx, factory, uniswapV2CoreFactoryAbi, 'feeToSetter')).toBe(devAccount(0).address);
        const fee = read(ctx, factory, uniswapV2FactoryAbi, 'swapFeeBps');
        if (seed.bytecode === 'uniswap/v2-core') await expect(fee).rejects.toThrow();
        else await expect(fee).resolves.toBe(BigInt(seed.feeBps));
      }
      expect(DEVNET_SOURCES[chainId].some((s) => s.bytecode === 'uniswap/v2-core')).toBe(chainId === 4663);
    });

    it('derives sqrt prices exactly', () => {
      // 1 token0 (18 decimals, $25) = 25 token1 (6 decimals): 25e6 / 1e18 = 2.5e-11 token1 units per token0 unit.
      const sqrt = sqrtPriceX96At({ decimals: 18, priceUsd: '25' }, { decimals: 6, priceUsd: '1' });
      const price = Number(sqrt) ** 2 / 2 ** 192;
      expect(price / 2.5e-11).toBeCloseTo(1, 9);
    });
  });
});
