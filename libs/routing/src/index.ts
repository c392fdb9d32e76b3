export * from './constant-product';
