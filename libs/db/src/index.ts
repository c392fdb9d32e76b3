// @dex/db: the only module that talks to Postgres (Prisma client, migrations, repositories).
export { createPrismaClient } from './client';
export type { DbClient, DbClientOptions } from './client';
export { checkDatabase } from './health';
export type { DatabaseHealth } from './health';
export { CheckpointRepository } from './checkpoint-repository';
export type { ChainCheckpoint, ChainCheckpointInput, CheckpointStatus } from './checkpoint-repository';
export * from './index-migrate';
export * from './indexer';
