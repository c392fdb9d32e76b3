// Routes through the devnet's concentrated pools end to end on chain 999: the indexer follows the Uniswap V3
// (DevSwap V3, LiteSwap V3) and Algebra Integral (AlgebraSwap) factories of the sources file, the aggregator-router
// keeps their pools from its facts, the engine routes them, and RouterV2 executes the API's calldata (kinds
// UniswapV3 and Algebra). Every route is executed on chain for exactly the quoted amount, in the state it was
// quoted in; the sizes cross initialized ticks (the pool's active liquidity changes). Last, a route quoted before
// another trade moved its pool still pays at least its minAmountOut.
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { algebraPoolAbi, uniswapV3PoolAbi } from '@dex/abis';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { erc20Abi, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

jest.setTimeout(120_000);

describe('routes through Uniswap V3 and Algebra pools', () => {
  let stack: TestStack;
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const account = (role: string) => stack.chains.manifest.accounts.find((a) => a.role === role)!;
  const trader = () => privateKeyToAccount(account('trader-1').privateKey as Hex);
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address as Address;
  const symbol = (address: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.address.toLowerCase() === address.toLowerCase())!.symbol;
  const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId: 999, ...params });
  const sourceKind = (routerIndex: number) => chain().sources.find((s) => s.routerIndex === routerIndex)!.kind;
  const concentrated = (routerIndex: number) => ['uniswap-v3', 'algebra'].includes(sourceKind(routerIndex));
  const balanceOf = (t: Address, owner: Address) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  /** A concentrated pool's active liquidity: it changes only when a swap crosses an initialized tick. */
  const activeLiquidity = (pool: Address, routerIndex: number): Promise<bigint> =>
    sourceKind(routerIndex) === 'algebra'
      ? client.readContract({ address: pool, abi: algebraPoolAbi, functionName: 'liquidity' })
      : client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'liquidity' });

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
   * concentrated pools had their active liquidity changed (a tick crossed) by the execution.
   */
  async function execute(params: RouteParams) {
    const r = await routeAtHead(params);
    expect(r.status).toBe(200);
    const data = bodyOf(r).data;
    const swaps: any[] = data.execution.details.hopSwaps.flat();
    const pools = [...new Map(swaps.filter((s) => concentrated(s.routerIndex)).map((s) => [s.poolAddress, s.routerIndex])).entries()] as [Address, number][];
    const before = await Promise.all(pools.map(([p, i]) => activeLiquidity(p, i)));
    const received = await send(data);
    const after = await Promise.all(pools.map(([p, i]) => activeLiquidity(p, i)));
    const crossed = pools.filter((_, i) => after[i] !== before[i]).map(([p]) => p);
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
    stack = await startTestStack({
      apps: ['indexer', 'aggregator-router', 'gateway'],
      env: { CHAIN_IDS: '999', BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' },
    });
    api = apiClient(stack.app('gateway').url);
    const rpcUrl = chain().rpcUrl;
    client = createChainClient({ chainId: 999, rpcUrl, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: 999, rpcUrl, account: trader(), pollingIntervalMs: 50 });
    // The concentrated pools are in the state once a route through them answers.
    await until(() => route({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: '1', includeDexes: [7] }), (r) => r.status === 200, 30_000);
    for (const symbol of ['WHYPE', 'USDC', 'USDT', 'PURR']) await approve(token(symbol));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('/dexes lists the concentrated sources with their kinds and addresses', async () => {
    const { value } = await until(() => api.listDexes({ chainId: 999 }), (r) => r.success === true, 10_000);
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
    const r = await api.request('findPools', { chainId: 999, tokenA: token('WHYPE'), tokenB: token('USDC') });
    expect(r.status).toBe(200);
    const records: any[] = bodyOf(r).data;
    const addresses = records.map((r) => r.poolAddress);
    expect(new Set(addresses).size).toBe(addresses.length);
    const pair = [token('WHYPE'), token('USDC')].map((t) => t.toLowerCase()).sort().join();
    const expected = chain().pools.filter((p) => (p.kind === 'uniswap-v3' || p.kind === 'algebra') && [p.token0, p.token1].map((t) => t.toLowerCase()).sort().join() === pair);
    expect(expected.length).toBe(4);
    for (const pool of expected) {
      const record = records.find((r) => r.poolAddress.toLowerCase() === pool.address.toLowerCase());
      expect(record).toMatchObject({ routerIndex: pool.routerIndex, fee: pool.fee, tickSpacing: pool.tickSpacing, stable: false, pair: `${symbol(pool.token0)}/${symbol(pool.token1)}` });
      // One WHYPE is worth about 25 USDC on the devnet, less the pool's fee.
      expect(record.price).toBeGreaterThan(20);
      expect(record.price).toBeLessThan(30);
    }
    for (const r of records.filter((x) => !concentrated(x.routerIndex))) expect(r.tickSpacing).toBeUndefined();
  });

  it('exact input through DevSwap V3 alone, crossing ticks, for exactly the quoted output', async () => {
    const { data, swaps, received, crossed } = await execute({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: '400', includeDexes: [5] });
    expect(swaps.every((s) => s.routerIndex === 5)).toBe(true);
    expectSwapRecords(swaps);
    expect(crossed.length).toBeGreaterThan(0);
    expect(received).toBe(BigInt(data.execution.details.amountOut));
  });

  it('exact output through LiteSwap V3 alone, crossing ticks, for exactly the quoted output (at least the amount asked)', async () => {
    const asked = 150n * 10n ** 18n;
    const { data, swaps, received, crossed } = await execute({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountOut: '150', includeDexes: [6] });
    expect(swaps.map((s) => s.routerIndex)).toEqual([6]);
    expectSwapRecords(swaps);
    expect(crossed.length).toBe(1);
    expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
    expect(BigInt(data.execution.details.amountOut) - asked).toBeLessThanOrEqual(asked / 1_000_000n);
    expect(received).toBe(BigInt(data.execution.details.amountOut));
  });

  it('exact input and exact output through AlgebraSwap, crossing ticks, for exactly the quoted amounts', async () => {
    const sell = await execute({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: '300', includeDexes: [7] });
    expect(sell.swaps.map((s) => s.routerIndex)).toEqual([7]);
    expectSwapRecords(sell.swaps);
    expect(sell.crossed.length).toBe(1);
    expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));

    // Back the other way, through the ticks the sale crossed.
    const asked = 300n * 10n ** 18n;
    const buy = await execute({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountOut: '300', includeDexes: [7] });
    expect(buy.swaps.map((s) => s.routerIndex)).toEqual([7]);
    expect(buy.crossed.length).toBe(1);
    expect(BigInt(buy.data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
    expect(BigInt(buy.data.execution.details.amountOut) - asked).toBeLessThanOrEqual(asked / 1_000_000n);
    expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
  });

  it('one hop split across V3, V2 and core pools, for exactly the quoted output', async () => {
    // WHYPE -> USDC on core (0), DevSwap V2 (1) and DevSwap V3 (5): a size the core pool alone cannot take.
    for (const amountIn of ['1500', '3000', '800']) {
      const params = { tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: String(Number(amountIn) * 25), multiHop: false, includeDexes: [0, 1, 5] };
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

  it('multi-hop mixing kinds: PURR -> WHYPE -> USDC -> USDT through Algebra, V3 and V2, exact input and exact output', async () => {
    // PURR/WHYPE on AlgebraSwap (7) and DevSwap V2 (1), WHYPE/USDC on LiteSwap V3 (6), USDC/USDT on DevSwap V3 (5).
    const shapes = [
      { tokenIn: token('PURR'), tokenOut: token('USDT'), amountIn: '20000', multiHop: true, includeDexes: [1, 6, 7, 5] },
      { tokenIn: token('USDT'), tokenOut: token('PURR'), amountOut: '10000', multiHop: true, includeDexes: [6, 7, 5] },
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
      if (params.amountOut) expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(10_000n * 10n ** 18n);
    }
  });

  it('a route quoted before another trade moved its V3 pool pays at least its minAmountOut', async () => {
    const params = { tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: '200', includeDexes: [5], multiHop: false, slippage: 1 };
    const quoted = bodyOf(await routeAtHead(params)).data;
    expect(BigInt(quoted.execution.details.minAmountOut)).toBe((BigInt(quoted.execution.details.amountOut) * 9900n) / 10000n);
    // Another trade in the same direction through the same pools moves their price against the quoted route.
    await execute({ ...params, amountIn: '10' });
    const received = await send(quoted);
    expect(received).toBeLessThan(BigInt(quoted.execution.details.amountOut));
    expect(received).toBeGreaterThanOrEqual(BigInt(quoted.execution.details.minAmountOut));
  });
});
