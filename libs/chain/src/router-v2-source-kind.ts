// RouterV2's `SourceKind` enum (the `kind` argument of `setSource`) by source kind name. 0 (`None`) marks an empty
// registry slot and is never registered. A fork of a known kind is a new registry slot with the kind's number and
// the fork's factory.

/**
 * RouterV2's `SourceKind` values. `uniswap-v3` is Uniswap V3 and its forks (the factory's `getPool(tokenIn,
 * tokenOut, pool.fee())` must return the swap's pool); `algebra` is Algebra Integral (the factory's
 * `poolByPair(tokenIn, tokenOut)`); both are paid in their swap callbacks and take no `Swap.data`. `uniswap-v4` is a
 * Uniswap V4 PoolManager (the source's factory, and every swap's `pool`), swapped inside its `unlock`; a swap's `data`
 * is the pool's key. `curve-stableswap-ng` and `curve-twocrypto-ng` are Curve's StableswapNG and TwocryptoNG pools: the
 * registered contract is the pool factory, whose `get_coin_indices(pool, tokenIn, tokenOut)` must answer for the swap's
 * pool (a StableswapNG metapool's underlying coins are refused); a swap's `data` is empty (the pool is paid by a transfer,
 * then `exchange_received`) or `abi.encode(uint256(1))` (the pool pulls its input through an allowance in `exchange`:
 * needed for a StableswapNG pool holding a rebasing coin, which refuses `exchange_received`).
 */
export const ROUTER_V2_SOURCE_KIND = {
  'uniswap-v2': 1,
  stable: 2,
  core: 3,
  launchpad: 4,
  'uniswap-v3': 5,
  algebra: 6,
  'uniswap-v4': 7,
  'curve-stableswap-ng': 8,
  'curve-twocrypto-ng': 9,
} as const;

/** A source kind RouterV2 can trade. */
export type RouterV2SourceKindName = keyof typeof ROUTER_V2_SOURCE_KIND;

/** Whether RouterV2 knows `kind` (a kind name from config or a message). */
export function isRouterV2SourceKind(kind: string): kind is RouterV2SourceKindName {
  return Object.prototype.hasOwnProperty.call(ROUTER_V2_SOURCE_KIND, kind);
}

/**
 * The contract RouterV2 registers for a source (`setSource`'s `factory`): the one that vouches for its pools, by the
 * role the source's addresses give it: a pool factory, the core AMM's router, a V4 PoolManager, or for a launchpad
 * source the launchpad.
 */
export function routerSourceContract(source: { readonly kind: string; readonly addresses: Readonly<Record<string, string>> }): string | undefined {
  const { addresses } = source;
  return addresses.factory ?? addresses.router ?? addresses.poolManager ?? (source.kind === 'launchpad' ? addresses.launchpad : undefined);
}
