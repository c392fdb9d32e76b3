export * from './accounts';
export * from './chain-simulator';
export * from './random';
export * from './simulator';
