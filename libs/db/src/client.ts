// The Prisma client over the `pg` driver adapter (Prisma 7 has no bundled query engine binary).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

/** The database client services hold; pass it to the repositories and to `checkDatabase`. */
export type DbClient = PrismaClient;

export interface DbClientOptions {
  /** Most connections the pool opens (default 10). */
  maxConnections?: number;
  /** How long a new connection may take before the query fails (default 5 s). */
  connectTimeoutMs?: number;
}

export function createPrismaClient(databaseUrl: string, options: DbClientOptions = {}): DbClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  return new PrismaClient({ adapter });
}
