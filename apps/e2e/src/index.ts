export * from './processes';
export * from './nats';
export * from './client';
export * from './stack';
export * from './liquidity';
export * from './faults';
export * from './foreign-chain';
