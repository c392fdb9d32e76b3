export * from './accounts';
export * from './anvil';
export * from './deploy';
export * from './devnet';
export * from './sources';
export * from './router';
export * from './amm';
export * from './launchpad';
