// Failures that say a dependency is busy or out of reach (the database's connection pool exhausted or its server
// gone, a chain's RPC provider timing out or refusing), as opposed to a fault of the service: under load they are
// the common case, and the honest answer is a 503 to try again, not a 500.
import { isUnreachable } from '@dex/chain';

/** Prisma error codes of a database that cannot be reached, is too slow, or has no connection to spare. */
const PRISMA_TRANSIENT = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034']);

/** Messages of the `pg` driver and of sockets when the database or a node is busy or gone. */
const TRANSIENT_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|too many clients|remaining connection slots|the database system is (starting up|shutting down)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|socket hang up|canceling statement due to statement timeout/i;

/**
 * A short description of `err` when it is a dependency being busy or out of reach (walking its causes), else
 * undefined.
 */
export function transientFailure(err: unknown): string | undefined {
  if (isUnreachable(err)) return 'a chain RPC provider did not answer in time';
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { name?: unknown }).name;
    const code = (e as { code?: unknown }).code;
    const message = String((e as { message?: unknown }).message ?? '');
    if (name === 'PrismaClientInitializationError') return 'the database is out of reach';
    if (typeof code === 'string' && PRISMA_TRANSIENT.has(code)) return `the database is busy or out of reach (${code})`;
    if (TRANSIENT_MESSAGE.test(message)) return `a dependency is busy or out of reach: ${message.split('\n')[0].slice(0, 160)}`;
  }
  return undefined;
}
