// Routes through the devnet's Curve NG pools end to end, on chains 999 and 4663 alike: the indexer finds the pools from
// their factories (StableswapNG's PlainPoolDeployed and pool_list, TwocryptoNG's TwocryptoPoolDeployed) and announces
// each coin pair, the aggregator-router samples every pair by its pool's own get_dy when the pool moves, the engine
// routes them, and RouterV2 executes the API's calldata (kinds CurveStableswapNG and CurveTwocryptoNG: the pool as the
// swap's pool, exchange_received, or an allowance and exchange for a pool holding a rebasing coin). Every route is
// executed on chain for exactly the quoted amount: through the 2-coin and the 4-coin StableswapNG pools, exact input and
// exact output, through the TwocryptoNG pool, and split with other kinds in one stage. (The rebasing coin's pool is
// traded by RouterV2's allowance path in its forge tests; the service routes a rebasing token only through the kinds
// priced on what arrives, which Curve's sampled pools are not.)
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { DEVNET_PRICES_USD } from '@dex/devnet-kit';
import type { ManifestCurvePool } from '@dex/messages';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { erc20Abi, maxUint256, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

const CASES = [
  { chainId: 999, native: 'WHYPE' },
  { chainId: 4663, native: 'WETH' },
] as const;

/** The devnet's Curve sources' registry slots. */
const NG = 9;
const TWOCRYPTO = 10;
/** RouterV2's data for a Curve swap paid through an allowance and `exchange`. */
const EXCHANGE_DATA = `0x${'0'.repeat(63)}1`;

jest.setTimeout(180_000);

describe('routes through Curve NG pools', () => {
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

  describe.each(CASES)('on chain $chainId', ({ chainId, native }) => {
    let client: ChainPublicClient;
    let wallet: ChainWalletClient;
    const chain = () => stack.chains.manifest.chains[String(chainId)];
    const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
    const tokenRecord = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!;
    const token = (symbol: string) => tokenRecord(symbol).address as Address;
    const price = (symbol: string) => Number(DEVNET_PRICES_USD[chainId][symbol] ?? 1);
    const amount = (symbol: string, usd: number) => String(Number((usd / price(symbol)).toPrecision(8)));
    const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId, ...params });
    const curvePools = (): readonly ManifestCurvePool[] => chain().curvePools ?? [];
    const curvePool = (coins: number, kind = 'curve-stableswap-ng') => curvePools().find((p) => p.kind === kind && p.coins.length === coins && !p.assetTypes?.includes(2))!;

    async function routeAtHead(params: RouteParams) {
      const head = await client.getBlockNumber();
      const { value } = await until(() => route(params), (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
      if (value instanceof Error) throw value;
      return value;
    }

    const holding = (t: Address, owner: Address) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

    /** Quotes at the head and sends the answer's calldata; the answer, its swaps and what the trader received. */
    async function execute(params: RouteParams) {
      const r = await routeAtHead(params);
      expect(r.status).toBe(200);
      const data = bodyOf(r).data;
      const swaps: any[] = data.execution.details.hopSwaps.flat();
      const before = await holding(params.tokenOut as Address, trader().address);
      const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: BigInt(data.execution.value) });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      // Nothing is left in the router.
      for (const t of [params.tokenIn, params.tokenOut] as Address[]) expect(await holding(t, chain().routerV2 as Address)).toBe(0n);
      return { data, swaps, received: (await holding(params.tokenOut as Address, trader().address)) - before, gasUsed: receipt.gasUsed };
    }

    /** Each Curve hop swap names the pool and the coin pair traded; its data is empty but for the rebasing coin's pool. */
    function expectCurveRecords(swaps: any[], routerIndex: number) {
      const curve = swaps.filter((s) => s.routerIndex === routerIndex);
      expect(curve.length).toBeGreaterThan(0);
      for (const s of curve) {
        const pool = curvePools().find((p) => p.address === s.poolAddress)!;
        expect(pool).toBeDefined();
        const [, i, j] = (s.poolId as string).split(':').map(Number);
        expect(s.poolId.startsWith(pool.address.toLowerCase())).toBe(true);
        expect([pool.coins[i], pool.coins[j]].sort()).toEqual([s.tokenIn, s.tokenOut].sort());
        expect(s.data).toBe(pool.assetTypes?.includes(2) ? EXCHANGE_DATA : '0x');
      }
      return curve;
    }

    beforeAll(async () => {
      const rpcUrl = chain().rpcUrl;
      client = createChainClient({ chainId, rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
      wallet = createChainWalletClient({ chainId, rpcUrl, account: trader(), pollingIntervalMs: 50 });
      // The Curve pairs are in the state once a route through them answers.
      await until(() => route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '10', includeDexes: [NG] }), (r) => r.status === 200, 60_000);
      for (const symbol of [native, 'USDC', 'USDT', 'DAI', 'crvUSD']) {
        const hash = await wallet.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
        await client.waitForTransactionReceipt({ hash });
      }
    });

    it('/dexes lists both Curve sources and /pools their pairs with the pool, its coins, A and fee', async () => {
      const { value } = await until(() => api.listDexes({ chainId }), (r) => r.success === true, 10_000);
      const dexes = value.data.dexes as any[];
      expect(dexes.find((d) => d.routerIndex === NG)).toMatchObject({ name: 'Curve StableswapNG', kind: 'curve-stableswap-ng' });
      expect(dexes.find((d) => d.routerIndex === TWOCRYPTO)).toMatchObject({ name: 'Curve TwocryptoNG', kind: 'curve-twocrypto-ng' });

      const r = await api.request('findPools', { chainId, tokenA: token('USDC'), tokenB: token('USDT') });
      expect(r.status).toBe(200);
      const records = (bodyOf(r).data as any[]).filter((p) => p.routerIndex === NG);
      // USDC/USDT is a pair of the 2-, 3- and 4-coin pools.
      expect(records.map((p) => p.poolAddress).sort()).toEqual(curvePools().filter((p) => p.kind === 'curve-stableswap-ng' && p.coins.includes(token('USDC')) && p.coins.includes(token('USDT'))).map((p) => p.address).sort());
      const four = records.find((p) => p.poolAddress === curvePool(4).address);
      expect(four).toMatchObject({ coins: curvePool(4).coins, A: 1000, fee: 400, stable: false });
      expect(four.poolId).toMatch(/^0x[0-9a-f]{40}:0:1$/);
      expect(four.price).toBeGreaterThan(0.99);
    });

    it('exact input and exact output through the 2-coin pool alone, for exactly the quoted amounts', async () => {
      const params = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: amount('USDC', 50_000), includeDexes: [NG], multiHop: false };
      const sell = await execute(params);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));
      expect(expectCurveRecords(sell.swaps, NG).map((s) => s.poolAddress)).toContain(curvePool(2).address);

      const size = amount('USDC', 20_000);
      const buy = await execute({ tokenIn: token('USDT'), tokenOut: token('USDC'), amountOut: size, includeDexes: [NG], multiHop: false });
      expectCurveRecords(buy.swaps, NG);
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
      expect(buy.received).toBeGreaterThanOrEqual(parseUnits(size, tokenRecord('USDC').decimals));
    });

    it('through the 4-coin pool (its coin crvUSD is in no other), exact input and exact output, for exactly the quote', async () => {
      const sell = await execute({ tokenIn: token('DAI'), tokenOut: token('crvUSD'), amountIn: amount('DAI', 30_000), includeDexes: [NG], multiHop: false });
      expect(expectCurveRecords(sell.swaps, NG).map((s) => s.poolAddress)).toEqual([curvePool(4).address]);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));
      const buy = await execute({ tokenIn: token('crvUSD'), tokenOut: token('USDC'), amountOut: amount('USDC', 10_000), includeDexes: [NG] });
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
    });

    it('through the TwocryptoNG pool, both ways, for exactly the quote', async () => {
      const sell = await execute({ tokenIn: token(native), tokenOut: token('USDC'), amountIn: amount(native, 20_000), includeDexes: [TWOCRYPTO] });
      expect(expectCurveRecords(sell.swaps, TWOCRYPTO).map((s) => s.poolAddress)).toEqual([curvePool(2, 'curve-twocrypto-ng').address]);
      expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));
      const buy = await execute({ tokenIn: token('USDC'), tokenOut: token(native), amountOut: amount(native, 5_000), includeDexes: [TWOCRYPTO] });
      expect(buy.received).toBe(BigInt(buy.data.execution.details.amountOut));
    });

    it('one stage split across Curve and other kinds, for exactly the quoted output', async () => {
      for (const usd of [400_000, 1_000_000, 2_000_000]) {
        const params = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: amount('USDC', usd), multiHop: false };
        const probe = bodyOf(await routeAtHead(params)).data;
        const indexes = new Set<number>(probe.execution.details.hopSwaps[0].map((s: any) => s.routerIndex));
        if (!indexes.has(NG) || indexes.size < 2) continue;
        const { data, swaps, received } = await execute(params);
        expect(data.execution.details.hopSwaps).toHaveLength(1);
        expectCurveRecords(swaps, NG);
        expect(new Set(swaps.map((s) => s.routerIndex)).size).toBeGreaterThan(1);
        expect(received).toBe(BigInt(data.execution.details.amountOut));
        return;
      }
      throw new Error('no size splits USDC -> USDT across Curve and another kind');
    });
  });
});
