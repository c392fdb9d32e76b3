/** The engine's legs: a kind's `PoolLeg` (`pools/pool-module.ts`) with its pool typed as the registry's union. */
import type { PoolLeg } from './pool-module';
import type { PoolModule } from './pool-module';
import { POOL_MODULES, type PoolSnapshot } from './registry';

export type { LegShape } from './pool-module';

/** One pool traded in one direction (see `PoolLeg`), its pool one of the kinds the registry lists. */
export interface Leg extends PoolLeg {
  readonly pool: PoolSnapshot;
}

/**
 * The two legs of a pool (token0 -> token1, token1 -> token0), by its kind's module (`pools/`); a direction the
 * pool cannot trade (no reserves, no samples, nothing left on the curve) has no leg, nor has a pool of a kind
 * without a module.
 */
export function legsOf(pool: PoolSnapshot): Leg[] {
  const kindModule: PoolModule | undefined = POOL_MODULES[pool.kind];
  // A module's legs are of the pool it was given.
  return kindModule ? (kindModule.legsOf(pool) as Leg[]) : [];
}
