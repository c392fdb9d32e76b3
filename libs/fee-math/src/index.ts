export * from './fees';
