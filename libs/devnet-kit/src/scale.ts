// The devnet's scale profile: thousands of pools across the V2, stable, core, concentrated and Uniswap V4 sources and
// hundreds of tokens on top of the ordinary devnet, so the liquidity state, the indexer and the route search meet a
// real chain's numbers. A ScaleSeeder contract creates the tokens and seeds the V2 and stable pools many per
// transaction; core pools go through the ordinary `deployCorePool`; Uniswap V3 and Algebra pools are created by
// their factories and seeded through the PositionMinter like the ordinary devnet's; Uniswap V4 pools are initialized
// in the devnet's PoolManager and seeded through its V4PositionMinter; Curve StableswapNG and TwocryptoNG pools are
// deployed through the devnet's Curve factories (the ordinary devnet's Curve stage) and seeded from the deployer.
// Transactions are sent back to back (nonces counted here, gas given) and their receipts checked at the end of each
// stage.
import {
  algebraFactoryAbi,
  algebraPoolAbi,
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapNGStandInAbi,
  curveTwocryptoFactoryNGStandInAbi,
  curveTwocryptoNGStandInAbi,
  poolManagerAbi,
  positionMinterAbi,
  scaleSeederAbi,
  scaleSeederBytecode,
  settablePriceOracleAbi,
  stablePoolFactoryAbi,
  stateViewAbi,
  testERC20Abi,
  uniswapV2FactoryAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
  v4PositionMinterAbi,
} from '@dex/abis';
import type { ManifestChain } from '@dex/messages';
import { encodeFunctionData, formatUnits, getAddress, maxUint256, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { DEVNET_PRICES_USD, deployCorePool } from './amm';
import { V3_FEE_TIERS, liquidityForDepth, positionAmounts, positionRanges, sqrtPriceX96At } from './concentrated';
import { NG_FEE, NG_MA_EXP_TIME, NG_OFFPEG, TWOCRYPTO_CRYPTO_PRESET, curveTwocryptoDeployPoolAbi } from './curve';
import { deploy, type DeployContext } from './deploy';
import { Random } from './random';
import { DYNAMIC_FEE_FLAG, poolIdOf, type DevnetHookName, type PoolKey } from './uniswap-v4';

export interface ScaleProfile {
  /** Pools to add across the V2, stable, core, concentrated (V3, Algebra), Uniswap V4 and Curve NG sources. */
  readonly pools: number;
  /** Test tokens to create. */
  readonly tokens: number;
  /** Seed of the random choices (pairs, prices, depths). */
  readonly seed?: number;
  /** Accounts funded with every scale token, for the scale trader. */
  readonly traders?: readonly Address[];
}

export interface ScaleToken {
  readonly address: Address;
  readonly symbol: string;
  readonly decimals: number;
  /** The token's price in USD (18 decimals), as the oracle knows it. */
  readonly priceUsd: bigint;
}

export interface ScalePool {
  /**
   * The pool's contract. A Uniswap V4 pool has none of its own: this is the PoolManager holding it (the contract
   * RouterV2's swap goes to, as a route's `pool`), shared by every V4 pool; `poolId` names the pool.
   */
  readonly address: Address;
  readonly kind: 'uniswap-v2' | 'stable' | 'core' | 'uniswap-v3' | 'algebra' | 'uniswap-v4' | 'curve-stableswap-ng' | 'curve-twocrypto-ng';
  readonly routerIndex: number;
  /**
   * The tokens in the pool's order; for a V4 pool of the native coin, the wrapped native token names the coin. A Curve
   * pool's are its coins 0 and 1 (`coins` has them all).
   */
  readonly token0: Address;
  readonly token1: Address;
  /** Curve pools only: the pool's coins by index (`coins(i)`; two to four of them), what `get_dy`'s i and j index. */
  readonly coins?: readonly Address[];
  /**
   * Concentrated and V4 pools only: the fee in hundredths of a basis point (a V4 pool's key fee: DYNAMIC_FEE_FLAG
   * for a dynamic-fee pool, whose LP fee its hook sets) and the tick spacing.
   */
  readonly fee?: number;
  readonly tickSpacing?: number;
  /** Uniswap V4 pools only: the PoolId (keccak256 of the key), what identifies the pool. */
  readonly poolId?: Hex;
  /** Uniswap V4 pools only: the key's currencies (address(0) the native coin) and hooks (address(0): none). */
  readonly currency0?: Address;
  readonly currency1?: Address;
  readonly hooks?: Address;
  /** Uniswap V4 pools only: the devnet hook the pool has, by name; absent: no hook. */
  readonly hook?: DevnetHookName;
}

export interface ScaleDeployment {
  readonly seeder: Address;
  readonly tokens: readonly ScaleToken[];
  readonly pools: readonly ScalePool[];
}

/** Pools per ScaleSeeder transaction (a V2 pair with its deposit costs about 2.3M gas). */
const POOLS_PER_TX = 10;
const TOKENS_PER_TX = 20;
const TX_GAS = 29_000_000n;
/** Whole tokens minted of each scale token. */
const SUPPLY_WHOLE = 10n ** 15n;

/** Blocks mined at most to empty the pool of one `sendAll` (each takes what fits in the block's gas). */
const MAX_BLOCKS_PER_BATCH = 10_000;

/** The Uniswap V4 pools' share of the concentrated pools. */
const V4_SHARE = 0.4;
/** The V4 pools' fees and tick spacings: V3's tiers, and two that only V4 allows (a tier on another spacing, a new fee). */
const V4_FEE_TIERS: readonly { readonly fee: number; readonly tickSpacing: number }[] = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10_000, tickSpacing: 200 },
  { fee: 3000, tickSpacing: 10 },
  { fee: 2500, tickSpacing: 50 },
];
/** Gas of a V4 pool's initialization (the dynamic-fee hook's afterInitialize included) and of its five positions. */
const V4_INITIALIZE_GAS = 1_000_000n;
const V4_POSITIONS_GAS = 3_000_000n;

/** The Curve pools' share of the profile's pools, and the TwocryptoNG pools' share of those. */
const CURVE_SHARE = 1 / 50;
const TWOCRYPTO_SHARE = 0.1;
/** The StableswapNG pools' coin counts, in turn: seven in ten of two coins, two of three, one of four. */
const STABLESWAP_COINS = [2, 3, 4, 2, 2, 2, 3, 2, 2, 2] as const;
/** The StableswapNG pools' amplification coefficients (one drawn per pool). */
const STABLESWAP_A = [100, 200, 500, 1000] as const;
/** Gas of a Curve factory's pool deployment (4.3M to 4.7M used, two to four coins) and of a pool's first deposit (0.24M to 0.37M). */
const CURVE_DEPLOY_GAS = 6_000_000n;
const CURVE_ADD_LIQUIDITY_GAS = 1_000_000n;
/** How far from $1 the scale stablecoins are priced (each drawn in 1 ± this). */
const STABLECOIN_SPREAD = 0.002;

/** A transaction of a `sendAll` batch: the call, and its gas (TX_GAS unless given) and native value. */
interface BatchCall {
  readonly to: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args: readonly unknown[];
  readonly gas?: bigint;
  readonly value?: bigint;
}

/**
 * Sends calls back to back from the deployer, mines them, and checks every receipt. Anvil's automatic mining (a block
 * as each transaction arrives) misses some of a burst of hundreds sent back to back: they stay pending with the chain
 * idle, and mining a block then left empty blocks and lost them (seen seeding the scale profile on a busy 2-core
 * machine; foundry-rs/foundry#10122). So while the burst is sent, automatic mining is off, and blocks are mined here
 * until the pool is empty, each holding as many of the transactions as its gas limit takes.
 */
async function sendAll(ctx: DeployContext, calls: readonly BatchCall[]): Promise<Hex[]> {
  const rpc = <T>(method: string, params: unknown[] = []) => ctx.publicClient.request({ method, params } as never) as Promise<T>;
  const pending = async () => Number(BigInt((await rpc<{ pending: Hex }>('txpool_status')).pending));
  const automine = await rpc<boolean>('anvil_getAutomine');
  if (automine) await rpc('evm_setAutomine', [false]);
  const hashes: Hex[] = [];
  try {
    let nonce = await ctx.publicClient.getTransactionCount({ address: ctx.deployer.address, blockTag: 'pending' });
    for (const call of calls) {
      const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as never);
      hashes.push(await ctx.wallet.sendTransaction({ to: call.to, data, gas: call.gas ?? TX_GAS, nonce: nonce++, ...(call.value ? { value: call.value } : {}) } as never));
    }
    for (let blocks = 0; (await pending()) > 0; blocks++) {
      if (blocks === MAX_BLOCKS_PER_BATCH) throw new Error(`chain ${ctx.chainId}: transactions still pending after ${blocks} blocks`);
      await rpc('evm_mine');
    }
  } finally {
    if (automine) await rpc('evm_setAutomine', [true]);
  }
  for (const hash of hashes) {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash, timeout: 120_000 });
    if (receipt.status !== 'success') throw new Error(`scale seeding transaction ${hash} reverted on chain ${ctx.chainId}`);
  }
  return hashes;
}

/**
 * Adds the scale profile to a deployed devnet chain: `profile.tokens` test tokens (one in five with 6 decimals)
 * priced log-uniformly from $0.01 to $100 on the core oracle, except, when the chain has a Curve StableswapNG source,
 * a group of scale stablecoins (`stablecoinGroup`: a tenth of the tokens, at least four, a third of them with 6
 * decimals) priced within 0.2% of $1; and `profile.pools` pools: 1% core pools (at least one), 10% stable pools
 * between tokens of the same decimals, 5% concentrated pools at the oracle prices, $10k to $1M deep, positions as in
 * `positionRanges` (two in five of them Uniswap V4 pools in the chain's PoolManager, see `planUniswapV4`; the rest
 * Uniswap V3 on a random fee tier or Algebra, across the chain's concentrated sources), 2% Curve pools through the
 * chain's Curve factories (see `planCurve`: StableswapNG pools of two to four scale stablecoins, one in ten TwocryptoNG
 * pairs of any two scale tokens at their prices), the rest V2 pairs split 60/40 between the two V2 sources, each side
 * worth $10k to $1M. Every pair of a factory (of a V4 fee, spacing and hook; every coin set of a Curve factory while
 * the group has new ones) is distinct.
 */
export async function deployScale(ctx: DeployContext, chain: ManifestChain, profile: ScaleProfile): Promise<ScaleDeployment> {
  const rng = new Random(profile.seed ?? 20261124);
  const logUniform = (lo: number, hi: number) => lo * Math.pow(hi / lo, rng.next());
  const seeder = await deploy(ctx, scaleSeederAbi as Abi, scaleSeederBytecode);
  const call = (functionName: string, args: readonly unknown[]) => ({ to: seeder, abi: scaleSeederAbi as Abi, functionName, args });

  // Tokens, in batches; one in five has 6 decimals.
  const batches: { decimals: number; count: number }[] = [];
  for (let made = 0; made < profile.tokens; made += TOKENS_PER_TX) {
    const count = Math.min(TOKENS_PER_TX, profile.tokens - made);
    const six = Math.round(count / 5);
    batches.push({ decimals: 18, count: count - six }, { decimals: 6, count: six });
  }
  const wanted = batches.filter((b) => b.count > 0);
  await sendAll(
    ctx,
    wanted.map((b) => call('createTokens', [`S${chain.chainId}_`, BigInt(b.count), b.decimals, SUPPLY_WHOLE * 10n ** BigInt(b.decimals)])),
  );
  const count = Number(await ctx.publicClient.readContract({ address: seeder, abi: scaleSeederAbi, functionName: 'tokenCount' }));
  const addresses = await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: Array.from({ length: count }, (_, i) => ({ address: seeder, abi: scaleSeederAbi, functionName: 'tokens', args: [BigInt(i)] }) as const),
  });
  const decimalsOf = wanted.flatMap((b) => Array.from({ length: b.count }, () => b.decimals));
  const tokens: ScaleToken[] = addresses.map((address, i) => ({
    address: getAddress(address as Address),
    symbol: `S${chain.chainId}_${i}`,
    decimals: decimalsOf[i],
    priceUsd: parseUnits(logUniform(0.01, 100).toPrecision(6), 18),
  }));
  // The stablecoins the Curve StableswapNG pools pair: priced near $1 (a stable pool's coins trade near 1:1).
  const stableswapSource = chain.sources.find((s) => s.kind === 'curve-stableswap-ng' && s.addresses.factory);
  const twocryptoSource = chain.sources.find((s) => s.kind === 'curve-twocrypto-ng' && s.addresses.factory);
  const stablecoins = (stableswapSource ? stablecoinGroup(tokens, rng) : []).map((t) => {
    const priced = { ...t, priceUsd: parseUnits((1 + rng.between(-STABLECOIN_SPREAD, STABLECOIN_SPREAD)).toFixed(6), 18) };
    tokens[tokens.indexOf(t)] = priced;
    return priced;
  });
  // Every token gets an oracle price (the core pools need theirs; the others are there for stats and tools).
  await sendAll(ctx, [{ to: chain.core.oracle, abi: settablePriceOracleAbi as Abi, functionName: 'setPrices', args: [tokens.map((t) => t.address), tokens.map((t) => t.priceUsd)] }]);

  const amountWorth = (t: ScaleToken, usd: number): bigint => (parseUnits(usd.toFixed(2), 18 + t.decimals) / t.priceUsd) || 1n;
  const v2Sources = chain.sources.filter((s) => s.kind === 'uniswap-v2');
  const stableSource = chain.sources.find((s) => s.kind === 'stable');
  const coreCount = Math.max(1, Math.round(profile.pools / 100));
  const stableCount = stableSource ? Math.round(profile.pools / 10) : 0;
  const concentratedSources = chain.sources.filter((s) => s.kind === 'uniswap-v3' || s.kind === 'algebra');
  const minter = chain.deployments.find((d) => d.contract === 'PositionMinter')?.address;
  const v4Source = chain.sources.find((s) => s.kind === 'uniswap-v4' && s.addresses.poolManager && s.addresses.positionMinter && s.addresses.stateView);
  const hasConcentrated = concentratedSources.length > 0 && minter !== undefined;
  const concentratedTotal = hasConcentrated || v4Source ? Math.round(profile.pools / 20) : 0;
  const v4Count = v4Source ? (hasConcentrated ? Math.round(concentratedTotal * V4_SHARE) : concentratedTotal) : 0;
  const concentratedCount = concentratedTotal - v4Count;
  const curveTotal = stableswapSource || twocryptoSource ? Math.round(profile.pools * CURVE_SHARE) : 0;
  // One in ten TwocryptoNG (at least one of two or more Curve pools), the rest StableswapNG; all of one kind when the chain has only it.
  const twocryptoCount = !twocryptoSource ? 0 : !stableswapSource ? curveTotal : curveTotal >= 2 ? Math.max(1, Math.round(curveTotal * TWOCRYPTO_SHARE)) : 0;
  const stableswapCount = curveTotal - twocryptoCount;
  const v2Count = profile.pools - coreCount - stableCount - concentratedCount - v4Count - curveTotal;
  const taken = new Set<string>();
  /** Two distinct tokens not yet paired under `factory` (`first` one of them when given). */
  const pick = (factory: string, sameDecimals: boolean, first?: ScaleToken): [ScaleToken, ScaleToken] => {
    for (;;) {
      const a = first ?? rng.pick(tokens);
      const b = rng.pick(tokens);
      if (a.address === b.address || (sameDecimals && a.decimals !== b.decimals)) continue;
      const key = `${factory}:${[a.address, b.address].sort().join(':')}`;
      if (taken.has(key)) continue;
      taken.add(key);
      return [a, b];
    }
  };

  const planned: { factory: Address; stable: boolean; routerIndex: number; a: ScaleToken; b: ScaleToken; amountA: bigint; amountB: bigint }[] = [];
  for (let i = 0; i < v2Count; i++) {
    const source = v2Sources[rng.next() < 0.6 ? 0 : v2Sources.length - 1];
    const [a, b] = pick(source.addresses.factory!, false);
    const usd = logUniform(10_000, 1_000_000);
    planned.push({ factory: source.addresses.factory as Address, stable: false, routerIndex: source.routerIndex, a, b, amountA: amountWorth(a, usd), amountB: amountWorth(b, usd) });
  }
  for (let i = 0; i < stableCount; i++) {
    const [a, b] = pick(stableSource!.addresses.factory!, true);
    const amount = parseUnits(String(Math.round(logUniform(10_000, 1_000_000))), a.decimals);
    planned.push({ factory: stableSource!.addresses.factory as Address, stable: true, routerIndex: stableSource!.routerIndex, a, b, amountA: amount, amountB: amount });
  }
  const seedCalls = [];
  for (let i = 0; i < planned.length; i += POOLS_PER_TX) {
    const group = planned.slice(i, i + POOLS_PER_TX);
    // A group is one factory's, so one transaction.
    const byFactory = new Map<string, typeof group>();
    for (const p of group) byFactory.set(`${p.factory}:${p.stable}`, [...(byFactory.get(`${p.factory}:${p.stable}`) ?? []), p]);
    for (const list of byFactory.values()) {
      seedCalls.push(
        call('seedPools', [list[0].factory, list[0].stable, list.map((p) => p.a.address), list.map((p) => p.b.address), list.map((p) => p.amountA), list.map((p) => p.amountB), ctx.deployer.address]),
      );
    }
  }
  await sendAll(ctx, seedCalls);
  const pools: ScalePool[] = [];
  const pairOf = await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: planned.map((p) =>
      p.stable
        ? ({ address: p.factory, abi: stablePoolFactoryAbi, functionName: 'getPool', args: [p.a.address, p.b.address, true] } as const)
        : ({ address: p.factory, abi: uniswapV2FactoryAbi, functionName: 'getPair', args: [p.a.address, p.b.address] } as const),
    ),
  });
  planned.forEach((p, i) => {
    const [token0, token1] = BigInt(p.a.address) < BigInt(p.b.address) ? [p.a.address, p.b.address] : [p.b.address, p.a.address];
    pools.push({ address: getAddress(pairOf[i] as Address), kind: p.stable ? 'stable' : 'uniswap-v2', routerIndex: p.routerIndex, token0, token1 });
  });

  // Core pools: their tokens come from the seeder to the deployer, which deposits them.
  const corePlans = Array.from({ length: coreCount }, () => {
    const [a, b] = pick('core', false);
    const usd = logUniform(50_000, 500_000);
    return { a, b, amountA: amountWorth(a, usd), amountB: amountWorth(b, usd) };
  });
  const coreTokens = [...new Set(corePlans.flatMap((p) => [p.a, p.b]))];
  const need = new Map<Address, bigint>();
  for (const p of corePlans) {
    need.set(p.a.address, (need.get(p.a.address) ?? 0n) + p.amountA);
    need.set(p.b.address, (need.get(p.b.address) ?? 0n) + p.amountB);
  }
  if (coreTokens.length) {
    await sendAll(ctx, [call('fund', [coreTokens.map((t) => t.address), [ctx.deployer.address], coreTokens.map((t) => need.get(t.address)!)])]);
  }
  const core = { router: chain.core.router, registry: chain.core.registry, oracle: chain.core.oracle, wrappedNative: chain.wrappedNative.address };
  const coreSource = chain.sources.find((s) => s.kind === 'core');
  for (const p of corePlans) {
    const pool = await deployCorePool(ctx, core, { token: p.a, amount: p.amountA }, { token: p.b, amount: p.amountB });
    pools.push({ address: pool.address, kind: 'core', routerIndex: coreSource?.routerIndex ?? 0, token0: pool.token0, token1: pool.token1 });
  }

  // Concentrated pools: created, initialized at the oracle prices, then seeded from the deployer, funded by the seeder.
  const fees = Object.keys(V3_FEE_TIERS).map(Number);
  const concentratedPlans = Array.from({ length: concentratedCount }, () => {
    const source = rng.pick(concentratedSources);
    const fee = source.kind === 'uniswap-v3' ? rng.pick(fees) : undefined;
    const [a, b] = pick(`${source.addresses.factory}:${fee ?? ''}`, false);
    const [t0, t1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a];
    return { source, fee, t0, t1, depthUsd: logUniform(10_000, 1_000_000) };
  });
  pools.push(...(await seedConcentrated(ctx, minter, concentratedPlans, call)));

  // Uniswap V4 pools: initialized in the PoolManager at the oracle prices, then seeded from the deployer.
  if (v4Source && v4Count > 0) {
    const plans = planUniswapV4(chain, v4Source, v4Count, rng, pick, logUniform);
    pools.push(...(await seedUniswapV4(ctx, v4Source, chain.wrappedNative.address as Address, plans, call)));
  }

  // Curve pools: deployed through the chain's Curve factories, then seeded from the deployer, funded by the seeder.
  if (curveTotal > 0) {
    const plans = planCurve(chain.chainId, { stableswap: stableswapSource, twocrypto: twocryptoSource }, { stableswap: stableswapCount, twocrypto: twocryptoCount }, stablecoins, rng, pick, logUniform);
    pools.push(...(await seedCurve(ctx, plans, call)));
  }

  // The traders get a hundredth of a percent of each token's supply.
  if (profile.traders?.length) {
    await sendAll(ctx, [call('fund', [tokens.map((t) => t.address), profile.traders, tokens.map((t) => (SUPPLY_WHOLE * 10n ** BigInt(t.decimals)) / 10_000n)])]);
  }
  return { seeder, tokens, pools };
}

/** A concentrated pool the scale profile adds. */
interface ConcentratedPlan {
  readonly source: ManifestChain['sources'][number];
  readonly fee: number | undefined;
  readonly t0: ScaleToken;
  readonly t1: ScaleToken;
  readonly depthUsd: number;
}

/** Creates, initializes and seeds the planned concentrated pools, each stage's transactions back to back. */
async function seedConcentrated(
  ctx: DeployContext,
  minter: Address | undefined,
  plans: readonly ConcentratedPlan[],
  call: (functionName: string, args: readonly unknown[]) => { to: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<ScalePool[]> {
  if (plans.length === 0 || !minter) return [];
  const factoryOf = (p: ConcentratedPlan) => p.source.addresses.factory as Address;
  const isV3 = (p: ConcentratedPlan) => p.source.kind === 'uniswap-v3';
  await sendAll(
    ctx,
    plans.map((p) =>
      isV3(p)
        ? { to: factoryOf(p), abi: uniswapV3FactoryAbi as Abi, functionName: 'createPool', args: [p.t0.address, p.t1.address, p.fee] }
        : { to: factoryOf(p), abi: algebraFactoryAbi as Abi, functionName: 'createPool', args: [p.t0.address, p.t1.address, '0x'] },
    ),
  );
  const addresses = (
    (await ctx.publicClient.multicall({
      allowFailure: false,
      contracts: plans.map((p) =>
        isV3(p)
          ? { address: factoryOf(p), abi: uniswapV3FactoryAbi as Abi, functionName: 'getPool', args: [p.t0.address, p.t1.address, p.fee] }
          : { address: factoryOf(p), abi: algebraFactoryAbi as Abi, functionName: 'poolByPair', args: [p.t0.address, p.t1.address] },
      ),
    } as never)) as unknown[]
  ).map((a) => getAddress(a as Address));
  const price = (t: ScaleToken) => ({ decimals: t.decimals, priceUsd: formatUnits(t.priceUsd, 18) });
  await sendAll(
    ctx,
    plans.map((p, i) => ({ to: addresses[i], abi: uniswapV3PoolAbi as Abi, functionName: 'initialize', args: [sqrtPriceX96At(price(p.t0), price(p.t1))] })),
  );
  const states = (await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: plans.flatMap((p, i) =>
      isV3(p)
        ? [
            { address: addresses[i], abi: uniswapV3PoolAbi as Abi, functionName: 'slot0' },
            { address: addresses[i], abi: uniswapV3PoolAbi as Abi, functionName: 'tickSpacing' },
          ]
        : [
            { address: addresses[i], abi: algebraPoolAbi as Abi, functionName: 'globalState' },
            { address: addresses[i], abi: algebraPoolAbi as Abi, functionName: 'tickSpacing' },
          ],
    ),
  } as never)) as unknown[];
  const seeded = plans.map((p, i) => {
    const state = states[2 * i] as readonly [bigint, number, number];
    const tick = Number(state[1]);
    // A V3 pool's fee is its tier; an Algebra pool's, its globalState's lastFee.
    const fee = isV3(p) ? p.fee! : Number(state[2]);
    const tickSpacing = Number(states[2 * i + 1]);
    const usdPerUnit = (t: ScaleToken) => Number(formatUnits(t.priceUsd, 18)) / 10 ** t.decimals;
    const liquidity = BigInt(Math.round(p.depthUsd / 2 / Math.sqrt(usdPerUnit(p.t0) * usdPerUnit(p.t1))));
    return { plan: p, address: addresses[i], tick, tickSpacing, fee, ranges: positionRanges(tick, tickSpacing, liquidity) };
  });

  // The deployer pays the positions: the seeder funds it with an estimate of what they take plus a tenth.
  const need = new Map<Address, bigint>();
  for (const s of seeded) {
    for (const range of s.ranges) {
      const [amount0, amount1] = positionAmounts(range, s.tick);
      need.set(s.plan.t0.address, (need.get(s.plan.t0.address) ?? 0n) + BigInt(Math.ceil(amount0 * 1.1)) + 1n);
      need.set(s.plan.t1.address, (need.get(s.plan.t1.address) ?? 0n) + BigInt(Math.ceil(amount1 * 1.1)) + 1n);
    }
  }
  const funded = [...need.keys()];
  await sendAll(ctx, [call('fund', [funded, [ctx.deployer.address], funded.map((t) => need.get(t)!)])]);
  await sendAll(ctx, funded.map((t) => ({ to: t, abi: testERC20Abi as Abi, functionName: 'approve', args: [minter, maxUint256] })));
  await sendAll(
    ctx,
    seeded.flatMap((s) =>
      s.ranges.map((r) => ({
        to: minter,
        abi: positionMinterAbi as Abi,
        functionName: isV3(s.plan) ? 'mint' : 'mintAlgebra',
        args: [s.address, ctx.deployer.address, r.lower, r.upper, r.liquidity],
      })),
    ),
  );
  return seeded.map((s) => ({
    address: s.address,
    kind: s.plan.source.kind as 'uniswap-v3' | 'algebra',
    routerIndex: s.plan.source.routerIndex,
    token0: s.plan.t0.address,
    token1: s.plan.t1.address,
    fee: s.fee,
    tickSpacing: s.tickSpacing,
  }));
}

/** A Uniswap V4 pool the scale profile adds. */
interface UniswapV4Plan {
  readonly key: PoolKey;
  readonly poolId: Hex;
  readonly hook?: DevnetHookName;
  /** The key's currencies as tokens (the native coin as address(0), priced as the wrapped native). */
  readonly t0: ScaleToken;
  readonly t1: ScaleToken;
  readonly depthUsd: number;
}

type Source = ManifestChain['sources'][number];

/**
 * The V4 pools of the scale profile, `count` of them between scale tokens, on the fees and spacings of
 * `V4_FEE_TIERS`: one in twelve (the first among them) with the devnet's dynamic-fee hook (no swap permission; key fee
 * DYNAMIC_FEE_FLAG, the hook sets the LP fee), one in twenty (the second) with its input-fee hook (a fee taken by
 * beforeSwap's return delta), and one in five (the third) with the native coin as currency0 (address(0), priced as
 * the wrapped native), whatever their hook. Hooks or the native coin the chain lacks are left out.
 */
function planUniswapV4(
  chain: ManifestChain,
  source: Source,
  count: number,
  rng: Random,
  pick: (factory: string, sameDecimals: boolean, first?: ScaleToken) => [ScaleToken, ScaleToken],
  logUniform: (lo: number, hi: number) => number,
): UniswapV4Plan[] {
  const manager = source.addresses.poolManager;
  const hookAddress: Partial<Record<DevnetHookName, Address>> = {
    'dynamic-fee': source.addresses.dynamicFeeHook as Address | undefined,
    'input-fee': source.addresses.inputFeeHook as Address | undefined,
  };
  const nativePrice = DEVNET_PRICES_USD[chain.chainId]?.[chain.wrappedNative.symbol];
  const native: ScaleToken | undefined = nativePrice
    ? { address: zeroAddress, symbol: chain.nativeSymbol, decimals: chain.wrappedNative.decimals, priceUsd: parseUnits(nativePrice, 18) }
    : undefined;
  return Array.from({ length: count }, (_, i) => {
    const wanted: DevnetHookName | undefined = i % 12 === 0 ? 'dynamic-fee' : i % 20 === 1 ? 'input-fee' : undefined;
    const hook = wanted && hookAddress[wanted] ? wanted : undefined;
    const tier = rng.pick(V4_FEE_TIERS);
    const fee = hook === 'dynamic-fee' ? DYNAMIC_FEE_FLAG : tier.fee;
    const hooks = hook ? hookAddress[hook]! : zeroAddress;
    const [a, b] = pick(`${manager}:${fee}:${tier.tickSpacing}:${hooks}`, false, i % 5 === 2 ? native : undefined);
    const [t0, t1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a];
    const key: PoolKey = { currency0: t0.address, currency1: t1.address, fee, tickSpacing: tier.tickSpacing, hooks };
    return { key, poolId: poolIdOf(key), ...(hook ? { hook } : {}), t0, t1, depthUsd: logUniform(10_000, 1_000_000) };
  });
}

/**
 * Initializes the planned V4 pools in the source's PoolManager at the oracle prices and adds their positions (as
 * `positionRanges`, all of a pool's in one V4PositionMinter call) from the deployer: the seeder funds it with an
 * estimate of the tokens they take plus a tenth, the native coin goes with the call (the minter refunds the rest).
 */
async function seedUniswapV4(
  ctx: DeployContext,
  source: Source,
  wrappedNative: Address,
  plans: readonly UniswapV4Plan[],
  call: (functionName: string, args: readonly unknown[]) => BatchCall,
): Promise<ScalePool[]> {
  const { poolManager, stateView, positionMinter } = source.addresses as Record<string, Address>;
  const price = (t: ScaleToken) => ({ decimals: t.decimals, priceUsd: formatUnits(t.priceUsd, 18) });
  await sendAll(
    ctx,
    plans.map((p) => ({ to: poolManager, abi: poolManagerAbi as Abi, functionName: 'initialize', args: [p.key, sqrtPriceX96At(price(p.t0), price(p.t1))], gas: V4_INITIALIZE_GAS })),
  );
  const slots = (await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: plans.map((p) => ({ address: stateView, abi: stateViewAbi as Abi, functionName: 'getSlot0', args: [p.poolId] })),
  } as never)) as unknown as (readonly [bigint, number, number, number])[];
  const usd = (t: ScaleToken) => ({ decimals: t.decimals, priceUsd: Number(formatUnits(t.priceUsd, 18)) });
  const seeded = plans.map((p, i) => {
    const [sqrtPriceX96, tick] = slots[i];
    if (sqrtPriceX96 === 0n) throw new Error(`V4 pool ${p.poolId} is not initialized on chain ${ctx.chainId}`);
    const ranges = positionRanges(Number(tick), p.key.tickSpacing, liquidityForDepth(usd(p.t0), usd(p.t1), p.depthUsd));
    let [need0, need1] = [0, 0];
    for (const range of ranges) {
      const [amount0, amount1] = positionAmounts(range, Number(tick));
      need0 += amount0;
      need1 += amount1;
    }
    // What a currency takes, a tenth more (and a unit, for rounding).
    const [owe0, owe1] = [need0, need1].map((n) => BigInt(Math.ceil(n * 1.1)) + 1n);
    return { plan: p, ranges, owe0, owe1 };
  });

  const need = new Map<Address, bigint>();
  for (const s of seeded) {
    for (const [t, owed] of [[s.plan.t0, s.owe0], [s.plan.t1, s.owe1]] as const) {
      if (t.address !== zeroAddress) need.set(t.address, (need.get(t.address) ?? 0n) + owed);
    }
  }
  const funded = [...need.keys()];
  await sendAll(ctx, [call('fund', [funded, [ctx.deployer.address], funded.map((t) => need.get(t)!)])]);
  await sendAll(ctx, funded.map((t) => ({ to: t, abi: testERC20Abi as Abi, functionName: 'approve', args: [positionMinter, maxUint256], gas: 100_000n })));
  await sendAll(
    ctx,
    seeded.map((s) => ({
      to: positionMinter,
      abi: v4PositionMinterAbi as Abi,
      functionName: 'addPositions',
      args: [s.plan.key, 0n, s.ranges.map((r) => ({ tickLower: r.lower, tickUpper: r.upper, liquidity: r.liquidity }))],
      gas: V4_POSITIONS_GAS,
      value: s.plan.key.currency0 === zeroAddress ? s.owe0 : 0n,
    })),
  );
  const wrapped = (t: ScaleToken): Address => (t.address === zeroAddress ? wrappedNative : t.address);
  return seeded.map(({ plan: p }) => ({
    address: poolManager,
    kind: 'uniswap-v4' as const,
    routerIndex: source.routerIndex,
    token0: wrapped(p.t0),
    token1: wrapped(p.t1),
    fee: p.key.fee,
    tickSpacing: p.key.tickSpacing,
    poolId: p.poolId,
    currency0: p.key.currency0,
    currency1: p.key.currency1,
    hooks: p.key.hooks,
    ...(p.hook ? { hook: p.hook } : {}),
  }));
}

/**
 * The scale stablecoins: a tenth of the tokens (at least four, at most all), a third of them (rounded) of 6 decimals
 * and the rest of 18 as far as the tokens have them, drawn at random.
 */
function stablecoinGroup(tokens: readonly ScaleToken[], rng: Random): ScaleToken[] {
  const size = Math.min(tokens.length, Math.max(4, Math.round(tokens.length / 10)));
  const six = rng.shuffle(tokens.filter((t) => t.decimals === 6));
  const other = rng.shuffle(tokens.filter((t) => t.decimals !== 6));
  const sixCount = Math.min(six.length, Math.max(size - other.length, Math.round(size / 3)));
  return [...six.slice(0, sixCount), ...other.slice(0, size - sixCount)];
}

/** A Curve pool the scale profile adds. */
interface CurvePlan {
  readonly source: Source;
  readonly kind: 'curve-stableswap-ng' | 'curve-twocrypto-ng';
  readonly name: string;
  readonly symbol: string;
  /** The coins in the pool's order. */
  readonly coins: readonly ScaleToken[];
  /** StableswapNG: the amplification coefficient (without A_PRECISION). */
  readonly A?: number;
  /** TwocryptoNG: coin1's price in coin0, 1e18 (price_scale at deployment). */
  readonly initialPrice?: bigint;
  /** The deposit of each coin. */
  readonly amounts: readonly bigint[];
}

/**
 * The Curve pools of the scale profile: `counts.stableswap` StableswapNG pools of two to four of the scale
 * stablecoins (`STABLESWAP_COINS` in turn, as many as the group has), each coin set distinct while the group has new
 * ones (then repeated: Curve's factories take several pools of the same coins), A one of `STABLESWAP_A`, 0.04% fee,
 * 2x off-peg multiplier; and `counts.twocrypto` TwocryptoNG pools on the "crypto" preset of two distinct scale tokens
 * at their oracle prices (`initial_price` coin1's price in coin0). Each coin deposited worth $10k to $1M (the pool's
 * draw, every coin alike).
 */
function planCurve(
  chainId: number,
  sources: { readonly stableswap?: Source; readonly twocrypto?: Source },
  counts: { readonly stableswap: number; readonly twocrypto: number },
  stablecoins: readonly ScaleToken[],
  rng: Random,
  pick: (factory: string, sameDecimals: boolean, first?: ScaleToken) => [ScaleToken, ScaleToken],
  logUniform: (lo: number, hi: number) => number,
): CurvePlan[] {
  const amountWorth = (t: ScaleToken, usd: number): bigint => (parseUnits(usd.toFixed(2), 18 + t.decimals) / t.priceUsd) || 1n;
  const plans: CurvePlan[] = [];
  const taken = new Set<string>();
  if (sources.stableswap && stablecoins.length >= 2) {
    for (let i = 0; i < counts.stableswap; i++) {
      const n = Math.min(STABLESWAP_COINS[i % STABLESWAP_COINS.length], stablecoins.length);
      let coins = rng.shuffle(stablecoins).slice(0, n);
      for (let tries = 0; tries < 100 && taken.has(coins.map((c) => c.address).sort().join(':')); tries++) coins = rng.shuffle(stablecoins).slice(0, n);
      taken.add(coins.map((c) => c.address).sort().join(':'));
      const usd = logUniform(10_000, 1_000_000);
      // The LP token's name and symbol: at most 32 and 10 bytes.
      plans.push({ source: sources.stableswap, kind: 'curve-stableswap-ng', name: `Curve scale ${chainId} ${i}`, symbol: `scrv${i}`, coins, A: rng.pick(STABLESWAP_A), amounts: coins.map((c) => amountWorth(c, usd)) });
    }
  }
  if (sources.twocrypto) {
    for (let i = 0; i < counts.twocrypto; i++) {
      const [c0, c1] = pick(sources.twocrypto.addresses.factory!, false);
      const usd = logUniform(10_000, 1_000_000);
      plans.push({
        source: sources.twocrypto,
        kind: 'curve-twocrypto-ng',
        name: `Curve ${c0.symbol}/${c1.symbol}`,
        symbol: `${c0.symbol}${c1.symbol}`,
        coins: [c0, c1],
        initialPrice: (c1.priceUsd * 10n ** 18n) / c0.priceUsd,
        amounts: [amountWorth(c0, usd), amountWorth(c1, usd)],
      });
    }
  }
  return plans;
}

/**
 * Deploys the planned Curve pools through their factories (back to back: a factory lists its pools in deployment
 * order, so the pools are read from `pool_list` from its count before), checks their coins, and seeds them from the
 * deployer: the seeder funds it with the deposits, it approves each pool for its coins and adds the liquidity (the LP
 * tokens are its).
 */
async function seedCurve(ctx: DeployContext, plans: readonly CurvePlan[], call: (functionName: string, args: readonly unknown[]) => BatchCall): Promise<ScalePool[]> {
  if (plans.length === 0) return [];
  const factoryOf = (p: CurvePlan) => p.source.addresses.factory as Address;
  const factoryAbi = (p: CurvePlan) => (p.kind === 'curve-stableswap-ng' ? curveStableSwapFactoryNGStandInAbi : curveTwocryptoFactoryNGStandInAbi) as Abi;
  const poolAbi = (p: CurvePlan) => (p.kind === 'curve-stableswap-ng' ? curveStableSwapNGStandInAbi : curveTwocryptoNGStandInAbi) as Abi;
  const factories = [...new Set(plans.map(factoryOf))];
  const before = (await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: factories.map((f) => ({ address: f, abi: factoryAbi(plans.find((p) => factoryOf(p) === f)!), functionName: 'pool_count' })),
  } as never)) as unknown as bigint[];
  const next = new Map(factories.map((f, i) => [f, before[i]]));
  const indexes = plans.map((p) => {
    const at = next.get(factoryOf(p))!;
    next.set(factoryOf(p), at + 1n);
    return at;
  });
  await sendAll(
    ctx,
    plans.map((p) =>
      p.kind === 'curve-stableswap-ng'
        ? {
            to: factoryOf(p),
            abi: curveStableSwapFactoryNGStandInAbi as Abi,
            functionName: 'deploy_plain_pool',
            args: [p.name, p.symbol, p.coins.map((c) => c.address), BigInt(p.A!), BigInt(NG_FEE), BigInt(NG_OFFPEG), BigInt(NG_MA_EXP_TIME), 0n, p.coins.map(() => 0), p.coins.map(() => '0x00000000'), p.coins.map(() => zeroAddress)],
            gas: CURVE_DEPLOY_GAS,
          }
        : {
            to: factoryOf(p),
            abi: curveTwocryptoDeployPoolAbi as Abi,
            functionName: 'deploy_pool',
            args: [
              p.name,
              p.symbol,
              [p.coins[0].address, p.coins[1].address],
              0n,
              ...[TWOCRYPTO_CRYPTO_PRESET.A, TWOCRYPTO_CRYPTO_PRESET.gamma, TWOCRYPTO_CRYPTO_PRESET.midFee, TWOCRYPTO_CRYPTO_PRESET.outFee, TWOCRYPTO_CRYPTO_PRESET.feeGamma, TWOCRYPTO_CRYPTO_PRESET.allowedExtraProfit, TWOCRYPTO_CRYPTO_PRESET.adjustmentStep, TWOCRYPTO_CRYPTO_PRESET.maTime].map(BigInt),
              p.initialPrice!,
            ],
            gas: CURVE_DEPLOY_GAS,
          },
    ),
  );
  const addresses = (
    (await ctx.publicClient.multicall({
      allowFailure: false,
      contracts: plans.map((p, i) => ({ address: factoryOf(p), abi: factoryAbi(p), functionName: 'pool_list', args: [indexes[i]] })),
    } as never)) as unknown as Address[]
  ).map((a) => getAddress(a));
  // Each pool holds its plan's coins, in order (the factory deployed them in the order sent).
  const coins = (await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: plans.flatMap((p, i) => p.coins.map((_, k) => ({ address: addresses[i], abi: poolAbi(p), functionName: 'coins', args: [BigInt(k)] }))),
  } as never)) as unknown as Address[];
  let at = 0;
  for (const [i, p] of plans.entries()) {
    for (const c of p.coins) {
      if (getAddress(coins[at++]) !== c.address) throw new Error(`Curve pool ${addresses[i]} on chain ${ctx.chainId} does not hold the planned coins ${p.coins.map((x) => x.symbol).join('/')}`);
    }
  }

  const need = new Map<Address, bigint>();
  for (const p of plans) p.coins.forEach((c, k) => need.set(c.address, (need.get(c.address) ?? 0n) + p.amounts[k]));
  const funded = [...need.keys()];
  await sendAll(ctx, [call('fund', [funded, [ctx.deployer.address], funded.map((t) => need.get(t)!)])]);
  await sendAll(
    ctx,
    plans.flatMap((p, i) => p.coins.map((c) => ({ to: c.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [addresses[i], maxUint256], gas: 100_000n }))),
  );
  await sendAll(
    ctx,
    plans.map((p, i) => ({ to: addresses[i], abi: poolAbi(p), functionName: 'add_liquidity', args: [p.amounts, 0n], gas: CURVE_ADD_LIQUIDITY_GAS })),
  );
  return plans.map((p, i) => ({
    address: addresses[i],
    kind: p.kind,
    routerIndex: p.source.routerIndex,
    token0: p.coins[0].address,
    token1: p.coins[1].address,
    coins: p.coins.map((c) => c.address),
  }));
}
