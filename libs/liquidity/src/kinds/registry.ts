/**
 * The pool kinds the liquidity state keeps, one module each (`kinds/<kind>.ts`), by kind: every kind the engine
 * routes (`PoolKind`) and no other. Adding a kind adds a line here.
 */
import type { LiquidityPoolKind } from '../facts';
import { algebraKind } from './algebra';
import type { ConcentratedKind } from './concentrated';
import type { ReservesKind } from './reserves';
import { coreKind } from './core';
import { curveStableswapNGKind, curveTwocryptoNGKind } from './curve';
import type { LiquidityKindModule } from './kind-module';
import { launchpadKind } from './launchpad';
import { stableKind } from './stable';
import { uniswapV2Kind } from './uniswap-v2';
import { uniswapV3Kind } from './uniswap-v3';
import { uniswapV4Kind } from './uniswap-v4';

export type { ConcentratedKind } from './concentrated';
export type { ReservesKind } from './reserves';
/** The V4 kind's hook policy, for the services and the API (why a pool is not routed). */
export { hookExclusion, uniswapV4Exclusion } from './uniswap-v4';

export const KIND_MODULES: { readonly [K in LiquidityPoolKind]: LiquidityKindModule<K> } = {
  'uniswap-v2': uniswapV2Kind,
  stable: stableKind,
  core: coreKind,
  launchpad: launchpadKind,
  'uniswap-v3': uniswapV3Kind,
  algebra: algebraKind,
  'uniswap-v4': uniswapV4Kind,
  'curve-stableswap-ng': curveStableswapNGKind,
  'curve-twocrypto-ng': curveTwocryptoNGKind,
};

const BY_KIND: ReadonlyMap<string, LiquidityKindModule> = new Map(Object.entries(KIND_MODULES));

/**
 * The module of a kind; undefined for a kind without one (a record restored from a store that names another kind:
 * no fact applies to it, it is never sampled nor routed).
 */
export function kindModule(kind: string): LiquidityKindModule | undefined {
  return BY_KIND.get(kind);
}

/** Whether the kind's pools keep a concentrated state (`LiquidityKindModule.concentrated`). */
export const isConcentratedKind = (kind: string): kind is ConcentratedKind => kindModule(kind)?.concentrated ?? false;

/** Whether the kind's pools live inside a PoolManager (`LiquidityKindModule.managed`). */
export const isManagedKind = (kind: string): boolean => kindModule(kind)?.managed !== undefined;

/** Whether the kind's pools keep two reserves (`LiquidityKindModule.reserves`). */
export const isReservesKind = (kind: string): kind is ReservesKind => kindModule(kind)?.reserves ?? false;
