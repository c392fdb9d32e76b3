export * from './registry';
export * from './clients';
export * from './health';
export * from './errors';
