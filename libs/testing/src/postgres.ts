// A PostgreSQL server of a test's own, in a temporary directory on a free port, that the test may stop and start
// again (a restart under the services) without touching the machine's shared server. Needs the server binaries
// (`initdb`, `postgres`: PG_BIN_DIR, or the newest /usr/lib/postgresql/<version>/bin, or PATH). Run as root, the
// server runs as the `postgres` system user (initdb refuses root).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort } from './ports';

export interface PrivatePostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`: a server URL for `createTestDatabase({ serverUrl })`. */
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server: `fast` (SIGINT: sessions ended, a clean shutdown) or `immediate` (SIGQUIT: as a crash, WAL
   * recovery on the next start).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** The directory of the PostgreSQL server binaries. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(base, versions[0], 'bin');
  }
  for (const dir of ['/usr/local/bin', '/usr/bin']) if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  throw new Error('PostgreSQL server binaries (initdb, postgres) not found: set PG_BIN_DIR');
}

/** uid and gid of the `postgres` system user when running as root (initdb and postgres refuse root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/** Resolves once the server accepts connections (`pg_isready`), rejects when it exits or the time is up. */
async function waitUntilReady(bin: string, port: number, timeoutMs: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await new Promise<boolean>((resolve) => execFile(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)], (err) => resolve(!err)));
    if (ready) return;
    if (exited()) throw new Error('postgres exited while starting');
    if (Date.now() > deadline) throw new Error(`postgres did not accept connections on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Initialises a data directory and starts a PostgreSQL server on a free port of 127.0.0.1 (trust auth). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'], { stdio: 'ignore', ...user });
  const port = await getFreePort();
  let child: ChildProcess | undefined;
  const logFile = join(dir, 'server.log');

  const start = async () => {
    if (child) return;
    // The server's output goes to a file: a pipe would keep the test process alive.
    const log = openSync(logFile, 'a');
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
      { stdio: ['ignore', log, log], ...user },
    );
    closeSync(log);
    started.unref();
    running.add(started);
    started.once('exit', () => {
      running.delete(started);
      if (child === started) child = undefined;
    });
    child = started;
    try {
      await waitUntilReady(bin, port, 20_000, () => started.exitCode !== null || started.signalCode !== null);
    } catch (err) {
      throw new Error(`${(err as Error).message}:\n${readFileSync(logFile, 'utf8').slice(-4_000)}`);
    }
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    const timer = setTimeout(() => c.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    dispose: async () => {
      await stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
