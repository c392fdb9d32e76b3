export * from './types';
export * from './rolling-window';
export { IndexerStore, CheckpointConflictError } from './indexer-store';
export * from './token-repository';
export * from './pool-repository';
export * from './launchpad-repository';
export * from './liquidity-repository';
