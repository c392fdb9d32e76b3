// The core AMM as the devnet deploys it: pools behind the router, priced at the oracle, referral codes
// that accrue and are paid to their claim wallets.
import { ammRouterAbi, refCodeRegistryAbi, testERC20Abi } from '@dex/abis';
import type { ManifestChain } from '@dex/messages';
import { erc20Abi, keccak256, parseUnits, stringToHex, type Abi } from 'viem';
import { deployContext, devAccounts, send, startDevnet, type DeployContext, type Devnet } from '../src';

jest.setTimeout(90_000);

const trader = devAccounts().find((a) => a.role === 'trader-1')!;

describe('core AMM on the devnet', () => {
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const chainOf = (id: number): ManifestChain => devnet.manifest.chains[String(id)];
  const ctxOf = (id: number): DeployContext => deployContext(id, chainOf(id).rpcUrl);
  const token = (chain: ManifestChain, symbol: string) => [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol)!;

  it.each([999, 4663])('chain %i: the router lists the core pools and finds each pair in either order', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const core = chain.pools.filter((p) => p.kind === 'core');
    expect(core).toHaveLength(3);
    const listed = await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'getPools' });
    expect([...listed].sort()).toEqual(core.map((p) => p.address).sort());
    for (const p of core) {
      expect(await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'getPoolForPair', args: [p.token0, p.token1] })).toBe(p.address);
      expect(await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'getPoolForPair', args: [p.token1, p.token0] })).toBe(p.address);
    }
    expect(chain.sources[0]).toMatchObject({ kind: 'core', routerIndex: 0, addresses: { router: chain.core.router } });
  });

  it.each([999, 4663])('chain %i: quotes at the oracle price less a fee within its bounds', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const native = chain.wrappedNative;
    const usdc = token(chain, 'USDC');
    const price = chainId === 999 ? 25n : 3000n;
    const out = await ctx.publicClient.readContract({
      address: chain.core.router,
      abi: ammRouterAbi,
      functionName: 'estimateSwap',
      args: [native.address, usdc.address, parseUnits('1', 18)],
    });
    const atOracle = price * 10n ** 6n;
    // Fee between 5 and 100 bps.
    expect(out).toBeLessThanOrEqual((atOracle * 9995n) / 10000n);
    expect(out).toBeGreaterThanOrEqual((atOracle * 9900n) / 10000n);
  });

  it('registers the referral codes with their hashes and claim wallets', async () => {
    const chain = chainOf(999);
    const ctx = ctxOf(999);
    expect(chain.core.refCodes.map((r) => r.code)).toEqual(['ALPHA', 'BETA']);
    for (const r of chain.core.refCodes) {
      expect(r.refCode).toBe(keccak256(stringToHex(r.code)));
      expect(await ctx.publicClient.readContract({ address: chain.core.registry, abi: refCodeRegistryAbi, functionName: 'isActive', args: [r.refCode as `0x${string}`] })).toBe(true);
      expect(await ctx.publicClient.readContract({ address: chain.core.registry, abi: refCodeRegistryAbi, functionName: 'claimWalletOf', args: [r.refCode as `0x${string}`] })).toBe(r.claimWallet);
    }
  });

  it('a swap with a referral code accrues the code a share, and distributeRefFees pays exactly that to its wallet', async () => {
    const chain = chainOf(999);
    const ctx = ctxOf(999);
    const usdc = token(chain, 'USDC');
    const usdt = token(chain, 'USDT');
    const alpha = chain.core.refCodes.find((r) => r.code === 'ALPHA')!;
    const amountIn = parseUnits('10000', 6);
    await send(ctx, { address: usdc.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [chain.core.router, amountIn] }, trader);
    const quoted = await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'estimateSwap', args: [usdc.address, usdt.address, amountIn] });
    const before = await ctx.publicClient.readContract({ address: usdt.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
    await send(
      ctx,
      { address: chain.core.router, abi: ammRouterAbi as Abi, functionName: 'swap', args: [usdc.address, usdt.address, amountIn, quoted, alpha.refCode] },
      trader,
    );
    const after = await ctx.publicClient.readContract({ address: usdt.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
    expect(after - before).toBe(quoted);

    const [claimUsdc, claimUsdt] = await ctx.publicClient.readContract({
      address: chain.core.router,
      abi: ammRouterAbi,
      functionName: 'getRefClaimable',
      args: [usdc.address, usdt.address, alpha.refCode as `0x${string}`],
    });
    expect(claimUsdc).toBeGreaterThan(0n);
    expect(claimUsdt).toBe(0n);

    const walletBefore = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [alpha.claimWallet] });
    await send(ctx, { address: chain.core.router, abi: ammRouterAbi as Abi, functionName: 'distributeRefFees', args: [] });
    const walletAfter = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [alpha.claimWallet] });
    expect(walletAfter - walletBefore).toBe(claimUsdc);
  });
});
