export * from './config';
export * from './record';
export * from './deploy';
export * from './cli';
