// @dex/testing: helpers that give a test real infrastructure (a fresh Postgres database, free ports).
export { DEFAULT_TEST_SERVER_URL, createTestDatabase } from './database';
export type { TestDatabase, TestDatabaseOptions } from './database';
export { getFreePort } from './ports';
export * from './nats';
export * from './chains';
export * from './concentrated-chain';
export * from './contracts';
export * from './onchain-chain';
export * from './random';
export * from './rpc-proxy';
export * from './postgres';
