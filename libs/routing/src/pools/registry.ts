/** The pool kinds the engine routes, one module each (`pools/<kind>/`), by kind: adding a kind adds a line here. */
import { algebraModule, type AlgebraPoolSnapshot } from './algebra/algebra';
import { coreModule, type CorePoolSnapshot } from './core/core';
import { curveStableswapNGModule, curveTwocryptoNGModule, type CurveStableswapNGPairSnapshot, type CurveTwocryptoNGPairSnapshot } from './curve/curve';
import { launchpadModule, type LaunchpadPoolSnapshot } from './launchpad/launchpad';
import type { PoolModule } from './pool-module';
import { stableModule, type StablePoolSnapshot } from './stable/stable';
import { uniswapV2Module, type UniswapV2PoolSnapshot } from './uniswap-v2/uniswap-v2';
import { uniswapV3Module, type UniswapV3PoolSnapshot } from './uniswap-v3/uniswap-v3';
import { uniswapV4Module, type UniswapV4PoolSnapshot } from './uniswap-v4/uniswap-v4';

export type { AlgebraPoolSnapshot, CorePoolSnapshot, CurveStableswapNGPairSnapshot, CurveTwocryptoNGPairSnapshot, LaunchpadPoolSnapshot, StablePoolSnapshot, UniswapV2PoolSnapshot, UniswapV3PoolSnapshot, UniswapV4PoolSnapshot };

/** Every kind's snapshot: what the engine needs to know about a pool (no I/O: the service fills it). */
export type PoolSnapshot =
  | UniswapV2PoolSnapshot
  | StablePoolSnapshot
  | CorePoolSnapshot
  | LaunchpadPoolSnapshot
  | UniswapV3PoolSnapshot
  | AlgebraPoolSnapshot
  | UniswapV4PoolSnapshot
  | CurveStableswapNGPairSnapshot
  | CurveTwocryptoNGPairSnapshot;

/** The pool kinds the engine routes (`uniswap-v4` ahead of RouterV2 executing it: no source of the kind is routed until then). */
export type PoolKind = PoolSnapshot['kind'];

export const POOL_MODULES: { readonly [K in PoolKind]: PoolModule<Extract<PoolSnapshot, { readonly kind: K }>> } = {
  'uniswap-v2': uniswapV2Module,
  stable: stableModule,
  core: coreModule,
  launchpad: launchpadModule,
  'uniswap-v3': uniswapV3Module,
  algebra: algebraModule,
  'uniswap-v4': uniswapV4Module,
  'curve-stableswap-ng': curveStableswapNGModule,
  'curve-twocrypto-ng': curveTwocryptoNGModule,
};

/** The module of a pool's kind. */
export function poolModule(pool: PoolSnapshot): PoolModule {
  const kindModule: PoolModule | undefined = POOL_MODULES[pool.kind];
  if (!kindModule) throw new RangeError(`pool ${pool.address}: no module for kind ${String(pool.kind)}`);
  return kindModule;
}

const moduleOfKind = (kind: string): PoolModule | undefined => (POOL_MODULES as Record<string, PoolModule | undefined>)[kind];

/** Whether RouterV2 trades a kind's pools for what arrives (`PoolModule.tradesWhatArrives`); false for a kind without a module. */
export function tradesWhatArrives(kind: string): boolean {
  return moduleOfKind(kind)?.tradesWhatArrives ?? false;
}

/** Whether a kind's swaps move their tokens by transfers to and from the pool (`PoolModule.transfersTokens`); false for a kind without a module. */
export function transfersTokens(kind: string): boolean {
  return moduleOfKind(kind)?.transfersTokens ?? false;
}

/** The kinds whose pools RouterV2 trades for what arrives. */
export const KINDS_TRADING_WHAT_ARRIVES: readonly PoolKind[] = (Object.keys(POOL_MODULES) as PoolKind[]).filter(tradesWhatArrives);

/** The pool's fee in basis points when it has a fixed one (undefined for core pools: their fee is dynamic). */
export function poolFeeBps(pool: PoolSnapshot): number | undefined {
  return poolModule(pool).feeBps(pool);
}
