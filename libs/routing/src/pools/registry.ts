/** The pool kinds the engine routes, one module each, by kind. */
import type { PoolKind, PoolSnapshot } from '../pool-snapshot';
import { algebraModule } from './algebra';
import { coreModule } from './core';
import { launchpadModule } from './launchpad';
import type { PoolModule } from './pool-module';
import { stableModule } from './stable';
import { uniswapV2Module } from './uniswap-v2';
import { uniswapV3Module } from './uniswap-v3';

export const POOL_MODULES: { readonly [K in PoolKind]: PoolModule<Extract<PoolSnapshot, { readonly kind: K }>> } = {
  'uniswap-v2': uniswapV2Module,
  stable: stableModule,
  core: coreModule,
  launchpad: launchpadModule,
  'uniswap-v3': uniswapV3Module,
  algebra: algebraModule,
};

/** The module of a pool's kind. */
export function poolModule(pool: PoolSnapshot): PoolModule {
  const kindModule: PoolModule | undefined = POOL_MODULES[pool.kind];
  if (!kindModule) throw new RangeError(`pool ${pool.address}: no module for kind ${String(pool.kind)}`);
  return kindModule;
}

/** The pool's fee in basis points when it has a fixed one (undefined for core pools: their fee is dynamic). */
export function poolFeeBps(pool: PoolSnapshot): number | undefined {
  return poolModule(pool).feeBps(pool);
}
