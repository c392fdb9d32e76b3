export * from './processes';
export * from './nats';
export * from './client';
