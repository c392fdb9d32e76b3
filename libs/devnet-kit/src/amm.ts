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
import { getAddress, keccak256, parseUnits, stringToHex, type Abi } from 'viem';
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
    const pool = await deploy(ctx, ammPoolAbi as Abi, ammPoolBytecode, [a.address, b.address, oracle, registry, DEVNET_FEE_PARAMS, DEVNET_MAX_PRICE_AGE, owner]);
    await send(ctx, { address: pool, abi: ammPoolAbi as Abi, functionName: 'setRouter', args: [router] });
    const amounts = new Map([
      [a.address, parseUnits(spec.amountA, a.decimals)],
      [b.address, parseUnits(spec.amountB, b.decimals)],
    ]);
    for (const t of [a, b]) {
      const amount = amounts.get(t.address)!;
      if (t.address === chain.wrappedNative.address) {
        await send(ctx, { address: t.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: amount });
      } else {
        await send(ctx, { address: t.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [owner, amount] });
      }
      await send(ctx, { address: t.address, abi: testERC20Abi as Abi, functionName: 'approve', args: [pool, amount] });
    }
    const [token0, token1] = BigInt(a.address) < BigInt(b.address) ? [a.address, b.address] : [b.address, a.address];
    await send(ctx, { address: pool, abi: ammPoolAbi as Abi, functionName: 'addLiquidity', args: [amounts.get(token0)!, amounts.get(token1)!] });
    await send(ctx, { address: router, abi: ammRouterAbi as Abi, functionName: 'addPool', args: [pool] });
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

