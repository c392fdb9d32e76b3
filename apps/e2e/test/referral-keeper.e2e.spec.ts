// The keeper on the devnet: referral fees accrue on core swaps, the keeper distributes them on command, the
// claim wallets receive exactly what was pending, and a restart never sends it again. It also finishes launchpad
// graduations on command: it deploys a sold-out token's DEX pair and graduates the token, each transaction with a
// gas limit that fits a HyperEVM small block, waits while one of its transactions is pending, and takes a token
// someone else graduated first as done.
import { ammPoolAbi, ammRouterAbi, launchpadAbi, testERC20Abi, uniswapV2FactoryAbi } from '@dex/abis';
import { createChainWalletClient } from '@dex/chain';
import { deployContext, send, type DeployContext, type DevAccount } from '@dex/devnet-kit';
import { distributeContract, graduateContract, type RequestOf } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { startTestChains, type TestChains } from '@dex/testing';
import { erc20Abi, getAddress, parseEther, parseGwei, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fileNatsUrl, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('referral-keeper', () => {
  let chains: TestChains;
  let keeper: AppProcess;
  let bus: NatsBus;
  let ctx: DeployContext;
  let env: Record<string, string>;
  const chain = () => chains.manifest.chains['999'];
  const account = (role: string) => chains.manifest.accounts.find((a) => a.role === role)! as DevAccount;
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address;
  const distribute = (force?: boolean) => bus.request(distributeContract, { chainId: 999, ...(force === undefined ? {} : { force }) }, { timeoutMs: 30_000 });
  const graduate = (request: RequestOf<typeof graduateContract>) => bus.request(graduateContract, request, { timeoutMs: 60_000 });
  const launchpad = () => chain().launchpad.address as Address;
  const tokenState = (t: Address) => ctx.publicClient.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'getTokenState', args: [t] });
  const rpc = (method: string, params: unknown[] = []) => ctx.publicClient.request({ method: method as never, params: params as never });

  /** Launches a token and sells out its curve with one buy; its DEX pair is not deployed, so it awaits `graduate`. */
  async function launchAndSellOut(name: string, symbol: string): Promise<{ token: Address; pair: Address }> {
    const args = [name, symbol, 'ipfs://x', 'd', 'w', 't', 'tg', 'dc', 0] as const;
    const creator = account('trader-3');
    const { result } = await ctx.publicClient.simulateContract({ account: privateKeyToAccount(creator.privateKey as Hex), address: launchpad(), abi: launchpadAbi, functionName: 'createToken', args, value: parseEther('1') });
    await send(ctx, { address: launchpad(), abi: launchpadAbi as Abi, functionName: 'createToken', args, value: parseEther('1') }, creator);
    await send(ctx, { address: launchpad(), abi: launchpadAbi as Abi, functionName: 'buyTokens', args: [result], value: parseEther('700') }, account('liquidity'));
    const state = await tokenState(result);
    expect(state.graduated).toBe(false);
    expect(await ctx.publicClient.getCode({ address: state.pair })).toBeUndefined();
    return { token: getAddress(result), pair: getAddress(state.pair) };
  }

  /** Runs `during` with automine off (transactions wait in the pool), then mines them all and turns it back on. */
  async function withoutAutomine<T>(during: () => Promise<T>): Promise<T> {
    await rpc('evm_setAutomine', [false]);
    try {
      return await during();
    } finally {
      await rpc('evm_mine');
      await rpc('evm_setAutomine', [true]);
    }
  }

  async function swapWithCode(symbolIn: string, symbolOut: string, amount: string, code: string) {
    const trader = account('trader-1');
    const tokenIn = token(symbolIn);
    const amountIn = parseUnits(amount, symbolIn === 'WHYPE' ? 18 : 6);
    const refCode = chain().core.refCodes.find((r) => r.code === code)!.refCode;
    await send(ctx, { address: tokenIn, abi: testERC20Abi as Abi, functionName: 'approve', args: [chain().core.router, amountIn] }, trader);
    await send(ctx, { address: chain().core.router, abi: ammRouterAbi as Abi, functionName: 'swap', args: [tokenIn, token(symbolOut), amountIn, 0n, refCode] }, trader);
  }

  /** What every active code can claim, summed per (claim wallet, token). */
  async function pendingByWallet(): Promise<Map<string, bigint>> {
    const owed = new Map<string, bigint>();
    for (const pool of chain().pools.filter((p) => p.kind === 'core')) {
      for (const r of chain().core.refCodes) {
        const [a0, a1] = await ctx.publicClient.readContract({ address: pool.address, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [r.refCode as Hex] });
        for (const [t, a] of [[pool.token0, a0], [pool.token1, a1]] as const) {
          const key = `${r.claimWallet}:${t}`;
          owed.set(key, (owed.get(key) ?? 0n) + a);
        }
      }
    }
    return owed;
  }

  async function balances(keys: Iterable<string>): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const key of keys) {
      const [wallet, t] = key.split(':') as [Address, Address];
      out.set(key, await ctx.publicClient.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }));
    }
    return out;
  }

  beforeAll(async () => {
    chains = await startTestChains([999]);
    ctx = deployContext(999, chain().rpcUrl);
    env = {
      ...chains.env,
      NATS_URL: await fileNatsUrl(),
      SOURCES_CONFIG: chains.manifestPath,
      KEEPER_PRIVATE_KEY: account('keeper').privateKey,
      KEEPER_INTERVAL_MS: '0',
      KEEPER_MIN_PENDING_USD: '20',
      KEEPER_GRADUATION_INTERVAL_MS: '0',
    };
    keeper = await startApp('referral-keeper', env);
    bus = new NatsBus({ url: await fileNatsUrl(), name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    await bus.connect();
    await until(() => distribute(), (r) => r.ok, 20_000);
  });

  afterAll(async () => {
    await bus?.close();
    await keeper?.stop();
    await chains?.stop();
  });

  it('skips while the pending fees are below the threshold', async () => {
    await swapWithCode('USDC', 'USDT', '1000', 'ALPHA');
    const reply = await distribute();
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    expect(reply.data.results[0]).toMatchObject({ chainId: 999, status: 'skipped' });
    expect(reply.data.results[0].pendingUsd).toBeGreaterThan(0);
    expect(reply.data.results[0].pendingUsd).toBeLessThan(20);
  });

  it('distributes on command, paying each claim wallet exactly what was pending', async () => {
    await swapWithCode('USDC', 'WHYPE', '30000', 'ALPHA');
    await swapWithCode('WHYPE', 'USDC', '500', 'BETA');
    const owed = await pendingByWallet();
    expect([...owed.values()].some((a) => a > 0n)).toBe(true);
    const before = await balances(owed.keys());

    const reply = await distribute();
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    const result = reply.data.results[0];
    expect(result.status).toBe('sent');
    expect(result.pendingUsd).toBeGreaterThanOrEqual(20);
    expect(result.payouts.length).toBeGreaterThanOrEqual(2);

    const after = await balances(owed.keys());
    for (const [key, amount] of owed) expect(after.get(key)! - before.get(key)!).toBe(amount);
    for (const amount of (await pendingByWallet()).values()) expect(amount).toBe(0n);
  });

  it('reports what it paid in its metrics', async () => {
    const text = await (await fetch(`${keeper.url}/metrics`)).text();
    expect(text).toContain('keeper_distribution_runs_total{chain="999",outcome="sent"} 1');
    expect(text).toMatch(/keeper_payouts_total\{chain="999",token="0x[0-9a-fA-F]{40}"\} [1-9]/);
  });

  it('never sends the same distribution twice after a restart', async () => {
    const nonceBefore = await ctx.publicClient.getTransactionCount({ address: account('keeper').address });
    await keeper.stop();
    keeper = await startApp('referral-keeper', env);
    const reply = await until(() => distribute(true), (r) => r.ok, 20_000);
    expect(reply.value.ok && reply.value.data.results[0].status).toBe('skipped');
    expect(await ctx.publicClient.getTransactionCount({ address: account('keeper').address })).toBe(nonceBefore);
  });
  describe('launchpad graduations', () => {
    let sold: { token: Address; pair: Address };

    beforeAll(async () => {
      sold = await launchAndSellOut('Keeper Kite', 'KKITE');
    });

    it('leaves a token whose curve still trades, and refuses one the launchpad does not know', async () => {
      const mdog = chain().launchpad.tokens.find((t) => t.symbol === 'MDOG')!;
      const reply = await graduate({ chainId: 999, token: mdog.address });
      expect(reply.ok && reply.data.results).toEqual([{ chainId: 999, pending: 0, graduations: [{ token: mdog.address, pair: mdog.pair, outcome: 'not-sold-out' }] }]);
      const unknown = await graduate({ chainId: 999, token: '0x000000000000000000000000000000000000dEaD' });
      expect(!unknown.ok && unknown.error).toMatchObject({ status: 404, message: 'Token not found on the launchpad' });
    });

    it('sends nothing while one of its transactions is pending', async () => {
      const keeper = account('keeper');
      const reply = await withoutAutomine(async () => {
        // A transaction of the keeper's account that is not mined yet, as after a restart or from a replica.
        const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: privateKeyToAccount(keeper.privateKey as Hex) });
        await wallet.sendTransaction({ to: keeper.address, value: 0n, gas: 21_000n });
        const r = await graduate({ chainId: 999 });
        expect(await ctx.publicClient.getTransactionCount({ address: keeper.address, blockTag: 'pending' })).toBe((await ctx.publicClient.getTransactionCount({ address: keeper.address })) + 1);
        return r;
      });
      expect(reply.ok && reply.data.results).toEqual([{ chainId: 999, pending: 1, graduations: [{ ...sold, outcome: 'in-flight' }] }]);
      expect((await tokenState(sold.token)).graduated).toBe(false);
    });

    it('deploys the pair and graduates the token, each transaction with a gas limit that fits a small block', async () => {
      const reply = await graduate({ chainId: 999 });
      expect(reply.ok).toBe(true);
      if (!reply.ok) return;
      const [run] = reply.data.results;
      expect(run).toMatchObject({ chainId: 999, pending: 1, graduations: [{ ...sold, outcome: 'graduated' }] });
      const { pairTxHash, graduateTxHash } = run.graduations[0];
      expect(pairTxHash && graduateTxHash).toBeTruthy();

      const factory = getAddress(chain().sources.find((s) => s.kind === 'uniswap-v2' && s.routerIndex === 1)!.addresses.factory);
      const pairTx = await ctx.publicClient.getTransaction({ hash: pairTxHash as Hex });
      const graduateTx = await ctx.publicClient.getTransaction({ hash: graduateTxHash as Hex });
      expect([pairTx.from, pairTx.to, graduateTx.from, graduateTx.to].map((a) => a && getAddress(a))).toEqual([getAddress(account('keeper').address), factory, getAddress(account('keeper').address), getAddress(launchpad())]);
      expect(await ctx.publicClient.readContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [sold.token, chain().wrappedNative.address] })).toBe(sold.pair);
      // The estimate plus a fixed margin: above what the transaction used, and within HyperEVM's 2,000,000-gas
      // small block (padding the createPair estimate by 25% + 50,000 would take it over).
      for (const tx of [pairTx, graduateTx]) {
        const receipt = await ctx.publicClient.getTransactionReceipt({ hash: tx.hash });
        expect(receipt.status).toBe('success');
        expect(tx.gas).toBeGreaterThan(receipt.gasUsed);
        expect(tx.gas).toBeLessThanOrEqual(2_000_000n);
      }
      expect(pairTx.gas).toBeGreaterThan(1_500_000n);

      const state = await tokenState(sold.token);
      expect(state.graduated).toBe(true);
      expect(await ctx.publicClient.readContract({ address: sold.token, abi: erc20Abi, functionName: 'balanceOf', args: [sold.pair] })).toBe(250_000_000n * 10n ** 6n);

      const again = await graduate({ chainId: 999 });
      expect(again.ok && again.data.results).toEqual([{ chainId: 999, pending: 0, graduations: [] }]);
    });

    it('takes a token someone else graduated first as done', async () => {
      const other = await launchAndSellOut('Racing Robin', 'RROB');
      const rival = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: privateKeyToAccount(account('trader-2').privateKey as Hex), pollingIntervalMs: 50 });
      // The rival deploys the pair, then sends `graduate` with a higher tip while the keeper is asked to graduate
      // the token: the rival's transaction comes first in the block, and the keeper's (if it sent one) reverts.
      const factory = getAddress(chain().sources.find((s) => s.kind === 'uniswap-v2' && s.routerIndex === 1)!.addresses.factory);
      await ctx.publicClient.waitForTransactionReceipt({
        hash: await rival.writeContract({ address: factory, abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [other.token, chain().wrappedNative.address] }),
      });
      const nonceBefore = await ctx.publicClient.getTransactionCount({ address: account('keeper').address });
      const reply = await withoutAutomine(async () => {
        await rival.writeContract({ address: launchpad(), abi: launchpadAbi, functionName: 'graduate', args: [other.token], gas: 1_000_000n, maxPriorityFeePerGas: parseGwei('50'), maxFeePerGas: parseGwei('100') });
        const asked = graduate({ chainId: 999, token: other.token });
        // Either the keeper sees the rival's transaction and sends nothing, or it sends its own: mine once it has.
        let settled = false;
        void asked.then(
          () => (settled = true),
          () => (settled = true),
        );
        await until(
          async () => settled || (await ctx.publicClient.getTransactionCount({ address: account('keeper').address, blockTag: 'pending' })) > nonceBefore,
          (done) => done,
          20_000,
        );
        await rpc('evm_mine');
        return asked;
      });
      expect(reply.ok && reply.data.results).toMatchObject([{ chainId: 999, pending: 1, graduations: [{ ...other, outcome: 'already-graduated' }] }]);
      expect((await tokenState(other.token)).graduated).toBe(true);
    });

    it('reports its graduations in its metrics', async () => {
      const text = await (await fetch(`${keeper.url}/metrics`)).text();
      expect(text).toContain('keeper_graduations_total{chain="999",outcome="graduated"} 1');
      expect(text).toContain('keeper_graduations_total{chain="999",outcome="already-graduated"} 1');
      expect(text).toContain('keeper_graduations_total{chain="999",outcome="in-flight"} 1');
      expect(text).toContain('keeper_graduations_pending{chain="999"} 0');
    });
  });
});
