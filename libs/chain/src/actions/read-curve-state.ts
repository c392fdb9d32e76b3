// Reads Curve NG pools' state (StableswapNG, TwocryptoNG) at a block, every pool in one multicall, for the aggregator
// to sample again only the pools that changed: a pool's events are not all of its changes (a rate oracle's rate and a
// ramping A move without one), its state is. No `get_dy` is run here (see quote-curve-pools.ts for the quotes).
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';
import type { CurvePoolFlavor } from './quote-curve-pools';

/** An NG pool to read (`readCurvePools`): the pool, its flavor and the factory that deployed it. */
export interface CurvePoolToRead {
  readonly pool: Address;
  readonly flavor: CurvePoolFlavor;
  readonly factory: Address;
}

/** An NG pool's state as `readCurvePools` reads it at a block. */
export interface CurvePoolState {
  readonly nCoins: number;
  /** Each coin's balance in the pool, raw units. */
  readonly balances: readonly bigint[];
  /** `A()` now (mid-ramp, between the ramp's ends). */
  readonly A: bigint;
  /** `fee()`, 1e10 = 100% (TwocryptoNG's at the pool's state). */
  readonly fee: bigint;
  /** The pool takes `exchange_received`: a TwocryptoNG pool, or a StableswapNG pool with no rebasing coin (asset type 2). */
  readonly exchangeReceived: boolean;
  /**
   * Everything read that the pool's `get_dy` depends on (balances, A, fees, StableswapNG's stored rates, TwocryptoNG's
   * gamma, price scale and D), as one string: the pool's quotes have not changed while it is the same.
   */
  readonly fingerprint: string;
}

const NG_STATE_ABI = [
  { type: 'function', name: 'N_COINS', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'get_balances', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256[]' }] },
  { type: 'function', name: 'A', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'fee', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'offpeg_fee_multiplier', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'stored_rates', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256[]' }] },
  { type: 'function', name: 'get_pool_asset_types', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'uint8[]' }] },
] as const;
const TWOCRYPTO_STATE_ABI = [
  { type: 'function', name: 'balances', stateMutability: 'view', inputs: [{ type: 'uint256' }], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'A', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'gamma', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'fee', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'price_scale', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'D', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
] as const;
/** StableswapNG's asset type of a rebasing coin (its pools refuse `exchange_received`). */
const NG_REBASING = 2;

const stateCalls = (p: CurvePoolToRead) =>
  p.flavor === 'stableswap-ng'
    ? [
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'N_COINS' },
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'get_balances' },
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'A' },
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'fee' },
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'offpeg_fee_multiplier' },
        { address: p.pool, abi: NG_STATE_ABI, functionName: 'stored_rates' },
        { address: p.factory, abi: NG_STATE_ABI, functionName: 'get_pool_asset_types', args: [p.pool] },
      ]
    : [
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'balances', args: [0n] },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'balances', args: [1n] },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'A' },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'fee' },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'gamma' },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'price_scale' },
        { address: p.pool, abi: TWOCRYPTO_STATE_ABI, functionName: 'D' },
      ];

const fingerprintOf = (values: readonly unknown[]): string => values.map((v) => (Array.isArray(v) ? v.map(String).join('/') : String(v))).join(',');

/**
 * NG pools' state at `blockNumber`, every pool in one multicall (seven views each, through the client's Multicall3);
 * undefined for a pool that does not answer one of them. A failure of the call as a whole throws.
 */
export async function readCurvePools(client: ChainPublicClient, params: { readonly pools: readonly CurvePoolToRead[]; readonly blockNumber: bigint }): Promise<(CurvePoolState | undefined)[]> {
  if (params.pools.length === 0) return [];
  const calls = params.pools.map(stateCalls);
  // One eth_call whatever the pools (batchSize 0: not cut into chunks; a view each, some thousands of gas).
  const results = (await client.multicall({ allowFailure: true, batchSize: 0, blockNumber: params.blockNumber, contracts: calls.flat() } as never)) as unknown as { status: string; result?: unknown }[];
  let at = 0;
  return params.pools.map((p, k): CurvePoolState | undefined => {
    const own = results.slice(at, (at += calls[k].length));
    if (own.some((r) => r.status !== 'success')) return undefined;
    const values = own.map((r) => r.result);
    if (p.flavor === 'stableswap-ng') {
      const [nCoins, balances, A, fee, , , assetTypes] = values as [bigint, bigint[], bigint, bigint, bigint, bigint[], number[]];
      return { nCoins: Number(nCoins), balances, A, fee, exchangeReceived: !assetTypes.some((t) => Number(t) === NG_REBASING), fingerprint: fingerprintOf(values) };
    }
    const [b0, b1, A, fee] = values as bigint[];
    return { nCoins: 2, balances: [b0, b1], A, fee, exchangeReceived: true, fingerprint: fingerprintOf(values) };
  });
}
