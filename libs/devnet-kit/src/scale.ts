// The devnet's scale profile: thousands of pools across the V2, stable, core and concentrated sources and hundreds
// of tokens on top of the ordinary devnet, so the liquidity state, the indexer and the route search meet a real
// chain's numbers. A ScaleSeeder contract creates the tokens and seeds the V2 and stable pools many per
// transaction; core pools go through the ordinary `deployCorePool`; Uniswap V3 and Algebra pools are created by
// their factories and seeded through the PositionMinter like the ordinary devnet's. Transactions are sent back to back (nonces
// counted here, gas given) and their receipts checked at the end of each stage.
import {
  algebraFactoryAbi,
  algebraPoolAbi,
  positionMinterAbi,
  scaleSeederAbi,
  scaleSeederBytecode,
  settablePriceOracleAbi,
  stablePoolFactoryAbi,
  testERC20Abi,
  uniswapV2FactoryAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
} from '@dex/abis';
import type { ManifestChain } from '@dex/messages';
import { encodeFunctionData, formatUnits, getAddress, maxUint256, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { deployCorePool } from './amm';
import { V3_FEE_TIERS, positionAmounts, positionRanges, sqrtPriceX96At } from './concentrated';
import { deploy, type DeployContext } from './deploy';
import { Random } from './random';

export interface ScaleProfile {
  /** Pools to add across the V2, stable and core sources. */
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
  readonly address: Address;
  readonly kind: 'uniswap-v2' | 'stable' | 'core' | 'uniswap-v3' | 'algebra';
  readonly routerIndex: number;
  readonly token0: Address;
  readonly token1: Address;
  /** Concentrated pools only: the fee in hundredths of a basis point and the tick spacing. */
  readonly fee?: number;
  readonly tickSpacing?: number;
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

/**
 * Sends calls back to back from the deployer, mines them, and checks every receipt. Anvil's automatic mining (a block
 * as each transaction arrives) misses some of a burst of hundreds sent back to back: they stay pending with the chain
 * idle, and mining a block then left empty blocks and lost them (seen seeding the scale profile on a busy 2-core
 * machine; foundry-rs/foundry#10122). So while the burst is sent, automatic mining is off, and blocks are mined here
 * until the pool is empty, each holding as many of the transactions as its gas limit takes.
 */
async function sendAll(ctx: DeployContext, calls: readonly { to: Address; abi: Abi; functionName: string; args: readonly unknown[] }[]): Promise<Hex[]> {
  const rpc = <T>(method: string, params: unknown[] = []) => ctx.publicClient.request({ method, params } as never) as Promise<T>;
  const pending = async () => Number(BigInt((await rpc<{ pending: Hex }>('txpool_status')).pending));
  const automine = await rpc<boolean>('anvil_getAutomine');
  if (automine) await rpc('evm_setAutomine', [false]);
  const hashes: Hex[] = [];
  try {
    let nonce = await ctx.publicClient.getTransactionCount({ address: ctx.deployer.address, blockTag: 'pending' });
    for (const call of calls) {
      const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as never);
      hashes.push(await ctx.wallet.sendTransaction({ to: call.to, data, gas: TX_GAS, nonce: nonce++ } as never));
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
 * priced log-uniformly from $0.01 to $100 on the core oracle, and `profile.pools` pools: 1% core pools (at least
 * one), 10% stable pools between tokens of the same decimals, 5% concentrated pools (Uniswap V3 on a random fee tier
 * or Algebra, across the chain's concentrated sources, at the oracle prices, $10k to $1M deep, positions as in
 * `positionRanges`), the rest V2 pairs split 60/40 between the two V2 sources, each side worth $10k to $1M. Every
 * pair of a factory is distinct.
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
  // Every token gets an oracle price (the core pools need theirs; the others are there for stats and tools).
  await sendAll(ctx, [{ to: chain.core.oracle, abi: settablePriceOracleAbi as Abi, functionName: 'setPrices', args: [tokens.map((t) => t.address), tokens.map((t) => t.priceUsd)] }]);

  const amountWorth = (t: ScaleToken, usd: number): bigint => (parseUnits(usd.toFixed(2), 18 + t.decimals) / t.priceUsd) || 1n;
  const v2Sources = chain.sources.filter((s) => s.kind === 'uniswap-v2');
  const stableSource = chain.sources.find((s) => s.kind === 'stable');
  const coreCount = Math.max(1, Math.round(profile.pools / 100));
  const stableCount = stableSource ? Math.round(profile.pools / 10) : 0;
  const concentratedSources = chain.sources.filter((s) => s.kind === 'uniswap-v3' || s.kind === 'algebra');
  const minter = chain.deployments.find((d) => d.contract === 'PositionMinter')?.address;
  const concentratedCount = concentratedSources.length && minter ? Math.round(profile.pools / 20) : 0;
  const v2Count = profile.pools - coreCount - stableCount - concentratedCount;
  const taken = new Set<string>();
  const pick = (factory: string, sameDecimals: boolean): [ScaleToken, ScaleToken] => {
    for (;;) {
      const a = rng.pick(tokens);
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
