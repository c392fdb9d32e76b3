// Reads the referral fees waiting to be claimed: every active referral code's claimable amounts in every core pool.
import { ammPoolAbi, refCodeRegistryAbi } from '@dex/abis';
import type { Address, Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { readCorePools } from './read-core-pools';

export interface ReadPendingRefFeesParameters {
  /** The AMM router (its pools). */
  readonly router: Address;
  /** The referral code registry. */
  readonly registry: Address;
}

export interface PendingRefFee {
  readonly pool: Address;
  readonly refCode: Hex;
  readonly token0: Address;
  readonly token1: Address;
  readonly amount0: bigint;
  readonly amount1: bigint;
}

/** Per pool and active code with something claimable (amount0 or amount1 above 0), pools in the router's order. */
export type ReadPendingRefFeesReturnType = PendingRefFee[];

/**
 * Every active code's claimable referral fees in every core pool: the router's pools and the registry's codes,
 * then one multicall each for the codes, their activity, the pools' tokens and the claimable amounts.
 * Throws the first failure.
 */
export async function readPendingRefFees(client: ChainPublicClient, params: ReadPendingRefFeesParameters): Promise<ReadPendingRefFeesReturnType> {
  const { registry } = params;
  const [pools, count] = await Promise.all([
    readCorePools(client, { router: params.router }),
    client.readContract({ address: registry, abi: refCodeRegistryAbi, functionName: 'refCodeCount' }),
  ]);
  const indexes = Array.from({ length: Number(count) }, (_, i) => BigInt(i));
  const codes = await client.multicall({
    allowFailure: false,
    contracts: indexes.map((i) => ({ address: registry, abi: refCodeRegistryAbi, functionName: 'refCodeAt', args: [i] }) as const),
  });
  const active = await client.multicall({
    allowFailure: false,
    contracts: codes.map((code) => ({ address: registry, abi: refCodeRegistryAbi, functionName: 'isActive', args: [code] }) as const),
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
  return pairs.map((p, i) => ({ ...p, amount0: claimable[i][0], amount1: claimable[i][1] })).filter((e) => e.amount0 > 0n || e.amount1 > 0n);
}
