import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MigrationError,
  adminQuery,
  databaseExists,
  defaultMigrationsDir,
  dropDatabase,
  migrate,
  migrationChecksum,
  readMigrations,
  withDatabaseName,
} from '../src';
import { createTempDatabase, type TempDatabase } from './support/temp-database';

jest.setTimeout(30_000);

const HISTORY_COLUMNS = [
  ['id', 'character varying', 'NO'],
  ['checksum', 'character varying', 'NO'],
  ['finished_at', 'timestamp with time zone', 'YES'],
  ['migration_name', 'character varying', 'NO'],
  ['logs', 'text', 'YES'],
  ['rolled_back_at', 'timestamp with time zone', 'YES'],
  ['started_at', 'timestamp with time zone', 'NO'],
  ['applied_steps_count', 'integer', 'NO'],
];

async function tables(url: string): Promise<string[]> {
  const rows = await adminQuery<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return rows.map((r) => r.table_name);
}

async function history(url: string) {
  return adminQuery<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
    url,
    'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
  );
}

describe('migrate', () => {
  let db: TempDatabase;
  let scratch: string;

  beforeEach(async () => {
    db = await createTempDatabase();
    scratch = mkdtempSync(join(tmpdir(), 'dex-migrations-'));
    cpSync(defaultMigrationsDir(), scratch, { recursive: true });
  });

  afterEach(async () => {
    await db.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('builds the tables on a fresh database and records each migration like Prisma', async () => {
    const result = await migrate(db.url);
    const local = readMigrations();
    expect(local.length).toBeGreaterThan(0);
    expect(result.applied).toEqual(local.map((m) => m.name));
    expect(result.alreadyApplied).toEqual([]);
    expect(await tables(db.url)).toEqual(expect.arrayContaining(['_prisma_migrations', 'chain_checkpoint']));

    const rows = await history(db.url);
    expect(rows.map((r) => r.migration_name)).toEqual(local.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(local[i].checksum);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }

    const columns = await adminQuery<{ column_name: string; data_type: string; is_nullable: string }>(
      db.url,
      "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position",
    );
    expect(columns.map((c) => [c.column_name, c.data_type, c.is_nullable])).toEqual(HISTORY_COLUMNS);
  });

  it('uses the sha256 of migration.sql as checksum', () => {
    expect(migrationChecksum('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(migrationChecksum('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is a no-op the second time', async () => {
    await migrate(db.url);
    const before = await history(db.url);
    const again = await migrate(db.url);
    expect(again.applied).toEqual([]);
    expect(again.createdDatabase).toBe(false);
    expect(again.alreadyApplied).toEqual(before.map((r) => r.migration_name));
    expect(await history(db.url)).toEqual(before);
  });

  it('refuses to run when an applied migration was edited', async () => {
    await migrate(db.url, { migrationsDir: scratch });
    const [first] = readMigrations(scratch);
    appendFileSync(join(scratch, first.name, 'migration.sql'), '\n-- edited\n');

    await expect(migrate(db.url, { migrationsDir: scratch })).rejects.toThrow(MigrationError);
    await expect(migrate(db.url, { migrationsDir: scratch })).rejects.toThrow(/checksum mismatch/);
  });

  it('applies only the pending migrations, in order', async () => {
    await migrate(db.url, { migrationsDir: scratch });
    for (const [name, sql] of [
      ['99990101000001_second', 'CREATE TABLE "second" ("id" INTEGER NOT NULL);\n'],
      ['99990101000002_third', 'ALTER TABLE "second" ADD COLUMN "note" TEXT;\n'],
    ]) {
      mkdirSync(join(scratch, name));
      writeFileSync(join(scratch, name, 'migration.sql'), sql);
    }
    const result = await migrate(db.url, { migrationsDir: scratch });
    expect(result.applied).toEqual(['99990101000001_second', '99990101000002_third']);
    expect(await tables(db.url)).toContain('second');
  });

  it('rolls a failing migration back whole and records nothing', async () => {
    await migrate(db.url, { migrationsDir: scratch });
    const name = '99990101000001_broken';
    mkdirSync(join(scratch, name));
    writeFileSync(join(scratch, name, 'migration.sql'), 'CREATE TABLE "half" ("id" INTEGER);\nSELECT * FROM "missing";\n');

    await expect(migrate(db.url, { migrationsDir: scratch })).rejects.toThrow(/99990101000001_broken failed/);
    expect(await tables(db.url)).not.toContain('half');
    expect((await history(db.url)).map((r) => r.migration_name)).not.toContain(name);
  });

  it('refuses a history with a migration that started but never finished', async () => {
    await migrate(db.url, { migrationsDir: scratch });
    await adminQuery(db.url, 'UPDATE "_prisma_migrations" SET finished_at = NULL');
    await expect(migrate(db.url, { migrationsDir: scratch })).rejects.toThrow(/started but did not finish/);
  });

  it('lets concurrent runs serialise on the lock', async () => {
    const results = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    const appliedBy = results.filter((r) => r.applied.length > 0);
    expect(appliedBy).toHaveLength(1);
    expect((await history(db.url)).length).toBe(readMigrations().length);
  });

  it('creates the database named in the URL when it is missing', async () => {
    const url = withDatabaseName(db.url, `${new URL(db.url).pathname.slice(1)}_new`);
    try {
      expect(await databaseExists(url)).toBe(false);
      const result = await migrate(url);
      expect(result.createdDatabase).toBe(true);
      expect(await tables(url)).toContain('chain_checkpoint');
    } finally {
      await dropDatabase(url);
    }
  });
});
