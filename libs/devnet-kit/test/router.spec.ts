// RouterV2 on the devnet as deployed by startDevnet: the seeded reserves make splitting and intermediate
// hops pay off, and routes executed through the router pay exactly what the pool math says; the V4 source's listed
// hooks are allowed for it.
import { ammPoolAbi, ammRouterAbi, routerV2Abi, testERC20Abi, uniswapV2PairAbi } from '@dex/abis';
import { splitOutput } from '@dex/fee-math';
import type { ManifestChain } from '@dex/messages';
import { getAmountOut } from '@dex/routing';
import { erc20Abi, parseUnits, zeroAddress, type Abi, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployContext, devAccounts, send, startDevnet, type DeployContext, type Devnet } from '../src';

jest.setTimeout(90_000);

const accounts = devAccounts();
const trader = accounts.find((a) => a.role === 'trader-2')!;
const integrator = accounts.find((a) => a.role === 'integrator')!;

describe('RouterV2 on the devnet', () => {
  let devnet: Devnet;
  let chain: ManifestChain;
  let ctx: DeployContext;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
    chain = devnet.manifest.chains['999'];
    ctx = deployContext(999, chain.rpcUrl);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const token = (symbol: string) => [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol)!;
  const poolOf = (name: string) => chain.pools.find((p) => p.name === name)!;
  const feeOf = (routerIndex: number) => BigInt(chain.sources.find((s) => s.routerIndex === routerIndex)!.feeBps!);
  const balance = (t: Address, who: Address) => ctx.publicClient.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

  async function reserves(poolName: string, tokenIn: Address): Promise<[bigint, bigint]> {
    const pool = poolOf(poolName);
    const [r0, r1] = await ctx.publicClient.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' });
    return pool.token0 === tokenIn ? [r0, r1] : [r1, r0];
  }

  async function quote(poolName: string, tokenIn: Address, amountIn: bigint): Promise<bigint> {
    const [rin, rout] = await reserves(poolName, tokenIn);
    return getAmountOut(amountIn, rin, rout, feeOf(poolOf(poolName).routerIndex));
  }

  const leg = (poolName: string, tokenIn: Address, tokenOut: Address, amountIn: bigint) => ({
    pool: poolOf(poolName).address,
    tokenIn,
    tokenOut,
    routerIndex: poolOf(poolName).routerIndex,
    amountIn,
    data: '0x' as const,
  });

  async function approve(t: Address, amount: bigint) {
    await send(ctx, { address: t, abi: testERC20Abi as Abi, functionName: 'approve', args: [chain.routerV2, amount] }, trader);
  }

  async function execute(args: readonly unknown[], value = 0n) {
    await send(ctx, { address: chain.routerV2, abi: routerV2Abi as Abi, functionName: 'executeSwaps', args, value }, trader);
  }

  it("allows the hooks the V4 source lists (and only those) for that source's routerIndex", async () => {
    const v4 = chain.sources.find((s) => s.kind === 'uniswap-v4')!;
    expect(v4.hooks?.map((h) => [h.address, h.quote])).toEqual([
      [v4.addresses.inputFeeHook, 'sampled'],
      [v4.addresses.swapLimitHook, 'exact'],
    ]);
    const allowed = (routerIndex: number, hook: string) => ctx.publicClient.readContract({ address: chain.routerV2, abi: routerV2Abi, functionName: 'isHookAllowed', args: [routerIndex, hook as Address] });
    for (const hook of v4.hooks!) {
      expect(await allowed(v4.routerIndex, hook.address)).toBe(true);
      expect(await allowed(v4.routerIndex + 1, hook.address)).toBe(false);
    }
  });

  it('splitting WHYPE -> USDC across DevSwap and LiteSwap beats the best single pool, and pays exactly the split', async () => {
    const whype = token('WHYPE').address;
    const usdc = token('USDC').address;
    const amountIn = parseUnits('300', 18);
    const singleDev = await quote('DevSwap V2 WHYPE/USDC', whype, amountIn);
    const singleLite = await quote('LiteSwap V2 WHYPE/USDC', whype, amountIn);
    // The best split on a 1% grid.
    let best = { out: 0n, dev: 0n };
    for (let pct = 0n; pct <= 100n; pct++) {
      const dev = (amountIn * pct) / 100n;
      const out = (await quote('DevSwap V2 WHYPE/USDC', whype, dev)) + (await quote('LiteSwap V2 WHYPE/USDC', whype, amountIn - dev));
      if (out > best.out) best = { out, dev };
    }
    expect(best.out).toBeGreaterThan(singleDev > singleLite ? singleDev : singleLite);

    await approve(whype, amountIn);
    const before = await balance(usdc, trader.address);
    await execute([
      [whype, usdc],
      amountIn,
      best.out,
      best.out,
      [[leg('DevSwap V2 WHYPE/USDC', whype, usdc, best.dev), leg('LiteSwap V2 WHYPE/USDC', whype, usdc, amountIn - best.dev)]],
      0n,
      zeroAddress,
    ]);
    expect((await balance(usdc, trader.address)) - before).toBe(best.out);
    expect(await balance(whype, chain.routerV2)).toBe(0n);
    expect(await balance(usdc, chain.routerV2)).toBe(0n);
  });

  it('routes PURR -> USDC through WHYPE (no direct V2 or stable pool), paying the two-hop amount exactly', async () => {
    const purr = token('PURR').address;
    const whype = token('WHYPE').address;
    const usdc = token('USDC').address;
    const direct = chain.pools.filter((p) => [p.token0, p.token1].includes(purr) && [p.token0, p.token1].includes(usdc));
    expect(direct.map((p) => p.kind)).toEqual(['core']);
    const amountIn = parseUnits('1000', 18);
    const mid = await quote('DevSwap V2 PURR/WHYPE', purr, amountIn);
    const out = await quote('DevSwap V2 WHYPE/USDC', whype, mid);
    await approve(purr, amountIn);
    const before = await balance(usdc, trader.address);
    await execute([
      [purr, whype, usdc],
      amountIn,
      out,
      out,
      [[leg('DevSwap V2 PURR/WHYPE', purr, whype, amountIn)], [leg('DevSwap V2 WHYPE/USDC', whype, usdc, mid)]],
      0n,
      zeroAddress,
    ]);
    expect((await balance(usdc, trader.address)) - before).toBe(out);
  });

  it('takes native HYPE in and pays the integrator fee and captured slippage as the fee math says', async () => {
    const whype = token('WHYPE').address;
    const usdc = token('USDC').address;
    const amountIn = parseUnits('2', 18);
    const gross = await quote('DevSwap V2 WHYPE/USDC', whype, amountIn);
    const expected = gross - gross / 100n; // quoted 1% below what the pool now pays: positive slippage
    const split = splitOutput({ grossAmountOut: gross, expectedAmountOut: expected, feeBps: 50n, hasFeeRecipient: true });
    const [traderBefore, integratorBefore, treasuryBefore] = await Promise.all([
      balance(usdc, trader.address),
      balance(usdc, integrator.address),
      balance(usdc, chain.treasury),
    ]);
    await execute(
      [[zeroAddress, usdc], amountIn, split.userAmount, expected, [[leg('DevSwap V2 WHYPE/USDC', whype, usdc, amountIn)]], 50n, integrator.address],
      amountIn,
    );
    expect((await balance(usdc, trader.address)) - traderBefore).toBe(split.userAmount);
    expect((await balance(usdc, integrator.address)) - integratorBefore).toBe(split.integratorFee + split.recipientSlippage);
    expect((await balance(usdc, chain.treasury)) - treasuryBefore).toBe(split.protocolFee);
    expect(split.positiveSlippage).toBeGreaterThan(0n);
  });

  it('unwraps to native HYPE on the way out', async () => {
    const usdc = token('USDC').address;
    const whype = token('WHYPE').address;
    const amountIn = parseUnits('500', 6);
    const out = await quote('LiteSwap V2 WHYPE/USDC', usdc, amountIn);
    await approve(usdc, amountIn);
    const before = await ctx.publicClient.getBalance({ address: trader.address });
    const account = privateKeyToAccount(trader.privateKey);
    const hash = await ctx.wallet.writeContract({
      account,
      address: chain.routerV2,
      abi: routerV2Abi,
      functionName: 'executeSwaps',
      args: [[usdc, zeroAddress], amountIn, out, out, [[leg('LiteSwap V2 WHYPE/USDC', usdc, whype, amountIn)]], 0n, zeroAddress],
    });
    const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
    const gasCost = receipt.gasUsed * receipt.effectiveGasPrice;
    expect((await ctx.publicClient.getBalance({ address: trader.address })) - before + gasCost).toBe(out);
    expect(await ctx.publicClient.getBalance({ address: chain.routerV2 })).toBe(0n);
  });

  it('routes through a core pool and a V2 pool in one transaction, passing the referral code to the core pool', async () => {
    const purr = token('PURR').address;
    const usdc = token('USDC').address;
    const whype = token('WHYPE').address;
    const core = poolOf('Core PURR/USDC');
    const alpha = chain.core.refCodes.find((r) => r.code === 'ALPHA')!.refCode as `0x${string}`;
    const amountIn = parseUnits('20000', 18);
    const mid = await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'estimateSwap', args: [purr, usdc, amountIn] });
    const out = await quote('LiteSwap V2 WHYPE/USDC', usdc, mid);
    const [claim0Before, claim1Before] = await ctx.publicClient.readContract({ address: core.address, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [alpha] });

    await approve(purr, amountIn);
    const before = await balance(whype, trader.address);
    await execute([
      [purr, usdc, whype],
      amountIn,
      out,
      out,
      [
        [{ pool: core.address, tokenIn: purr, tokenOut: usdc, routerIndex: 0, amountIn, data: alpha }],
        [leg('LiteSwap V2 WHYPE/USDC', usdc, whype, mid)],
      ],
      0n,
      zeroAddress,
    ]);
    expect((await balance(whype, trader.address)) - before).toBe(out);
    const [claim0, claim1] = await ctx.publicClient.readContract({ address: core.address, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [alpha] });
    const gainedPurr = core.token0 === purr ? claim0 - claim0Before : claim1 - claim1Before;
    expect(gainedPurr).toBeGreaterThan(0n);
    for (const t of [purr, usdc, whype]) expect(await balance(t, chain.routerV2)).toBe(0n);
  });

  it('splits USDC -> PURR across the core pool and USDC -> WHYPE -> PURR, paying what both paths pay', async () => {
    const usdc = token('USDC').address;
    const whype = token('WHYPE').address;
    const purr = token('PURR').address;
    const core = poolOf('Core PURR/USDC');
    const amountIn = parseUnits('2000', 6);
    const direct = amountIn / 2n;
    const viaWhype = amountIn - direct;
    // The two paths share no pool, so each pays what it would pay alone.
    const fromCore = await ctx.publicClient.readContract({ address: chain.core.router, abi: ammRouterAbi, functionName: 'estimateSwap', args: [usdc, purr, direct] });
    const mid = await quote('DevSwap V2 WHYPE/USDC', usdc, viaWhype);
    const fromV2 = await quote('DevSwap V2 PURR/WHYPE', whype, mid);

    await approve(usdc, amountIn);
    const before = await balance(purr, trader.address);
    const account = privateKeyToAccount(trader.privateKey);
    const hash = await ctx.wallet.writeContract({
      account,
      address: chain.routerV2,
      abi: routerV2Abi,
      functionName: 'executeSwaps',
      args: [
        [usdc, whype, purr],
        amountIn,
        fromCore + fromV2,
        fromCore + fromV2,
        [
          [
            { pool: core.address, tokenIn: usdc, tokenOut: purr, routerIndex: 0, amountIn: direct, data: '0x' },
            leg('DevSwap V2 WHYPE/USDC', usdc, whype, viaWhype),
          ],
          [leg('DevSwap V2 PURR/WHYPE', whype, purr, mid)],
        ],
        0n,
        zeroAddress,
      ],
    });
    const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect((await balance(purr, trader.address)) - before).toBe(fromCore + fromV2);
    for (const t of [usdc, whype, purr]) expect(await balance(t, chain.routerV2)).toBe(0n);
    // Far below HyperEVM's 2,000,000-gas small blocks.
    expect(receipt.gasUsed).toBeLessThan(600_000n);
  });
});
