export * from './facts';
export * from './chain-state';
export * from './routing-snapshot';
