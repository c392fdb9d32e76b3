import {
  ammPoolAbi,
  ammPoolBytecode,
  ammRouterAbi,
  ammRouterBytecode,
  refCodeRegistryAbi,
  refCodeRegistryBytecode,
  settablePriceOracleAbi,
  settablePriceOracleBytecode,
  testERC20Abi,
  wrappedNativeAbi,
} from '@dex/abis';
import { getAddress, keccak256, parseUnits, stringToHex, type Abi, type Address } from 'viem';
import { devAccounts } from './accounts';
import { deploy, send, type ChainInProgress, type DeployContext } from './deploy';

/** USD price of one whole token on the devnet oracle, per chain and symbol. */
export const DEVNET_PRICES_USD: Record<number, Record<string, string>> = {
  999: { WHYPE: '25', USDC: '1', USDT: '1', DAI: '1', PURR: '0.25' },
  4663: { WETH: '3000', USDC: '1', USDT: '1', DAI: '1', LINK: '15' },
};

/** Core pools per chain: two symbols and the whole-token liquidity of each side. */
export const DEVNET_CORE_POOLS: Record<number, readonly { a: string; b: string; amountA: string; amountB: string }[]> = {
  999: [
    { a: 'WHYPE', b: 'USDC', amountA: '2000', amountB: '50000' },
    { a: 'USDC', b: 'USDT', amountA: '200000', amountB: '200000' },
    { a: 'PURR', b: 'USDC', amountA: '200000', amountB: '50000' },
  ],
  4663: [
    { a: 'WETH', b: 'USDC', amountA: '20', amountB: '60000' },
    { a: 'USDC', b: 'USDT', amountA: '200000', amountB: '200000' },
    { a: 'LINK', b: 'USDC', amountA: '4000', amountB: '60000' },
  ],
};

/** Referral codes the operator issues on the devnet, with the role of the dev account that claims them. */
export const DEVNET_REF_CODES: readonly { code: string; claimRole: string }[] = [
  { code: 'ALPHA', claimRole: 'integrator' },
  { code: 'BETA', claimRole: 'trader-3' },
];

/** Fee parameters of the devnet pools (bps; target weight 50% in 1e18). */
export const DEVNET_FEE_PARAMS = {
  minFeeBps: 5,
  baseFeeBps: 30,
  maxFeeBps: 100,
  slopeBps: 200,
  protocolShareBps: 2000,
  refShareBps: 3000,
  targetWeight0: 5n * 10n ** 17n,
} as const;

/**
 * How old an oracle price may be. The devnet's clock runs in real time and nothing refreshes prices unless
 * the activity simulator runs, so the devnet allows the maximum (7 days).
 */
export const DEVNET_MAX_PRICE_AGE = 7n * 24n * 3600n;

/** The contracts a core pool is wired to. */
export interface CoreContracts {
  readonly router: Address;
  readonly registry: Address;
  readonly oracle: Address;
  /** Deposited rather than minted when a pool holds it. */
  readonly wrappedNative: Address;
}

/**
 * Deploys a core pool of two tokens priced by the AMM's oracle (which must have both prices), adds `amount` of
 * each as liquidity from the deployer (from its balance, else minting test tokens; wrapping the native coin) and registers the pool at
 * the AMM router, which emits the PoolAdded the indexer discovers it by.
 */
export async function deployCorePool(
  ctx: DeployContext,
  core: CoreContracts,
  a: { token: { address: Address }; amount: bigint },
  b: { token: { address: Address }; amount: bigint },
): Promise<{ address: Address; token0: Address; token1: Address }> {
  const owner = ctx.deployer.address;
  const pool = await deploy(ctx, ammPoolAbi as Abi, ammPoolBytecode, [a.token.address, b.token.address, core.oracle, core.registry, DEVNET_FEE_PARAMS, DEVNET_MAX_PRICE_AGE, owner]);
  await send(ctx, { address: pool, abi: ammPoolAbi as Abi, functionName: 'setRouter', args: [core.router] });
  for (const { token: t, amount } of [a, b]) {
    if (t.address === core.wrappedNative) {
      await send(ctx, { address: t.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: amount });
    } else if ((await ctx.publicClient.readContract({ address: t.address, abi: testERC20Abi, functionName: 'balanceOf', args: [owner] })) < amount) {
      await send(ctx, { address: t.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [owner, amount] });
    }
    await send(ctx, { address: t.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [pool, amount] });
  }
  const [first, second] = BigInt(a.token.address) < BigInt(b.token.address) ? [a, b] : [b, a];
  await send(ctx, { address: pool, abi: ammPoolAbi as Abi, functionName: 'addLiquidity', args: [first.amount, second.amount] });
  await send(ctx, { address: core.router, abi: ammRouterAbi as Abi, functionName: 'addPool', args: [pool] });
  return { address: pool, token0: first.token.address, token1: second.token.address };
}

/** Claim lock after a claim wallet change. */
export const DEVNET_CLAIM_LOCK = 24n * 3600n;

/**
 * Deploys the oracle-validated AMM ("core"): the referral registry, a settable price oracle with the devnet
 * prices, the AMM router, one pool per pair with liquidity from the deployer, and the referral codes. Adds
 * the AMM as the `core` liquidity source (routerIndex 0) and its pools to the chain entry.
 */
export async function deployAmm(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const owner = ctx.deployer.address;
  const byRole = (role: string) => devAccounts().find((a) => a.role === role)!;
  const tokens = [chain.wrappedNative, ...chain.tokens];
  const token = (symbol: string) => {
    const t = tokens.find((x) => x.symbol === symbol);
    if (!t) throw new Error(`no token ${symbol} on chain ${ctx.chainId}`);
    return t;
  };

  const registry = await deploy(ctx, refCodeRegistryAbi as Abi, refCodeRegistryBytecode, [owner, DEVNET_CLAIM_LOCK]);
  const oracle = await deploy(ctx, settablePriceOracleAbi as Abi, settablePriceOracleBytecode, [owner]);
  const prices = DEVNET_PRICES_USD[ctx.chainId] ?? {};
  await send(ctx, {
    address: oracle,
    abi: settablePriceOracleAbi as Abi,
    functionName: 'setPrices',
    args: [Object.keys(prices).map((s) => token(s).address), Object.values(prices).map((p) => parseUnits(p, 18))],
  });
  const router = await deploy(ctx, ammRouterAbi as Abi, ammRouterBytecode, [owner, registry]);

  const deployments: ChainInProgress['deployments'] = [
    { name: 'Core RefCodeRegistry', contract: 'RefCodeRegistry', address: registry },
    { name: 'Core Price Oracle', contract: 'SettablePriceOracle', address: oracle },
    { name: 'Core Router', contract: 'AmmRouter', address: router },
  ];
  const pools: ChainInProgress['pools'] = [];
  for (const spec of DEVNET_CORE_POOLS[ctx.chainId] ?? []) {
    const [a, b] = [token(spec.a), token(spec.b)];
    const { address: pool, token0, token1 } = await deployCorePool(
      ctx,
      { router, registry, oracle, wrappedNative: chain.wrappedNative.address },
      { token: a, amount: parseUnits(spec.amountA, a.decimals) },
      { token: b, amount: parseUnits(spec.amountB, b.decimals) },
    );
    const name = `Core ${spec.a}/${spec.b}`;
    deployments.push({ name, contract: 'AmmPool', address: pool });
    pools.push({ name, routerIndex: 0, kind: 'core', address: pool, token0, token1 });
  }

  const refCodes = [];
  for (const { code, claimRole } of DEVNET_REF_CODES) {
    const claimWallet = byRole(claimRole).address;
    await send(ctx, { address: registry, abi: refCodeRegistryAbi as Abi, functionName: 'registerRefCodeText', args: [code, claimWallet] });
    refCodes.push({ code, refCode: keccak256(stringToHex(code)), claimWallet });
  }

  return {
    ...chain,
    sources: [{ name: 'Core', kind: 'core', routerIndex: 0, addresses: { router, registry, oracle } }, ...chain.sources],
    deployments: [...chain.deployments, ...deployments],
    pools: [...pools, ...chain.pools],
    core: { router: getAddress(router), registry, oracle, refCodes },
  };
}

