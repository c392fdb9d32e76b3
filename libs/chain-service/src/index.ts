export * from './config/chain-settings';
export * from './health/rpc-health';
export * from './database/database.module';
export * from './transient';
export * from './chain-service.module';
