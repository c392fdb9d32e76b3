export * from './fields';
export * from './endpoints';
export * from './parse';
export * from './openapi';
