// Connection-string helpers. `DATABASE_URL` names the database a service uses; administrative work
// (creating or dropping databases) connects to the maintenance database on the same server.

/** The database the services use when `DATABASE_URL` is unset. */
export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/dex';

/** The maintenance database every PostgreSQL server has; used to create and drop other databases. */
export const MAINTENANCE_DATABASE = 'postgres';

/** The database name in a connection string (`postgresql://user@host:port/<name>`). */
export function databaseName(databaseUrl: string): string {
  const url = parseUrl(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`Database URL names no database: ${redactUrl(databaseUrl)}`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabaseName(databaseUrl: string, name: string): string {
  const url = parseUrl(databaseUrl);
  url.pathname = '/' + encodeURIComponent(name);
  return url.toString();
}

/** A connection string safe to print: the password is replaced by `***`. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparsable database url>';
  }
}

/** Quotes an SQL identifier (database, table, column name). */
export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

function parseUrl(databaseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error('Database URL is not a valid URL (expected postgresql://user@host:port/database)');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new Error(`Database URL must start with postgresql:// (got ${url.protocol}//)`);
  }
  return url;
}
