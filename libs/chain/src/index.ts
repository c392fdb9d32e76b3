export * from './registry';
export * from './clients';
export * from './health';
