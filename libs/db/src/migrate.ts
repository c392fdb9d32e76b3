// The migrate step: applies the SQL migrations in `libs/db/prisma/migrations` (Prisma's folder layout) and
// records them in Prisma's `_prisma_migrations` table, so that `prisma migrate deploy` / `migrate status`
// agree with what this step did wherever the Prisma schema engine is available.
//
// Also run by `node tools/db/migrate.mjs`, which compiles this file (and its relative imports) with swc on
// the fly: keep its imports to node built-ins, `pg` and relative `.ts` files.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createDatabase } from './admin';
import { databaseName, redactUrl } from './database-url';

/** The advisory-lock key `prisma migrate` takes, so this step and Prisma's never run at the same time. */
export const MIGRATION_LOCK_KEY = 72707369;

/** Prisma's history table, column for column (see the schema engine's Postgres flavour). */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateOptions {
  /** Folder holding `<stamp>_<name>/migration.sql`; default `DB_MIGRATIONS_DIR` or `libs/db/prisma/migrations`. */
  migrationsDir?: string;
  /** Create the database named in the URL when it does not exist (default true). */
  createDatabase?: boolean;
  /** How long to wait for another migrator's lock before giving up (default 60 s). */
  lockTimeoutMs?: number;
  /** Progress lines; default silent. */
  log?: (line: string) => void;
}

export interface MigrateResult {
  database: string;
  createdDatabase: boolean;
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Migrations that were already applied before this call. */
  alreadyApplied: string[];
  /** Migrations recorded in the database that this build does not have (a newer build ran before). */
  unknownApplied: string[];
}

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

/** A migration history the step refuses to work on (edited migration, failed migration, missing file). */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** Prisma's checksum of a migration script: sha256 of the file, hex. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** Whether a script still matches a recorded checksum; like Prisma, line-ending changes alone are accepted. */
function matchesChecksum(sql: string, checksum: string): boolean {
  return [sql, sql.replace(/\r\n/g, '\n'), sql.replace(/\n/g, '\r\n')].some((s) => migrationChecksum(s) === checksum);
}

export function defaultMigrationsDir(): string {
  return process.env.DB_MIGRATIONS_DIR ?? resolve(__dirname, '../prisma/migrations');
}

/** The migrations in a folder, in the order they apply (folder names sort by their timestamp prefix). */
export function readMigrations(migrationsDir: string = defaultMigrationsDir()): LocalMigration[] {
  if (!existsSync(migrationsDir)) throw new MigrationError(`Migrations folder not found: ${migrationsDir}`);
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = join(migrationsDir, name, 'migration.sql');
      if (!existsSync(file)) throw new MigrationError(`Migration ${name} has no migration.sql (${file})`);
      const sql = readFileSync(file, 'utf8');
      return { name, sql, checksum: migrationChecksum(sql) };
    });
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Brings the database named in `databaseUrl` up to date: creates it if needed, then applies each pending
 * migration in its own transaction under an advisory lock. Idempotent; refuses to continue when an applied
 * migration's file changed or a migration failed half-way under another tool.
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const log = options.log ?? (() => undefined);
  const migrations = readMigrations(options.migrationsDir ?? defaultMigrationsDir());
  const database = databaseName(databaseUrl);

  // Connect first; only a missing database sends us to the maintenance database to create it.
  let createdDatabase = false;
  let client = await connect(databaseUrl).catch((error: unknown) => {
    if ((error as { code?: string }).code === '3D000' && options.createDatabase !== false) return undefined;
    throw error;
  });
  if (client === undefined) {
    createdDatabase = await createDatabase(databaseUrl);
    if (createdDatabase) log(`created database "${database}"`);
    client = await connect(databaseUrl);
  }
  try {
    await acquireLock(client, options.lockTimeoutMs ?? 60_000);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const history = (
        await client.query<HistoryRow>(
          'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
        )
      ).rows;

      const failed = history.filter((row) => row.finished_at === null && row.rolled_back_at === null);
      if (failed.length > 0) {
        throw new MigrationError(
          `Migration ${failed.map((r) => r.migration_name).join(', ')} started but did not finish in ` +
            `${database}; repair the database by hand, then mark it with ` +
            '`prisma migrate resolve --rolled-back <name>` (or delete its _prisma_migrations row)',
        );
      }

      const applied = new Map<string, HistoryRow>();
      for (const row of history) if (row.finished_at !== null && row.rolled_back_at === null) applied.set(row.migration_name, row);

      const localNames = new Set(migrations.map((m) => m.name));
      const changed = migrations.filter((m) => {
        const row = applied.get(m.name);
        return row !== undefined && !matchesChecksum(m.sql, row.checksum);
      });
      if (changed.length > 0) {
        throw new MigrationError(
          `Applied migration${changed.length > 1 ? 's' : ''} ${changed.map((m) => m.name).join(', ')} ` +
            `changed since ${changed.length > 1 ? 'they were' : 'it was'} applied to ${database} ` +
            '(checksum mismatch). Never edit an applied migration: add a new one.',
        );
      }

      const result: MigrateResult = {
        database,
        createdDatabase,
        applied: [],
        alreadyApplied: migrations.filter((m) => applied.has(m.name)).map((m) => m.name),
        unknownApplied: [...applied.keys()].filter((name) => !localNames.has(name)),
      };
      for (const name of result.unknownApplied) log(`warning: ${name} is applied but not in this build's migrations`);

      for (const migration of migrations.filter((m) => !applied.has(m.name))) {
        await applyOne(client, migration);
        result.applied.push(migration.name);
        log(`applied ${migration.name}`);
      }
      return result;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function connect(databaseUrl: string): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'dex-migrate' });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    const code = (error as { code?: string }).code;
    throw Object.assign(
      new MigrationError(`Cannot connect to ${redactUrl(databaseUrl)}: ${(error as Error).message}`, { cause: error }),
      { code },
    );
  }
}

async function acquireLock(client: Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      MIGRATION_LOCK_KEY,
    ]);
    if (rows[0]?.locked) return;
    if (Date.now() >= deadline) {
      throw new MigrationError(`Another migration holds the lock (advisory lock ${MIGRATION_LOCK_KEY}) since ${timeoutMs} ms`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Runs one migration and its history row in a single transaction: it lands whole or not at all. */
async function applyOne(client: Client, migration: LocalMigration): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) ' +
        'VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      'UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1',
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
