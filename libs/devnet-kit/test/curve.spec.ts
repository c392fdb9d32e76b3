// Starts both devnet chains for real (anvil), deploys the stages the Curve stage builds on (base tokens, the V2 and
// stable sources, the misbehaving tokens with the rebasing one, the core AMM and its oracle) and the Curve NG sources
// (withCurve), and checks what they left: the StableswapNG and TwocryptoNG factories (Curve's interface, on the
// devnet's Solidity stand-ins) listing the pools they deployed, each pool holding the intended coins, deep and priced
// at the devnet's prices (get_dy of a small amount within 0.5% of the price ratio), the sources and pools as the
// manifest carries them, and RouterV2 registering the sources with its kinds 8 and 9.
import { curveStableSwapFactoryNGStandInAbi, curveStableSwapNGStandInAbi, curveTwocryptoFactoryNGStandInAbi, curveTwocryptoNGStandInAbi, routerV2Abi } from '@dex/abis';
import { ROUTER_V2_SOURCE_KIND } from '@dex/chain';
import { chainSourcesSchema, manifestCurvePoolSchema, type ManifestCurvePool } from '@dex/messages';
import { erc20Abi, formatUnits, parseUnits, type Abi, type Address } from 'viem';
import {
  CURVE_REBASING_SYMBOL,
  DEVNET_CONCENTRATED_SOURCES,
  DEVNET_CURVE_SOURCES,
  DEVNET_CURVE_TOKEN_PRICES_USD,
  DEVNET_PRICES_USD,
  DEVNET_SOURCES,
  DEVNET_UNISWAP_V4_SOURCES,
  LAUNCHPAD_ROUTER_INDEX,
  TWOCRYPTO_CRYPTO_PRESET,
  deployAmm,
  deployBase,
  deployContext,
  deployMisbehavingTokens,
  deployRouter,
  deploySources,
  devAccount,
  send,
  startAnvil,
  withCurve,
  type AnvilNode,
  type ChainInProgress,
  type DeployContext,
} from '../src';

jest.setTimeout(120_000);

const CHAIN_IDS = [999, 4663] as const;

describe('withCurve', () => {
  const nodes: AnvilNode[] = [];
  const chains = new Map<number, ChainInProgress>();
  const contexts = new Map<number, DeployContext>();

  beforeAll(async () => {
    await Promise.all(
      CHAIN_IDS.map(async (chainId) => {
        const node = await startAnvil({ chainId, port: 0 });
        nodes.push(node);
        const ctx = deployContext(chainId, node.rpcUrl);
        contexts.set(chainId, ctx);
        chains.set(chainId, await withCurve(ctx, await deployAmm(ctx, await deployMisbehavingTokens(ctx, await deploySources(ctx, await deployBase(ctx))))));
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  });

  const chainOf = (chainId: number): ChainInProgress => chains.get(chainId)!;
  const ctxOf = (chainId: number): DeployContext => contexts.get(chainId)!;
  const read = <T>(ctx: DeployContext, address: Address, abi: unknown, functionName: string, args: readonly unknown[] = []) =>
    ctx.publicClient.readContract({ address, abi: abi as Abi, functionName, args }) as Promise<T>;
  const sourceOf = (chain: ChainInProgress, kind: 'curve-stableswap-ng' | 'curve-twocrypto-ng') => {
    const source = chain.sources.find((s) => s.kind === kind);
    if (!source) throw new Error(`chain ${chain.chainId} has no ${kind} source`);
    return source;
  };
  const poolsOf = (chain: ChainInProgress, kind: ManifestCurvePool['kind']) => (chain.curvePools ?? []).filter((p) => p.kind === kind);
  /** A token of the chain by address: its symbol and decimals (the misbehaving test tokens among them). */
  const tokenAt = (chain: ChainInProgress, address: string) => {
    const token = [chain.wrappedNative, ...chain.tokens, ...(chain.testTokens ?? [])].find((t) => t.address.toLowerCase() === address.toLowerCase());
    if (!token) throw new Error(`no token at ${address}`);
    return token;
  };
  const symbolsOf = (chain: ChainInProgress, pool: ManifestCurvePool) => pool.coins.map((c) => tokenAt(chain, c).symbol);
  const priceOf = (chainId: number, symbol: string) => Number({ ...DEVNET_PRICES_USD[chainId], ...DEVNET_CURVE_TOKEN_PRICES_USD, [CURVE_REBASING_SYMBOL]: '1' }[symbol]);

  it.each(CHAIN_IDS)('adds the Curve sources and pools to the chain entry of chain %i as the manifest carries them, on free router indexes', async (chainId) => {
    const chain = chainOf(chainId);
    expect(() => chainSourcesSchema.parse(chain.sources)).not.toThrow();
    for (const pool of chain.curvePools ?? []) expect(manifestCurvePoolSchema.parse(pool)).toEqual(pool);
    expect(chain.curvePools).toHaveLength(5);
    const seed = DEVNET_CURVE_SOURCES[chainId];
    const ng = sourceOf(chain, 'curve-stableswap-ng');
    const two = sourceOf(chain, 'curve-twocrypto-ng');
    expect(ng).toMatchObject({ name: 'Curve StableswapNG', routerIndex: seed.stableswap.routerIndex, feeBps: 4 });
    expect(Object.keys(ng.addresses).sort()).toEqual(['factory', 'implementation']);
    expect(two).toMatchObject({ name: 'Curve TwocryptoNG', routerIndex: seed.twocrypto.routerIndex });
    expect(Object.keys(two.addresses).sort()).toEqual(['factory', 'implementation', 'math', 'views']);
    // The router indexes are free: no other devnet source (core 0, the V2 and stable ones, the launchpad, the
    // concentrated and V4 ones) takes them.
    const others = [0, LAUNCHPAD_ROUTER_INDEX, ...DEVNET_SOURCES[chainId].map((s) => s.routerIndex), ...DEVNET_CONCENTRATED_SOURCES[chainId].map((s) => s.routerIndex), DEVNET_UNISWAP_V4_SOURCES[chainId].routerIndex];
    expect(others).not.toContain(ng.routerIndex);
    expect(others).not.toContain(two.routerIndex);
    expect(ng.routerIndex).not.toBe(two.routerIndex);
    // The blueprints hold the EIP-5202 preamble; every contract listed has code.
    for (const address of [ng.addresses.implementation, two.addresses.implementation]) {
      expect((await ctxOf(chainId).publicClient.getCode({ address: address as Address }))?.slice(0, 8)).toBe('0xfe7100');
    }
    // The extra stablecoin is a token of the chain, granted to the dev accounts like the others and priced on the oracle.
    const crvUsd = chain.tokens.find((t) => t.symbol === 'crvUSD');
    expect(crvUsd).toMatchObject({ decimals: 18 });
    expect(await read<bigint>(ctxOf(chainId), crvUsd!.address as Address, erc20Abi, 'balanceOf', [devAccount(2).address])).toBe(parseUnits('1000000', 18));
  });

  it.each(CHAIN_IDS)('the StableswapNG factory of chain %i lists its pools, each of the intended coins, A and fee', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const factory = sourceOf(chain, 'curve-stableswap-ng').addresses.factory as Address;
    const pools = poolsOf(chain, 'curve-stableswap-ng');
    const seeds = DEVNET_CURVE_SOURCES[chainId].stableswap.pools;
    expect(pools.map((p) => symbolsOf(chain, p))).toEqual(seeds.map((s) => s.coins));
    expect(await read<bigint>(ctx, factory, curveStableSwapFactoryNGStandInAbi, 'pool_count')).toBe(BigInt(pools.length));
    for (const [i, pool] of pools.entries()) {
      expect(await read<Address>(ctx, factory, curveStableSwapFactoryNGStandInAbi, 'pool_list', [BigInt(i)])).toBe(pool.address);
      expect(await read<Address[]>(ctx, factory, curveStableSwapFactoryNGStandInAbi, 'get_coins', [pool.address])).toEqual(pool.coins);
      const coins = await Promise.all(pool.coins.map((_, k) => read<Address>(ctx, pool.address, curveStableSwapNGStandInAbi, 'coins', [BigInt(k)])));
      expect(coins).toEqual(pool.coins);
      expect(await read<bigint>(ctx, pool.address, curveStableSwapNGStandInAbi, 'A')).toBe(BigInt(seeds[i].A));
      expect(await read<bigint>(ctx, pool.address, curveStableSwapNGStandInAbi, 'fee')).toBe(BigInt(seeds[i].fee));
      // The rebasing coin's pool says so (asset type 2); the others are standard coins.
      const types = await read<number[]>(ctx, factory, curveStableSwapFactoryNGStandInAbi, 'get_pool_asset_types', [pool.address]);
      expect(types).toEqual(pool.coins.map((c) => (tokenAt(chain, c).symbol === CURVE_REBASING_SYMBOL ? 2 : 0)));
      expect(pool.assetTypes ?? pool.coins.map(() => 0)).toEqual(types);
    }
  });

  it.each(CHAIN_IDS)('the TwocryptoNG factory of chain %i lists its pool of the wrapped native against USDC, at the devnet price', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const source = sourceOf(chain, 'curve-twocrypto-ng');
    const factory = source.addresses.factory as Address;
    const [pool, ...others] = poolsOf(chain, 'curve-twocrypto-ng');
    expect(others).toEqual([]);
    expect(symbolsOf(chain, pool)).toEqual(['USDC', chain.wrappedNative.symbol]);
    expect(await read<bigint>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'pool_count')).toBe(1n);
    expect(await read<Address>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'pool_list', [0n])).toBe(pool.address);
    expect(await read<Address[]>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'get_coins', [pool.address])).toEqual(pool.coins);
    expect(await read<Address>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'math_implementation')).toBe(source.addresses.math);
    expect(await read<Address>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'views_implementation')).toBe(source.addresses.views);
    expect(await read<Address>(ctx, factory, curveTwocryptoFactoryNGStandInAbi, 'pool_implementations', [0n])).toBe(source.addresses.implementation);
    expect([await read<Address>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'coins', [0n]), await read<Address>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'coins', [1n])]).toEqual(pool.coins);
    expect(await read<bigint>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'A')).toBe(BigInt(TWOCRYPTO_CRYPTO_PRESET.A));
    expect(await read<bigint>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'gamma')).toBe(BigInt(TWOCRYPTO_CRYPTO_PRESET.gamma));
    expect(await read<bigint>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'mid_fee')).toBe(BigInt(TWOCRYPTO_CRYPTO_PRESET.midFee));
    // price_scale: the wrapped native's price in USDC, 1e18 precision.
    const price = priceOf(chainId, chain.wrappedNative.symbol);
    expect(await read<bigint>(ctx, pool.address, curveTwocryptoNGStandInAbi, 'price_scale')).toBe(parseUnits(String(price), 18));
  });

  it.each(CHAIN_IDS)('every Curve pool of chain %i is $1M+ deep a coin and quotes a small swap within 0.5%% of the devnet price ratio', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    for (const pool of chain.curvePools ?? []) {
      const coins = pool.coins.map((c) => tokenAt(chain, c));
      const stable = pool.kind === 'curve-stableswap-ng';
      const abi = stable ? curveStableSwapNGStandInAbi : curveTwocryptoNGStandInAbi;
      for (const [i, coin] of coins.entries()) {
        const held = await read<bigint>(ctx, pool.address, abi, 'balances', [BigInt(i)]);
        expect(Number(formatUnits(held, coin.decimals)) * priceOf(chainId, coin.symbol)).toBeGreaterThan(999_000);
      }
      for (const [i, a] of coins.entries()) {
        for (const [j, b] of coins.entries()) {
          if (i === j) continue;
          // $100 of coin i.
          const dx = parseUnits((100 / priceOf(chainId, a.symbol)).toFixed(a.decimals > 8 ? 8 : a.decimals), a.decimals);
          const dy = await read<bigint>(ctx, pool.address, abi, 'get_dy', [BigInt(i), BigInt(j), dx]);
          const got = Number(formatUnits(dy, b.decimals)) * priceOf(chainId, b.symbol);
          const sent = Number(formatUnits(dx, a.decimals)) * priceOf(chainId, a.symbol);
          expect({ pool: pool.name, i, j, within: Math.abs(got / sent - 1) < 0.005 }).toEqual({ pool: pool.name, i, j, within: true });
        }
      }
    }
  });

  it.each(CHAIN_IDS)('a trader swaps through the StableswapNG and TwocryptoNG pools of chain %i for get_dy', async (chainId) => {
    const chain = chainOf(chainId);
    const ctx = ctxOf(chainId);
    const trader = devAccount(2);
    // The pools of standard coins (a rebasing coin's transfer may deliver a unit less than sent).
    for (const pool of (chain.curvePools ?? []).filter((p) => !p.assetTypes)) {
      const stable = pool.kind === 'curve-stableswap-ng';
      const abi = (stable ? curveStableSwapNGStandInAbi : curveTwocryptoNGStandInAbi) as Abi;
      const [tokenIn, tokenOut] = [tokenAt(chain, pool.coins[0]), tokenAt(chain, pool.coins[1])];
      const dx = parseUnits('1000', tokenIn.decimals);
      const quoted = await read<bigint>(ctx, pool.address, abi, 'get_dy', [0n, 1n, dx]);
      const before = await read<bigint>(ctx, tokenOut.address as Address, erc20Abi, 'balanceOf', [trader.address]);
      await send(ctx, { address: tokenIn.address as Address, abi: erc20Abi as Abi, functionName: 'approve', args: [pool.address, dx] }, trader);
      await send(ctx, { address: pool.address, abi, functionName: 'exchange', args: [0n, 1n, dx, quoted] }, trader);
      expect((await read<bigint>(ctx, tokenOut.address as Address, erc20Abi, 'balanceOf', [trader.address])) - before).toBe(quoted);
    }
  });

  it.each(CHAIN_IDS)('RouterV2 of chain %i registers the Curve sources with kinds 8 and 9', async (chainId) => {
    const ctx = ctxOf(chainId);
    const chain = await deployRouter(ctx, chainOf(chainId));
    expect([ROUTER_V2_SOURCE_KIND['curve-stableswap-ng'], ROUTER_V2_SOURCE_KIND['curve-twocrypto-ng']]).toEqual([8, 9]);
    for (const kind of ['curve-stableswap-ng', 'curve-twocrypto-ng'] as const) {
      // deployRouter leaves out a Curve source (and its pools) that the router refuses: a RouterV2 without the Curve kinds.
      const source = chain.sources.find((s) => s.kind === kind);
      expect({ kind, registered: source !== undefined }).toEqual({ kind, registered: true });
      const registered = await read<{ kind: number; factory: Address; feeBps: number }>(ctx, chain.routerV2, routerV2Abi, 'getSource', [source!.routerIndex]);
      expect(registered).toEqual({ kind: ROUTER_V2_SOURCE_KIND[kind], factory: source!.addresses.factory, feeBps: source!.feeBps ?? 0 });
    }
    expect(chain.curvePools).toEqual(chainOf(chainId).curvePools);
  });
});
