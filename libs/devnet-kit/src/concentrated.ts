// Concentrated liquidity on the devnet, on the protocols' audited bytecode from their npm packages: two Uniswap V3
// deployments (each its own factory and QuoterV2, so a fork is one more config entry) and one Algebra Integral
// deployment (factory and pool deployer). Their pools are created at the devnet's oracle prices and seeded through
// the PositionMinter with positions in several ranges, so that ordinary swaps cross initialized ticks.
import {
  algebraFactoryAbi,
  algebraFactoryBytecode,
  algebraPoolAbi,
  algebraPoolDeployerAbi,
  algebraPoolDeployerBytecode,
  poolQuoterAbi,
  poolQuoterBytecode,
  positionMinterAbi,
  positionMinterBytecode,
  quoterV2Abi,
  quoterV2Bytecode,
  testERC20Abi,
  uniswapV3FactoryAbi,
  uniswapV3FactoryBytecode,
  uniswapV3PoolAbi,
  wrappedNativeAbi,
} from '@dex/abis';
import type { ManifestPool, SourceConfig } from '@dex/messages';
import { getAddress, getContractAddress, maxUint256, parseEther, parseUnits, type Abi, type Address } from 'viem';
import { devAccount, type DevAccount } from './accounts';
import { DEVNET_PRICES_USD } from './amm';
import { deploy, send, sendBatch, type ChainInProgress, type ContractCall, type DeployContext } from './deploy';

/** Uniswap V3's fee tiers (hundredths of a basis point) and the tick spacing the factory enables for each. */
export const V3_FEE_TIERS: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10_000: 200 };

/** Gas of each seeding transaction sent in a batch (a position on fresh ticks takes under 0.5M). */
const TX_GAS = 1_500_000n;
/** Gas of a pool creation sent in a batch (a V3 pool's takes about 4.5M). */
const CREATE_POOL_GAS = 8_000_000n;

/** The tick range TickMath allows (the same in both protocols). */
const MIN_TICK = -887_272;
const MAX_TICK = 887_272;

/** A concentrated pool to create: two token symbols, the fee tier (V3 only) and how deep it is. */
export interface ConcentratedPoolSeed {
  readonly tokenA: string;
  readonly tokenB: string;
  /** V3 fee tier in hundredths of a basis point (100, 500, 3000, 10000); Algebra pools take the factory's default. */
  readonly fee?: number;
  /**
   * The pool's depth at its price, as the value in USD of a V2 pool with the same liquidity: the positions around
   * the price (narrow and wide) hold this liquidity together, so near the price the pool trades like a V2 pool
   * of this size, for much less capital.
   */
  readonly depthUsd: number;
}

/** A concentrated-liquidity source: one factory (and for V3 its QuoterV2) and its pools. */
export interface ConcentratedSourceSeed {
  readonly name: string;
  readonly kind: 'uniswap-v3' | 'algebra';
  readonly routerIndex: number;
  readonly pools: readonly ConcentratedPoolSeed[];
}

/**
 * The devnet's concentrated sources per chain, after the V2, stable, core and launchpad sources (routerIndex 0-4):
 * DevSwap V3 (5) with a pool on every fee tier, LiteSwap V3 (6, a second V3 deployment: another factory, so other
 * pool addresses) and AlgebraSwap (7, Algebra Integral). The wrapped native / USDC pair trades on all three, beside
 * the V2 and core pools of the pair; depths are of the order of the V2 pools'.
 */
export const DEVNET_CONCENTRATED_SOURCES: Record<number, readonly ConcentratedSourceSeed[]> = {
  999: [
    {
      name: 'DevSwap V3',
      kind: 'uniswap-v3',
      routerIndex: 5,
      pools: [
        { tokenA: 'WHYPE', tokenB: 'USDC', fee: 500, depthUsd: 150_000 },
        { tokenA: 'WHYPE', tokenB: 'USDC', fee: 3000, depthUsd: 100_000 },
        { tokenA: 'PURR', tokenB: 'WHYPE', fee: 10_000, depthUsd: 40_000 },
        { tokenA: 'USDC', tokenB: 'USDT', fee: 100, depthUsd: 400_000 },
      ],
    },
    {
      name: 'LiteSwap V3',
      kind: 'uniswap-v3',
      routerIndex: 6,
      pools: [
        { tokenA: 'WHYPE', tokenB: 'USDC', fee: 3000, depthUsd: 60_000 },
        { tokenA: 'USDT', tokenB: 'WHYPE', fee: 500, depthUsd: 60_000 },
      ],
    },
    {
      name: 'AlgebraSwap',
      kind: 'algebra',
      routerIndex: 7,
      pools: [
        { tokenA: 'WHYPE', tokenB: 'USDC', depthUsd: 100_000 },
        { tokenA: 'PURR', tokenB: 'WHYPE', depthUsd: 40_000 },
      ],
    },
  ],
  4663: [
    {
      name: 'DevSwap V3',
      kind: 'uniswap-v3',
      routerIndex: 5,
      pools: [
        { tokenA: 'WETH', tokenB: 'USDC', fee: 500, depthUsd: 400_000 },
        { tokenA: 'WETH', tokenB: 'USDC', fee: 3000, depthUsd: 250_000 },
        { tokenA: 'LINK', tokenB: 'WETH', fee: 10_000, depthUsd: 100_000 },
        { tokenA: 'USDC', tokenB: 'USDT', fee: 100, depthUsd: 400_000 },
      ],
    },
    {
      name: 'LiteSwap V3',
      kind: 'uniswap-v3',
      routerIndex: 6,
      pools: [
        { tokenA: 'WETH', tokenB: 'USDC', fee: 3000, depthUsd: 150_000 },
        { tokenA: 'USDT', tokenB: 'WETH', fee: 500, depthUsd: 150_000 },
      ],
    },
    {
      name: 'AlgebraSwap',
      kind: 'algebra',
      routerIndex: 7,
      pools: [
        { tokenA: 'WETH', tokenB: 'USDC', depthUsd: 250_000 },
        { tokenA: 'LINK', tokenB: 'WETH', depthUsd: 100_000 },
      ],
    },
  ],
};

/**
 * The account that holds the concentrated positions (a dev key outside the roles, the simulator's and the scale
 * traders'): it pays the PositionMinter, so the deployer's own token grants stay as `deployBase` left them.
 */
export const CONCENTRATED_LP_ACCOUNT_INDEX = 19;

interface Token {
  readonly symbol: string;
  readonly decimals: number;
  readonly address: Address;
  readonly wrapped: boolean;
  /** USD per whole token. */
  readonly priceUsd: number;
}

/** One position: its ticks and liquidity. */
export interface PositionRange {
  readonly lower: number;
  readonly upper: number;
  readonly liquidity: bigint;
}

/** `isqrt(n)`: the largest integer whose square is at most n. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's method from above: the iterates decrease to the floor of the root.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}

/** A decimal string as a fraction over 10^18 (prices have at most 18 decimals). */
const to18 = (value: string): bigint => parseUnits(value, 18);

/**
 * The sqrt price (Q64.96) at which a pool of `token0` / `token1` matches the USD prices: token1 base units per
 * token0 base unit = (price0 / 10^decimals0) / (price1 / 10^decimals1). Exact in integers, rounded down.
 */
export function sqrtPriceX96At(token0: { decimals: number; priceUsd: string }, token1: { decimals: number; priceUsd: string }): bigint {
  const num = to18(token0.priceUsd) * 10n ** BigInt(token1.decimals);
  const den = to18(token1.priceUsd) * 10n ** BigInt(token0.decimals);
  return isqrt((num << 192n) / den);
}

/** The smallest half-width of the wide position, in ticks (about a factor 1.5 in price either way). */
const WIDE_MIN_TICKS = 4_000;

/**
 * The positions of a pool at `tick` (spacing `s`, `c` = tick rounded down to a multiple of s), with `liquidity` the
 * total around the price: narrow [c - 2s, c + 2s] with 2/3 of it, wide [c - w, c + w] with 1/3 (w = 200s, at least
 * 4,000 ticks), one-sided above [c + 4s, c + 4s + w] and below [c - 4s - w, c - 4s] with 1/6 each, and a full-range
 * position with 1/10, so that a swap never finds the pool empty. Ordinary swaps cross the narrow position's ticks.
 * Ticks are multiples of s within TickMath's range.
 */
export function positionRanges(tick: number, spacing: number, liquidity: bigint): PositionRange[] {
  const c = Math.floor(tick / spacing) * spacing;
  const lo = Math.ceil(MIN_TICK / spacing) * spacing;
  const hi = Math.floor(MAX_TICK / spacing) * spacing;
  const at = (ticks: number) => Math.min(hi, Math.max(lo, c + ticks));
  const w = Math.max(200, Math.ceil(WIDE_MIN_TICKS / spacing)) * spacing;
  const third = liquidity / 3n;
  return [
    { lower: at(-2 * spacing), upper: at(2 * spacing), liquidity: 2n * third },
    { lower: at(-w), upper: at(w), liquidity: third },
    { lower: at(4 * spacing), upper: at(4 * spacing + w), liquidity: third / 2n },
    { lower: at(-4 * spacing - w), upper: at(-4 * spacing), liquidity: third / 2n },
    { lower: lo, upper: hi, liquidity: liquidity / 10n },
  ];
}

/** The liquidity of a V2 pool worth `depthUsd` at the price: sqrt(reserve0 * reserve1) in base units. */
export function liquidityForDepth(token0: { decimals: number; priceUsd: number }, token1: { decimals: number; priceUsd: number }, depthUsd: number): bigint {
  const usdPerUnit0 = token0.priceUsd / 10 ** token0.decimals;
  const usdPerUnit1 = token1.priceUsd / 10 ** token1.decimals;
  return BigInt(Math.round(depthUsd / 2 / Math.sqrt(usdPerUnit0 * usdPerUnit1)));
}

/** An estimate of the token amounts (base units) a position takes at `tick`, in floating point. */
export function positionAmounts(range: PositionRange, tick: number): [number, number] {
  const sqrt = (t: number) => Math.pow(1.0001, t / 2);
  const [sa, sb, sp] = [sqrt(range.lower), sqrt(range.upper), sqrt(tick)];
  const l = Number(range.liquidity);
  if (tick < range.lower) return [l * (1 / sa - 1 / sb), 0];
  if (tick >= range.upper) return [0, l * (sb - sa)];
  return [l * (1 / sp - 1 / sb), l * (sp - sa)];
}

/**
 * Deploys the chain's concentrated sources (`DEVNET_CONCENTRATED_SOURCES`): per V3 source a factory and a QuoterV2
 * (its factory, the chain's wrapped native as WETH9), per Algebra source a factory and its pool deployer (and, as its
 * `quoter`, a PoolQuoter that quotes with the pool's own code), and one PositionMinter; creates the pools at the oracle prices and seeds their positions from the LP account. Returns
 * the chain entry with the sources, deployments and pools (with `fee` and `tickSpacing`) added.
 */
export async function deployConcentrated(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const seeds = DEVNET_CONCENTRATED_SOURCES[ctx.chainId] ?? [];
  if (seeds.length === 0) return chain;
  const prices = DEVNET_PRICES_USD[ctx.chainId] ?? {};
  const tokens = new Map<string, Token>(
    [{ ...chain.wrappedNative, wrapped: true }, ...chain.tokens.map((t) => ({ ...t, wrapped: false }))].map((t) => {
      const price = prices[t.symbol];
      return [t.symbol, { symbol: t.symbol, decimals: t.decimals, address: t.address, wrapped: t.wrapped, priceUsd: price ? Number(price) : NaN }];
    }),
  );
  const token = (symbol: string): Token => {
    const found = tokens.get(symbol);
    if (!found || !Number.isFinite(found.priceUsd)) throw new Error(`devnet concentrated sources: chain ${ctx.chainId} has no priced token ${symbol}`);
    return found;
  };
  const read = <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    ctx.publicClient.readContract({ address, abi, functionName, args }) as Promise<T>;

  const minter = await deploy(ctx, positionMinterAbi as Abi, positionMinterBytecode);
  // Quotes any V3-style pool with the pool's own code (Algebra has no QuoterV2 of its own in the core package).
  const poolQuoter = await deploy(ctx, poolQuoterAbi as Abi, poolQuoterBytecode);
  const sources: SourceConfig[] = [];
  const deployments: ChainInProgress['deployments'] = [
    { name: 'PositionMinter', contract: 'PositionMinter', address: minter },
    { name: 'PoolQuoter', contract: 'PoolQuoter', address: poolQuoter },
  ];

  // Factories, and the pools created and initialized at the oracle prices.
  const created: { seed: ConcentratedSourceSeed; pool: ConcentratedPoolSeed; address: Address; token0: Token; token1: Token; fee: number; tickSpacing: number; tick: number }[] = [];
  for (const seed of seeds) {
    let factory: Address;
    if (seed.kind === 'uniswap-v3') {
      factory = await deploy(ctx, uniswapV3FactoryAbi as Abi, uniswapV3FactoryBytecode);
      // The factory enables 500, 3000 and 10000 itself; 100 (spacing 1) is enabled by its owner, as on mainnet.
      for (const [fee, spacing] of Object.entries(V3_FEE_TIERS)) {
        if (Number(await read<number>(factory, uniswapV3FactoryAbi as Abi, 'feeAmountTickSpacing', [Number(fee)])) === 0) {
          await send(ctx, { address: factory, abi: uniswapV3FactoryAbi as Abi, functionName: 'enableFeeAmount', args: [Number(fee), spacing] });
        }
      }
      const quoter = await deploy(ctx, quoterV2Abi as Abi, quoterV2Bytecode, [factory, chain.wrappedNative.address]);
      sources.push({ name: seed.name, kind: seed.kind, routerIndex: seed.routerIndex, addresses: { factory, quoterV2: quoter } });
      deployments.push({ name: `${seed.name} Factory`, contract: 'UniswapV3Factory', address: factory }, { name: `${seed.name} QuoterV2`, contract: 'QuoterV2', address: quoter });
    } else {
      // The factory and the pool deployer each take the other's address: the deployer's is the deployer account's
      // CREATE address one transaction after the factory's.
      const nonce = await ctx.publicClient.getTransactionCount({ address: ctx.deployer.address, blockTag: 'pending' });
      const poolDeployer = getContractAddress({ from: ctx.deployer.address, nonce: BigInt(nonce + 1) });
      factory = await deploy(ctx, algebraFactoryAbi as Abi, algebraFactoryBytecode, [poolDeployer]);
      const deployed = await deploy(ctx, algebraPoolDeployerAbi as Abi, algebraPoolDeployerBytecode, [factory]);
      if (deployed !== poolDeployer) throw new Error(`Algebra pool deployer at ${deployed}, the factory expects ${poolDeployer}`);
      sources.push({ name: seed.name, kind: seed.kind, routerIndex: seed.routerIndex, addresses: { factory, poolDeployer, quoter: poolQuoter } });
      deployments.push({ name: `${seed.name} Factory`, contract: 'AlgebraFactory', address: factory }, { name: `${seed.name} PoolDeployer`, contract: 'AlgebraPoolDeployer', address: poolDeployer });
    }

    // The source's pools: created, then initialized at the oracle prices, each stage's transactions back to back.
    const v3 = seed.kind === 'uniswap-v3';
    const poolAbi = (v3 ? uniswapV3PoolAbi : algebraPoolAbi) as Abi;
    const factoryAbi = (v3 ? uniswapV3FactoryAbi : algebraFactoryAbi) as Abi;
    const pairs = seed.pools.map((pool) => {
      if (v3 && (pool.fee === undefined || V3_FEE_TIERS[pool.fee] === undefined)) throw new Error(`${seed.name} ${pool.tokenA}/${pool.tokenB}: no fee tier ${pool.fee}`);
      const [a, b] = [token(pool.tokenA), token(pool.tokenB)];
      const [token0, token1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a];
      return { pool, token0, token1, args: v3 ? [token0.address, token1.address, pool.fee] : [token0.address, token1.address] };
    });
    await sendBatch(
      ctx,
      pairs.map((p) => ({ address: factory, abi: factoryAbi, functionName: 'createPool', args: v3 ? p.args : [...p.args, '0x'] })),
      CREATE_POOL_GAS,
    );
    const addresses = (await ctx.publicClient.multicall({
      allowFailure: false,
      contracts: pairs.map((p) => ({ address: factory, abi: factoryAbi, functionName: v3 ? 'getPool' : 'poolByPair', args: p.args })),
    } as never)) as unknown as Address[];
    await sendBatch(
      ctx,
      pairs.map((p, i) => ({
        address: getAddress(addresses[i]),
        abi: poolAbi,
        functionName: 'initialize',
        args: [sqrtPriceX96At({ decimals: p.token0.decimals, priceUsd: prices[p.token0.symbol] }, { decimals: p.token1.decimals, priceUsd: prices[p.token1.symbol] })],
      })),
      TX_GAS,
    );
    const states = (await ctx.publicClient.multicall({
      allowFailure: false,
      contracts: addresses.flatMap((address) => [
        { address, abi: poolAbi, functionName: v3 ? 'slot0' : 'globalState' },
        { address, abi: poolAbi, functionName: 'tickSpacing' },
      ]),
    } as never)) as unknown[];
    pairs.forEach((p, i) => {
      const state = states[2 * i] as readonly [bigint, number, number];
      // A V3 pool's fee is its tier; an Algebra pool's, its globalState's lastFee (the factory's default, no plugin).
      const fee = v3 ? p.pool.fee! : Number(state[2]);
      created.push({ seed, pool: p.pool, address: getAddress(addresses[i]), token0: p.token0, token1: p.token1, fee, tickSpacing: Number(states[2 * i + 1]), tick: Number(state[1]) });
    });
  }

  // Positions, paid by the LP account: it gets an estimate of what they take plus a tenth, and gas.
  const lp: DevAccount = { ...devAccount(CONCENTRATED_LP_ACCOUNT_INDEX), role: 'concentrated-lp' };
  const plans = created.map((c) => ({ ...c, ranges: positionRanges(c.tick, c.tickSpacing, liquidityForDepth(c.token0, c.token1, c.pool.depthUsd)) }));
  const need = new Map<string, number>();
  for (const p of plans) {
    for (const range of p.ranges) {
      const [amount0, amount1] = positionAmounts(range, p.tick);
      need.set(p.token0.symbol, (need.get(p.token0.symbol) ?? 0) + amount0);
      need.set(p.token1.symbol, (need.get(p.token1.symbol) ?? 0) + amount1);
    }
  }
  await ctx.wallet.sendTransaction({ to: lp.address, value: parseEther('10') } as never).then((hash) => ctx.publicClient.waitForTransactionReceipt({ hash }));
  const funding: ContractCall[] = [];
  const approvals: ContractCall[] = [];
  for (const [symbol, units] of need) {
    const t = token(symbol);
    const amount = (BigInt(Math.ceil(units)) * 11n) / 10n + 10n ** BigInt(t.decimals);
    if (t.wrapped) {
      funding.push(
        { address: t.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: amount },
        { address: t.address, abi: wrappedNativeAbi as Abi, functionName: 'transfer', args: [lp.address, amount] },
      );
    } else {
      funding.push({ address: t.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [lp.address, amount] });
    }
    approvals.push({ address: t.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [minter, maxUint256] });
  }
  await sendBatch(ctx, funding, TX_GAS);
  await sendBatch(ctx, approvals, TX_GAS, lp);
  await sendBatch(
    ctx,
    plans.flatMap((p) =>
      p.ranges.map((range) => ({
        address: minter,
        abi: positionMinterAbi as Abi,
        functionName: p.seed.kind === 'uniswap-v3' ? 'mint' : 'mintAlgebra',
        args: [p.address, lp.address, range.lower, range.upper, range.liquidity],
      })),
    ),
    TX_GAS,
    lp,
  );
  const pools: ManifestPool[] = [];
  for (const p of plans) {
    const name = p.seed.kind === 'uniswap-v3' ? `${p.seed.name} ${p.pool.tokenA}/${p.pool.tokenB} ${p.fee / 10_000}%` : `${p.seed.name} ${p.pool.tokenA}/${p.pool.tokenB}`;
    deployments.push({ name, contract: p.seed.kind === 'uniswap-v3' ? 'UniswapV3Pool' : 'AlgebraPool', address: p.address });
    pools.push({ name, routerIndex: p.seed.routerIndex, kind: p.seed.kind, address: p.address, token0: p.token0.address, token1: p.token1.address, fee: p.fee, tickSpacing: p.tickSpacing });
  }

  return {
    ...chain,
    sources: [...chain.sources, ...sources],
    deployments: [...chain.deployments, ...deployments],
    pools: [...chain.pools, ...pools],
  };
}
