// Curve's NG pools on the devnet. Curve's pools and factories are Vyper and no installable package ships their
// bytecode, so the devnet runs the Solidity stand-ins of libs/contracts/src/devnet/curve (Curve's external interface and
// integer maths, not Curve's code): a StableswapNG factory with its pool blueprint, and a TwocryptoNG factory with its
// pool blueprint, maths and views. The factories are set up as Curve's are (implementations registered by the admin,
// the deployer), the pools are deployed through them (so the factories list them and emit PlainPoolDeployed and
// TwocryptoPoolDeployed, which the indexer finds them by) and seeded from the deployer at the devnet's prices:
// StableswapNG pools of two, three and four stablecoins and one holding a rebasing coin (asset type 2), and a
// TwocryptoNG pool of the wrapped native token against USDC at its devnet price.
import {
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapFactoryNGStandInBytecode,
  curveStableSwapNGStandInAbi,
  curveStableSwapNGStandInBytecode,
  curveTwocryptoFactoryNGStandInAbi,
  curveTwocryptoFactoryNGStandInBytecode,
  curveTwocryptoMathNGStandInAbi,
  curveTwocryptoMathNGStandInBytecode,
  curveTwocryptoNGStandInAbi,
  curveTwocryptoNGStandInBytecode,
  curveTwocryptoViewNGStandInAbi,
  curveTwocryptoViewNGStandInBytecode,
  settablePriceOracleAbi,
  testERC20Abi,
  testERC20Bytecode,
  wrappedNativeAbi,
} from '@dex/abis';
import { blueprintCreationCode } from '@dex/chain';
import type { ManifestCurvePool, SourceConfig } from '@dex/messages';
import { getAddress, maxUint256, parseAbi, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { devAccounts, type DevAccount } from './accounts';
import { DEVNET_PRICES_USD } from './amm';
import { DEV_TOKEN_GRANT, deploy, send, type ChainInProgress, type DeployContext, type TokenSpec } from './deploy';

/** StableswapNG's asset types: how a pool reads a coin's balance and rate. */
export const CURVE_ASSET_TYPE = { standard: 0, oracle: 1, rebasing: 2, erc4626: 3 } as const;
export type CurveAssetType = keyof typeof CURVE_ASSET_TYPE;

/** A StableswapNG pool to deploy: its coins (symbols), asset types, parameters (NG's units) and USD per coin side. */
export interface CurveStableswapPoolSeed {
  /** The LP token's symbol (at most 10 bytes); the name is `Curve <coins>`. */
  readonly symbol: string;
  readonly coins: readonly string[];
  /** Each coin's asset type; every coin standard when absent. */
  readonly assetTypes?: readonly CurveAssetType[];
  /** The amplification coefficient (without NG's A_PRECISION). */
  readonly A: number;
  /** The swap fee, 1e10 precision (4000000: 0.04%). */
  readonly fee: number;
  /** The off-peg fee multiplier, 1e10 precision (20000000000: 2x). */
  readonly offpegFeeMultiplier: number;
  /** The price oracles' averaging window (NG's `ma_exp_time`). */
  readonly maExpTime: number;
  /** The USD value of each coin deposited. */
  readonly depthUsd: number;
}

/** A TwocryptoNG pool to deploy: its two coins (symbols), parameters (Curve's units) and USD per coin side. */
export interface CurveTwocryptoPoolSeed {
  /** The LP token's symbol (at most 32 bytes); the name is `Curve <coin0>/<coin1>`. */
  readonly symbol: string;
  /** coin0 and coin1. The initial price (price_scale) is coin1's price in coin0, from the devnet's USD prices. */
  readonly coins: readonly [string, string];
  /** Curve's units (A times N^N times 10,000; the rest 1e18 or 1e10 precision), as numbers: the seeds are hashed as JSON. */
  readonly A: number;
  readonly gamma: number;
  readonly midFee: number;
  readonly outFee: number;
  readonly feeGamma: number;
  readonly allowedExtraProfit: number;
  readonly adjustmentStep: number;
  readonly maTime: number;
  /** The USD value of each coin deposited. */
  readonly depthUsd: number;
}

/** The Curve sources of a chain: a StableswapNG factory and a TwocryptoNG factory, each with its pools. */
export interface CurveSourcesSeed {
  readonly stableswap: { readonly name: string; readonly routerIndex: number; readonly feeBps: number; readonly pools: readonly CurveStableswapPoolSeed[] };
  readonly twocrypto: { readonly name: string; readonly routerIndex: number; readonly pools: readonly CurveTwocryptoPoolSeed[] };
}

/**
 * Stablecoins the Curve stage adds to the chain's test tokens (so a four-coin pool has four stables): a TestERC20
 * each, granted to the dev accounts as `deployBase` grants its tokens, priced at `DEVNET_CURVE_TOKEN_PRICES_USD` on the
 * core oracle.
 */
export const DEVNET_CURVE_TOKENS: readonly TokenSpec[] = [{ name: 'Curve.Fi USD Stablecoin', symbol: 'crvUSD', decimals: 18 }];

/** The USD prices of the Curve stage's tokens, set on the core oracle beside `DEVNET_PRICES_USD`. */
export const DEVNET_CURVE_TOKEN_PRICES_USD: Readonly<Record<string, string>> = { crvUSD: '1' };

/**
 * The rebasing coin of the Curve stage's rebasing pool: the misbehaving tokens' `rebasing` test token (a RebasingToken,
 * balances growing 10% a day from $1 at deployment), which `deployMisbehavingTokens` must have deployed before.
 */
export const CURVE_REBASING_SYMBOL = 'REBASE';

/** The StableswapNG parameters of the devnet's stable pools: 0.04% fee, 2x off-peg multiplier, NG's default window. */
export const NG_FEE = 4_000_000;
export const NG_OFFPEG = 20_000_000_000;
export const NG_MA_EXP_TIME = 866;

/** Curve's TwocryptoNG defaults for a volatile pair (the repository's "crypto" preset). */
export const TWOCRYPTO_CRYPTO_PRESET = {
  A: 400_000,
  gamma: 145_000_000_000_000,
  midFee: 26_000_000,
  outFee: 45_000_000,
  feeGamma: 230_000_000_000_000,
  allowedExtraProfit: 2_000_000_000_000,
  adjustmentStep: 146_000_000_000_000,
  maTime: 866,
} as const;

const STABLESWAP_POOLS: readonly CurveStableswapPoolSeed[] = [
  { symbol: 'USDCUSDT', coins: ['USDC', 'USDT'], A: 200, fee: NG_FEE, offpegFeeMultiplier: NG_OFFPEG, maExpTime: NG_MA_EXP_TIME, depthUsd: 2_000_000 },
  { symbol: '3pool', coins: ['USDC', 'USDT', 'DAI'], A: 500, fee: NG_FEE, offpegFeeMultiplier: NG_OFFPEG, maExpTime: NG_MA_EXP_TIME, depthUsd: 1_500_000 },
  { symbol: '4pool', coins: ['USDC', 'USDT', 'DAI', 'crvUSD'], A: 1000, fee: NG_FEE, offpegFeeMultiplier: NG_OFFPEG, maExpTime: NG_MA_EXP_TIME, depthUsd: 1_000_000 },
  {
    symbol: 'REBASEUSDC',
    coins: ['USDC', CURVE_REBASING_SYMBOL],
    assetTypes: ['standard', 'rebasing'],
    A: 100,
    fee: NG_FEE,
    offpegFeeMultiplier: NG_OFFPEG,
    maExpTime: NG_MA_EXP_TIME,
    depthUsd: 1_000_000,
  },
];

/**
 * The devnet's Curve sources per chain, after the V4 source (routerIndex 8): Curve StableswapNG (9) and Curve
 * TwocryptoNG (10). The stable pools are the same on both chains; the TwocryptoNG pool trades the chain's wrapped
 * native against USDC. Each pool holds $1M to $2M of each coin, at the devnet's prices.
 */
export const DEVNET_CURVE_SOURCES: Record<number, CurveSourcesSeed> = {
  999: {
    stableswap: { name: 'Curve StableswapNG', routerIndex: 9, feeBps: 4, pools: STABLESWAP_POOLS },
    twocrypto: { name: 'Curve TwocryptoNG', routerIndex: 10, pools: [{ symbol: 'crvUSDCWHYPE', coins: ['USDC', 'WHYPE'], ...TWOCRYPTO_CRYPTO_PRESET, depthUsd: 1_500_000 }] },
  },
  4663: {
    stableswap: { name: 'Curve StableswapNG', routerIndex: 9, feeBps: 4, pools: STABLESWAP_POOLS },
    twocrypto: { name: 'Curve TwocryptoNG', routerIndex: 10, pools: [{ symbol: 'crvUSDCWETH', coins: ['USDC', 'WETH'], ...TWOCRYPTO_CRYPTO_PRESET, depthUsd: 1_500_000 }] },
  },
};

/**
 * TwocryptoNG's `deploy_pool`. The stand-in factory serves it from its fallback (Solidity's legacy code generator
 * cannot decode its thirteen parameters), so it is not in the factory's generated ABI.
 */
export const curveTwocryptoDeployPoolAbi = parseAbi([
  'function deploy_pool(string _name, string _symbol, address[2] _coins, uint256 implementation_id, uint256 A, uint256 gamma, uint256 mid_fee, uint256 out_fee, uint256 fee_gamma, uint256 allowed_extra_profit, uint256 adjustment_step, uint256 ma_exp_time, uint256 initial_price) returns (address)',
]);

/** A pool the Curve stage deployed, as the manifest lists it. */
export type DevnetCurvePool = ManifestCurvePool;

/** What the Curve stage deployed on a chain. */
export interface DevnetCurve {
  readonly sources: readonly SourceConfig[];
  readonly pools: readonly DevnetCurvePool[];
  /** The test tokens it added (`DEVNET_CURVE_TOKENS`). */
  readonly tokens: ChainInProgress['tokens'];
  readonly deployments: ChainInProgress['deployments'];
}

/** A coin of a Curve pool: its address, decimals, USD price and how it is funded. */
interface CurveCoin {
  readonly symbol: string;
  readonly address: Address;
  readonly decimals: number;
  readonly priceUsd: number;
  readonly wrapped: boolean;
}

/** Deploys an EIP-5202 blueprint of `initcode`; returns its address. */
export async function deployBlueprint(ctx: DeployContext, initcode: Hex): Promise<Address> {
  const hash = await ctx.wallet.sendTransaction({ data: blueprintCreationCode(initcode) } as never);
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`blueprint deployment failed on chain ${ctx.chainId} (tx ${hash})`);
  return getAddress(receipt.contractAddress);
}

/** Whole-token amount worth `usd` of a coin, in its base units (eight significant digits). */
const amountWorth = (coin: CurveCoin, usd: number): bigint => parseUnits(Number((usd / coin.priceUsd).toPrecision(8)).toString(), coin.decimals);

/** The chain entry with the Curve sources' deployment added: their tokens, sources, contracts and pools. */
export async function withCurve(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const curve = await deployCurve(ctx, chain);
  if (!curve) return chain;
  return {
    ...chain,
    tokens: [...chain.tokens, ...curve.tokens],
    sources: [...chain.sources, ...curve.sources],
    deployments: [...chain.deployments, ...curve.deployments],
    curvePools: [...(chain.curvePools ?? []), ...curve.pools],
  };
}

/**
 * Deploys the chain's Curve sources (`DEVNET_CURVE_SOURCES`): the extra stablecoins (`DEVNET_CURVE_TOKENS`, granted
 * to the dev accounts and priced on the core oracle when the chain has one), the StableswapNG factory (admin: the
 * deployer, fee receiver: the treasury) with the stand-in pool's blueprint at implementation index 0, the TwocryptoNG
 * factory (initialised by the deployer, as Curve's is by its deployer) with the pool blueprint at implementation id 0,
 * the maths and the views; deploys the pools through the factories and adds their liquidity from the deployer (test
 * tokens minted, the wrapped native wrapped for the purpose, so the deployer's own grants stay as `deployBase` left
 * them; the LP tokens go to the deployer).
 */
export async function deployCurve(ctx: DeployContext, chain: ChainInProgress, accounts: readonly DevAccount[] = devAccounts()): Promise<DevnetCurve | undefined> {
  const seed = DEVNET_CURVE_SOURCES[ctx.chainId];
  if (!seed) return undefined;
  const deployer = ctx.deployer.address;
  const treasury = accounts.find((a) => a.role === 'treasury')?.address ?? deployer;

  // The extra stablecoins, granted to every dev account and priced on the core oracle.
  const tokens: ChainInProgress['tokens'] = [];
  for (const spec of DEVNET_CURVE_TOKENS) {
    if ([chain.wrappedNative, ...chain.tokens].some((t) => t.symbol === spec.symbol)) continue;
    const address = await deploy(ctx, testERC20Abi as Abi, testERC20Bytecode, [spec.name, spec.symbol, spec.decimals]);
    for (const account of accounts) {
      await send(ctx, { address, abi: testERC20Abi as Abi, functionName: 'mint', args: [account.address, parseUnits(DEV_TOKEN_GRANT.toString(), spec.decimals)] });
    }
    tokens.push({ ...spec, address });
  }
  if (chain.core && tokens.length > 0) {
    await send(ctx, {
      address: chain.core.oracle,
      abi: settablePriceOracleAbi as Abi,
      functionName: 'setPrices',
      args: [tokens.map((t) => t.address), tokens.map((t) => parseUnits(DEVNET_CURVE_TOKEN_PRICES_USD[t.symbol] ?? '1', 18))],
    });
  }

  const prices: Record<string, string> = { ...DEVNET_PRICES_USD[ctx.chainId], ...DEVNET_CURVE_TOKEN_PRICES_USD, [CURVE_REBASING_SYMBOL]: '1' };
  const known = [
    { ...chain.wrappedNative, wrapped: true },
    ...[...chain.tokens, ...tokens, ...(chain.testTokens ?? [])].map((t) => ({ ...t, wrapped: false })),
  ];
  const coin = (symbol: string): CurveCoin => {
    const found = known.find((t) => t.symbol === symbol);
    const priceUsd = Number(prices[symbol]);
    if (!found) throw new Error(`devnet Curve sources: chain ${ctx.chainId} has no token ${symbol}${symbol === CURVE_REBASING_SYMBOL ? ' (the misbehaving tokens deploy it)' : ''}`);
    if (!(priceUsd > 0)) throw new Error(`devnet Curve sources: no devnet price for ${symbol}`);
    return { symbol, address: getAddress(found.address), decimals: found.decimals, priceUsd, wrapped: found.wrapped };
  };

  /** Puts `amount` of the coin in the deployer's hands and lets `pool` take it. */
  const fund = async (c: CurveCoin, amount: bigint, pool: Address) => {
    if (c.wrapped) await send(ctx, { address: c.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: amount });
    // TestERC20 and the rebasing test token mint alike (owner only: the deployer).
    else await send(ctx, { address: c.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [deployer, amount] });
    await send(ctx, { address: c.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [pool, maxUint256] });
  };

  const sources: SourceConfig[] = [];
  const deployments: ChainInProgress['deployments'] = [...tokens.map((t) => ({ name: t.symbol, contract: 'TestERC20', address: t.address }))];
  const pools: DevnetCurvePool[] = [];

  // StableswapNG: the factory, the pool blueprint at implementation index 0, then the pools.
  {
    const s = seed.stableswap;
    const factoryAbi = curveStableSwapFactoryNGStandInAbi as Abi;
    const factory = await deploy(ctx, factoryAbi, curveStableSwapFactoryNGStandInBytecode, [treasury, deployer]);
    const implementation = await deployBlueprint(ctx, curveStableSwapNGStandInBytecode);
    await send(ctx, { address: factory, abi: factoryAbi, functionName: 'set_pool_implementations', args: [0n, implementation] });
    sources.push({ name: s.name, kind: 'curve-stableswap-ng', routerIndex: s.routerIndex, addresses: { factory, implementation }, feeBps: s.feeBps });
    deployments.push(
      { name: `${s.name} Factory`, contract: 'CurveStableSwapFactoryNGStandIn', address: factory },
      { name: `${s.name} Pool Blueprint`, contract: 'CurveStableSwapNGStandIn', address: implementation },
    );
    for (const p of s.pools) {
      const coins = p.coins.map(coin);
      const assetTypes = coins.map((_, i) => CURVE_ASSET_TYPE[p.assetTypes?.[i] ?? 'standard']);
      const name = `Curve ${p.coins.join('/')}`;
      await send(ctx, {
        address: factory,
        abi: factoryAbi,
        functionName: 'deploy_plain_pool',
        args: [name, p.symbol, coins.map((c) => c.address), BigInt(p.A), BigInt(p.fee), BigInt(p.offpegFeeMultiplier), BigInt(p.maExpTime), 0n, assetTypes, coins.map(() => '0x00000000'), coins.map(() => zeroAddress)],
      });
      const count = (await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'pool_count' })) as bigint;
      const pool = getAddress((await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'pool_list', args: [count - 1n] })) as Address);
      const amounts = coins.map((c) => amountWorth(c, p.depthUsd));
      for (const [i, c] of coins.entries()) await fund(c, amounts[i], pool);
      await send(ctx, { address: pool, abi: curveStableSwapNGStandInAbi as Abi, functionName: 'add_liquidity', args: [amounts, 0n] });
      const poolName = `${s.name} ${p.coins.join('/')}`;
      deployments.push({ name: poolName, contract: 'CurveStableSwapNGStandIn', address: pool });
      pools.push({
        name: poolName,
        routerIndex: s.routerIndex,
        kind: 'curve-stableswap-ng',
        address: pool,
        coins: coins.map((c) => c.address),
        ...(assetTypes.some((t) => t !== 0) ? { assetTypes } : {}),
      });
    }
  }

  // TwocryptoNG: the factory (initialised by its deployer), the pool blueprint at implementation id 0, maths, views.
  {
    const s = seed.twocrypto;
    const factoryAbi = curveTwocryptoFactoryNGStandInAbi as Abi;
    const factory = await deploy(ctx, factoryAbi, curveTwocryptoFactoryNGStandInBytecode);
    await send(ctx, { address: factory, abi: factoryAbi, functionName: 'initialise_ownership', args: [treasury, deployer] });
    const implementation = await deployBlueprint(ctx, curveTwocryptoNGStandInBytecode);
    const math = await deploy(ctx, curveTwocryptoMathNGStandInAbi as Abi, curveTwocryptoMathNGStandInBytecode);
    const views = await deploy(ctx, curveTwocryptoViewNGStandInAbi as Abi, curveTwocryptoViewNGStandInBytecode);
    await send(ctx, { address: factory, abi: factoryAbi, functionName: 'set_pool_implementation', args: [implementation, 0n] });
    await send(ctx, { address: factory, abi: factoryAbi, functionName: 'set_math_implementation', args: [math] });
    await send(ctx, { address: factory, abi: factoryAbi, functionName: 'set_views_implementation', args: [views] });
    sources.push({ name: s.name, kind: 'curve-twocrypto-ng', routerIndex: s.routerIndex, addresses: { factory, implementation, math, views } });
    deployments.push(
      { name: `${s.name} Factory`, contract: 'CurveTwocryptoFactoryNGStandIn', address: factory },
      { name: `${s.name} Pool Blueprint`, contract: 'CurveTwocryptoNGStandIn', address: implementation },
      { name: `${s.name} Math`, contract: 'CurveTwocryptoMathNGStandIn', address: math },
      { name: `${s.name} Views`, contract: 'CurveTwocryptoViewNGStandIn', address: views },
    );
    for (const p of s.pools) {
      const [c0, c1] = p.coins.map(coin);
      // price_scale: coin1's price in coin0, 1e18 precision (a USDC/WETH pool at $3,000 is 3000e18).
      const initialPrice = parseUnits((c1.priceUsd / c0.priceUsd).toPrecision(12), 18);
      const name = `Curve ${p.coins.join('/')}`;
      await send(ctx, {
        address: factory,
        abi: curveTwocryptoDeployPoolAbi as Abi,
        functionName: 'deploy_pool',
        args: [name, p.symbol, [c0.address, c1.address], 0n, ...[p.A, p.gamma, p.midFee, p.outFee, p.feeGamma, p.allowedExtraProfit, p.adjustmentStep, p.maTime].map(BigInt), initialPrice],
      });
      const count = (await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'pool_count' })) as bigint;
      const pool = getAddress((await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'pool_list', args: [count - 1n] })) as Address);
      const amounts = [amountWorth(c0, p.depthUsd), amountWorth(c1, p.depthUsd)];
      await fund(c0, amounts[0], pool);
      await fund(c1, amounts[1], pool);
      await send(ctx, { address: pool, abi: curveTwocryptoNGStandInAbi as Abi, functionName: 'add_liquidity', args: [amounts, 0n] });
      const poolName = `${s.name} ${p.coins.join('/')}`;
      deployments.push({ name: poolName, contract: 'CurveTwocryptoNGStandIn', address: pool });
      pools.push({ name: poolName, routerIndex: s.routerIndex, kind: 'curve-twocrypto-ng', address: pool, coins: [c0.address, c1.address] });
    }
  }

  return { sources, pools, tokens, deployments };
}
