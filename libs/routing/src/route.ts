/**
 * The engine's answer, shaped for `GET /v2/route` and for RouterV2's `executeSwaps(tokens, amountIn, ...,
 * hopSwaps, ...)`: the token path, per hop its parallel swaps with their quoted amounts. Within a hop the
 * quoted inputs add up to the hop's input (the previous hop's output), so RouterV2's proportional split
 * (floor(actual * quoted / total), the last swap taking the remainder) gives every swap exactly its quoted
 * input when the previous hop pays what was quoted.
 */
import type { Leg } from './legs';
import type { HopSplit } from './hop-split';
import type { PoolKind } from './pool-snapshot';
import { poolModule } from './pools/registry';
import { hopPriceImpact, routePriceImpact, swapPriceImpact } from './price-impact';

export interface HopSwap {
  /** The pool and direction the swap trades: what prices it again at execution. */
  readonly leg: Leg;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly poolAddress: string;
  readonly routerIndex: number;
  readonly routerName?: string;
  readonly kind: PoolKind;
  /** The pool's fee in basis points; absent for core pools (dynamic fee). */
  readonly fee?: number;
  readonly stable: boolean;
  /** Opaque per-pool data for RouterV2's `Swap.data`: empty for every kind the engine quotes. */
  readonly data: '0x';
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Fraction, see `price-impact.ts`. */
  readonly priceImpact: number;
}

export interface Route {
  /** Token addresses of the path (as the snapshot spells them), tokenIn first. */
  readonly tokens: readonly string[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** One entry per hop, each the hop's parallel swaps. */
  readonly hopSwaps: readonly (readonly HopSwap[])[];
  /** Per hop, the impact of its swaps together. */
  readonly hopPriceImpacts: readonly number[];
  /** The route's overall impact (hops compounded), fraction. */
  readonly averagePriceImpact: number;
  /** For exact-output routes: the output asked for (amountOut is at least this). */
  readonly requestedAmountOut?: bigint;
}

function hopSwap(leg: Leg, amountIn: bigint, amountOut: bigint): HopSwap {
  const pool = leg.pool;
  const kind = poolModule(pool);
  const fee = kind.feeBps(pool);
  return {
    leg,
    tokenIn: leg.tokenIn,
    tokenOut: leg.tokenOut,
    poolAddress: pool.address,
    routerIndex: pool.routerIndex,
    ...(pool.routerName !== undefined ? { routerName: pool.routerName } : {}),
    kind: pool.kind,
    ...(fee !== undefined ? { fee } : {}),
    stable: kind.stable,
    data: '0x',
    amountIn,
    amountOut,
    priceImpact: swapPriceImpact(leg, amountIn, amountOut),
  };
}

/** Assembles a route from its hops' exact splits (hop i's input is hop i-1's output). */
export function assembleRoute(hops: readonly HopSplit[], requestedAmountOut?: bigint): Route {
  const tokens = [hops[0].legs[0].tokenIn, ...hops.map((h) => h.legs[0].tokenOut)];
  const hopSwaps = hops.map((h) => h.legs.map((leg, j) => hopSwap(leg, h.amountsIn[j], h.amountsOut[j])));
  const hopPriceImpacts = hops.map((h) => hopPriceImpact(h.legs, h.amountsIn, h.amountsOut));
  return {
    tokens,
    amountIn: hops[0].amountIn,
    amountOut: hops[hops.length - 1].amountOut,
    hopSwaps,
    hopPriceImpacts,
    averagePriceImpact: routePriceImpact(hopPriceImpacts),
    ...(requestedAmountOut !== undefined ? { requestedAmountOut } : {}),
  };
}
