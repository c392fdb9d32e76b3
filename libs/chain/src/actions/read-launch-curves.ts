// Reads launched tokens' bonding curves from the launchpad: the one reader of a curve's state. Every app that
// asks whether a launched token still trades on its curve asks this, and gets the answer of the one rule in
// @dex/routing (`curveFromReserves`, `launchCurveStatus`).
import { launchpadAbi } from '@dex/abis';
import { curveFromReserves, launchCurveStatus, LAUNCHPAD_FEE_BPS, VIRTUAL_NATIVE_LIQUIDITY, type CurveState, type LaunchCurveStatus } from '@dex/routing';
import { getAddress, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadLaunchCurvesParameters {
  /** The launchpad contract. */
  readonly launchpad: Address;
  /** Launched tokens; each must be the launchpad's (otherwise the read throws its TokenNotFound revert). */
  readonly tokens: readonly Address[];
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
  /** The curve's trading fee in basis points (default LAUNCHPAD_FEE_BPS). */
  readonly feeBps?: bigint;
}

/** A launched token's curve as the launchpad reports it, with what the one rule makes of it. */
export interface LaunchCurve {
  readonly token: Address;
  /** The virtual native reserve. */
  readonly nativeReserve: bigint;
  /** The virtual token reserve. */
  readonly tokenReserve: bigint;
  readonly graduated: boolean;
  /** The token's DEX pair (locked at creation; deployed before or at graduation). */
  readonly pair: Address;
  /** `trading`, `graduating` (sold out, awaiting `graduate`) or `graduated`. */
  readonly status: LaunchCurveStatus;
  /** What is left of the sale allotment: 0 once sold out or graduated (the launchpad's `getTokensForSale`). */
  readonly tokensForSale: bigint;
  /** The native coin the curve has raised: 0 once graduated (the launchpad's `getRealHypeReserve`). */
  readonly realNativeReserve: bigint;
  /** The curve to quote buys and sells on while the status is `trading`; undefined otherwise. */
  readonly curve: CurveState | undefined;
}

/** Per token, in the order given. */
export type ReadLaunchCurvesReturnType = LaunchCurve[];

/**
 * Reads the curves of launched tokens in one multicall of the launchpad's `getTokenState` and derives each
 * token's status and curve by the one rule: a token trades on its curve while it has not graduated and its token
 * reserve is above GRADUATION_TOKEN_RESERVE; at that reserve and not graduated it is `graduating`.
 *
 * Throws the first failure (a token the launchpad does not know reverts `TokenNotFound`; see `revertName`).
 *
 * @example
 * const [curve] = await readLaunchCurves(client, { launchpad, tokens: [token] });
 * if (curve.status === 'trading') quoteCurveBuy(curve.curve!, nativeIn);
 */
export async function readLaunchCurves(client: ChainPublicClient, params: ReadLaunchCurvesParameters): Promise<ReadLaunchCurvesReturnType> {
  if (params.tokens.length === 0) return [];
  const states = await client.multicall({
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
    allowFailure: false,
    contracts: params.tokens.map((token) => ({ address: params.launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] }) as const),
  });
  return states.map((state, i) => {
    const reserves = { nativeReserve: state.hypeReserve, tokenReserve: state.tokenReserve, graduated: state.graduated };
    const curve = curveFromReserves(reserves, params.feeBps ?? LAUNCHPAD_FEE_BPS);
    return {
      token: getAddress(params.tokens[i]),
      ...reserves,
      pair: getAddress(state.pair),
      status: launchCurveStatus(reserves),
      tokensForSale: curve?.tokensForSale ?? 0n,
      realNativeReserve: state.graduated ? 0n : state.hypeReserve - VIRTUAL_NATIVE_LIQUIDITY,
      curve,
    };
  });
}
