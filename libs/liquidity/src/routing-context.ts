/** The chain's configured liquidity sources and contracts a routing view is built with (`routing-snapshot.ts`). */
import type { ListedHook } from '@dex/messages';

/** A configured liquidity source of the chain. */
export interface RoutingSource {
  readonly routerIndex: number;
  readonly kind: string;
  readonly name: string;
  /** The fee of V2 and stable sources; the launchpad's fee (default LAUNCHPAD_FEE_BPS). */
  readonly feeBps?: number;
  /** Uniswap V4: the hooks routed although they may change swaps, and how their pools are quoted (`ListedHook`). */
  readonly hooks?: readonly ListedHook[];
  /** Uniswap V4: the source's V4Quoter, which quotes the pools of its sampled hooks. */
  readonly v4Quoter?: string;
}

export interface RoutingContext {
  readonly sources: readonly RoutingSource[];
  readonly wrappedNative: string;
  /** The launchpad contract RouterV2 trades curves through. */
  readonly launchpad?: string;
  /** Decimals of a token the state has no metadata for. */
  readonly defaultDecimals?: number;
}
