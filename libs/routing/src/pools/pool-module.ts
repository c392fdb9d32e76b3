/**
 * What the engine asks of a pool kind: its legs, its fee, and how RouterV2 and the service treat it. Each kind
 * is one module (`uniswap-v2.ts`, `stable.ts`, `core.ts`, `launchpad.ts`, `uniswap-v3.ts`, `algebra.ts`), listed once in `registry.ts`; a new
 * kind joins with its module, its snapshot in the `PoolSnapshot` union and its registry entry.
 */
import type { Leg } from '../legs';
import type { PoolSnapshot } from '../pool-snapshot';

export interface PoolModule<P extends PoolSnapshot = PoolSnapshot> {
  readonly kind: P['kind'];
  /**
   * The pool's legs (token0 -> token1, token1 -> token0); a direction the pool cannot trade (no reserves, no
   * samples, nothing left on the curve) has no leg.
   */
  legsOf(pool: P): Leg[];
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
   * The legs' float model is not their exact curve: the exact split of a hop through such a pool is refined on
   * exact quotes by default (`SplitOptions.refineSteps`).
   */
  readonly refineSplits: boolean;
  /**
   * The legs' exact quote is the engine's estimate of the pool, not its maths: a route's swaps through such a
   * pool are quoted again at the route's block by the pool's own `estimateSwap`.
   */
  readonly quotedOnChain: boolean;
}
