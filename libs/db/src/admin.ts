// Database-level administration over the plain `pg` driver: create, drop, check existence, and a
// one-shot query helper. Used by the migrate step and by test helpers (through `@dex/db`).
import { Client } from 'pg';
import { MAINTENANCE_DATABASE, databaseName, quoteIdent, withDatabaseName } from './database-url';

/** Runs one statement on a short-lived connection to `databaseUrl` and returns the rows. */
export async function adminQuery<Row = Record<string, unknown>>(
  databaseUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(sql, params);
    return result.rows as Row[];
  } finally {
    await client.end();
  }
}

function maintenanceUrl(databaseUrl: string): string {
  return withDatabaseName(databaseUrl, MAINTENANCE_DATABASE);
}

/** Whether the database named in `databaseUrl` exists on its server. */
export async function databaseExists(databaseUrl: string): Promise<boolean> {
  const rows = await adminQuery(maintenanceUrl(databaseUrl), 'SELECT 1 FROM pg_database WHERE datname = $1', [
    databaseName(databaseUrl),
  ]);
  return rows.length > 0;
}

/**
 * Creates the database named in `databaseUrl` unless it exists. Returns true when this call created it.
 * Safe against a concurrent creator: losing the race counts as "already exists".
 */
export async function createDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  if (await databaseExists(databaseUrl)) return false;
  try {
    await adminQuery(maintenanceUrl(databaseUrl), `CREATE DATABASE ${quoteIdent(name)}`);
    return true;
  } catch (error) {
    // 42P04 duplicate_database; 23505 when two CREATE DATABASE statements race on pg_database's index.
    const code = (error as { code?: string }).code;
    if (code === '42P04' || code === '23505') return false;
    throw error;
  }
}

/** Drops the database named in `databaseUrl` if it exists, ending the sessions still connected to it. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  if (name === MAINTENANCE_DATABASE) throw new Error(`Refusing to drop the maintenance database "${name}"`);
  await adminQuery(maintenanceUrl(databaseUrl), `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}

/** Names of the databases on the server of `databaseUrl` whose name starts with `prefix`. */
export async function listDatabases(databaseUrl: string, prefix = ''): Promise<string[]> {
  const rows = await adminQuery<{ datname: string }>(
    maintenanceUrl(databaseUrl),
    "SELECT datname FROM pg_database WHERE NOT datistemplate AND starts_with(datname, $1) ORDER BY datname",
    [prefix],
  );
  return rows.map((r) => r.datname);
}
