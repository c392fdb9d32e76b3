export * from './registry';
export * from './clients';
export * from './health';
export * from './errors';
export * from './actions/sample-core-pools';
export * from './actions/read-pair-reserves';
