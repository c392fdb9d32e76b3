// The part of @dex/db that needs no generated Prisma client: the migrate step and database administration.
// `tools/db/migrate.mjs` loads this entry, so migrating works before `prisma generate` has run.
export { MIGRATION_LOCK_KEY, MigrationError, defaultMigrationsDir, migrate, migrationChecksum, readMigrations } from './migrate';
export type { LocalMigration, MigrateOptions, MigrateResult } from './migrate';
export { adminQuery, createDatabase, databaseExists, dropDatabase, listDatabases } from './admin';
export { DEFAULT_DATABASE_URL, databaseName, redactUrl, withDatabaseName } from './database-url';
