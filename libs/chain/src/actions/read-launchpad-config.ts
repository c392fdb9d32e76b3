// Reads the launchpad's fixed settings: the wrapped native coin its tokens pair with, and the curve constants
// that @dex/routing mirrors (GRADUATION_TOKEN_RESERVE, CURVE_SALE_SUPPLY, LAUNCHPAD_FEE_BPS).
import { launchpadAbi } from '@dex/abis';
import { getAddress, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadLaunchpadConfigParameters {
  readonly launchpad: Address;
}

export interface ReadLaunchpadConfigReturnType {
  /** The wrapped native token every launched token's DEX pair holds. */
  readonly wrappedNative: Address;
  /** The sale allotment of each curve. */
  readonly curveSaleSupply: bigint;
  /** The token reserve at which a curve is sold out. */
  readonly graduationTokenReserve: bigint;
  /** The trading fee in basis points. */
  readonly feeBps: bigint;
}

/** The launchpad's wrapped native token and curve constants, in one multicall. */
export async function readLaunchpadConfig(client: ChainPublicClient, params: ReadLaunchpadConfigParameters): Promise<ReadLaunchpadConfigReturnType> {
  const base = { address: params.launchpad, abi: launchpadAbi } as const;
  const [wrappedNative, curveSaleSupply, graduationTokenReserve, feeBps] = await client.multicall({
    allowFailure: false,
    contracts: [
      { ...base, functionName: 'wrappedNative' },
      { ...base, functionName: 'CURVE_SALE_SUPPLY' },
      { ...base, functionName: 'GRADUATION_TOKEN_RESERVE' },
      { ...base, functionName: 'FEE_BPS' },
    ],
  });
  return { wrappedNative: getAddress(wrappedNative), curveSaleSupply, graduationTokenReserve, feeBps };
}
