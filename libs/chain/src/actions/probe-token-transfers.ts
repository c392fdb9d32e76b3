// How a token's transfers behave, found in one `eth_call`: TransferProbe's runtime code is placed (a state override)
// at an account that holds the token (a pool) and at RouterV2's address; the holder sends a tenth of its balance to
// the router and the router sends what arrived back. A revert, a `false` answer or a fee taken shows in the two
// transfers, the same ones a swap through the pool and the router makes.
import { transferProbeAbi, transferProbeRuntimeBytecode } from '@dex/abis';
import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { describeRevert } from './simulate-router-call';

export interface ProbeTokenTransfersParameters {
  readonly token: Address;
  /** An account that holds the token: a pool trading it. */
  readonly holder: Address;
  /** The second account of the round trip: RouterV2. */
  readonly router: Address;
  /** The amount sent (at most what the holder holds); a tenth of the holder's balance when undefined. */
  readonly amount?: bigint;
  readonly blockNumber?: bigint;
}

/**
 * What the round trip showed. `failure`: a transfer reverted (`reason`: the decoded error) or answered false;
 * `transferFeeBps`: the largest part of a transfer that did not arrive, in basis points rounded up; `unknown`: the
 * holder held none of the token, so nothing was tried.
 */
export type ProbeTokenTransfersReturnType =
  | { readonly ok: true; readonly transferFeeBps: number }
  | { readonly ok: false; readonly failure: 'reverted' | 'returnedFalse'; readonly reason: string; readonly from: Address; readonly to: Address }
  | { readonly ok: false; readonly failure: 'unknown'; readonly reason: string };

const OUTCOME = { OK: 0, REVERTED: 1, RETURNED_FALSE: 2, NO_BALANCE: 3 } as const;

/** The fee of one transfer in basis points, rounded up. */
function feeBps(sent: bigint, received: bigint): number {
  if (sent === 0n || received >= sent) return 0;
  return Number(((sent - received) * 10_000n + sent - 1n) / sent);
}

/** Throws when the node cannot answer the call (the caller decides what that means). */
export async function probeTokenTransfers(client: ChainPublicClient, params: ProbeTokenTransfersParameters): Promise<ProbeTokenTransfersReturnType> {
  const { token, holder, router } = params;
  const { data } = await client.call({
    to: holder,
    data:
      params.amount === undefined
        ? encodeFunctionData({ abi: transferProbeAbi, functionName: 'probe', args: [token, router] })
        : encodeFunctionData({ abi: transferProbeAbi, functionName: 'probeAmount', args: [token, router, params.amount] }),
    stateOverride: [
      { address: holder, code: transferProbeRuntimeBytecode },
      { address: router, code: transferProbeRuntimeBytecode },
    ],
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
  });
  const [first, second] = decodeFunctionResult({ abi: transferProbeAbi, functionName: 'probe', data: data ?? '0x' }) as readonly [Step, Step];
  if (first.outcome === OUTCOME.NO_BALANCE) return { ok: false, failure: 'unknown', reason: `${holder} holds none of the token` };
  for (const [step, from, to] of [[first, holder, router], [second, router, holder]] as const) {
    if (step.outcome === OUTCOME.REVERTED) return { ok: false, failure: 'reverted', reason: describeRevert(step.revertData), from, to };
    if (step.outcome === OUTCOME.RETURNED_FALSE) return { ok: false, failure: 'returnedFalse', reason: 'transfer() answered false', from, to };
  }
  const fee = Math.max(feeBps(first.sent, first.received), second.sent > 0n ? feeBps(second.sent, second.received) : 0);
  return { ok: true, transferFeeBps: fee };
}

interface Step {
  readonly outcome: number;
  readonly sent: bigint;
  readonly received: bigint;
  readonly revertData: Hex;
}
