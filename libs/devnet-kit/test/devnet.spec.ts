// Starts both devnet chains for real (anvil) and checks what deploySources left on them (concentrated-liquidity
// sources: concentrated.spec.ts).
import {
  ammPoolAbi,
  fixedFeeTokenAbi,
  launchTaxTokenAbi,
  maxTxTokenAbi,
  permit2Abi,
  rebasingTokenAbi,
  routerV2Permit2Abi,
  silentBlocklistTokenAbi,
  silentPauseTokenAbi,
  stablePoolAbi,
  stablePoolFactoryAbi,
  taxTokenAbi,
  uniswapV2CoreFactoryAbi,
  uniswapV2CorePairAbi,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3PoolAbi,
} from '@dex/abis';
import { TEST_TOKEN_KINDS, type ManifestChain, type ManifestTestToken, type TestTokenKind } from '@dex/messages';
import { getAmountOut } from '@dex/routing';
import { domainSeparator, erc20Abi, parseUnits, zeroAddress, type Abi, type Address } from 'viem';
import { DEVNET_SOURCES, deployContext, devAccount, send, startDevnet, type DeployContext, type Devnet } from '../src';

jest.setTimeout(60_000);

const CHAIN_IDS = [999, 4663] as const;
const trader = devAccount(2);

describe('startDevnet with liquidity sources', () => {
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  const chainOf = (chainId: number): ManifestChain => devnet.manifest.chains[String(chainId)];
  const ctxOf = (chainId: number): DeployContext => deployContext(chainId, chainOf(chainId).rpcUrl);
  const pools = (chain: ManifestChain) => chain.deployments.filter((d) => d.contract === 'UniswapV2Pair' || d.contract === 'StablePool');
  /** The pools the sources were seeded with (not the pools launched tokens graduated into, nor the misbehaving tokens' pools). */
  const seeded = (chain: ManifestChain) =>
    pools(chain).filter((d) => !chain.launchpad.tokens.some((t) => t.pair === d.address) && !(chain.testTokens ?? []).some((t) => d.name.includes(` ${t.symbol}/`)));
  const tokenBySymbol = (chain: ManifestChain, symbol: string) =>
    [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol) ?? fail(`no token ${symbol}`);
  const pool = (chain: ManifestChain, name: string) => chain.deployments.find((d) => d.name === name) ?? fail(`no deployment ${name}`);

  /** Reserves of a pool, normalised to 18 decimals, as [reserve of tokenA, reserve of tokenB]. */
  async function reservesOf(ctx: DeployContext, chain: ManifestChain, name: string, tokenA: string, tokenB: string): Promise<[bigint, bigint]> {
    const { address, contract } = pool(chain, name);
    const abi = (contract === 'UniswapV2Pair' ? uniswapV2PairAbi : stablePoolAbi) as Abi;
    const [r0, r1] = (await ctx.publicClient.readContract({ address, abi, functionName: 'getReserves' })) as readonly bigint[];
    const token0 = (await ctx.publicClient.readContract({ address, abi, functionName: 'token0' })) as Address;
    const a = tokenBySymbol(chain, tokenA);
    const b = tokenBySymbol(chain, tokenB);
    const [ra, rb] = token0.toLowerCase() === a.address.toLowerCase() ? [BigInt(r0), BigInt(r1)] : [BigInt(r1), BigInt(r0)];
    return [ra * 10n ** BigInt(18 - a.decimals), rb * 10n ** BigInt(18 - b.decimals)];
  }

  it.each(CHAIN_IDS)('chain %i lists the core AMM, the three pool sources, the launchpad, the concentrated, V4 and Curve sources with their fees', (chainId) => {
    const sources = chainOf(chainId).sources.map(({ name, kind, routerIndex, feeBps }) => ({ name, kind, routerIndex, feeBps }));
    expect(sources).toEqual([
      { name: 'Core', kind: 'core', routerIndex: 0, feeBps: undefined },
      { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, feeBps: 30 },
      { name: 'LiteSwap V2', kind: 'uniswap-v2', routerIndex: 2, feeBps: 10 },
      { name: 'StableSwap', kind: 'stable', routerIndex: 3, feeBps: 4 },
      { name: 'Launchpad', kind: 'launchpad', routerIndex: 4, feeBps: 100 },
      { name: 'DevSwap V3', kind: 'uniswap-v3', routerIndex: 5, feeBps: undefined },
      { name: 'LiteSwap V3', kind: 'uniswap-v3', routerIndex: 6, feeBps: undefined },
      { name: 'AlgebraSwap', kind: 'algebra', routerIndex: 7, feeBps: undefined },
      { name: 'DevSwap V4', kind: 'uniswap-v4', routerIndex: 8, feeBps: undefined },
      { name: 'Curve StableswapNG', kind: 'curve-stableswap-ng', routerIndex: 9, feeBps: 4 },
      { name: 'Curve TwocryptoNG', kind: 'curve-twocrypto-ng', routerIndex: 10, feeBps: undefined },
    ]);
    expect(seeded(chainOf(chainId))).toHaveLength(6);
    // The V4 pools, each with its PoolManager and key, the native pool's currency0 the native coin.
    const v4 = chainOf(chainId).uniswapV4Pools ?? [];
    expect(v4).toHaveLength(6);
    expect(new Set(v4.map((p) => p.poolManager)).size).toBe(1);
    expect(v4.filter((p) => p.currency0 === zeroAddress)).toHaveLength(1);
  });

  it.each(CHAIN_IDS)('chain %i: Permit2 and RouterV2Permit2 (RouterV2 and Permit2 its router and permit2) have code and are named', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    for (const address of [chain.permit2, chain.routerV2Permit2]) expect(await ctx.publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]{2,}$/);
    // Permit2's EIP-712 domain: its name, the chain and its own address.
    expect(await ctx.publicClient.readContract({ address: chain.permit2, abi: permit2Abi, functionName: 'DOMAIN_SEPARATOR' })).toBe(
      domainSeparator({ domain: { name: 'Permit2', chainId, verifyingContract: chain.permit2 } }),
    );
    expect(await ctx.publicClient.readContract({ address: chain.routerV2Permit2, abi: routerV2Permit2Abi, functionName: 'router' })).toBe(chain.routerV2);
    expect(await ctx.publicClient.readContract({ address: chain.routerV2Permit2, abi: routerV2Permit2Abi, functionName: 'permit2' })).toBe(chain.permit2);
    expect(chain.deployments.filter((d) => ['RouterV2', 'Permit2', 'RouterV2Permit2'].includes(d.contract))).toEqual([
      { name: 'RouterV2', contract: 'RouterV2', address: chain.routerV2 },
      { name: 'Permit2', contract: 'Permit2', address: chain.permit2 },
      { name: 'RouterV2Permit2', contract: 'RouterV2Permit2', address: chain.routerV2Permit2 },
    ]);
  });

  it.each(CHAIN_IDS)('chain %i lists every pool with its source and sorted tokens, as on chain', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    expect(chain.pools.filter((p) => p.kind === 'uniswap-v2' || p.kind === 'stable').map((p) => p.address)).toEqual(pools(chain).map((d) => d.address));
    expect(chain.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra').map((p) => p.address)).toEqual(
      chain.deployments.filter((d) => d.contract === 'UniswapV3Pool' || d.contract === 'AlgebraPool').map((d) => d.address),
    );
    expect(chain.pools.filter((p) => p.kind === 'core').map((p) => p.address)).toEqual(
      chain.deployments.filter((d) => d.contract === 'AmmPool').map((d) => d.address),
    );
    for (const p of chain.pools) {
      const source = chain.sources.find((s) => s.routerIndex === p.routerIndex);
      expect(source?.kind).toBe(p.kind);
      if (p.kind === 'core') {
        const [token0, token1] = (await ctx.publicClient.readContract({ address: p.address, abi: ammPoolAbi, functionName: 'getTokens' })) as readonly Address[];
        expect([token0, token1]).toEqual([p.token0, p.token1]);
        continue;
      }
      const abi = (p.kind === 'uniswap-v2' ? uniswapV2PairAbi : p.kind === 'stable' ? stablePoolAbi : uniswapV3PoolAbi) as Abi;
      expect(await ctx.publicClient.readContract({ address: p.address, abi, functionName: 'token0' })).toBe(p.token0);
      expect(await ctx.publicClient.readContract({ address: p.address, abi, functionName: 'token1' })).toBe(p.token1);
    }
  });

  it.each(CHAIN_IDS)('chain %i: one misbehaving token of each kind, each in a DevSwap pool against the wrapped native that holds both', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const testTokens = chain.testTokens ?? [];
    expect(testTokens.map((t) => t.kind).sort()).toEqual([...TEST_TOKEN_KINDS].sort());
    const devswap = chain.sources.find((s) => s.routerIndex === 1)!.addresses.factory as Address;
    for (const t of testTokens) {
      expect(await ctx.publicClient.readContract({ address: devswap, abi: uniswapV2CoreFactoryAbi, functionName: 'getPair', args: [t.address as Address, chain.wrappedNative.address as Address] })).toBe(t.pool);
      expect(await ctx.publicClient.readContract({ address: t.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [t.pool as Address] })).toBeGreaterThan(0n);
      const grant = parseUnits('1000000', t.decimals);
      const held = await ctx.publicClient.readContract({ address: t.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
      if (t.kind === 'rebasing') {
        // Minted as shares at the index of the moment (rounded down), grown since by the index.
        expect(held).toBeGreaterThanOrEqual(grant - 2n);
        expect(held).toBeLessThan(grant + grant / 100n);
      } else {
        // The lying token reports one unit more than it holds.
        expect(held).toBe(t.kind === 'lying-balance' ? grant + 1n : grant);
      }
      expect(chain.pools.some((p) => p.address === t.pool)).toBe(true);
    }
  });

  it.each(CHAIN_IDS)('chain %i: the tokens seen on live chains are deployed as the manifest describes them', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const of = (kind: TestTokenKind): ManifestTestToken => (chain.testTokens ?? []).find((t) => t.kind === kind) ?? fail(`no ${kind} token`);
    const read = (t: ManifestTestToken, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
      ctx.publicClient.readContract({ address: t.address as Address, abi, functionName, args } as never) as Promise<unknown>;

    const fixed = of('fixed-fee');
    expect([fixed.symbol, fixed.fixedFee]).toEqual(['FIXFEE', parseUnits('2', 18).toString()]);
    expect(await read(fixed, fixedFeeTokenAbi as Abi, 'fee')).toBe(BigInt(fixed.fixedFee!));

    const tax = of('tax');
    expect([tax.symbol, tax.buyTaxBps, tax.sellTaxBps]).toEqual(['TAX', 300, 700]);
    expect(await read(tax, taxTokenAbi as Abi, 'buyTaxBps')).toBe(300n);
    expect(await read(tax, taxTokenAbi as Abi, 'sellTaxBps')).toBe(700n);
    expect(await read(tax, taxTokenAbi as Abi, 'automatedMarketMakerPairs', [tax.pool])).toBe(true);
    expect(await read(tax, taxTokenAbi as Abi, 'taxWallet')).toBe(ctx.deployer.address);

    const launch = of('decaying-fee');
    expect([launch.symbol, launch.startFeeBps, launch.decaySeconds]).toEqual(['LAUNCH', 2_000, 3_600]);
    expect(await read(launch, launchTaxTokenAbi as Abi, 'startBps')).toBe(2_000n);
    expect(await read(launch, launchTaxTokenAbi as Abi, 'decaySeconds')).toBe(3_600n);
    const fee = (await read(launch, launchTaxTokenAbi as Abi, 'currentFeeBps')) as bigint;
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThanOrEqual(2_000n);

    const maxTx = of('max-transfer');
    expect([maxTx.symbol, maxTx.maxTxAmount]).toEqual(['MAXTX', parseUnits('1000', 18).toString()]);
    expect(await read(maxTx, maxTxTokenAbi as Abi, 'maxTxAmount')).toBe(BigInt(maxTx.maxTxAmount!));
    expect(await read(maxTx, maxTxTokenAbi as Abi, 'automatedMarketMakerPairs', [maxTx.pool])).toBe(true);

    expect(await read(of('silent-pause'), silentPauseTokenAbi as Abi, 'paused')).toBe(false);
    expect(await read(of('silent-blocklist'), silentBlocklistTokenAbi as Abi, 'isBlocked', [of('silent-blocklist').pool])).toBe(false);

    const rebasing = of('rebasing');
    expect([rebasing.symbol, rebasing.growthBpsPerDay]).toEqual(['REBASE', 1_000]);
    expect(await read(rebasing, rebasingTokenAbi as Abi, 'growthBpsPerDay')).toBe(1_000n);
    expect(await read(rebasing, rebasingTokenAbi as Abi, 'index')).toBeGreaterThanOrEqual(10n ** 18n);

    expect(of('lying-balance').symbol).toBe('LIAR');
    // The deployer owns each (every one has Ownable's owner()).
    for (const kind of ['fixed-fee', 'tax', 'decaying-fee', 'max-transfer', 'silent-pause', 'silent-blocklist', 'rebasing', 'lying-balance'] as const) {
      expect(await read(of(kind), fixedFeeTokenAbi as Abi, 'owner')).toBe(ctx.deployer.address);
    }
  });

  it.each(CHAIN_IDS)('chain %i: a sell of a few hundred MAXTX into its pool goes through, one of several thousand reverts', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const maxTx = (chain.testTokens ?? []).find((t) => t.kind === 'max-transfer') ?? fail('no max-transfer token');
    const sell = (whole: string) =>
      ctx.publicClient.simulateContract({ account: trader.address, address: maxTx.address as Address, abi: maxTxTokenAbi, functionName: 'transfer', args: [maxTx.pool as Address, parseUnits(whole, 18)] });
    await expect(sell('300')).resolves.toBeDefined();
    await expect(sell('5000')).rejects.toThrow(/MaxTxExceeded/);
  });

  it.each(CHAIN_IDS)('chain %i: a sell of TAX into its pool pays the sell tax to the deployer, a wallet transfer pays nothing', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const tax = (chain.testTokens ?? []).find((t) => t.kind === 'tax') ?? fail('no tax token');
    const balance = (owner: Address) => ctx.publicClient.readContract({ address: tax.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
    const [pool0, owner0] = await Promise.all([balance(tax.pool as Address), balance(ctx.deployer.address as Address)]);
    await send(ctx, { address: tax.address as Address, abi: erc20Abi as Abi, functionName: 'transfer', args: [tax.pool, parseUnits('100', 18)] }, trader);
    expect((await balance(tax.pool as Address)) - pool0).toBe(parseUnits('93', 18));
    expect((await balance(ctx.deployer.address as Address)) - owner0).toBe(parseUnits('7', 18));
    // Leave the pool as it was seen: the payment becomes part of its reserves.
    await send(ctx, { address: tax.pool as Address, abi: uniswapV2CorePairAbi as Abi, functionName: 'sync' });
    const other = devAccount(3).address;
    const other0 = await balance(other);
    await send(ctx, { address: tax.address as Address, abi: erc20Abi as Abi, functionName: 'transfer', args: [other, parseUnits('10', 18)] }, trader);
    expect((await balance(other)) - other0).toBe(parseUnits('10', 18));
  });

  it.each(CHAIN_IDS)('chain %i: every factory and pool has code, and each factory vouches for its pools', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    for (const source of chain.sources.filter((s) => s.kind === 'uniswap-v2' || s.kind === 'stable')) {
      const factory = source.addresses.factory as Address;
      expect(await ctx.publicClient.getCode({ address: factory })).toMatch(/^0x[0-9a-f]{2,}$/);
      const own = seeded(chain).filter((d) => d.name.startsWith(`${source.name} `));
      expect(own).toHaveLength(2);
      if (DEVNET_SOURCES[chainId].find((s) => s.name === source.name)?.bytecode === 'uniswap/v2-core') {
        // Uniswap's own factory: no fee getter (its pairs charge 0.3%) and no isPair; it vouches through getPair.
        expect(source.feeBps).toBe(30);
        for (const { address } of own) {
          const pair = chain.pools.find((p) => p.address === address)!;
          expect(await ctx.publicClient.readContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'getPair', args: [pair.token1, pair.token0] })).toBe(address);
        }
        continue;
      }
      const factoryAbi = (source.kind === 'uniswap-v2' ? uniswapV2FactoryAbi : stablePoolFactoryAbi) as Abi;
      expect(await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'swapFeeBps' })).toBe(BigInt(source.feeBps ?? -1));
      for (const { address } of own) {
        expect(await ctx.publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]{2,}$/);
        expect(await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'isPair', args: [address] })).toBe(true);
      }
    }
  });

  it.each(CHAIN_IDS)('chain %i: every pool holds non-zero reserves', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    for (const seed of DEVNET_SOURCES[chainId]) {
      for (const p of seed.pools) {
        const [ra, rb] = await reservesOf(ctx, chain, `${seed.name} ${p.tokenA}/${p.tokenB}`, p.tokenA, p.tokenB);
        expect(ra).toBeGreaterThan(0n);
        expect(rb).toBeGreaterThan(0n);
      }
    }
  });

  it.each(CHAIN_IDS)('chain %i: the two V2 DEXes price the wrapped native differently, at different depths', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const wrapped = chain.wrappedNative.symbol;
    const [devNative, devUsd] = await reservesOf(ctx, chain, `DevSwap V2 ${wrapped}/USDC`, wrapped, 'USDC');
    const [liteNative, liteUsd] = await reservesOf(ctx, chain, `LiteSwap V2 ${wrapped}/USDC`, wrapped, 'USDC');
    // Prices in USDC per wrapped native, to 1e-6.
    const devPrice = (devUsd * 1_000_000n) / devNative;
    const litePrice = (liteUsd * 1_000_000n) / liteNative;
    expect(devPrice).not.toBe(litePrice);
    expect(devNative).not.toBe(liteNative);
  });

  it.each(CHAIN_IDS)('chain %i: the stable pools are tilted off their 1:1 deposit', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const [usdc, usdt] = await reservesOf(ctx, chain, 'StableSwap USDC/USDT', 'USDC', 'USDT');
    expect(usdt).toBeGreaterThan(usdc);
    const [usdc2, dai] = await reservesOf(ctx, chain, 'StableSwap USDC/DAI', 'USDC', 'DAI');
    expect(usdc2).toBeGreaterThan(dai);
  });

  it.each(CHAIN_IDS)('chain %i: a DevSwap swap pays exactly the constant-product formula of @dex/routing', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const wrapped = chain.wrappedNative;
    const usdc = tokenBySymbol(chain, 'USDC');
    const { address } = pool(chain, `DevSwap V2 ${wrapped.symbol}/USDC`);
    const read = (functionName: string) => ctx.publicClient.readContract({ address, abi: uniswapV2PairAbi, functionName } as never) as Promise<unknown>;
    const [r0, r1] = (await read('getReserves')) as readonly [bigint, bigint, number];
    const wrappedIsToken0 = ((await read('token0')) as Address).toLowerCase() === wrapped.address.toLowerCase();
    const [reserveIn, reserveOut] = wrappedIsToken0 ? [r0, r1] : [r1, r0];

    const amountIn = parseUnits('3', 18);
    const expected = getAmountOut(amountIn, reserveIn, reserveOut, 30n);
    const before = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });

    await send(ctx, { address: wrapped.address, abi: erc20Abi as Abi, functionName: 'transfer', args: [address, amountIn] }, trader);
    const outs = (amount: bigint) => (wrappedIsToken0 ? [0n, amount] : [amount, 0n]);
    // One unit more than the formula breaks the K check (Uniswap's pair: "UniswapV2: K", the clone: K()); exactly the
    // formula passes.
    const real = DEVNET_SOURCES[chainId].find((s) => s.name === 'DevSwap V2')?.bytecode === 'uniswap/v2-core';
    await expect(
      ctx.publicClient.simulateContract({ account: trader.address, address, abi: uniswapV2PairAbi, functionName: 'swap', args: [...outs(expected + 1n), trader.address, '0x'] as never }),
    ).rejects.toThrow(real ? /UniswapV2: K/ : /K\(\)/);
    await send(ctx, { address, abi: uniswapV2PairAbi as Abi, functionName: 'swap', args: [...outs(expected), trader.address, '0x'] }, trader);

    const after = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
    expect(after - before).toBe(expected);
  });

  it.each(CHAIN_IDS)('chain %i: a StableSwap swap pays the pool’s own quote', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const usdc = tokenBySymbol(chain, 'USDC');
    const dai = tokenBySymbol(chain, 'DAI');
    const { address } = pool(chain, 'StableSwap USDC/DAI');
    const amountIn = parseUnits('1000', 18);
    const quoted = (await ctx.publicClient.readContract({ address, abi: stablePoolAbi, functionName: 'getAmountOut', args: [amountIn, dai.address] })) as bigint;
    // DAI is the scarce side after the tilt: 1,000 DAI buys more than 1,000 USDC.
    expect(quoted).toBeGreaterThan(parseUnits('1000', 6));
    const daiIsToken0 = ((await ctx.publicClient.readContract({ address, abi: stablePoolAbi, functionName: 'token0' })) as Address).toLowerCase() === dai.address.toLowerCase();
    const before = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
    await send(ctx, { address: dai.address, abi: erc20Abi as Abi, functionName: 'transfer', args: [address, amountIn] }, trader);
    await send(ctx, { address, abi: stablePoolAbi as Abi, functionName: 'swap', args: [...(daiIsToken0 ? [0n, quoted] : [quoted, 0n]), trader.address, '0x'] }, trader);
    const after = await ctx.publicClient.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] });
    expect(after - before).toBe(quoted);
  });
});

function fail(message: string): never {
  throw new Error(message);
}
