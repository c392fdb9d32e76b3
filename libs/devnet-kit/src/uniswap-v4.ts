// Uniswap V4 on the devnet, on its audited bytecode from the npm packages: v4-core's PoolManager and v4-periphery's
// StateView and V4Quoter, with our V4PositionMinter adding liquidity through the manager's `unlock`. Pools without
// hooks (several fee tiers and tick spacings, one of them with the native coin as a currency) and pools with the
// devnet's hooks (a dynamic fee, a fee taken from the input by beforeSwap's return delta, a hook refusing large swaps)
// are created at the oracle prices and seeded with positions in several ranges, so that ordinary swaps cross ticks.
// A hook's permissions are the low 14 bits of its address: each is deployed with CREATE2 (anvil's deterministic
// deployer) under a salt mined for exactly its flags.
import {
  dynamicFeeHookAbi,
  dynamicFeeHookBytecode,
  inputFeeHookAbi,
  inputFeeHookBytecode,
  poolManagerAbi,
  poolManagerBytecode,
  stateViewAbi,
  stateViewBytecode,
  swapLimitHookAbi,
  swapLimitHookBytecode,
  testERC20Abi,
  v4PositionMinterAbi,
  v4PositionMinterBytecode,
  v4QuoterAbi,
  v4QuoterBytecode,
  wrappedNativeAbi,
} from '@dex/abis';
import type { HookQuoteMode, ListedHook } from '@dex/messages';
import { concat, encodeAbiParameters, encodeDeployData, getContractAddress, keccak256, maxUint256, numberToHex, parseEther, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { devAccount, type DevAccount } from './accounts';
import { DEVNET_PRICES_USD } from './amm';
import { CONCENTRATED_LP_ACCOUNT_INDEX, liquidityForDepth, positionAmounts, positionRanges, sqrtPriceX96At } from './concentrated';
import { deploy, sendBatch, type ChainInProgress, type ContractCall, type DeployContext } from './deploy';

/** The symbol that names the chain's native coin as a V4 currency (address(0)), priced as its wrapped token. */
export const NATIVE_CURRENCY = 'native';

/** A V4 key's fee that marks a dynamic-fee pool (its hook sets the LP fee). */
export const DYNAMIC_FEE_FLAG = 0x800000;

/** The devnet's hooks: their contract, constructor settings and permission flags (the low bits of their address). */
export type DevnetHookName = 'dynamic-fee' | 'input-fee' | 'swap-limit';

/** A V4 pool to create: two symbols (`native` for the native coin), the fee (or a dynamic one), spacing, hook, depth. */
export interface UniswapV4PoolSeed {
  readonly tokenA: string;
  readonly tokenB: string;
  /** The LP fee in pips, or `dynamic` (the pool's hook sets it: `dynamic-fee`). */
  readonly fee: number | 'dynamic';
  readonly tickSpacing: number;
  readonly hook?: DevnetHookName;
  /** As for concentrated pools: the USD value of a V2 pool with the same liquidity near the price. */
  readonly depthUsd: number;
}

/** A Uniswap V4 source: one PoolManager and its pools. */
export interface UniswapV4SourceSeed {
  readonly name: string;
  readonly routerIndex: number;
  readonly pools: readonly UniswapV4PoolSeed[];
}

/**
 * The devnet's hooks that may change a swap, listed in the source's `hooks` (so routed, and allowed on RouterV2 by
 * `deployRouter`), with how their pools are quoted: the input-fee hook takes a fee through beforeSwap's return delta
 * (`sampled`: only V4Quoter knows its amounts); the swap-limit hook only refuses large swaps (`exact`). The
 * dynamic-fee hook has no swap permission and needs no listing.
 */
export const DEVNET_LISTED_HOOKS: Readonly<Partial<Record<DevnetHookName, HookQuoteMode>>> = { 'input-fee': 'sampled', 'swap-limit': 'exact' };

/** The devnet hooks' settings: the dynamic-fee hook's first LP fee, the input-fee hook's fee, the swap limit (units). */
export const DEVNET_HOOK_SETTINGS = { initialDynamicFee: 2500, inputFeePips: 1000, swapLimitUnits: 50_000 } as const;

/** The devnet's V4 source per chain, after the concentrated sources (routerIndex 8). */
export const DEVNET_UNISWAP_V4_SOURCES: Record<number, UniswapV4SourceSeed> = {
  999: {
    name: 'DevSwap V4',
    routerIndex: 8,
    pools: [
      { tokenA: NATIVE_CURRENCY, tokenB: 'USDC', fee: 500, tickSpacing: 10, depthUsd: 120_000 },
      { tokenA: 'WHYPE', tokenB: 'USDC', fee: 3000, tickSpacing: 60, depthUsd: 80_000 },
      { tokenA: 'USDC', tokenB: 'USDT', fee: 100, tickSpacing: 1, depthUsd: 300_000 },
      { tokenA: 'WHYPE', tokenB: 'USDC', fee: 'dynamic', tickSpacing: 60, hook: 'dynamic-fee', depthUsd: 60_000 },
      { tokenA: 'PURR', tokenB: 'WHYPE', fee: 3000, tickSpacing: 60, hook: 'input-fee', depthUsd: 40_000 },
      { tokenA: 'USDC', tokenB: 'USDT', fee: 500, tickSpacing: 10, hook: 'swap-limit', depthUsd: 100_000 },
    ],
  },
  4663: {
    name: 'DevSwap V4',
    routerIndex: 8,
    pools: [
      { tokenA: NATIVE_CURRENCY, tokenB: 'USDC', fee: 500, tickSpacing: 10, depthUsd: 300_000 },
      { tokenA: 'WETH', tokenB: 'USDC', fee: 3000, tickSpacing: 60, depthUsd: 200_000 },
      { tokenA: 'USDC', tokenB: 'USDT', fee: 100, tickSpacing: 1, depthUsd: 300_000 },
      { tokenA: 'WETH', tokenB: 'USDC', fee: 'dynamic', tickSpacing: 60, hook: 'dynamic-fee', depthUsd: 150_000 },
      { tokenA: 'LINK', tokenB: 'WETH', fee: 3000, tickSpacing: 60, hook: 'input-fee', depthUsd: 100_000 },
      { tokenA: 'USDC', tokenB: 'USDT', fee: 500, tickSpacing: 10, hook: 'swap-limit', depthUsd: 100_000 },
    ],
  },
};

/** Anvil's deterministic CREATE2 deployer: called with a salt followed by the init code, deploys it there. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** v4-core's hook permission bits that fit in an address's low 14 bits. */
const ALL_HOOK_MASK = (1n << 14n) - 1n;

/** A V4 pool key. */
export interface PoolKey {
  readonly currency0: Address;
  readonly currency1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: Address;
}

/** A V4 pool the devnet created: its key and id, its tokens as the routes name them, its seed and tick. */
export interface DevnetV4Pool {
  readonly name: string;
  readonly key: PoolKey;
  readonly poolId: Hex;
  /** The key's currencies with the native coin as the wrapped native token (the pool's order kept). */
  readonly token0: Address;
  readonly token1: Address;
  readonly hook?: DevnetHookName;
}

/** The V4 deployment of a chain. */
export interface DevnetUniswapV4 {
  /** The source's entry: its contracts by role and its listed hooks (`DEVNET_LISTED_HOOKS`). */
  readonly source: { name: string; routerIndex: number; addresses: Record<string, Address>; hooks: ListedHook[] };
  readonly pools: readonly DevnetV4Pool[];
}

const POOL_KEY_PARAMS = [
  {
    type: 'tuple',
    components: [
      { name: 'currency0', type: 'address' },
      { name: 'currency1', type: 'address' },
      { name: 'fee', type: 'uint24' },
      { name: 'tickSpacing', type: 'int24' },
      { name: 'hooks', type: 'address' },
    ],
  },
] as const;

/** A key's ABI encoding: RouterV2's `data` for a V4 swap. */
export function encodePoolKey(key: PoolKey): Hex {
  return encodeAbiParameters(POOL_KEY_PARAMS, [key]);
}

/** A key's PoolId: keccak256 of its ABI encoding. */
export function poolIdOf(key: PoolKey): Hex {
  return keccak256(encodePoolKey(key));
}

/** The first salt whose CREATE2 address under `CREATE2_DEPLOYER` carries exactly `flags` in its low 14 bits. */
export function mineHookSalt(initCode: Hex, flags: bigint): { salt: Hex; address: Address } {
  const bytecodeHash = keccak256(initCode);
  for (let i = 0n; i < 1n << 24n; i += 1n) {
    const salt = numberToHex(i, { size: 32 });
    const address = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecodeHash });
    if ((BigInt(address) & ALL_HOOK_MASK) === flags) return { salt, address };
  }
  throw new Error(`no salt gives a hook address with flags ${flags}`);
}

/** Deploys a hook at a mined address through the CREATE2 deployer; returns the address. */
async function deployHook(ctx: DeployContext, abi: Abi, bytecode: Hex, args: readonly unknown[], flags: bigint): Promise<Address> {
  const code = await ctx.publicClient.getCode({ address: CREATE2_DEPLOYER });
  if (!code || code === '0x') throw new Error(`chain ${ctx.chainId} has no CREATE2 deployer at ${CREATE2_DEPLOYER}`);
  const initCode = encodeDeployData({ abi, bytecode, args } as never);
  const { salt, address } = mineHookSalt(initCode, flags);
  const hash = await ctx.wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]), gas: 5_000_000n } as never);
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  const deployed = await ctx.publicClient.getCode({ address });
  if (receipt.status !== 'success' || !deployed || deployed === '0x') throw new Error(`hook deployment at ${address} failed on chain ${ctx.chainId}`);
  return address;
}

/** The devnet's three hooks on `manager`, owned by the deployer (who also receives the input-fee hook's fees). */
async function deployHooks(ctx: DeployContext, manager: Address, swapLimit: bigint): Promise<Record<DevnetHookName, Address>> {
  const owner = ctx.deployer.address;
  const { initialDynamicFee, inputFeePips } = DEVNET_HOOK_SETTINGS;
  return {
    'dynamic-fee': await deployHook(ctx, dynamicFeeHookAbi as Abi, dynamicFeeHookBytecode, [manager, owner, initialDynamicFee], 1n << 12n),
    'input-fee': await deployHook(ctx, inputFeeHookAbi as Abi, inputFeeHookBytecode, [manager, owner, inputFeePips], (1n << 7n) | (1n << 3n)),
    'swap-limit': await deployHook(ctx, swapLimitHookAbi as Abi, swapLimitHookBytecode, [manager, owner, swapLimit], 1n << 7n),
  };
}

interface PricedToken {
  readonly symbol: string;
  readonly currency: Address;
  /** How routes name it: the wrapped native token for the native coin. */
  readonly token: Address;
  readonly decimals: number;
  readonly priceUsd: string;
  readonly wrapped: boolean;
}

/** The chain entry with the V4 source's deployment added: its source, contracts and pools. */
export async function withUniswapV4(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const v4 = await deployUniswapV4(ctx, chain);
  if (!v4) return chain;
  const a = v4.source.addresses;
  const contracts: [string, string, Address][] = [
    ['PoolManager', 'PoolManager', a.poolManager],
    ['StateView', 'StateView', a.stateView],
    ['V4Quoter', 'V4Quoter', a.v4Quoter],
    ['V4PositionMinter', 'V4PositionMinter', a.positionMinter],
    ['DynamicFeeHook', 'DynamicFeeHook', a.dynamicFeeHook],
    ['InputFeeHook', 'InputFeeHook', a.inputFeeHook],
    ['SwapLimitHook', 'SwapLimitHook', a.swapLimitHook],
  ];
  return {
    ...chain,
    sources: [...chain.sources, { name: v4.source.name, kind: 'uniswap-v4', routerIndex: v4.source.routerIndex, addresses: a, hooks: v4.source.hooks }],
    deployments: [...chain.deployments, ...contracts.map(([name, contract, address]) => ({ name: `${v4.source.name} ${name}`, contract, address }))],
    uniswapV4Pools: v4.pools.map((p) => ({
      name: p.name,
      routerIndex: v4.source.routerIndex,
      poolManager: a.poolManager,
      poolId: p.poolId,
      ...p.key,
      token0: p.token0,
      token1: p.token1,
      ...(p.hook ? { hook: p.hook } : {}),
    })),
  };
}

/**
 * Deploys the chain's V4 source (`DEVNET_UNISWAP_V4_SOURCES`): PoolManager (owner: the deployer), StateView, V4Quoter,
 * V4PositionMinter and the hooks; initializes the pools at the oracle prices and seeds their positions from the
 * concentrated LP account (the native coin sent with the call).
 */
export async function deployUniswapV4(ctx: DeployContext, chain: ChainInProgress): Promise<DevnetUniswapV4 | undefined> {
  const seed = DEVNET_UNISWAP_V4_SOURCES[ctx.chainId];
  if (!seed) return undefined;
  const prices = DEVNET_PRICES_USD[ctx.chainId] ?? {};
  const wrapped = chain.wrappedNative;
  const token = (symbol: string): PricedToken => {
    if (symbol === NATIVE_CURRENCY) return { symbol, currency: zeroAddress, token: wrapped.address, decimals: wrapped.decimals, priceUsd: prices[wrapped.symbol], wrapped: false };
    const found = [wrapped, ...chain.tokens].find((t) => t.symbol === symbol);
    const priceUsd = prices[symbol];
    if (!found || !priceUsd) throw new Error(`devnet V4 source: chain ${ctx.chainId} has no priced token ${symbol}`);
    return { symbol, currency: found.address, token: found.address, decimals: found.decimals, priceUsd, wrapped: found.address === wrapped.address };
  };

  const manager = await deploy(ctx, poolManagerAbi as Abi, poolManagerBytecode, [ctx.deployer.address]);
  const stateView = await deploy(ctx, stateViewAbi as Abi, stateViewBytecode, [manager]);
  const v4Quoter = await deploy(ctx, v4QuoterAbi as Abi, v4QuoterBytecode, [manager]);
  const positionMinter = await deploy(ctx, v4PositionMinterAbi as Abi, v4PositionMinterBytecode, [manager]);
  const usdc = token('USDC');
  const hooks = await deployHooks(ctx, manager, BigInt(DEVNET_HOOK_SETTINGS.swapLimitUnits) * 10n ** BigInt(usdc.decimals));

  const plans = seed.pools.map((pool) => {
    const [a, b] = [token(pool.tokenA), token(pool.tokenB)];
    const [t0, t1] = BigInt(a.currency) < BigInt(b.currency) ? [a, b] : [b, a];
    const key: PoolKey = {
      currency0: t0.currency,
      currency1: t1.currency,
      fee: pool.fee === 'dynamic' ? DYNAMIC_FEE_FLAG : pool.fee,
      tickSpacing: pool.tickSpacing,
      hooks: pool.hook ? hooks[pool.hook] : zeroAddress,
    };
    const sqrtPriceX96 = sqrtPriceX96At(t0, t1);
    const name = `${seed.name} ${pool.tokenA}/${pool.tokenB} ${pool.fee === 'dynamic' ? 'dynamic fee' : `${pool.fee / 10_000}%`}${pool.hook ? ` (${pool.hook} hook)` : ''}`;
    return { pool, t0, t1, key, sqrtPriceX96, name, poolId: poolIdOf(key) };
  });
  await sendBatch(ctx, plans.map((p) => ({ address: manager, abi: poolManagerAbi as Abi, functionName: 'initialize', args: [p.key, p.sqrtPriceX96] })), 1_000_000n);
  const slots = (await ctx.publicClient.multicall({
    allowFailure: false,
    contracts: plans.map((p) => ({ address: stateView, abi: stateViewAbi as Abi, functionName: 'getSlot0', args: [p.poolId] })),
  } as never)) as unknown as (readonly [bigint, number, number, number])[];

  await seedPositions(ctx, positionMinter, plans.map((p, i) => ({ ...p, tick: Number(slots[i][1]) })));
  const listed = (Object.entries(DEVNET_LISTED_HOOKS) as [DevnetHookName, HookQuoteMode][]).map(([hook, quote]): ListedHook => ({ address: hooks[hook], name: `${seed.name} ${hook} hook`, quote }));
  return {
    source: {
      name: seed.name,
      routerIndex: seed.routerIndex,
      addresses: { poolManager: manager, stateView, v4Quoter, positionMinter, dynamicFeeHook: hooks['dynamic-fee'], inputFeeHook: hooks['input-fee'], swapLimitHook: hooks['swap-limit'] },
      hooks: listed,
    },
    pools: plans.map((p) => ({ name: p.name, key: p.key, poolId: p.poolId, token0: p.t0.token, token1: p.t1.token, ...(p.pool.hook ? { hook: p.pool.hook } : {}) })),
  };
}

/** Funds the LP account with what the pools' positions take (a tenth more) and adds them, native coin with the call. */
async function seedPositions(
  ctx: DeployContext,
  minter: Address,
  plans: readonly { pool: UniswapV4PoolSeed; t0: PricedToken; t1: PricedToken; key: PoolKey; tick: number }[],
): Promise<void> {
  const lp: DevAccount = { ...devAccount(CONCENTRATED_LP_ACCOUNT_INDEX), role: 'concentrated-lp' };
  const seeded = plans.map((p) => {
    const ranges = positionRanges(p.tick, p.key.tickSpacing, liquidityForDepth({ decimals: p.t0.decimals, priceUsd: Number(p.t0.priceUsd) }, { decimals: p.t1.decimals, priceUsd: Number(p.t1.priceUsd) }, p.pool.depthUsd));
    let [need0, need1] = [0, 0];
    for (const range of ranges) {
      const [amount0, amount1] = positionAmounts(range, p.tick);
      need0 += amount0;
      need1 += amount1;
    }
    return { ...p, ranges, need: [need0, need1] as const };
  });
  const need = new Map<PricedToken, number>();
  const tokenOf = new Map<string, PricedToken>();
  let native = 0n;
  for (const p of seeded) {
    for (const [t, units] of [[p.t0, p.need[0]], [p.t1, p.need[1]]] as const) {
      if (t.currency === zeroAddress) {
        native += (BigInt(Math.ceil(units)) * 11n) / 10n;
        continue;
      }
      const known = tokenOf.get(t.symbol) ?? t;
      tokenOf.set(t.symbol, known);
      need.set(known, (need.get(known) ?? 0) + units);
    }
  }
  await ctx.wallet.sendTransaction({ to: lp.address, value: native + parseEther('10') } as never).then((hash) => ctx.publicClient.waitForTransactionReceipt({ hash }));
  const funding: ContractCall[] = [];
  const approvals: ContractCall[] = [];
  for (const [t, units] of need) {
    const amount = (BigInt(Math.ceil(units)) * 11n) / 10n + 10n ** BigInt(t.decimals);
    if (t.wrapped) {
      funding.push(
        { address: t.currency, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: amount },
        { address: t.currency, abi: wrappedNativeAbi as Abi, functionName: 'transfer', args: [lp.address, amount] },
      );
    } else {
      funding.push({ address: t.currency, abi: testERC20Abi as Abi, functionName: 'mint', args: [lp.address, amount] });
    }
    approvals.push({ address: t.currency, abi: testERC20Abi as Abi, functionName: 'approve', args: [minter, maxUint256] });
  }
  await sendBatch(ctx, funding, 1_500_000n);
  await sendBatch(ctx, approvals, 1_500_000n, lp);
  await sendBatch(
    ctx,
    seeded.map((p) => ({
      address: minter,
      abi: v4PositionMinterAbi as Abi,
      functionName: 'addPositions',
      args: [p.key, 0n, p.ranges.map((r) => ({ tickLower: r.lower, tickUpper: r.upper, liquidity: r.liquidity }))],
      value: p.key.currency0 === zeroAddress ? (BigInt(Math.ceil(p.need[0])) * 11n) / 10n : 0n,
    })),
    3_000_000n,
    lp,
  );
}
