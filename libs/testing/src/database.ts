// A real Postgres database per test run: created fresh on the server of DATABASE_URL, migrated, dropped after.
import { randomBytes } from 'node:crypto';
import {
  createDatabase,
  createPrismaClient,
  dropDatabase,
  migrate,
  withDatabaseName,
  type DbClient,
} from '@dex/db';

/** The server test databases are created on when DATABASE_URL is unset. */
export const DEFAULT_TEST_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** The generated database name, `test_<pid>_<random>`. */
  name: string;
  /** Connection string of the new database; hand it to the code under test as its DATABASE_URL. */
  url: string;
  /** A database client on it, created on first use and closed by `drop()`. */
  readonly client: DbClient;
  /** Closes the client, ends remaining sessions and drops the database. Safe to call twice. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Apply the migrations (default true); false leaves the database empty. */
  migrate?: boolean;
  /** Server to create the database on; default DATABASE_URL (its database name is ignored). */
  serverUrl?: string;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const server = options.serverUrl ?? process.env.DATABASE_URL ?? DEFAULT_TEST_SERVER_URL;
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = withDatabaseName(server, name);
  await createDatabase(url);
  try {
    if (options.migrate !== false) await migrate(url, { createDatabase: false });
  } catch (error) {
    await dropDatabase(url).catch(() => undefined);
    throw error;
  }

  let client: DbClient | undefined;
  let dropped = false;
  return {
    name,
    url,
    get client() {
      if (dropped) throw new Error(`test database ${name} was dropped`);
      client ??= createPrismaClient(url, { maxConnections: 4 });
      return client;
    },
    async drop() {
      if (dropped) return;
      dropped = true;
      await client?.$disconnect().catch(() => undefined);
      await dropDatabase(url);
    },
  };
}
