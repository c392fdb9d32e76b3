/**
 * What the engine asks of a pool kind, at the bottom of the routing lib (it imports nothing of it): the snapshot
 * every kind's extends, a leg (one pool in one direction), and the module each kind gives (`pools/<kind>/`, listed
 * once in `registry.ts`, which holds the union of the kinds' snapshots). A new kind is a folder and a registry
 * line (docs/routing.md: adding a pool kind).
 */

/** What every pool snapshot holds; a kind's snapshot adds its state. */
export interface PoolSnapshotBase {
  readonly kind: string;
  /**
   * The pool's identity: the address RouterV2 calls (for `launchpad`: the launchpad contract); for `uniswap-v4`, the
   * pool's PoolId (RouterV2 calls its `poolManager`).
   */
  readonly address: string;
  /** The liquidity source's index on RouterV2. */
  readonly routerIndex: number;
  /** The source's display name (`GET /dexes`), passed through to the hop swaps. */
  readonly routerName?: string;
  /**
   * The pool's tokens in the pool's own order (its token0 and token1: sorted by address for most kinds, but a V4 pool
   * trading the wrapped native token for its native currency keeps the key's order). Nothing of the engine orders a
   * pool's tokens: a leg's direction is the pool's.
   */
  readonly token0: string;
  readonly token1: string;
  readonly decimals0: number;
  readonly decimals1: number;
}

/**
 * A leg is one pool traded in one direction. It carries two views of the pool's output function:
 *
 * - exact (`quote`, `quoteIn`, `maxIn`): integers, computed with the pool's own math module, what RouterV2
 *   execution pays (core: the conservative sample interpolation);
 * - approximate (`approxOut`, `approxIn`, `marginal`, `inputAtMarginal`): float64, used only to rank paths
 *   and to place the split across parallel pools; every figure the engine returns is then recomputed exactly.
 */
export interface PoolLeg {
  /** The pool (its kind's snapshot: `Leg` in `legs.ts` types it as the registry's union). */
  readonly pool: PoolSnapshotBase;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** How deep the pool is, in units of `tokenIn` (comparable across the legs leaving one token). */
  readonly liquidity: number;
  /** The marginal output per unit of input at zero size (the fee included), base units. */
  readonly spotRate: number;
  /** The most the pool takes in this direction (exact), undefined when unbounded. */
  readonly maxIn: bigint | undefined;
  /** `maxIn` as a float (Infinity when unbounded). */
  readonly maxInApprox: number;
  /** Exact output for an input; 0 when the pool would not trade it (above `maxIn`, or it would revert). */
  quote(amountIn: bigint): bigint;
  /** The smallest input whose `quote` is at least `amountOut`; undefined when no input reaches it. */
  quoteIn(amountOut: bigint): bigint | undefined;
  approxOut(amountIn: number): number;
  /** Input for an output (Infinity when unreachable). */
  approxIn(amountOut: number): number;
  /** d(out)/d(in) at `amountIn`. */
  marginal(amountIn: number): number;
  /** The input at which the marginal rate falls to `lambda`, within [0, limit]. */
  inputAtMarginal(lambda: number, limit: number): number;
  /**
   * The float curve at an input x in [0, maxInApprox], for the optimum's interior-point method
   * (`interior-flow.ts`): fills `out` with the output, the marginal rate and its derivative (<= 0). Writes into
   * `out`, allocates nothing.
   */
  shape(x: number, out: LegShape): void;
}

/** A leg's float curve at an input (`Leg.shape`): output, first and second derivative. */
export interface LegShape {
  y: number;
  slope: number;
  curvature: number;
}

export interface PoolModule<P extends PoolSnapshotBase = PoolSnapshotBase> {
  readonly kind: P['kind'];
  /**
   * The pool's legs (token0 -> token1, token1 -> token0); a direction the pool cannot trade (no reserves, no
   * samples, nothing left on the curve) has no leg.
   */
  legsOf(pool: P): PoolLeg[];
  /** The pool's fee in basis points when it has a fixed one; undefined when its fee is dynamic. */
  feeBps(pool: P): number | undefined;
  /**
   * The pool's fee in its own units, as the hop swap records and `/pools` report it: basis points for the kinds
   * whose sources count in them (V2, stable, launchpad), hundredths of a basis point (pips) for the concentrated
   * kinds, as their pools and factories count; undefined for a kind whose fee is dynamic and not kept (core).
   */
  fee(pool: P): number | undefined;
  /** The pool's tick spacing, for the concentrated kinds; undefined for the others. */
  tickSpacing(pool: P): number | undefined;
  /** RouterV2 trades the kind as a stable pool (the hop swap's and the pool record's `stable`). */
  readonly stable: boolean;
  /**
   * The pool's legs' float model is not their exact curve: the exact split of a hop through such a pool is refined on
   * exact quotes by default (`SplitOptions.refineSteps`).
   */
  refineSplits(pool: P): boolean;
  /**
   * The pool's legs' exact quote is the engine's estimate of the pool (samples of its own quote), not its maths: a
   * route's swaps through such a pool are quoted again at the route's block by the pool's own view (a core pool's
   * `estimateSwap`, a sampled V4 pool's V4Quoter).
   */
  quotedOnChain(pool: P): boolean;
  /**
   * RouterV2 prices the kind's swap on what the pool received (its balance past its reserve), so a token that takes a
   * fee on transfer trades through it for what arrives; pools of the other kinds expect the amount sent and revert
   * short of it. A route on a token found to take a fee keeps to the kinds that trade what arrives.
   */
  readonly tradesWhatArrives: boolean;
  /**
   * A swap through the kind moves its two tokens by transfers between the pool (for a pool inside another contract,
   * that contract: the swap's `routerPool`, a V4 PoolManager) and the router, so a token's transfer fee or failure
   * shows on them (the transfers a route's simulation checks); false for launchpad curves, which take and pay the
   * native coin through the launchpad contract.
   */
  readonly transfersTokens: boolean;
  /** The kind's gas in RouterV2's transaction (`gas-model.ts` sums a route's). */
  readonly gas: PoolGas<P>;
  /**
   * What RouterV2's `Swap` names for a swap through the pool, for a kind whose pools are not contracts of their own
   * (Uniswap V4: the PoolManager, and the pool's key as `data`); absent: the pool's address and no data.
   */
  routerSwap?(pool: P): RouterSwapTarget;
}

/** A swap's `pool` and `data` in RouterV2's calldata, and the pool's own id where it is not that address. */
export interface RouterSwapTarget {
  /** The contract RouterV2 calls. */
  readonly pool: string;
  /** `Swap.data`, hex. */
  readonly data: `0x${string}`;
  /** The pool's id inside `pool` (Uniswap V4's PoolId). */
  readonly poolId?: string;
  /** The pool's hook contract (Uniswap V4). */
  readonly hooks?: string;
}

/** A kind's gas in RouterV2, fitted on executed transactions by `bench/gas-model`. */
export interface PoolGas<P extends PoolSnapshotBase = PoolSnapshotBase> {
  /** Each way a swap through the kind executes (a launchpad's buys and sales run different code): its marginal gas. */
  readonly swaps: Readonly<Record<string, number>>;
  /** Which of `swaps` a swap through the pool spending `tokenIn` is. */
  swapKind(pool: P, tokenIn: string): string;
  /** Per initialized tick the swap crosses, for the kinds whose swaps cross ticks. */
  readonly perTick?: number;
  /**
   * The initialized ticks a swap of `amountIn` through the leg crosses and the 256-tick bitmap words its price moves
   * across (the kinds with `perTick`); undefined when unknown.
   */
  crossings?(leg: PoolLeg, tokenIn: string, amountIn: bigint): TickCrossings | undefined;
}

/** What a concentrated swap crosses: initialized ticks and 256-tick words of the tick bitmap. */
export interface TickCrossings {
  readonly ticks: number;
  readonly words: number;
}
