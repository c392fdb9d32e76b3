// The failures of a chain's RPC and of the database that say the dependency is busy or out of reach (a provider
// timing out or refusing, the database's connection pool exhausted or its server gone): the bus answers them 503
// `Service temporarily unavailable` instead of 500 (TransientFailureInterceptor of @dex/service).
import { isUnreachable } from '@dex/chain';
import { causesOf, firstLine, messageOf, type TransientFailureClassifier } from '@dex/service';

/** A chain's RPC provider did not answer, or answered with a transport failure. */
export const chainUnreachable: TransientFailureClassifier = (err) => (isUnreachable(err) ? 'a chain RPC provider did not answer in time' : undefined);

/** Prisma error codes of a database that cannot be reached, is too slow, or has no connection to spare. */
const PRISMA_TRANSIENT = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034']);

/** Messages of the `pg` driver when the database is busy or gone. */
const DRIVER_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|too many clients|remaining connection slots|the database system is (starting up|shutting down)|canceling statement due to statement timeout/i;

/** The database is out of reach, busy or short of connections (walking the error's causes). */
export const databaseBusy: TransientFailureClassifier = (err) => {
  for (const e of causesOf(err)) {
    const name = (e as { name?: unknown }).name;
    const code = (e as { code?: unknown }).code;
    if (name === 'PrismaClientInitializationError') return 'the database is out of reach';
    if (typeof code === 'string' && PRISMA_TRANSIENT.has(code)) return `the database is busy or out of reach (${code})`;
    if (DRIVER_MESSAGE.test(messageOf(e))) return `a dependency is busy or out of reach: ${firstLine(e)}`;
  }
  return undefined;
};
