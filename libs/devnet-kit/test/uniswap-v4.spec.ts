// Starts a chain for real (anvil), deploys the devnet's base and its Uniswap V4 source (v4-core's PoolManager, v4-periphery's
// StateView and V4Quoter, the devnet's hooks at mined addresses) and checks what deployUniswapV4 left: hooks whose
// addresses carry exactly their permission flags, pools at the oracle prices with liquidity around them, quotes through
// V4Quoter (the swap-limit hook refusing large swaps, the dynamic-fee hook's fee in slot0), and RouterV2 trading the
// native-coin pool for exactly V4Quoter's quote.
import { routerV2Abi, routerV2Bytecode, stateViewAbi, v4QuoterAbi } from '@dex/abis';
import { ROUTER_V2_SOURCE_KIND } from '@dex/chain';
import { encodeAbiParameters, parseEther, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { DEVNET_HOOK_SETTINGS, DEVNET_UNISWAP_V4_SOURCES, DYNAMIC_FEE_FLAG, deploy, deployBase, deployContext, deployUniswapV4, devAccount, send, sqrtPriceX96At, startAnvil, DEVNET_PRICES_USD, type AnvilNode, type DeployContext, type DevnetUniswapV4, type PoolKey } from '../src';

jest.setTimeout(120_000);

const CHAIN_ID = 999;
const trader = devAccount(2);

describe('deployUniswapV4', () => {
  let node: AnvilNode;
  let ctx: DeployContext;
  let v4: DevnetUniswapV4;
  let wrapped: Address;

  beforeAll(async () => {
    node = await startAnvil({ chainId: CHAIN_ID, port: 0 });
    ctx = deployContext(CHAIN_ID, node.rpcUrl);
    const base = await deployBase(ctx);
    wrapped = base.wrappedNative.address;
    v4 = (await deployUniswapV4(ctx, base))!;
  });

  afterAll(async () => {
    await node?.stop();
  });

  const read = <T>(address: Address, abi: unknown, functionName: string, args: readonly unknown[] = []) =>
    ctx.publicClient.readContract({ address, abi: abi as Abi, functionName, args }) as Promise<T>;
  const poolNamed = (part: string) => v4.pools.find((p) => p.name.includes(part)) ?? fail(`no pool ${part}`);

  /** V4Quoter's exact-input quote (simulated), or the error it reverts with. */
  async function quote(key: PoolKey, zeroForOne: boolean, amount: bigint): Promise<bigint> {
    const { result } = await ctx.publicClient.simulateContract({
      address: v4.source.addresses.v4Quoter,
      abi: v4QuoterAbi as Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ poolKey: key, zeroForOne, exactAmount: amount, hookData: '0x' }],
    });
    return (result as readonly [bigint, bigint])[0];
  }

  it('places each hook at an address carrying exactly its permission flags, and lists those that may change a swap', () => {
    const flags = (a: Address) => BigInt(a) & ((1n << 14n) - 1n);
    expect(flags(v4.source.addresses.dynamicFeeHook)).toBe(1n << 12n);
    expect(flags(v4.source.addresses.inputFeeHook)).toBe((1n << 7n) | (1n << 3n));
    expect(flags(v4.source.addresses.swapLimitHook)).toBe(1n << 7n);
    // The two that may change a swap are the source's listed hooks; the dynamic-fee hook needs no listing.
    expect(v4.source.hooks).toEqual([
      { address: v4.source.addresses.inputFeeHook, name: 'DevSwap V4 input-fee hook', quote: 'sampled' },
      { address: v4.source.addresses.swapLimitHook, name: 'DevSwap V4 swap-limit hook', quote: 'exact' },
    ]);
  });

  it('creates every seeded pool at its oracle price, with liquidity, the native pool with currency0 = address(0)', async () => {
    expect(v4.pools).toHaveLength(DEVNET_UNISWAP_V4_SOURCES[CHAIN_ID].pools.length);
    for (const pool of v4.pools) {
      const [sqrtPriceX96] = await read<readonly [bigint, number, number, number]>(v4.source.addresses.stateView, stateViewAbi, 'getSlot0', [pool.poolId]);
      expect(sqrtPriceX96).toBeGreaterThan(0n);
      expect(await read<bigint>(v4.source.addresses.stateView, stateViewAbi, 'getLiquidity', [pool.poolId])).toBeGreaterThan(0n);
    }
    const native = poolNamed('native/USDC');
    expect(native.key.currency0).toBe(zeroAddress);
    expect(native.token0).toBe(wrapped);
    const prices = DEVNET_PRICES_USD[CHAIN_ID];
    const [sqrtPriceX96] = await read<readonly [bigint]>(v4.source.addresses.stateView, stateViewAbi, 'getSlot0', [native.poolId]);
    expect(sqrtPriceX96).toBe(sqrtPriceX96At({ decimals: 18, priceUsd: prices.WHYPE }, { decimals: 6, priceUsd: prices.USDC }));
  });

  it('quotes through V4Quoter, crossing ticks on a large trade', async () => {
    const pool = poolNamed('WHYPE/USDC 0.3%');
    const zeroForOne = pool.token0 === wrapped;
    const small = await quote(pool.key, zeroForOne, parseEther('1'));
    const large = await quote(pool.key, zeroForOne, parseEther('400'));
    expect(small).toBeGreaterThan(0n);
    // 400 WHYPE moves past the narrow range: well under 400 times the price of one.
    expect(large).toBeLessThan(small * 390n);
  });

  it("keeps the dynamic-fee hook's LP fee in slot0 and lets the swap-limit hook refuse large swaps", async () => {
    const dynamic = poolNamed('dynamic fee');
    expect(dynamic.key.fee).toBe(DYNAMIC_FEE_FLAG);
    const [, , , lpFee] = await read<readonly [bigint, number, number, number]>(v4.source.addresses.stateView, stateViewAbi, 'getSlot0', [dynamic.poolId]);
    expect(lpFee).toBe(DEVNET_HOOK_SETTINGS.initialDynamicFee);

    const limited = poolNamed('swap-limit');
    const limit = BigInt(DEVNET_HOOK_SETTINGS.swapLimitUnits) * 10n ** 6n;
    expect(await quote(limited.key, true, limit)).toBeGreaterThan(0n);
    await expect(quote(limited.key, true, limit + 1n)).rejects.toThrow();
  });

  it('RouterV2 trades the native-coin pool for exactly V4Quoter\'s quote', async () => {
    const router = await deploy(ctx, routerV2Abi as Abi, routerV2Bytecode, [ctx.deployer.address, wrapped, devAccount(1).address]);
    await send(ctx, { address: router, abi: routerV2Abi as Abi, functionName: 'setSource', args: [8, ROUTER_V2_SOURCE_KIND['uniswap-v4'], v4.source.addresses.poolManager, 0] });
    const pool = poolNamed('native/USDC');
    const amountIn = parseEther('20');
    const expected = await quote(pool.key, true, amountIn);
    const data = encodeAbiParameters(
      [{ type: 'tuple', components: [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] }],
      [[pool.key.currency0, pool.key.currency1, pool.key.fee, pool.key.tickSpacing, pool.key.hooks]],
    ) as Hex;
    const swap = { pool: v4.source.addresses.poolManager, tokenIn: wrapped, tokenOut: pool.token1, routerIndex: 8, amountIn, data };
    const { result } = await ctx.publicClient.simulateContract({
      account: trader.address,
      address: router,
      abi: routerV2Abi as Abi,
      functionName: 'executeSwaps',
      args: [[zeroAddress, pool.token1], amountIn, expected, 0n, [[swap]], 0n, zeroAddress],
      value: amountIn,
    });
    expect(result).toBe(expected);
  });
});
