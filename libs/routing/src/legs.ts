/**
 * A leg is one pool traded in one direction. It carries two views of the pool's output function:
 *
 * - exact (`quote`, `quoteIn`, `maxIn`): integers, computed with the pool's own math module, what RouterV2
 *   execution pays (core: the conservative sample interpolation);
 * - approximate (`approxOut`, `approxIn`, `marginal`, `inputAtMarginal`): float64, used only to rank paths
 *   and to place the split across parallel pools; every figure the engine returns is then recomputed exactly.
 */
import type { PoolSnapshot } from './pool-snapshot';
import type { PoolModule } from './pools/pool-module';
import { POOL_MODULES } from './pools/registry';

export interface Leg {
  readonly pool: PoolSnapshot;
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

/**
 * The two legs of a pool (token0 -> token1, token1 -> token0), by its kind's module (`pools/`); a direction the
 * pool cannot trade (no reserves, no samples, nothing left on the curve) has no leg, nor has a pool of a kind
 * without a module.
 */
export function legsOf(pool: PoolSnapshot): Leg[] {
  const kindModule: PoolModule | undefined = POOL_MODULES[pool.kind];
  return kindModule ? kindModule.legsOf(pool) : [];
}
