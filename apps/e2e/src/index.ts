export * from './processes';
export * from './nats';
