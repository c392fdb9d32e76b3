export * from './processes';
