// GET /v2/route, /pools and /tokens/balances end to end: gateway -> NATS -> aggregator-router -> the devnet's
// pools on anvil, on both chains (999 with native HYPE, 4663 with native ETH). Every kind of route is executed
// on chain: the calldata pays exactly the quoted amountOut in the state it was quoted in (at least
// minAmountOut), and fees go where splitOutput says.
import { erc20Abi, maxUint256, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { splitOutput } from '@dex/fee-math';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { createTestDatabase, startTestChains, type TestChains, type TestDatabase } from '@dex/testing';
import { apiClient, bodyOf, fileNatsUrl, startApp, until, type AppProcess } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;
type ChainId = 999 | 4663;

jest.setTimeout(120_000);

describe('aggregator routes', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let router: AppProcess;
  let indexer: AppProcess;
  let gateway: AppProcess;
  let api: DexClient;
  /** Each chain's read client and the trader's wallet on it. */
  const clients = new Map<ChainId, { client: ChainPublicClient; wallet: ChainWalletClient }>();
  const account = (role: string) => chains.manifest.accounts.find((a) => a.role === role)!;
  const trader = () => privateKeyToAccount(account('trader-1').privateKey as Hex);

  /** The route, pool and balance calls of one chain, and the execution of its routes by the trader. */
  function onChain(chainId: ChainId) {
    const chain = () => chains.manifest.chains[String(chainId)];
    const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens, ...chain().launchpad.tokens].find((t) => t.symbol === symbol)!.address as Address;
    /** /v2/route on the chain: any answer, with its status. */
    const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId, ...params });
    const pools = (params: Omit<LooseParams<'findPools'>, 'chainId'>) => api.request('findPools', { chainId, ...params });
    const balances = (params: Omit<LooseParams<'tokenBalances'>, 'chainId'>) => api.request('tokenBalances', { chainId, ...params });
    const client = () => clients.get(chainId)!.client;
    const wallet = () => clients.get(chainId)!.wallet;

    const balanceOf = async (tokenAddress: Address, owner: Address) =>
      tokenAddress === zeroAddress ? client().getBalance({ address: owner }) : client().readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

    /** The route at the chain's newest block (the aggregator refreshes every block). */
    async function routeAtHead(params: RouteParams) {
      const head = await client().getBlockNumber();
      const { value } = await until(() => route(params), (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
      if (value instanceof Error) throw value;
      return value;
    }

    /** Approves, quotes at the head, sends the calldata; returns the route and what each watched owner received. */
    async function execute(params: RouteParams, watch: { token: Address; owner: Address }[] = []) {
      const me = trader().address;
      if (params.tokenIn !== zeroAddress) {
        const r0 = await route(params);
        expect(r0.status).toBe(200);
        const hash = await wallet().writeContract({ address: params.tokenIn as Address, abi: erc20Abi, functionName: 'approve', args: [bodyOf(r0).data.execution.to, maxUint256] });
        await client().waitForTransactionReceipt({ hash });
      }
      const r = await routeAtHead(params);
      expect(r.status).toBe(200);
      const data = bodyOf(r).data;
      const path: Address[] = data.execution.details.path;
      const outToken = path[path.length - 1];
      const owners = [{ token: outToken, owner: me }, ...watch];
      const before = await Promise.all(owners.map((w) => balanceOf(w.token, w.owner)));
      const hash = await wallet().sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: BigInt(data.execution.value) });
      const receipt = await client().waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const gas = outToken === zeroAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
      const after = await Promise.all(owners.map((w) => balanceOf(w.token, w.owner)));
      const received = owners.map((_, i) => after[i] - before[i] + (i === 0 ? gas : 0n));
      return { data, received };
    }

    return { chain, token, route, pools, balances, balanceOf, routeAtHead, execute };
  }

  const { chain, token, route, pools, balances, balanceOf, routeAtHead, execute } = onChain(999);
  const client = () => clients.get(999)!.client;
  const wallet = () => clients.get(999)!.wallet;

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains([999, 4663]), createTestDatabase()]);
    const env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' };
    [indexer, router, gateway] = await Promise.all([startApp('indexer', env), startApp('aggregator-router', env), startApp('gateway', env)]);
    api = apiClient(gateway.url);
    for (const chainId of [999, 4663] as const) {
      const rpcUrl = chains.manifest.chains[String(chainId)].rpcUrl;
      clients.set(chainId, {
        client: createChainClient({ chainId, rpcUrl, pollingIntervalMs: 50 }),
        wallet: createChainWalletClient({ chainId, rpcUrl, account: trader(), pollingIntervalMs: 50 }),
      });
      const { route: routeOn, token: tokenOn } = onChain(chainId);
      await until(() => routeOn({ tokenIn: tokenOn('USDC'), tokenOut: tokenOn('USDT'), amountIn: '1' }), (r) => r.status === 200, 20_000);
    }
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), router?.stop(), indexer?.stop()]);
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('a direct route has the spec fields and executes for exactly amountOut', async () => {
    const { data, received } = await execute({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '250.5' });
    expect(data.tokens.tokenIn).toEqual({ address: token('USDC'), symbol: 'USDC', name: expect.any(String), decimals: 6, transferFeeBps: 0 });
    expect(data.tokens.tokenOut.symbol).toBe('DAI');
    expect(data.tokens.intermediates).toEqual([]);
    expect(data.amountIn).toBe('250.5');
    expect(data.execution.to).toBe(chain().routerV2);
    expect(data.execution.value).toBe('0');
    expect(data.execution.details.path).toEqual([token('USDC'), token('DAI')]);
    expect(data.execution.details.amountIn).toBe('250500000');
    expect(data.execution.details.hopSwaps).toHaveLength(1);
    const swap = data.execution.details.hopSwaps[0][0];
    expect(swap).toEqual(
      expect.objectContaining({ tokenIn: token('USDC'), tokenOut: token('DAI'), routerIndex: expect.any(Number), routerName: expect.any(String), data: '0x', amountIn: expect.stringMatching(/^\d+$/), amountOut: expect.stringMatching(/^\d+$/), stable: expect.any(Boolean), priceImpact: expect.any(Number) }),
    );
    expect(typeof data.averagePriceImpact).toBe('number');
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
    expect(received[0]).toBeGreaterThanOrEqual(BigInt(data.execution.details.minAmountOut));
    // Default slippage 1%: minAmountOut = amountOut * 9900 / 10000.
    expect(BigInt(data.execution.details.minAmountOut)).toBe((BigInt(data.execution.details.amountOut) * 9900n) / 10000n);
  });

  it('a large trade is split across parallel pools of one hop', async () => {
    const { data, received } = await execute({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '20000' });
    expect(data.execution.details.hopSwaps).toHaveLength(1);
    expect(data.execution.details.hopSwaps[0].length).toBeGreaterThan(1);
    const hop = data.execution.details.hopSwaps[0];
    expect(hop.reduce((a: bigint, s: any) => a + BigInt(s.amountIn), 0n)).toBe(20_000_000_000n);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('multi-hop: through an intermediate token only with multiHop=true', async () => {
    const direct = await route({ tokenIn: token('PURR'), tokenOut: token('USDT'), amountIn: '1000' });
    expect(direct.status).toBe(404);
    const { data, received } = await execute({ tokenIn: token('PURR'), tokenOut: token('USDT'), amountIn: '1000', multiHop: true });
    expect(data.execution.details.hopSwaps.length).toBeGreaterThanOrEqual(2);
    expect(data.tokens.intermediates.length).toBe(data.execution.details.hopSwaps.length - 1);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('exact output: at least the asked amount, executed as exact input', async () => {
    const { data, received } = await execute({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountOut: '500' });
    expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(500_000_000n);
    expect(Number(data.amountIn)).toBeGreaterThan(490);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('exact output across the core pool and both V2 pools: the output asked for, for the least input', async () => {
    // 30,000 USDC is more than the core WHYPE/USDC pool pays (its quotes stop at 1,000 WHYPE): the split fills it
    // to its top and the V2 pools pay the rest.
    for (const asked of [30_000, 40_000]) {
      const r = bodyOf(await routeAtHead({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountOut: String(asked) })).data;
      const paid = BigInt(r.execution.details.amountOut);
      expect(paid).toBeGreaterThanOrEqual(BigInt(asked) * 10n ** 6n);
      expect(paid - BigInt(asked) * 10n ** 6n).toBeLessThanOrEqual(BigInt(asked) * 10n ** 3n);
      // An exact-input route for a ten-thousandth less input pays less than was asked.
      const less = (Number(r.amountIn) * 0.9999).toFixed(18);
      const cheaper = bodyOf(await routeAtHead({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: less })).data;
      expect(BigInt(cheaper.execution.details.amountOut)).toBeLessThan(BigInt(asked) * 10n ** 6n);
    }
    // Quoted only: executing it would move the prices the later cases expect.
  });

  it('native input: the zero address, the transaction carries value', async () => {
    const { data, received } = await execute({ tokenIn: zeroAddress, tokenOut: token('USDC'), amountIn: '3' });
    expect(data.execution.value).toBe('3000000000000000000');
    expect(data.execution.details.path[0]).toBe(zeroAddress);
    expect(data.tokens.tokenIn).toEqual(expect.objectContaining({ address: zeroAddress, symbol: 'HYPE', decimals: 18 }));
    expect(data.execution.details.hopSwaps[0][0].tokenIn).toBe(token('WHYPE'));
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
    // The 0xEeee... spelling is the native coin too.
    const alias = await route({ tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', tokenOut: token('USDC'), amountIn: '3' });
    expect(alias.status).toBe(200);
    expect(bodyOf(alias).data.execution.value).toBe('3000000000000000000');
  });

  it('unwrapNative: the wrapped output is paid in native coin', async () => {
    const { data, received } = await execute({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '100', unwrapNative: true });
    expect(data.execution.details.path[data.execution.details.path.length - 1]).toBe(zeroAddress);
    expect(data.tokens.tokenOut.address).toBe(zeroAddress);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('a launchpad curve is routable (buy with the native coin)', async () => {
    const { data, received } = await execute({ tokenIn: zeroAddress, tokenOut: token('MDOG'), amountIn: '1', includeDexes: [4] });
    expect(data.execution.details.hopSwaps[0][0].routerIndex).toBe(4);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('core legs are re-quoted with the pool\'s own estimate, later hops recomputed (two core hops)', async () => {
    const { data, received } = await execute({ tokenIn: token('PURR'), tokenOut: token('USDT'), amountIn: '2000', multiHop: true, includeDexes: [0] });
    const hops = data.execution.details.hopSwaps;
    expect(hops).toHaveLength(2);
    expect(hops.flat().every((s: any) => s.routerIndex === 0 && s.fee === undefined)).toBe(true);
    // Hop 2 takes exactly what hop 1 pays.
    expect(hops[1].reduce((a: bigint, s: any) => a + BigInt(s.amountIn), 0n)).toBe(hops[0].reduce((a: bigint, s: any) => a + BigInt(s.amountOut), 0n));
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('after another trade moves the price the calldata still pays at least minAmountOut', async () => {
    const params = { tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '500', includeDexes: [1], slippage: 2 };
    const first = await route(params);
    const hash0 = await wallet().writeContract({ address: token('USDC'), abi: erc20Abi, functionName: 'approve', args: [bodyOf(first).data.execution.to, maxUint256] });
    await client().waitForTransactionReceipt({ hash: hash0 });
    const quoted = bodyOf(await routeAtHead(params)).data;
    // Someone else buys WHYPE on the same pool first.
    const other = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: privateKeyToAccount(account('trader-2').privateKey as Hex), pollingIntervalMs: 50 });
    await client().waitForTransactionReceipt({ hash: await other.writeContract({ address: token('USDC'), abi: erc20Abi, functionName: 'approve', args: [quoted.execution.to, maxUint256] }) });
    const front = bodyOf(await routeAtHead({ ...params, amountIn: '1000' })).data;
    await client().waitForTransactionReceipt({ hash: await other.sendTransaction({ to: front.execution.to, data: front.execution.calldata as Hex }) });
    const before = await balanceOf(token('WHYPE'), trader().address);
    const receipt = await client().waitForTransactionReceipt({ hash: await wallet().sendTransaction({ to: quoted.execution.to, data: quoted.execution.calldata as Hex }) });
    expect(receipt.status).toBe('success');
    const received = (await balanceOf(token('WHYPE'), trader().address)) - before;
    expect(received).toBeLessThan(BigInt(quoted.execution.details.amountOut));
    expect(received).toBeGreaterThanOrEqual(BigInt(quoted.execution.details.minAmountOut));
  });

  it('integrator fee: the user, the integrator and the treasury get the splitOutput shares', async () => {
    const integrator = account('integrator').address as Address;
    const treasury = chain().treasury as Address;
    const usdt = token('USDT');
    const { data, received } = await execute(
      { tokenIn: token('USDC'), tokenOut: usdt, amountIn: '1000', feeBps: 50, feeRecipient: integrator, slippage: 0.5 },
      [
        { token: usdt, owner: integrator },
        { token: usdt, owner: treasury },
      ],
    );
    const gross = BigInt(data.execution.details.amountOut);
    const split = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps: 50n, hasFeeRecipient: true });
    expect(split.integratorFee).toBeGreaterThan(0n);
    expect(received).toEqual([split.userAmount, split.integratorFee, split.protocolFee]);
    expect(BigInt(data.execution.details.minAmountOut)).toBe((split.userAmount * 9950n) / 10000n);
  });

  it('/pools: the same pools whatever the token order; include and exclude filter; both together is a 400', async () => {
    const ab = await pools({ tokenA: token('WHYPE'), tokenB: token('USDC') });
    const ba = await pools({ tokenA: token('USDC'), tokenB: token('WHYPE') });
    expect(ab.status).toBe(200);
    // A pool's identity: its address, or its PoolId inside its PoolManager (Uniswap V4).
    const addresses = (r: any) => r.body.data.map((p: any) => p.poolId ?? p.poolAddress).sort();
    // Core, DevSwap V2, LiteSwap V2; DevSwap V3 at 0.05% and 0.3%, LiteSwap V3 at 0.3%, AlgebraSwap; DevSwap V4's
    // native/USDC, WHYPE/USDC and dynamic-fee pools (the native coin's pool trades as the wrapped token's); Curve
    // TwocryptoNG's USDC/WHYPE pool (named by its coin pair).
    expect(addresses(ab).length).toBe(11);
    expect(addresses(ab)).toEqual(addresses(ba));
    expect(bodyOf(ab).data[0]).toEqual(
      expect.objectContaining({ poolAddress: expect.any(String), pairedToken: token('USDC'), routerIndex: expect.any(Number), protocol: expect.any(String), stable: false, pair: expect.stringContaining('/'), price: expect.any(Number) }),
    );
    const price = bodyOf(ab).data.find((p: any) => p.routerIndex === 1)!.price;
    expect(price).toBeGreaterThan(20);
    expect(price).toBeLessThan(30);
    // Concentrated pools: fee in hundredths of a basis point and the tick spacing, priced from their sqrt price.
    const concentrated = bodyOf(ab).data.filter((p: any) => p.routerIndex >= 5 && p.routerIndex <= 7);
    expect(concentrated.map((p: any) => [p.routerIndex, p.protocol, p.fee, p.tickSpacing])).toEqual([
      [5, 'DevSwap V3', expect.any(Number), expect.any(Number)],
      [5, 'DevSwap V3', expect.any(Number), expect.any(Number)],
      [6, 'LiteSwap V3', 3000, 60],
      [7, 'AlgebraSwap', 500, 60],
    ]);
    expect(concentrated.filter((p: any) => p.routerIndex === 5).map((p: any) => `${p.fee}/${p.tickSpacing}`).sort()).toEqual(['3000/60', '500/10']);
    for (const p of concentrated) {
      expect(p.pair).toBe(bodyOf(ab).data.find((x: any) => x.routerIndex === 1)!.pair);
      expect(p.price).toBeGreaterThan(20);
      expect(p.price).toBeLessThan(30);
    }
    // Uniswap V4 pools: the PoolManager as poolAddress, each named by its PoolId, priced like the others.
    const v4 = bodyOf(ab).data.filter((p: any) => p.routerIndex === 8);
    expect(v4.map((p: any) => `${p.fee}/${p.tickSpacing}`).sort()).toEqual(['2500/60', '3000/60', '500/10']);
    expect(new Set(v4.map((p: any) => p.poolAddress)).size).toBe(1);
    for (const p of v4) {
      expect(p.poolId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(p.price).toBeGreaterThan(20);
      expect(p.price).toBeLessThan(30);
    }
    const usdcInWhype = bodyOf(ba).data.find((p: any) => p.routerIndex === 7)!.price;
    expect(usdcInWhype).toBeGreaterThan(1 / 30);
    expect(usdcInWhype).toBeLessThan(1 / 20);
    const only = await pools({ tokenA: token('WHYPE'), tokenB: token('USDC'), includeDexes: [1, 2] });
    expect(bodyOf(only).data.map((p: any) => p.routerIndex).sort()).toEqual([1, 2]);
    const without = await pools({ tokenA: token('WHYPE'), tokenB: token('USDC'), excludeDexes: [0, 5, 8, 10] });
    expect(bodyOf(without).data.map((p: any) => p.routerIndex).sort()).toEqual([1, 2, 6, 7]);
    const both = await pools({ tokenA: token('WHYPE'), tokenB: token('USDC'), includeDexes: [1], excludeDexes: [2] });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ success: false, error: 'excludeDexes and includeDexes cannot be used together', details: expect.any(String) });
  });

  it('/tokens/balances: native coin and known tokens, decimal and base units', async () => {
    const me = trader().address;
    const r = await balances({ wallet: me });
    expect(r.status).toBe(200);
    const usdc = bodyOf(r).data.balances.find((b: any) => b.symbol === 'USDC')!;
    expect(BigInt(usdc.balanceRaw)).toBe(await balanceOf(token('USDC'), me));
    expect(bodyOf(r).data.balances[0]).toEqual(expect.objectContaining({ address: zeroAddress, symbol: 'HYPE', decimals: 18 }));
    const some = await balances({ wallet: me, tokens: [token('DAI')] });
    expect(bodyOf(some).data.balances.map((b: any) => b.symbol)).toEqual(['DAI']);
    const native = await balances({ wallet: me, tokens: [zeroAddress] });
    expect(bodyOf(native).data.balances).toEqual([expect.objectContaining({ symbol: 'HYPE', balanceRaw: (await client().getBalance({ address: me })).toString() })]);
    expect((await balances({ wallet: me, tokens: ['0x4444444444444444444444444444444444444444'] })).error).toBe('Unknown token: tokens[0]');
    expect((await balances({ wallet: 'nope' })).error).toBe('Invalid address: wallet');
  });

  it('includeDexes overrides excludeDexes on /v2/route; no route is a 404', async () => {
    const r = await route({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '10', includeDexes: [3], excludeDexes: [3] });
    expect(r.status).toBe(200);
    expect(bodyOf(r).data.execution.details.hopSwaps[0].every((s: any) => s.routerIndex === 3)).toBe(true);
    const none = await route({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '10', includeDexes: [1] });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ success: false, error: 'No route found', details: expect.any(String) });
  });

  it('400s name the parameter', async () => {
    const base = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' };
    const cases: [LooseParams<'route'>, string][] = [
      [{ ...base, tokenIn: '0x123' }, 'Invalid address: tokenIn'],
      [{ tokenOut: token('USDT'), amountIn: '1' }, 'Missing required parameter: tokenIn'],
      [{ ...base, chainId: '1' }, 'Unsupported chainId: 1'],
      [{ ...base, amountOut: '1' }, 'Provide exactly one of amountIn and amountOut'],
      [{ tokenIn: token('USDC'), tokenOut: token('USDT') }, 'Provide exactly one of amountIn and amountOut'],
      [{ ...base, amountIn: '-1' }, 'Invalid amountIn: must be a positive decimal number'],
      [{ ...base, amountIn: '0' }, 'Invalid amountIn: must be a positive decimal number'],
      [{ ...base, amountIn: '1.1234567' }, 'Invalid amountIn: more decimals than the token has'],
      [{ ...base, feeBps: '101', feeRecipient: account('integrator').address }, 'Invalid feeBps: must be an integer in [0, 100]'],
      [{ ...base, feeBps: '1.5', feeRecipient: account('integrator').address }, 'Invalid feeBps: must be an integer in [0, 100]'],
      [{ ...base, feeBps: '10' }, 'Missing required parameter: feeRecipient'],
      [{ ...base, feeRecipient: 'x' }, 'Invalid address: feeRecipient'],
      // Recipients RouterV2 reverts on: the zero address with a fee, and the router itself.
      [{ ...base, feeBps: '10', feeRecipient: zeroAddress }, 'Invalid feeRecipient: must be a wallet, not the zero address or the router'],
      [{ ...base, feeRecipient: chain().routerV2 }, 'Invalid feeRecipient: must be a wallet, not the zero address or the router'],
      [{ ...base, feeBps: '10', feeRecipient: chain().routerV2.toLowerCase() }, 'Invalid feeRecipient: must be a wallet, not the zero address or the router'],
      [{ ...base, slippage: '0' }, 'Invalid slippage: must be a percent greater than 0 and below 50, with at most two decimals'],
      [{ ...base, slippage: '50' }, 'Invalid slippage: must be a percent greater than 0 and below 50, with at most two decimals'],
      [{ ...base, multiHop: 'maybe' }, 'Invalid multiHop: must be true or false'],
      [{ ...base, tokenIn: '0x1111111111111111111111111111111111111111' }, 'Unknown token: tokenIn'],
      [{ ...base, tokenOut: '0x2222222222222222222222222222222222222222' }, 'Unknown token: tokenOut'],
      [{ ...base, includeDexes: 'a' }, 'Invalid includeDexes: must be comma-separated routerIndex values'],
    ];
    for (const [params, error] of cases) {
      const r = await route(params);
      expect({ params, status: r.status, error: r.error }).toEqual({ params, status: 400, error });
      expect(r.body).toMatchObject({ success: false });
    }
    expect((await pools({ tokenA: token('USDC'), tokenB: '0x3333333333333333333333333333333333333333' })).error).toBe('Unknown token: tokenB');
    // Without a fee the zero address means no recipient, which RouterV2 accepts.
    expect((await route({ ...base, feeRecipient: zeroAddress })).status).toBe(200);
  });

  describe('on chain 4663 (native ETH)', () => {
    const eth = onChain(4663);

    it('a direct exact-input route executes for exactly amountOut', async () => {
      const { data, received } = await eth.execute({ tokenIn: eth.token('USDC'), tokenOut: eth.token('DAI'), amountIn: '250.5' });
      expect(data.tokens.tokenIn).toEqual({ address: eth.token('USDC'), symbol: 'USDC', name: expect.any(String), decimals: 6, transferFeeBps: 0 });
      expect(data.tokens.tokenOut).toEqual(expect.objectContaining({ address: eth.token('DAI'), symbol: 'DAI', decimals: 18 }));
      expect(data.tokens.intermediates).toEqual([]);
      expect(data.execution.to).toBe(eth.chain().routerV2);
      expect(data.execution.value).toBe('0');
      expect(data.execution.details.path).toEqual([eth.token('USDC'), eth.token('DAI')]);
      expect(data.execution.details.amountIn).toBe('250500000');
      expect(data.execution.details.hopSwaps).toHaveLength(1);
      expect(data.execution.details.hopSwaps[0].every((s: any) => s.tokenIn === eth.token('USDC') && s.tokenOut === eth.token('DAI'))).toBe(true);
      expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
      expect(BigInt(data.execution.details.minAmountOut)).toBe((BigInt(data.execution.details.amountOut) * 9900n) / 10000n);
    });

    it('multi-hop: LINK to USDT only through an intermediate token, with multiHop=true', async () => {
      const direct = await eth.route({ tokenIn: eth.token('LINK'), tokenOut: eth.token('USDT'), amountIn: '1000' });
      expect(direct.status).toBe(404);
      const { data, received } = await eth.execute({ tokenIn: eth.token('LINK'), tokenOut: eth.token('USDT'), amountIn: '1000', multiHop: true });
      const hops = data.execution.details.hopSwaps;
      expect(hops.length).toBeGreaterThanOrEqual(2);
      expect(data.tokens.intermediates.length).toBe(hops.length - 1);
      expect(data.execution.details.path[0]).toBe(eth.token('LINK'));
      expect(data.execution.details.path[data.execution.details.path.length - 1]).toBe(eth.token('USDT'));
      expect(data.execution.details.amountIn).toBe((1000n * 10n ** 18n).toString());
      expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
      expect(received[0]).toBeGreaterThanOrEqual(BigInt(data.execution.details.minAmountOut));
    });

    it('native input: ETH as the zero address, the transaction carries the value, WETH is swapped', async () => {
      const { data, received } = await eth.execute({ tokenIn: zeroAddress, tokenOut: eth.token('USDC'), amountIn: '0.5' });
      expect(data.execution.value).toBe('500000000000000000');
      expect(data.execution.details.path[0]).toBe(zeroAddress);
      expect(data.tokens.tokenIn).toEqual(expect.objectContaining({ address: zeroAddress, symbol: 'ETH', decimals: 18 }));
      expect(data.execution.details.hopSwaps[0].every((s: any) => s.tokenIn === eth.token('WETH'))).toBe(true);
      expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
      // About 3,000 USDC per ETH on the devnet: half an ETH buys well over 1,000 USDC.
      expect(received[0]).toBeGreaterThan(1_000n * 10n ** 6n);
    });

    it('native output: unwrapNative pays WETH out as ETH', async () => {
      const { data, received } = await eth.execute({ tokenIn: eth.token('USDC'), tokenOut: eth.token('WETH'), amountIn: '1500', unwrapNative: true });
      expect(data.execution.details.path[data.execution.details.path.length - 1]).toBe(zeroAddress);
      expect(data.tokens.tokenOut).toEqual(expect.objectContaining({ address: zeroAddress, symbol: 'ETH' }));
      expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
    });

    it('/tokens/balances: the native coin is ETH', async () => {
      const me = trader().address;
      const r = await eth.balances({ wallet: me, tokens: [zeroAddress, eth.token('LINK')] });
      const bySymbol = Object.fromEntries(bodyOf(r).data.balances.map((b: any) => [b.symbol, b]));
      expect(Object.keys(bySymbol).sort()).toEqual(['ETH', 'LINK']);
      expect(bySymbol.ETH).toEqual(expect.objectContaining({ address: zeroAddress, decimals: 18, balanceRaw: (await eth.balanceOf(zeroAddress, me)).toString() }));
      expect(bySymbol.LINK.balanceRaw).toBe((await eth.balanceOf(eth.token('LINK'), me)).toString());
    });
  });
});
