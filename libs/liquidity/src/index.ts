export * from './facts';
export * from './chain-state';
export * from './routing-snapshot';
export * from './concentrated-state';
export * from './concentrated-messages';
export * from './leg-quotes';
export type { CurvePoolParams, PoolKindState, UniswapV4PoolState } from './pool-record';
export type { KindSnapshot, LiquidityKindModule, ManagedKind, PoolIdentity, QuoterSampling, SnapshotInputs, StoredKindState } from './kinds/kind-module';
export {
  hookExclusion,
  isConcentratedKind,
  isManagedKind,
  isReservesKind,
  KIND_MODULES,
  kindModule,
  uniswapV4Exclusion,
  type ConcentratedKind,
  type ReservesKind,
} from './kinds/registry';
