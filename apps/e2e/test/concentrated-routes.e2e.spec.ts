// Routes through the devnet's concentrated pools end to end, on chains 999 and 4663 alike: the indexer follows the
// Uniswap V3 (DevSwap V3, LiteSwap V3) and Algebra Integral (AlgebraSwap) factories of the sources file, the
// aggregator-router keeps their pools from its facts, the engine routes them, and RouterV2 executes the API's calldata
// (kinds UniswapV3 and Algebra). Every route is executed on chain for exactly the quoted amount, in the state it was
// quoted in; the sizes cross initialized ticks (the pool's price moves across one). A route quoted before another
// trade moved its pool still pays at least its minAmountOut. Last, a token first seen in a new V3 and a new Algebra
// pool is listed by /tokens with every transfer from its pool's creation on (the liquidity added, the swaps).
//
// The scenarios are the same on both chains; the chain's wrapped native (WHYPE at $25, WETH at $3,000) and its
// volatile token (PURR at $0.25, LINK at $15) play the same parts, and the sizes are USD amounts at the oracle's
// prices scaled by how much deeper the chain's pools are (chain 4663's about 2.5 times chain 999's), so each trade
// moves its pools about as far on both.
import { algebraFactoryAbi, algebraPoolAbi, positionMinterAbi, testERC20Abi, testERC20Bytecode, uniswapV3FactoryAbi, uniswapV3PoolAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, readConcentratedPools, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { deploy, deployContext, DEVNET_PRICES_USD, send as sendCall, sqrtPriceX96At, type DevAccount } from '@dex/devnet-kit';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { erc20Abi, getAddress, maxUint256, parseAbiItem, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

/** A chain's cast: its wrapped native, its volatile token, and how much deeper its pools are than chain 999's. */
interface ChainCase {
  readonly chainId: number;
  readonly native: string;
  readonly volatile: string;
  readonly depth: number;
}

const CASES: readonly ChainCase[] = [
  { chainId: 999, native: 'WHYPE', volatile: 'PURR', depth: 1 },
  { chainId: 4663, native: 'WETH', volatile: 'LINK', depth: 2.5 },
];

const MIN_TICK = -887272;
const MAX_TICK = 887272;

jest.setTimeout(180_000);

describe('routes through Uniswap V3 and Algebra pools', () => {
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

  describe.each(CASES)('on chain $chainId', ({ chainId, native, volatile, depth }) => {
    let client: ChainPublicClient;
    let wallet: ChainWalletClient;
    const chain = () => stack.chains.manifest.chains[String(chainId)];
    const account = (role: string) => stack.chains.manifest.accounts.find((a) => a.role === role)!;
    const trader = () => privateKeyToAccount(account('trader-1').privateKey as Hex);
    const tokenRecord = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!;
    const token = (symbol: string) => tokenRecord(symbol).address as Address;
    const symbol = (address: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.address.toLowerCase() === address.toLowerCase())!.symbol;
    /** Whole tokens of `symbol` worth `usd` on chain 999's scale (times the chain's depth), as the API takes them. */
    const amount = (symbol: string, usd: number) => String(Number(((usd * depth) / Number(DEVNET_PRICES_USD[chainId][symbol])).toPrecision(8)));
    const units = (symbol: string, whole: string) => parseUnits(whole, tokenRecord(symbol).decimals);
    const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId, ...params });
    const sourceKind = (routerIndex: number) => chain().sources.find((s) => s.routerIndex === routerIndex)!.kind;
    const concentrated = (routerIndex: number) => ['uniswap-v3', 'algebra'].includes(sourceKind(routerIndex));
    const balanceOf = (t: Address, owner: Address) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

    /** A concentrated pool's current tick and initialized ticks. */
    async function ticksOf(pool: Address, routerIndex: number) {
      const [read] = await readConcentratedPools(client, { pools: [{ address: pool, kind: sourceKind(routerIndex) as 'uniswap-v3' | 'algebra' }], blockNumber: await client.getBlockNumber() });
      if (!read) throw new Error(`the pool ${pool} did not answer`);
      return read;
    }

    /** The route at the chain's newest block (the aggregator refreshes every block). */
    async function routeAtHead(params: RouteParams) {
      const head = await client.getBlockNumber();
      const { value } = await until(() => route(params), (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
      if (value instanceof Error) throw value;
      return value;
    }

    async function approve(tokenIn: Address) {
      const hash = await wallet.writeContract({ address: tokenIn, abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash });
    }

    /** Sends a route answer's calldata; what the trader received of the route's output token. */
    async function send(data: any): Promise<bigint> {
      const path: Address[] = data.execution.details.path;
      const out = path[path.length - 1];
      const before = await balanceOf(out, trader().address);
      const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: BigInt(data.execution.value) });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      return (await balanceOf(out, trader().address)) - before;
    }

    /**
     * Quotes at the head and executes the route; the answer, what the trader received, and which of the route's
     * concentrated pools the execution took across an initialized tick (one between the tick before and after: a
     * price moving down across tick t ends below t, one moving up ends at t or above).
     */
    async function execute(params: RouteParams) {
      const r = await routeAtHead(params);
      expect(r.status).toBe(200);
      const data = bodyOf(r).data;
      const swaps: any[] = data.execution.details.hopSwaps.flat();
      const pools = [...new Map(swaps.filter((s) => concentrated(s.routerIndex)).map((s) => [s.poolAddress, s.routerIndex])).entries()] as [Address, number][];
      const before = await Promise.all(pools.map(([p, i]) => ticksOf(p, i)));
      const received = await send(data);
      const after = await Promise.all(pools.map(([p, i]) => ticksOf(p, i)));
      const crossed = pools
        .filter((_, i) => {
          const [lo, hi] = [Math.min(before[i].tick, after[i].tick), Math.max(before[i].tick, after[i].tick)];
          return before[i].ticks.some((t) => lo < t.index && t.index <= hi);
        })
        .map(([p]) => p);
      return { data, swaps, received, crossed };
    }

    /** The manifest's pool record of a hop swap. */
    const manifestPool = (address: string) => chain().pools.find((p) => p.address.toLowerCase() === address.toLowerCase())!;

    /** Each hop swap carries its pool's routerIndex and fee as the sources file has them: pips for the concentrated kinds. */
    function expectSwapRecords(swaps: any[]) {
      for (const s of swaps) {
        const pool = manifestPool(s.poolAddress);
        expect(s.routerIndex).toBe(pool.routerIndex);
        expect(s.routerName).toBe(chain().sources.find((x) => x.routerIndex === s.routerIndex)!.name);
        if (concentrated(s.routerIndex)) expect(s.fee).toBe(pool.fee);
        expect(s.data).toBe('0x');
      }
    }

    beforeAll(async () => {
      const rpcUrl = chain().rpcUrl;
      client = createChainClient({ chainId, rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
      wallet = createChainWalletClient({ chainId, rpcUrl, account: trader(), pollingIntervalMs: 50 });
      // The concentrated pools are in the state once a route through them answers.
      await until(() => route({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: '0.01', includeDexes: [7] }), (r) => r.status === 200, 30_000);
      for (const symbol of [native, 'USDC', 'USDT', volatile]) await approve(token(symbol));
    });

    it('/dexes lists the concentrated sources with their kinds and addresses', async () => {
      const { value } = await until(() => api.listDexes({ chainId }), (r) => r.success === true, 10_000);
      const dexes: any[] = value.data.dexes;
      for (const [routerIndex, name, kind] of [
        [5, 'DevSwap V3', 'uniswap-v3'],
        [6, 'LiteSwap V3', 'uniswap-v3'],
        [7, 'AlgebraSwap', 'algebra'],
      ] as const) {
        const dex = dexes.find((d) => d.routerIndex === routerIndex);
        expect(dex).toMatchObject({ name, kind });
        expect(dex.addresses.factory).toBe(chain().sources.find((s) => s.routerIndex === routerIndex)!.addresses.factory);
        expect(dex.feeBps).toBeUndefined();
      }
    });

    it('/pools lists each V3 and Algebra pool of the pair once, with its fee in pips and its tick spacing', async () => {
      const r = await api.request('findPools', { chainId, tokenA: token(native), tokenB: token('USDC') });
      expect(r.status).toBe(200);
      const records: any[] = bodyOf(r).data;
      // Each pool once: by its address, or by its PoolId inside its PoolManager (Uniswap V4).
      const addresses = records.map((r) => r.poolId ?? r.poolAddress);
      expect(new Set(addresses).size).toBe(addresses.length);
      const pair = [token(native), token('USDC')].map((t) => t.toLowerCase()).sort().join();
      const expected = chain().pools.filter((p) => (p.kind === 'uniswap-v3' || p.kind === 'algebra') && [p.token0, p.token1].map((t) => t.toLowerCase()).sort().join() === pair);
      expect(expected.length).toBe(4);
      const usd = Number(DEVNET_PRICES_USD[chainId][native]);
      for (const pool of expected) {
        const record = records.find((r) => r.poolAddress.toLowerCase() === pool.address.toLowerCase());
        expect(record).toMatchObject({ routerIndex: pool.routerIndex, fee: pool.fee, tickSpacing: pool.tickSpacing, stable: false, pair: `${symbol(pool.token0)}/${symbol(pool.token1)}` });
        // The native token at about its oracle price in USDC, less the pool's fee.
        expect(record.price).toBeGreaterThan(usd * 0.8);
        expect(record.price).toBeLessThan(usd * 1.2);
      }
      // The other kinds have no tick spacing (Uniswap V4's pools, concentrated too, have theirs: uniswap-v4-routes).
      for (const r of records.filter((x) => !concentrated(x.routerIndex) && sourceKind(x.routerIndex) !== 'uniswap-v4')) expect(r.tickSpacing).toBeUndefined();
      // The devnet's Algebra pools run without a plugin: their fee is the static one globalState holds.
      for (const pool of expected.filter((p) => p.kind === 'algebra')) {
        const [plugin, state] = await Promise.all([
          client.readContract({ address: pool.address as Address, abi: algebraPoolAbi, functionName: 'plugin' }),
          client.readContract({ address: pool.address as Address, abi: algebraPoolAbi, functionName: 'globalState' }),
        ]);
        expect([plugin, state[2], state[3]]).toEqual([zeroAddress, pool.fee, 0]);
      }
    });

    it('exact input through DevSwap V3 alone, crossing ticks, for exactly the quoted output', async () => {
      const { data, swaps, received, crossed } = await execute({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: amount(native, 10_000), includeDexes: [5] });
      expect(swaps.every((s) => s.routerIndex === 5)).toBe(true);
      expectSwapRecords(swaps);
      expect(crossed.length).toBeGreaterThan(0);
      expect(received).toBe(BigInt(data.execution.details.amountOut));
    });

    it('exact output through LiteSwap V3 alone, crossing ticks, for exactly the quoted output (at least the amount asked)', async () => {
      const amountOut = amount(native, 3_750);
      const asked = units(native, amountOut);
      const { data, swaps, received, crossed } = await execute({ tokenIn: token('USDC'), tokenOut: token(native), amountOut, includeDexes: [6] });
      expect(swaps.map((s) => s.routerIndex)).toEqual([6]);
      expectSwapRecords(swaps);
      expect(crossed.length).toBe(1);
      expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
      expect(BigInt(data.execution.details.amountOut) - asked).toBeLessThanOrEqual(asked / 1_000_000n);
      expect(received).toBe(BigInt(data.execution.details.amountOut));
    });

    it('exact input and exact output through AlgebraSwap, crossing ticks, for exactly the quoted amounts', async () => {
      const size = amount(native, 7_500);
      const sell = await execute({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: size, includeDexes: [7] });
      expect(sell.swaps.map((s) => s.routerIndex)).toEqual([7]);
      expectSwapRecords(sell.swaps);
      expect(sell.crossed.length).toBe(1);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));

      // Back the other way, through the ticks the sale crossed.
      const asked = units(native, size);
      const buy = await execute({ tokenIn: token('USDC'), tokenOut: token(native), amountOut: size, includeDexes: [7] });
      expect(buy.swaps.map((s) => s.routerIndex)).toEqual([7]);
      expect(buy.crossed.length).toBe(1);
      expect(BigInt(buy.data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
      expect(BigInt(buy.data.execution.details.amountOut) - asked).toBeLessThanOrEqual(asked / 1_000_000n);
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
    });

    it('one hop split across V3, V2 and core pools, for exactly the quoted output', async () => {
      // USDC -> native on core (0), DevSwap V2 (1) and DevSwap V3 (5): a size the core pool alone cannot take.
      for (const usd of [37_500, 75_000, 20_000]) {
        const params = { tokenIn: token('USDC'), tokenOut: token(native), amountIn: amount('USDC', usd), multiHop: false, includeDexes: [0, 1, 5] };
        const probe = bodyOf(await routeAtHead(params)).data;
        const indexes = new Set(probe.execution.details.hopSwaps[0].map((s: any) => s.routerIndex));
        if (![0, 1, 5].every((i) => indexes.has(i))) continue;
        const { data, swaps, received, crossed } = await execute(params);
        expect(data.execution.details.hopSwaps).toHaveLength(1);
        expect(new Set(swaps.map((s) => s.routerIndex))).toEqual(new Set([0, 1, 5]));
        expectSwapRecords(swaps);
        expect(crossed.length).toBeGreaterThan(0);
        expect(received).toBe(BigInt(data.execution.details.amountOut));
        return;
      }
      throw new Error('no size splits the hop across core, V2 and V3');
    });

    it(`multi-hop mixing kinds: volatile -> native -> USDC -> USDT through Algebra, V3 and V2, exact input and exact output`, async () => {
      // volatile/native on AlgebraSwap (7) and DevSwap V2 (1), native/USDC on LiteSwap V3 (6), USDC/USDT on DevSwap V3 (5).
      const asked = amount(volatile, 2_500);
      const shapes = [
        { tokenIn: token(volatile), tokenOut: token('USDT'), amountIn: amount(volatile, 5_000), multiHop: true, includeDexes: [1, 6, 7, 5] },
        { tokenIn: token('USDT'), tokenOut: token(volatile), amountOut: asked, multiHop: true, includeDexes: [6, 7, 5] },
      ];
      for (const params of shapes) {
        const { data, swaps, received } = await execute(params);
        const hops: any[][] = data.execution.details.hopSwaps;
        expect(hops.length).toBeGreaterThanOrEqual(2);
        const kinds = new Set(swaps.map((s) => sourceKind(s.routerIndex)));
        expect(kinds.size).toBeGreaterThanOrEqual(2);
        expect(kinds.has('algebra') || kinds.has('uniswap-v3')).toBe(true);
        expectSwapRecords(swaps);
        expect(received).toBe(BigInt(data.execution.details.amountOut));
        if (params.amountOut) expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(units(volatile, asked));
      }
    });

    it('a route quoted before another trade moved its V3 pool pays at least its minAmountOut', async () => {
      const params = { tokenIn: token(native), tokenOut: token('USDC'), amountIn: amount(native, 5_000), includeDexes: [5], multiHop: false, slippage: 1 };
      const quoted = bodyOf(await routeAtHead(params)).data;
      expect(BigInt(quoted.execution.details.minAmountOut)).toBe((BigInt(quoted.execution.details.amountOut) * 9900n) / 10000n);
      // Another trade in the same direction through the same pools moves their price against the quoted route.
      await execute({ ...params, amountIn: amount(native, 250) });
      const received = await send(quoted);
      expect(received).toBeLessThan(BigInt(quoted.execution.details.amountOut));
      expect(received).toBeGreaterThanOrEqual(BigInt(quoted.execution.details.minAmountOut));
    });

    it('a token first seen in new V3 and Algebra pools: /tokens counts its transfers, the liquidity added and the swaps', async () => {
      // A new token, then a V3 pool (DevSwap V3, 0.3%) and an Algebra pool with USDC, each initialized at $1; only then
      // the token's supply and a full-range position in each pool (so that every Transfer of the token follows the
      // pools' discovery, whichever indexer batch holds it).
      const ctx = deployContext(chainId, chain().rpcUrl, account('deployer') as DevAccount);
      const fresh = await deploy(ctx, testERC20Abi as Abi, testERC20Bytecode, ['Range Token', 'RANGE', 18]);
      const usdc = token('USDC');
      const factory = (routerIndex: number) => chain().sources.find((s) => s.routerIndex === routerIndex)!.addresses.factory as Address;
      const minter = chain().deployments.find((d) => d.contract === 'PositionMinter')!.address as Address;
      const [token0, token1] = BigInt(fresh) < BigInt(usdc) ? [fresh, usdc] : [usdc, fresh];
      const price = (t: Address) => (t === fresh ? { decimals: 18, priceUsd: '1' } : { decimals: 6, priceUsd: '1' });
      const sqrtPriceX96 = sqrtPriceX96At(price(token0), price(token1));

      await sendCall(ctx, { address: factory(5), abi: uniswapV3FactoryAbi as Abi, functionName: 'createPool', args: [token0, token1, 3000] });
      const v3 = getAddress(await client.readContract({ address: factory(5), abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [token0, token1, 3000] }));
      await sendCall(ctx, { address: factory(7), abi: algebraFactoryAbi as Abi, functionName: 'createPool', args: [token0, token1, '0x'] });
      const algebra = getAddress(await client.readContract({ address: factory(7), abi: algebraFactoryAbi, functionName: 'poolByPair', args: [token0, token1] }));
      await sendCall(ctx, { address: fresh, abi: testERC20Abi as Abi, functionName: 'mint', args: [ctx.deployer.address, 10n ** 24n] });
      // $10,000 a side: liquidity sqrt(x * y) in base units (10^22 of the token, 10^10 of USDC, from the deployer's grant).
      const liquidity = 10n ** 16n;
      for (const t of [token0, token1]) await sendCall(ctx, { address: t, abi: testERC20Abi as Abi, functionName: 'approve', args: [minter, maxUint256] });
      for (const [pool, abi, mint] of [
        [v3, uniswapV3PoolAbi, 'mint'],
        [algebra, algebraPoolAbi, 'mintAlgebra'],
      ] as const) {
        await sendCall(ctx, { address: pool, abi: abi as Abi, functionName: 'initialize', args: [sqrtPriceX96] });
        const spacing = Number(await client.readContract({ address: pool, abi: abi as Abi, functionName: 'tickSpacing' }));
        const [lower, upper] = [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing];
        await sendCall(ctx, { address: minter, abi: positionMinterAbi as Abi, functionName: mint, args: [pool, ctx.deployer.address, lower, upper, liquidity] });
      }

      // The new pools route: $100 of the new token to USDC through each, executed.
      await approve(fresh);
      await sendCall(ctx, { address: fresh, abi: testERC20Abi as Abi, functionName: 'transfer', args: [trader().address, 10n ** 21n] });
      for (const [routerIndex, pool] of [
        [5, v3],
        [7, algebra],
      ] as const) {
        const head = await client.getBlockNumber();
        const { value: routed } = await until(
          () => route({ tokenIn: fresh, tokenOut: usdc, amountIn: '100', includeDexes: [routerIndex] }),
          (r) => r.ok && BigInt(r.body.data.blockNumber) >= head,
          30_000,
        );
        const data = bodyOf(routed).data;
        expect(data.execution.details.hopSwaps.flat().map((s: any) => getAddress(s.poolAddress))).toEqual([pool]);
        expect(await send(data)).toBe(BigInt(data.execution.details.amountOut));
      }

      // Every Transfer of the token: its supply, the positions' payments into the pools, the trader's and the swaps'.
      const head = await client.getBlockNumber();
      const logs = await client.getLogs({ address: fresh, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), fromBlock: 0n, toBlock: head });
      const intoPools = logs.filter((l) => [v3, algebra].includes(getAddress(l.args.to!)));
      expect(intoPools.length).toBeGreaterThanOrEqual(4); // two positions, and the swap's two legs
      const { value: listed } = await until(
        () => api.request('listTokens', { chainId, search: fresh }),
        (r) => r.ok && BigInt(r.body.data.lastProcessedBlock) >= head && r.body.data.tokens?.length === 1,
        30_000,
      );
      const record = bodyOf(listed).data.tokens![0];
      expect(record).toMatchObject({ address: fresh, symbol: 'RANGE', decimals: 18, isERC20Verified: true });
      // The transfers by block and log index beside the counts, so that a miss names the transfer left out.
      const context = { lastProcessedBlock: bodyOf(listed).data.lastProcessedBlock, transfers: logs.map((l) => `${l.blockNumber}:${l.logIndex} ${l.args.from} -> ${l.args.to}`) };
      expect({ ...context, counts: [record.totalTransfers, record.transfers24h] }).toEqual({ ...context, counts: [logs.length, logs.length] });
    });

    it("an Algebra pool's fee changed by its administrator (the pool's Fee event): /pools shows it and routes pay it, to the wei", async () => {
      const pool = chain().pools.find((p) => p.kind === 'algebra' && [p.token0, p.token1].includes(token(native)) && [p.token0, p.token1].includes(token('USDC')))!;
      const address = pool.address as Address;
      const ctx = deployContext(chainId, chain().rpcUrl, account('deployer') as DevAccount);
      const feeOf = async () => {
        const records: any[] = bodyOf(await api.request('findPools', { chainId, tokenA: token(native), tokenB: token('USDC') })).data;
        return records.find((r) => r.poolAddress.toLowerCase() === address.toLowerCase())!.fee;
      };
      expect(await feeOf()).toBe(pool.fee);
      // The factory's owner is the pools' administrator: 1% instead of the default fee.
      await sendCall(ctx, { address, abi: algebraPoolAbi as Abi, functionName: 'setFee', args: [10_000] });
      try {
        await until(feeOf, (fee) => fee === 10_000, 10_000);
        const { data, swaps, received } = await execute({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: amount(native, 1_000), includeDexes: [7] });
        expect(swaps.map((s) => [s.poolAddress.toLowerCase(), s.fee])).toEqual([[address.toLowerCase(), 10_000]]);
        expect(received).toBe(BigInt(data.execution.details.amountOut));
      } finally {
        await sendCall(ctx, { address, abi: algebraPoolAbi as Abi, functionName: 'setFee', args: [pool.fee] });
      }
      await until(feeOf, (fee) => fee === pool.fee, 10_000);
    });
  });
});
