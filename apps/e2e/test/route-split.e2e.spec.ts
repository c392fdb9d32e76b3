// GET /v2/route for routes that split across token paths, end to end on chain 999: gateway -> NATS ->
// aggregator-router -> the devnet's pools, each route executed on chain from the API's calldata. A split route's
// stages (a stage holding swaps of different token pairs) are RouterV2's: every swap must execute for exactly its
// quoted amounts and the trader receive exactly the quoted output, in the state the route was quoted in.
// Cases: exact input (USDC -> PURR across the core USDC/PURR pool and the path through WHYPE), exact output, the
// native coin in and the wrapped native unwrapped out, and an integrator fee.
import { splitOutput } from '@dex/fee-math';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { createTestDatabase, startTestChains, type TestChains, type TestDatabase } from '@dex/testing';
import { erc20Abi, maxUint256, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, fileNatsUrl, startApp, until, type AppProcess } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

jest.setTimeout(120_000);

describe('routes split across paths', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let apps: AppProcess[] = [];
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => chains.manifest.chains['999'];
  const account = (role: string) => chains.manifest.accounts.find((a) => a.role === role)!;
  const trader = () => privateKeyToAccount(account('trader-1').privateKey as Hex);
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address as Address;
  const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId: 999, ...params });
  const balanceOf = (t: Address, owner: Address) => (t === zeroAddress ? client.getBalance({ address: owner }) : client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }));

  /** The route at the chain's newest block (the aggregator refreshes every block). */
  async function routeAtHead(params: RouteParams) {
    const head = await client.getBlockNumber();
    const { value } = await until(() => route(params), (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
    if (value instanceof Error) throw value;
    return value;
  }

  /** Approves, quotes at the head, sends the calldata; the route and what each watched owner received. */
  async function execute(params: RouteParams, watch: { token: Address; owner: Address }[] = []) {
    const me = trader().address;
    if (params.tokenIn !== zeroAddress) {
      const hash = await wallet.writeContract({ address: params.tokenIn as Address, abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash });
    }
    const r = await routeAtHead(params);
    expect(r.status).toBe(200);
    const data = bodyOf(r).data;
    const path: Address[] = data.execution.details.path;
    const owners = [{ token: path[path.length - 1], owner: me }, ...watch];
    const before = await Promise.all(owners.map((w) => balanceOf(w.token, w.owner)));
    const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: BigInt(data.execution.value) });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const gas = owners[0].token === zeroAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
    const after = await Promise.all(owners.map((w) => balanceOf(w.token, w.owner)));
    return { data, received: owners.map((_, i) => after[i] - before[i] + (i === 0 ? gas : 0n)) };
  }

  /** Whether a route answer splits across paths: some stage trades more than one token pair. */
  const splits = (data: any): boolean =>
    data.execution.details.hopSwaps.some((stage: any[]) => new Set(stage.map((s) => `${s.tokenIn}>${s.tokenOut}`)).size > 1);

  /**
   * The first of `candidates` whose route splits across paths at the head (the pools move with each case, so a
   * case names a few sizes or pairs that split), executed.
   */
  async function executeSplit(candidates: RouteParams[], watch: { token: Address; owner: Address }[] = []) {
    for (const params of candidates) {
      const r = await routeAtHead(params);
      if (r.status === 200 && splits(bodyOf(r).data)) return { params, ...(await execute(params, watch)) };
    }
    throw new Error(`none of the candidates splits across paths: ${JSON.stringify(candidates)}`);
  }

  /**
   * The route's stages split across paths and hold together: some stage trades more than one token pair, every
   * swap's quoted input is shared from what the earlier stages paid (or the input), and `path` and
   * `tokens.intermediates` list every intermediate token once, in the order the stages first produce them.
   */
  function expectSplitStages(data: any, tokenIn: Address, tokenOut: Address) {
    const stages: any[][] = data.execution.details.hopSwaps;
    expect(splits(data)).toBe(true);
    const held = new Map<string, bigint>([[tokenIn, BigInt(data.execution.details.amountIn)]]);
    const produced: string[] = [];
    for (const stage of stages) {
      const spent = new Map<string, bigint>();
      for (const s of stage) spent.set(s.tokenIn, (spent.get(s.tokenIn) ?? 0n) + BigInt(s.amountIn));
      for (const [t, amount] of spent) {
        expect(amount).toBe(held.get(t));
        held.delete(t);
      }
      for (const s of stage) {
        held.set(s.tokenOut, (held.get(s.tokenOut) ?? 0n) + BigInt(s.amountOut));
        if (s.tokenOut !== tokenOut && !produced.includes(s.tokenOut)) produced.push(s.tokenOut);
      }
    }
    expect([...held.keys()]).toEqual([tokenOut]);
    expect(held.get(tokenOut)).toBe(BigInt(data.execution.details.amountOut));
    expect(data.tokens.intermediates.map((t: any) => t.address)).toEqual(produced);
    expect(data.execution.details.path.slice(1, -1)).toEqual(produced);
  }

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains([999]), createTestDatabase()]);
    const env = { ...chains.env, CHAIN_IDS: '999', NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' };
    apps = await Promise.all([startApp('indexer', env), startApp('aggregator-router', env), startApp('gateway', env)]);
    api = apiClient(apps[2].url);
    const rpcUrl = chain().rpcUrl;
    client = createChainClient({ chainId: 999, rpcUrl, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: 999, rpcUrl, account: trader(), pollingIntervalMs: 50 });
    await until(() => route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' }), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  // First, while the pools are as seeded: the core pool and DevSwap's PURR/WHYPE pair hold 300,000 PURR together.
  it('exact output: at least the PURR asked, split across paths, executed for exactly the quoted output', async () => {
    const usdc = token('USDC');
    const purr = token('PURR');
    const asked = 150_000n * 10n ** 18n;
    const { data, received } = await execute({ tokenIn: usdc, tokenOut: purr, amountOut: '150000', multiHop: true });
    expectSplitStages(data, usdc, purr);
    expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(asked);
    expect(BigInt(data.execution.details.amountOut) - asked).toBeLessThanOrEqual(asked / 1_000n);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('exact input: USDC -> PURR across the core pool and the path through WHYPE, for exactly the quoted output', async () => {
    const usdc = token('USDC');
    const purr = token('PURR');
    const single = bodyOf(await routeAtHead({ tokenIn: usdc, tokenOut: purr, amountIn: '40000', multiHop: true, includeDexes: [1] })).data;
    // Without the Curve sources, whose deep USDC/WHYPE pool would carry the whole trade through WHYPE.
    const { data, received } = await execute({ tokenIn: usdc, tokenOut: purr, amountIn: '40000', multiHop: true, excludeDexes: [9, 10] });
    expectSplitStages(data, usdc, purr);
    expect(data.execution.details.hopSwaps.flat().some((s: any) => s.routerIndex === 0)).toBe(true);
    expect(data.tokens.intermediates.map((t: any) => t.symbol)).toContain('WHYPE');
    expect(BigInt(data.execution.details.amountOut)).toBeGreaterThan(BigInt(single.execution.details.amountOut));
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('native coin in, split across paths: the transaction carries the value', async () => {
    const sizes = ['200', '800', '2000'];
    const { params, data, received } = await executeSplit(['PURR', 'USDT', 'USDC'].flatMap((symbol) => sizes.map((amountIn) => ({ tokenIn: zeroAddress, tokenOut: token(symbol), amountIn, multiHop: true }))));
    expect(data.execution.value).toBe(`${params.amountIn}000000000000000000`);
    expect(data.execution.details.path[0]).toBe(zeroAddress);
    expectSplitStages(data, token('WHYPE'), params.tokenOut as Address);
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('unwrapped native coin out, split across paths', async () => {
    const candidates = [
      ['PURR', '100000'],
      ['PURR', '400000'],
      ['USDC', '20000'],
      ['USDT', '20000'],
      ['USDC', '60000'],
    ].map(([symbol, amountIn]) => ({ tokenIn: token(symbol), tokenOut: token('WHYPE'), amountIn, multiHop: true, unwrapNative: true }));
    const { params, data, received } = await executeSplit(candidates);
    const path = data.execution.details.path;
    expect(path[path.length - 1]).toBe(zeroAddress);
    expect(data.tokens.tokenOut.address).toBe(zeroAddress);
    expectSplitStages(data, params.tokenIn as Address, token('WHYPE'));
    expect(received[0]).toBe(BigInt(data.execution.details.amountOut));
  });

  it('integrator fee on a split route: the user, the integrator and the treasury get the splitOutput shares', async () => {
    const integrator = account('integrator').address as Address;
    const treasury = chain().treasury as Address;
    const usdc = token('USDC');
    const purr = token('PURR');
    const candidates = ['10000', '30000', '60000'].map((amountIn) => ({ tokenIn: usdc, tokenOut: purr, amountIn, multiHop: true, feeBps: 50, feeRecipient: integrator, slippage: 0.5 }));
    const { data, received } = await executeSplit(candidates, [
      { token: purr, owner: integrator },
      { token: purr, owner: treasury },
    ]);
    expectSplitStages(data, usdc, purr);
    const gross = BigInt(data.execution.details.amountOut);
    const split = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps: 50n, hasFeeRecipient: true });
    expect(split.integratorFee).toBeGreaterThan(0n);
    expect(received).toEqual([split.userAmount, split.integratorFee, split.protocolFee]);
  });
});
