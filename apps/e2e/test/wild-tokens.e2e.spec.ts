// Tokens as they misbehave on live chains (libs/contracts/src/devnet/WildTokens.sol, written from public
// descriptions of such tokens, not from the service's checks), end to end on both devnet chains: a fixed fee per
// transfer, buy and sell taxes, a launch fee that falls over time, a maximum transfer size, a pause and a blocklist
// that emit nothing, a rebasing balance and a balanceOf that lies by a unit. Every answered route is executed on
// chain by the trader: it must deliver at least minAmountOut, exactly amountOut where nothing changed since the
// quote (what the router measured, its SwapExecuted event), and leave nothing in RouterV2; or the API refuses it with a
// 4xx naming the token. Never a 200 whose transaction reverts, never a shortfall below the quote, never a 5xx.
import { launchTaxTokenAbi, routerV2Abi, silentBlocklistTokenAbi, silentPauseTokenAbi, testERC20Abi, testERC20Bytecode, uniswapV2CoreFactoryAbi, uniswapV2CorePairAbi, wrappedNativeAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { deploy, deployContext, send, type DeployContext } from '@dex/devnet-kit';
import type { ManifestTestToken, TestTokenKind } from '@dex/messages';
import type { DexClient, LooseParams } from '@dex/sdk';
import type { TestChains } from '@dex/testing';
import { erc20Abi, formatUnits, getAddress, maxUint256, parseEventLogs, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(300_000);

const CHAINS = [999, 4663] as const;
/** Wrapped native per token in the devnet's test-token pools (misbehaving.ts): 1,000 WHYPE : 25,000; 10 WETH : 30,000. */
const WRAPPED_PER_TOKEN: Record<number, { num: bigint; den: bigint }> = { 999: { num: 1_000n, den: 25_000n }, 4663: { num: 10n, den: 30_000n } };

/** What happened to each kind's routes, for the record (printed at the end). */
const outcomes: Record<string, { executed: number; refused: number }> = {};
const count = (key: string, outcome: 'executed' | 'refused') => {
  outcomes[key] ??= { executed: 0, refused: 0 };
  outcomes[key][outcome]++;
};

/** A second pool of the fixed-fee token on LiteSwap V2, and a plain token ISLE traded only against it. */
async function seedExtraPools(chains: TestChains): Promise<void> {
  for (const chainId of CHAINS) {
    const chain = chains.manifest.chains[String(chainId)];
    const ctx = deployContext(chainId, chain.rpcUrl);
    const fixfee = getAddress(chain.testTokens!.find((t) => t.kind === 'fixed-fee')!.address);
    const wrapped = getAddress(chain.wrappedNative.address);
    const { num, den } = WRAPPED_PER_TOKEN[chainId];
    await send(ctx, { address: wrapped, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: parseUnits('1000', 18) });
    const lite = chain.sources.find((s) => s.routerIndex === 2 && s.kind === 'uniswap-v2')!.addresses.factory as Address;
    const dev = chain.sources.find((s) => s.routerIndex === 1 && s.kind === 'uniswap-v2')!.addresses.factory as Address;
    // LiteSwap FIXFEE/wrapped: 12,500 tokens at the devnet pool's price.
    await seedPair(ctx, lite, fixfee, parseUnits('12500', 18), wrapped, (parseUnits('12500', 18) * num) / den);
    const isle = await deploy(ctx, testERC20Abi as Abi, testERC20Bytecode, ['Island', 'ISLE', 18]);
    await seedPair(ctx, dev, isle, parseUnits('10000', 18), fixfee, parseUnits('10000', 18));
    await send(ctx, { address: isle, abi: testERC20Abi as Abi, functionName: 'mint', args: [traderOf(chains).address, parseUnits('100000', 18)] });
  }
}

/** A V2 pair of the factory holding the two amounts, its liquidity to the deployer. */
async function seedPair(ctx: DeployContext, factory: Address, a: Address, amountA: bigint, b: Address, amountB: bigint): Promise<void> {
  await send(ctx, { address: factory, abi: uniswapV2CoreFactoryAbi as Abi, functionName: 'createPair', args: [a, b] });
  const pair = (await ctx.publicClient.readContract({ address: factory, abi: uniswapV2CoreFactoryAbi as Abi, functionName: 'getPair', args: [a, b] })) as Address;
  for (const [token, amount] of [[a, amountA], [b, amountB]] as const) {
    const balance = await ctx.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [ctx.deployer.address] });
    // The deployer mints what it lacks (every devnet token but the wrapped native mints to its owner).
    if (balance < amount * 2n) await send(ctx, { address: token, abi: testERC20Abi as Abi, functionName: 'mint', args: [ctx.deployer.address, amount * 2n] });
    await send(ctx, { address: token, abi: erc20Abi as Abi, functionName: 'transfer', args: [pair, amount] });
  }
  await send(ctx, { address: pair, abi: uniswapV2CorePairAbi as Abi, functionName: 'mint', args: [ctx.deployer.address] });
}

const traderOf = (chains: TestChains) => privateKeyToAccount(chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);

describe('tokens as they misbehave on live chains', () => {
  let stack: TestStack;
  let api: DexClient;

  beforeAll(async () => {
    stack = await startTestStack({ chainIds: [...CHAINS], apps: ['indexer', 'aggregator-router', 'gateway'], env: { BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' }, beforeApps: seedExtraPools });
    api = apiClient(stack.app('gateway').url);
  });

  afterAll(async () => {
    const rows = Object.entries(outcomes).map(([key, o]) => `${key.padEnd(34)} executed ${String(o.executed).padStart(2)}  refused ${String(o.refused).padStart(2)}`);
    if (rows.length) process.stdout.write(`routes by kind and chain:\n${rows.join('\n')}\n`);
    await stack?.stop();
  });

  describe.each(CHAINS)('chain %i', (chainId) => {
    let client: ChainPublicClient;
    let wallet: ChainWalletClient;
    const chain = () => stack.chains.manifest.chains[String(chainId)];
    const test = (kind: TestTokenKind): ManifestTestToken => chain().testTokens!.find((t) => t.kind === kind)!;
    const token = (kind: TestTokenKind) => getAddress(test(kind).address);
    const wrapped = () => getAddress(chain().wrappedNative.address);
    const router = () => getAddress(chain().routerV2);
    const owner = () => deployContext(chainId, chain().rpcUrl);
    const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId, ...params });
    const balanceOf = (t: Address, who: Address) => client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
    /** `tokens` tokens' worth of the wrapped native, as a decimal string. */
    const worth = (tokens: number) => formatUnits((parseUnits(String(tokens), 18) * WRAPPED_PER_TOKEN[chainId].num) / WRAPPED_PER_TOKEN[chainId].den, 18);
    let isle: Address;

    /** The answer at the chain's newest block or later, or the refusal. */
    async function routeAtHead(params: Omit<LooseParams<'route'>, 'chainId'>) {
      const head = await client.getBlockNumber();
      return (await until(() => route(params), (r) => !r.ok || BigInt(r.body.data.blockNumber) >= head, 20_000)).value;
    }

    /**
     * Asks for the route, sends its calldata from the trader, and checks the promise: at least minAmountOut
     * arrives (what RouterV2 measured at the recipient, its SwapExecuted event), exactly amountOut when `exact`, and
     * the router holds none of the route's tokens afterwards.
     */
    async function execute(kind: string, params: Omit<LooseParams<'route'>, 'chainId'>, exact: 'exact' | 'at least' | 'within a unit') {
      const r = await routeAtHead(params);
      expect(r.status).toBeLessThan(500);
      const data = bodyOf(r).data;
      const hash = await wallet.sendTransaction({ to: data.execution.to as Address, data: data.execution.calldata as Hex, value: BigInt(data.execution.value), gas: 3_000_000n });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const [event] = parseEventLogs({ abi: routerV2Abi, eventName: 'SwapExecuted', logs: receipt.logs });
      const received = event.args.amountOut;
      const amountOut = BigInt(data.execution.details.amountOut);
      expect(received).toBeGreaterThanOrEqual(BigInt(data.execution.details.minAmountOut));
      if (exact === 'exact') expect(received).toBe(amountOut);
      if (exact === 'at least') expect(received).toBeGreaterThanOrEqual(amountOut);
      if (exact === 'within a unit') expect(received - amountOut <= 1n && amountOut - received <= 1n).toBe(true);
      // A rebasing token moves whole shares: what the router measured it received reads back as fewer shares than
      // arrived, so a unit or two may stay behind (as with stETH's 1-2 wei); every other token leaves nothing.
      const dust = kind === 'rebasing' ? 2n : 0n;
      for (const t of data.execution.details.path) if (BigInt(t) !== 0n) expect(await balanceOf(getAddress(t), router())).toBeLessThanOrEqual(dust);
      count(`${kind} (${chainId})`, 'executed');
      return { data, received };
    }

    /** The route is refused with a 422 naming the token, `details` containing `reason`. */
    async function refused(kind: TestTokenKind, params: Omit<LooseParams<'route'>, 'chainId'>, reason: string) {
      const t = test(kind);
      const r = await routeAtHead(params);
      expect([r.status, r.body]).toEqual([422, { success: false, error: `Token transfers fail: ${t.symbol} (${getAddress(t.address)})`, details: expect.stringContaining(reason) }]);
      count(`${kind} (${chainId})`, 'refused');
    }

    beforeAll(async () => {
      const trader = traderOf(stack.chains);
      client = createChainClient({ chainId, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
      wallet = createChainWalletClient({ chainId, rpcUrl: chain().rpcUrl, account: trader, pollingIntervalMs: 50 });
      const listed = await until(() => api.request('listTokens', { chainId, search: 'ISLE', limit: 10 }), (r) => r.ok && (r.body.data.tokens ?? []).some((t) => t.symbol === 'ISLE'), 60_000);
      isle = getAddress(bodyOf(listed.value).data.tokens!.find((t) => t.symbol === 'ISLE')!.address);
      await until(() => route({ tokenIn: wrapped(), tokenOut: isle, amountIn: worth(10), multiHop: true }), (r) => r.status === 200, 60_000);
      for (const t of [wrapped(), isle, ...chain().testTokens!.map((x) => getAddress(x.address))]) {
        await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: t, abi: erc20Abi, functionName: 'approve', args: [router(), maxUint256] }) });
      }
    });

    it('fixed fee per transfer: bought, sold, exact output, split over two pools and as the middle of two hops, each for exactly its amountOut', async () => {
      const fix = token('fixed-fee');
      await execute('fixed-fee', { tokenIn: wrapped(), tokenOut: fix, amountIn: worth(40) }, 'exact');
      await execute('fixed-fee', { tokenIn: fix, tokenOut: wrapped(), amountIn: '40' }, 'exact');
      const out = await execute('fixed-fee', { tokenIn: wrapped(), tokenOut: fix, amountOut: '25' }, 'exact');
      expect(out.received).toBeGreaterThanOrEqual(parseUnits('25', 18));
      const split = await execute('fixed-fee', { tokenIn: fix, tokenOut: wrapped(), amountIn: '3000' }, 'exact');
      expect(new Set(split.data.execution.details.hopSwaps.flat().map((s) => s.poolAddress)).size).toBeGreaterThan(1);
      for (const [tokenIn, tokenOut] of [[wrapped(), isle], [isle, wrapped()]]) {
        const through = await execute('fixed-fee', { tokenIn, tokenOut, amountIn: tokenIn === isle ? '50' : worth(50), multiHop: true, slippage: '0.1' }, 'exact');
        expect(through.data.execution.details.path.map((a) => a.toLowerCase())).toContain(fix.toLowerCase());
      }
      const exactThrough = await execute('fixed-fee', { tokenIn: wrapped(), tokenOut: isle, amountOut: '30', multiHop: true }, 'exact');
      expect(exactThrough.received).toBeGreaterThanOrEqual(parseUnits('30', 18));
    });

    it('buy and sell taxes: each direction for exactly its amountOut', async () => {
      const tax = token('tax');
      const buy = await execute('tax', { tokenIn: wrapped(), tokenOut: tax, amountIn: worth(100) }, 'exact');
      const sell = await execute('tax', { tokenIn: tax, tokenOut: wrapped(), amountIn: '100' }, 'exact');
      expect(buy.received).toBeLessThan(parseUnits('97', 18));
      expect(sell.received).toBeGreaterThan(0n);
      await execute('tax', { tokenIn: wrapped(), tokenOut: tax, amountOut: '50' }, 'exact');
    });

    it('a launch fee that falls over time: relaunched, every answer executes for at least its amountOut', async () => {
      await send(owner(), { address: token('decaying-fee'), abi: launchTaxTokenAbi as Abi, functionName: 'relaunch' });
      const launch = token('decaying-fee');
      await execute('decaying-fee', { tokenIn: wrapped(), tokenOut: launch, amountIn: worth(100) }, 'at least');
      await execute('decaying-fee', { tokenIn: launch, tokenOut: wrapped(), amountIn: '100' }, 'at least');
      const out = await execute('decaying-fee', { tokenIn: wrapped(), tokenOut: launch, amountOut: '60' }, 'at least');
      expect(out.received).toBeGreaterThanOrEqual(parseUnits('60', 18));
    });

    it('a maximum transfer size: a small trade executes, one above the limit is refused naming the token', async () => {
      const max = token('max-transfer');
      await execute('max-transfer', { tokenIn: max, tokenOut: wrapped(), amountIn: '300' }, 'exact');
      await execute('max-transfer', { tokenIn: wrapped(), tokenOut: max, amountIn: worth(300) }, 'exact');
      await refused('max-transfer', { tokenIn: max, tokenOut: wrapped(), amountIn: '5000' }, 'MaxTxExceeded');
      await refused('max-transfer', { tokenIn: wrapped(), tokenOut: max, amountIn: worth(5000) }, 'MaxTxExceeded');
    });

    it('a pause that emits nothing: refused both ways from the next block, routed again once lifted', async () => {
      const pause = token('silent-pause');
      await execute('silent-pause', { tokenIn: wrapped(), tokenOut: pause, amountIn: worth(50) }, 'exact');
      await send(owner(), { address: pause, abi: silentPauseTokenAbi as Abi, functionName: 'setPaused', args: [true] });
      await refused('silent-pause', { tokenIn: wrapped(), tokenOut: pause, amountIn: worth(50) }, 'TransfersPaused');
      await refused('silent-pause', { tokenIn: pause, tokenOut: wrapped(), amountIn: '20' }, 'TransfersPaused');
      await send(owner(), { address: pause, abi: silentPauseTokenAbi as Abi, functionName: 'setPaused', args: [false] });
      // Refused while the service's state is still at a block before the lift, answered from the block of the lift on.
      await until(() => route({ tokenIn: pause, tokenOut: wrapped(), amountIn: '20' }), (r) => r.status === 200, 20_000);
      await execute('silent-pause', { tokenIn: pause, tokenOut: wrapped(), amountIn: '20' }, 'exact');
    });

    it('a blocklist that emits nothing: its pool blocked, refused both ways naming the pool; routed again once unblocked', async () => {
      const t = test('silent-blocklist');
      const block = getAddress(t.address);
      await execute('silent-blocklist', { tokenIn: block, tokenOut: wrapped(), amountIn: '20' }, 'exact');
      await send(owner(), { address: block, abi: silentBlocklistTokenAbi as Abi, functionName: 'setBlocked', args: [t.pool, true] });
      await refused('silent-blocklist', { tokenIn: block, tokenOut: wrapped(), amountIn: '20' }, `BlockedAccount(${getAddress(t.pool)})`);
      await refused('silent-blocklist', { tokenIn: wrapped(), tokenOut: block, amountIn: worth(20) }, `BlockedAccount(${getAddress(t.pool)})`);
      await send(owner(), { address: block, abi: silentBlocklistTokenAbi as Abi, functionName: 'setBlocked', args: [t.pool, false] });
      await until(() => route({ tokenIn: wrapped(), tokenOut: block, amountIn: worth(20) }), (r) => r.status === 200, 20_000);
      await execute('silent-blocklist', { tokenIn: wrapped(), tokenOut: block, amountIn: worth(20) }, 'exact');
    });

    it('a rebasing balance: both ways, at least amountOut and within a tenth of a percent of it', async () => {
      const rebase = token('rebasing');
      // Balances grow 10% a day: by the block the trade executes in, the pool holds more than its reserves at the
      // quote's block (a sell pays the pool that growth too), and the buyer's shares read a little more.
      for (const params of [{ tokenIn: wrapped(), tokenOut: rebase, amountIn: worth(100) }, { tokenIn: rebase, tokenOut: wrapped(), amountIn: '100' }]) {
        const { data, received } = await execute('rebasing', params, 'at least');
        expect(received - BigInt(data.execution.details.amountOut)).toBeLessThanOrEqual(BigInt(data.execution.details.amountOut) / 1_000n);
      }
    });

    it('a balanceOf that lies by a unit: each way executes within a unit of amountOut or is refused naming the token', async () => {
      const liar = test('lying-balance');
      for (const params of [{ tokenIn: wrapped(), tokenOut: getAddress(liar.address), amountIn: worth(100) }, { tokenIn: getAddress(liar.address), tokenOut: wrapped(), amountIn: '100' }]) {
        const r = await routeAtHead(params);
        if (r.status === 200) await execute('lying-balance', params, 'within a unit');
        else {
          expect([r.status, r.body]).toEqual([422, expect.objectContaining({ error: `Token transfers fail: LIAR (${getAddress(liar.address)})` })]);
          count(`lying-balance (${chainId})`, 'refused');
        }
      }
    });

    it('lists every such token in /tokens with what is known of its transfers, and its pools in /pools', async () => {
      const r = await api.request('listTokens', { chainId, metadata: true, limit: 1000 });
      const tokens = bodyOf(r).data.tokens!;
      const of = (kind: TestTokenKind) => tokens.find((t) => getAddress(t.address) === token(kind));
      for (const kind of ['fixed-fee', 'tax', 'decaying-fee', 'max-transfer', 'silent-pause', 'silent-blocklist', 'rebasing', 'lying-balance'] as const) {
        expect(of(kind)).toMatchObject({ symbol: test(kind).symbol, decimals: 18 });
        const pools = bodyOf(await api.request('findPools', { chainId, tokenA: token(kind), tokenB: wrapped() })).data;
        expect(pools.map((p) => getAddress(p.poolAddress))).toContain(getAddress(test(kind).pool));
      }
      expect(of('fixed-fee')!.transferFeeBps).toBeGreaterThan(0);
      expect(of('tax')!.transferFeeBps).toBeGreaterThan(0);
    });
  });
});
