export * from './facts';
export * from './chain-state';
export * from './routing-snapshot';
export * from './concentrated-state';
export * from './concentrated-messages';
export * from './leg-quotes';
export type { PoolKindState } from './pool-record';
export type { KindSnapshot, LiquidityKindModule, PoolIdentity, SnapshotInputs, StoredKindState } from './kinds/kind-module';
export { isConcentratedKind, isReservesKind, KIND_MODULES, kindModule, type ConcentratedKind, type ReservesKind } from './kinds/registry';
