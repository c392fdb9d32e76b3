export * from './accounts';
export * from './chain-simulator';
export * from './simulator';
export * from './scale-trader';
