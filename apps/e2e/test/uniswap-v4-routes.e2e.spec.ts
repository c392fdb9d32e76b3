// Routes through the devnet's Uniswap V4 pools end to end, on chains 999 and 4663 alike: the indexer follows DevSwap
// V4's PoolManager (v4-core's bytecode), the aggregator-router keeps its pools from the PoolManager's events (by
// PoolId), the engine routes them, and RouterV2 executes the API's calldata (kind UniswapV4: the PoolManager as the
// swap's pool, the pool's key as its data). Every route is executed on chain for exactly the quoted amount: exact input
// and exact output crossing ticks, through the native-coin pool (the native coin in and out), through the dynamic-fee
// pool after its hook changed the fee (no event tells it), split with V3, V2 and core pools in one stage, and through
// each hook the source lists: the input-fee hook's pool on its V4Quoter's samples (re-quoted at the answer), the
// swap-limit hook's on the tick maths, routed around where the answer's simulation finds the hook refusing a share.
import { dynamicFeeHookAbi, silentBlocklistTokenAbi, stateViewAbi, testERC20Abi, v4PositionMinterAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { DEVNET_HOOK_SETTINGS, DEVNET_PRICES_USD, deployContext, send as sendCall } from '@dex/devnet-kit';
import type { ManifestUniswapV4Pool } from '@dex/messages';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { encodeAbiParameters, erc20Abi, getAddress, keccak256, maxUint256, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

const CASES = [
  { chainId: 999, native: 'WHYPE', depth: 1 },
  { chainId: 4663, native: 'WETH', depth: 2.5 },
] as const;

/** DevSwap V4's registry slot on the devnet. */
const V4 = 8;

jest.setTimeout(180_000);

describe('routes through Uniswap V4 pools', () => {
  let stack: TestStack;
  let api: DexClient;

  beforeAll(async () => {
    const chainIds = CASES.map((c) => c.chainId);
    stack = await startTestStack({
      apps: ['indexer', 'aggregator-router', 'gateway'],
      chainIds,
      env: { CHAIN_IDS: chainIds.join(','), BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' },
    });
    api = apiClient(stack.app('gateway').url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe.each(CASES)('on chain $chainId', ({ chainId, native, depth }) => {
    let client: ChainPublicClient;
    let wallet: ChainWalletClient;
    const chain = () => stack.chains.manifest.chains[String(chainId)];
    const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
    const tokenRecord = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!;
    const token = (symbol: string) => tokenRecord(symbol).address as Address;
    const amount = (symbol: string, usd: number) => String(Number(((usd * depth) / Number(DEVNET_PRICES_USD[chainId][symbol])).toPrecision(8)));
    const units = (symbol: string, whole: string) => parseUnits(whole, tokenRecord(symbol).decimals);
    const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId, ...params });
    const v4Pools = (): readonly ManifestUniswapV4Pool[] => chain().uniswapV4Pools ?? [];
    const v4Pool = (part: string) => v4Pools().find((p) => p.name.includes(part))!;
    const source = () => chain().sources.find((s) => s.routerIndex === V4)!;

    /** The route at the chain's newest block (the aggregator refreshes every block). */
    async function routeAtHead(params: RouteParams) {
      const head = await client.getBlockNumber();
      const { value } = await until(() => route(params), (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
      if (value instanceof Error) throw value;
      return value;
    }

    /** What `owner` holds of `token` (the native coin for address(0)). */
    const holding = (t: Address, owner: Address) => (t === zeroAddress ? client.getBalance({ address: owner }) : client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }));

    /** Quotes at the head and sends the answer's calldata; the answer, its swaps and what the trader received (net of gas for the native coin). */
    async function execute(params: RouteParams) {
      const r = await routeAtHead(params);
      expect(r.status).toBe(200);
      const data = bodyOf(r).data;
      const swaps: any[] = data.execution.details.hopSwaps.flat();
      const tokenOut = params.tokenOut as Address;
      const before = await holding(tokenOut, trader().address);
      const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: BigInt(data.execution.value) });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const gas = tokenOut === zeroAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
      return { data, swaps, received: (await holding(tokenOut, trader().address)) - before + gas };
    }

    /** Each V4 hop swap names the PoolManager, the pool's id and its key as data (five ABI words). */
    function expectV4Records(swaps: any[]) {
      const v4 = swaps.filter((s) => s.routerIndex === V4);
      expect(v4.length).toBeGreaterThan(0);
      for (const s of v4) {
        const pool = v4Pools().find((p) => p.poolId === s.poolId)!;
        expect(pool).toBeDefined();
        expect(s.poolAddress).toBe(pool.poolManager);
        expect(s.hooks).toBe(pool.hooks);
        expect(s.data.length).toBe(2 + 5 * 64);
        expect(BigInt(`0x${s.data.slice(2 + 64, 2 + 128)}`)).toBe(BigInt(pool.currency1));
      }
      return v4;
    }

    beforeAll(async () => {
      const rpcUrl = chain().rpcUrl;
      client = createChainClient({ chainId, rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
      wallet = createChainWalletClient({ chainId, rpcUrl, account: trader(), pollingIntervalMs: 50 });
      // The V4 pools are in the state once a route through them answers.
      await until(() => route({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: '0.01', includeDexes: [V4] }), (r) => r.status === 200, 30_000);
      for (const symbol of [native, 'USDC', 'USDT']) {
        const hash = await wallet.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
        await client.waitForTransactionReceipt({ hash });
      }
    });

    it('/dexes and /pools list DevSwap V4 and its pools by PoolId, hooks and tick spacing', async () => {
      const { value } = await until(() => api.listDexes({ chainId }), (r) => r.success === true, 10_000);
      const dex = (value.data.dexes as any[]).find((d) => d.routerIndex === V4);
      expect(dex).toMatchObject({ name: 'DevSwap V4', kind: 'uniswap-v4' });
      expect(dex.addresses.poolManager).toBe(source().addresses.poolManager);

      const r = await api.request('findPools', { chainId, tokenA: token(native), tokenB: token('USDC') });
      expect(r.status).toBe(200);
      const records = (bodyOf(r).data as any[]).filter((p) => p.routerIndex === V4);
      const expected = v4Pools().filter((p) => [p.token0, p.token1].includes(token(native)) && [p.token0, p.token1].includes(token('USDC')));
      expect(expected.length).toBe(3);
      for (const pool of expected) {
        const record = records.find((x) => x.poolId === pool.poolId);
        expect(record).toMatchObject({ poolAddress: pool.poolManager, hooks: pool.hooks, tickSpacing: pool.tickSpacing, stable: false });
      }
    });

    /** A V4 pool's current tick (StateView's slot0). */
    const tickOf = async (poolId: string) =>
      Number(((await client.readContract({ address: source().addresses.stateView as Address, abi: stateViewAbi, functionName: 'getSlot0', args: [poolId as Hex] })) as readonly [bigint, number, number, number])[1]);

    it('exact input and exact output through V4 alone, crossing ticks, for exactly the quoted amounts', async () => {
      const before = new Map(await Promise.all(v4Pools().map(async (p) => [p.poolId, await tickOf(p.poolId)] as const)));
      const sell = await execute({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: amount(native, 20_000), includeDexes: [V4] });
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));
      // Each pool was seeded with a narrow position two tick spacings either side of its first tick: a pool whose tick
      // moved by more than three spacings crossed one of its initialized ticks.
      const moved = await Promise.all(
        expectV4Records(sell.swaps).map(async (s) => {
          const pool = v4Pools().find((p) => p.poolId === s.poolId)!;
          return Math.abs((await tickOf(s.poolId)) - before.get(s.poolId)!) > 3 * pool.tickSpacing;
        }),
      );
      expect(moved).toContain(true);

      const size = amount(native, 10_000);
      const asked = units(native, size);
      const buy = await execute({ tokenIn: token('USDC'), tokenOut: token(native), amountOut: size, includeDexes: [V4] });
      expectV4Records(buy.swaps);
      expect(BigInt(buy.data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
    });

    it('the native coin in and out through the native-coin pool, for exactly the quoted amounts', async () => {
      const nativePool = v4Pool('native/USDC');
      const sell = await execute({ tokenIn: zeroAddress, tokenOut: token('USDC'), amountIn: amount(native, 5_000), includeDexes: [V4] });
      expect(expectV4Records(sell.swaps).map((s) => s.poolId)).toContain(nativePool.poolId);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));

      const buy = await execute({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: amount('USDC', 5_000), includeDexes: [V4] });
      expect(expectV4Records(buy.swaps).map((s) => s.poolId)).toContain(nativePool.poolId);
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
    });

    it("follows the dynamic-fee pool's fee after its hook changes it, and pays exactly the quote", async () => {
      const pool = v4Pool('dynamic fee');
      const ctx = deployContext(chainId, chain().rpcUrl);
      await sendCall(ctx, { address: pool.hooks, abi: dynamicFeeHookAbi as Abi, functionName: 'setFee', args: [{ currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks }, 100] });
      const [, , , lpFee] = (await client.readContract({ address: source().addresses.stateView as Address, abi: stateViewAbi, functionName: 'getSlot0', args: [pool.poolId as Hex] })) as readonly [bigint, number, number, number];
      expect(lpFee).toBe(100);
      // At 0.01% the dynamic pool is the cheapest of the pair's V4 pools: a small trade goes through it, at that fee.
      const { value } = await until(
        () => routeAtHead({ tokenIn: token('USDC'), tokenOut: token(native), amountIn: amount('USDC', 500), includeDexes: [V4] }),
        (r) => r.status === 200 && bodyOf(r).data.execution.details.hopSwaps.flat().some((s: any) => s.poolId === pool.poolId && s.fee === 100),
        15_000,
      );
      expect(value instanceof Error).toBe(false);
      const trade = await execute({ tokenIn: token('USDC'), tokenOut: token(native), amountIn: amount('USDC', 500), includeDexes: [V4] });
      expect(trade.received).toBe(BigInt(trade.data.execution.details.amountOut));
      expect(DEVNET_HOOK_SETTINGS.initialDynamicFee).not.toBe(100);
    });

    it('one stage split across V4, V3, V2 and core pools, for exactly the quoted output', async () => {
      for (const usd of [75_000, 150_000, 40_000]) {
        const params = { tokenIn: token('USDC'), tokenOut: token(native), amountIn: amount('USDC', usd), multiHop: false, includeDexes: [0, 1, 5, V4] };
        const probe = bodyOf(await routeAtHead(params)).data;
        const indexes = new Set(probe.execution.details.hopSwaps[0].map((s: any) => s.routerIndex));
        if (![0, 1, 5, V4].every((i) => indexes.has(i))) continue;
        const { data, swaps, received } = await execute(params);
        expect(data.execution.details.hopSwaps).toHaveLength(1);
        expect(new Set(swaps.map((s) => s.routerIndex))).toEqual(new Set([0, 1, 5, V4]));
        expectV4Records(swaps);
        expect(received).toBe(BigInt(data.execution.details.amountOut));
        return;
      }
      throw new Error('no size splits the stage across core, V2, V3 and V4');
    });

    it("routes the input-fee hook's pool on its V4Quoter's samples: exact input and output, for exactly the quote", async () => {
      const pool = v4Pool('input-fee hook');
      const listed = source().hooks!.find((h) => h.address === pool.hooks)!;
      expect(listed.quote).toBe('sampled');
      const other = [pool.token0, pool.token1].find((t) => t !== token(native)) as Address;
      const symbol = [...chain().tokens].find((t) => t.address === other)!.symbol;
      const approved = await wallet.writeContract({ address: other, abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash: approved });
      // The pair's only V4 pool is the hooked one: the route goes through it, and the hook's 0.1% of the input is in the quote.
      const sell = await execute({ tokenIn: other, tokenOut: token(native), amountIn: amount(symbol, 2_000), includeDexes: [V4], multiHop: false });
      expect(expectV4Records(sell.swaps).map((s) => s.poolId)).toEqual([pool.poolId]);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));

      const size = amount(symbol, 1_000);
      const buy = await execute({ tokenIn: token(native), tokenOut: other, amountOut: size, includeDexes: [V4], multiHop: false });
      expect(expectV4Records(buy.swaps).map((s) => s.poolId)).toEqual([pool.poolId]);
      expect(BigInt(buy.data.execution.details.amountOut)).toBeGreaterThanOrEqual(units(symbol, size));
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));

      // /pools lists it routed (a price, no exclusion).
      const listedPools = await api.request('findPools', { chainId, tokenA: other, tokenB: token(native) });
      const record = (bodyOf(listedPools).data as any[]).find((x) => x.poolId === pool.poolId);
      expect(record).toMatchObject({ poolAddress: pool.poolManager, hooks: pool.hooks });
      expect(record).not.toHaveProperty('excluded');
      expect(record.price).toBeGreaterThan(0);
    });

    it("routes the swap-limit hook's pool below its limit and around it above, each answer executed for exactly the quote", async () => {
      const pool = v4Pool('swap-limit hook');
      expect(source().hooks!.find((h) => h.address === pool.hooks)!.quote).toBe('exact');
      const limit = units('USDC', String(DEVNET_HOOK_SETTINGS.swapLimitUnits));
      const aggregator = stack.app('aggregator-router');
      const rerouted = () => aggregator.output().split('\n').filter((l) => l.includes('route searched again without pools that refuse its swaps')).length;
      const before = rerouted();
      let usedBelow = false;
      // Larger and larger trades of USDC for USDT through V4 alone: the engine splits them across the pair's two V4
      // pools, and once the hooked pool's share passes its limit the simulation reverts and the route is searched again without it.
      for (const usd of [40_000, 80_000, 160_000, 320_000]) {
        for (const [from, to] of [['USDC', 'USDT'], ['USDT', 'USDC']] as const) {
          const trade = await execute({ tokenIn: token(from), tokenOut: token(to), amountIn: amount(from, usd), includeDexes: [V4], multiHop: false });
          expect(trade.received).toBe(BigInt(trade.data.execution.details.amountOut));
          for (const s of expectV4Records(trade.swaps).filter((x) => x.poolId === pool.poolId)) {
            expect(BigInt(s.amountIn)).toBeLessThanOrEqual(limit);
            usedBelow = true;
          }
        }
        if (usedBelow && rerouted() > before) break;
      }
      expect(usedBelow).toBe(true);
      expect(rerouted()).toBeGreaterThan(before);
    });
    it('a token that blocklists the PoolManager: its V4 pool checked there, routed around, refused naming the token where no other way is left', async () => {
      // A V4 pool of the devnet's silent-blocklist token against USDC, full range at 1 USDC per token, added by its owner.
      const ctx = deployContext(chainId, chain().rpcUrl);
      const blocky = getAddress(chain().testTokens!.find((t) => t.kind === 'silent-blocklist')!.address);
      const usdc = token('USDC');
      const [currency0, currency1] = BigInt(blocky) < BigInt(usdc) ? [blocky, usdc] : [usdc, blocky];
      const key = { currency0, currency1, fee: 3000, tickSpacing: 60, hooks: zeroAddress };
      // Price of currency1 in currency0, base units: 1e6 / 1e18 with the token first, 1e18 / 1e6 with USDC first.
      const sqrtPriceX96 = currency0 === blocky ? 2n ** 96n / 10n ** 6n : 2n ** 96n * 10n ** 6n;
      const minter = source().addresses.positionMinter as Address;
      await sendCall(ctx, { address: blocky, abi: silentBlocklistTokenAbi as Abi, functionName: 'mint', args: [ctx.deployer.address, parseUnits('100000', 18)] });
      await sendCall(ctx, { address: usdc, abi: testERC20Abi as Abi, functionName: 'mint', args: [ctx.deployer.address, parseUnits('100000', 6)] });
      for (const t of [blocky, usdc]) await sendCall(ctx, { address: t, abi: erc20Abi as Abi, functionName: 'approve', args: [minter, maxUint256] });
      await sendCall(ctx, { address: minter, abi: v4PositionMinterAbi as Abi, functionName: 'addPositions', args: [key, sqrtPriceX96, [{ tickLower: -887_220, tickUpper: 887_220, liquidity: 10n ** 16n }]] });
      const poolId = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }], [currency0, currency1, 3000, 60, zeroAddress])).toLowerCase();
      const sell = { tokenIn: blocky, tokenOut: usdc, amountIn: '100', includeDexes: [V4], multiHop: false };
      const approved = await wallet.writeContract({ address: blocky, abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash: approved });
      await sendCall(ctx, { address: blocky, abi: silentBlocklistTokenAbi as Abi, functionName: 'mint', args: [trader().address, parseUnits('1000', 18)] });
      // Routed once the aggregator holds the pool (its Initialize and ModifyLiquidity from the PoolManager's events).
      await until(() => route(sell), (r) => r.status === 200 && bodyOf(r).data.execution.details.hopSwaps.flat().some((x: any) => x.poolId === poolId), 20_000);
      const open = await execute(sell);
      expect(open.received).toBe(BigInt(open.data.execution.details.amountOut));

      // Blocklisted where V4 holds it, silently: the route's transfers are checked from the PoolManager, and the pool is left out.
      await sendCall(ctx, { address: blocky, abi: silentBlocklistTokenAbi as Abi, functionName: 'setBlocked', args: [source().addresses.poolManager, true] });
      const { value: refused } = await until(() => routeAtHead(sell), (r) => r.status !== 200, 20_000);
      const symbol = chain().testTokens!.find((t) => t.kind === 'silent-blocklist')!.symbol;
      expect([refused.status, refused.body]).toEqual([422, { success: false, error: `Token transfers fail: ${symbol} (${blocky})`, details: expect.stringContaining(`BlockedAccount(${getAddress(source().addresses.poolManager)})`) }]);
      // Other sources still trade it (its V2 pool against the wrapped native token), never through the blocked pool.
      const around = await execute({ tokenIn: blocky, tokenOut: token(native), amountIn: '10' });
      expect(around.swaps.map((x) => x.poolId)).not.toContain(poolId);
      expect(around.received).toBe(BigInt(around.data.execution.details.amountOut));
      await sendCall(ctx, { address: blocky, abi: silentBlocklistTokenAbi as Abi, functionName: 'setBlocked', args: [source().addresses.poolManager, false] });
    });
  });
});
