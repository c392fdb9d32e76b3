// A throw-away database for one test file, on the server of DATABASE_URL (the db lib cannot use
// @dex/testing, which depends on it).
import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, withDatabaseName } from '../../src';

export interface TempDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTempDatabase(): Promise<TempDatabase> {
  const server = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const url = withDatabaseName(server, `test_db_${process.pid}_${randomBytes(4).toString('hex')}`);
  await createDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}
