// The referral keeper on the devnet: referral fees accrue on core swaps, the keeper distributes them on
// command, the claim wallets receive exactly what was pending, and a restart never sends it again.
import { ammPoolAbi, ammRouterAbi, testERC20Abi } from '@dex/abis';
import { deployContext, send, type DeployContext, type DevAccount } from '@dex/devnet-kit';
import { distributeContract } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { startTestChains, type TestChains } from '@dex/testing';
import { erc20Abi, parseUnits, type Abi, type Address, type Hex } from 'viem';
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
});
