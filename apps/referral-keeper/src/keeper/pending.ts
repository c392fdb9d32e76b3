import { ammPoolAbi, ammRouterAbi, refCodeRegistryAbi, settablePriceOracleAbi } from '@dex/abis';
import { erc20Abi, formatUnits, type Address, type Hex } from 'viem';
import type { KeeperChain } from './keeper-chains';

export interface PendingFees {
  /** Active codes with something claimable, per pool. */
  readonly entries: { pool: Address; refCode: Hex; token0: Address; token1: Address; amount0: bigint; amount1: bigint }[];
  /** USD value of everything pending, at the oracle prices (a token without a price counts as 0). */
  readonly totalUsd: number;
}

/** Reads every active code's claimable referral fees in every pool of the chain, in a few multicalls. */
export async function readPendingFees(chain: KeeperChain): Promise<PendingFees> {
  const { client } = chain;
  const [pools, count] = await Promise.all([
    client.readContract({ address: chain.router, abi: ammRouterAbi, functionName: 'getPools' }),
    client.readContract({ address: chain.registry, abi: refCodeRegistryAbi, functionName: 'refCodeCount' }),
  ]);
  const indexes = Array.from({ length: Number(count) }, (_, i) => BigInt(i));
  const codes = await client.multicall({
    allowFailure: false,
    contracts: indexes.map((i) => ({ address: chain.registry, abi: refCodeRegistryAbi, functionName: 'refCodeAt', args: [i] }) as const),
  });
  const active = await client.multicall({
    allowFailure: false,
    contracts: codes.map((code) => ({ address: chain.registry, abi: refCodeRegistryAbi, functionName: 'isActive', args: [code] }) as const),
  });
  const activeCodes = codes.filter((_, i) => active[i]);
  const tokens = await client.multicall({
    allowFailure: false,
    contracts: pools.map((pool) => ({ address: pool, abi: ammPoolAbi, functionName: 'getTokens' }) as const),
  });
  const pairs = pools.flatMap((pool, p) => activeCodes.map((refCode) => ({ pool, refCode, token0: tokens[p][0], token1: tokens[p][1] })));
  const claimable = await client.multicall({
    allowFailure: false,
    contracts: pairs.map(({ pool, refCode }) => ({ address: pool, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [refCode] }) as const),
  });
  const entries = pairs
    .map((p, i) => ({ ...p, amount0: claimable[i][0], amount1: claimable[i][1] }))
    .filter((e) => e.amount0 > 0n || e.amount1 > 0n);

  const byToken = new Map<Address, bigint>();
  for (const e of entries) {
    byToken.set(e.token0, (byToken.get(e.token0) ?? 0n) + e.amount0);
    byToken.set(e.token1, (byToken.get(e.token1) ?? 0n) + e.amount1);
  }
  const list = [...byToken.keys()];
  const [prices, decimals] = await Promise.all([
    client.multicall({ contracts: list.map((t) => ({ address: chain.oracle, abi: settablePriceOracleAbi, functionName: 'getPriceUsd', args: [t] }) as const) }),
    client.multicall({ contracts: list.map((t) => ({ address: t, abi: erc20Abi, functionName: 'decimals' }) as const) }),
  ]);
  let totalUsd = 0;
  list.forEach((token, i) => {
    const price = prices[i].status === 'success' ? (prices[i].result as readonly [bigint, bigint])[0] : 0n;
    const dec = decimals[i].status === 'success' ? Number(decimals[i].result) : 18;
    totalUsd += Number(formatUnits(byToken.get(token)!, dec)) * Number(formatUnits(price, 18));
  });
  return { entries, totalUsd };
}
