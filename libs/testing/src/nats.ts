// NATS for tests: the shared server of NATS_URL, or a private nats-server process a test may stop and
// start again (to exercise outages) without disturbing anyone else.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort } from './ports';

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/** The NATS server integration tests use unless they start their own. */
export function testNatsUrl(): string {
  return process.env.NATS_URL ?? DEFAULT_NATS_URL;
}

export function natsServerBinary(): string {
  const candidates = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error('nats-server binary not found (set NATS_SERVER_BIN)');
  return found;
}

export interface PrivateNatsServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (the port stays reserved for `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Private servers still running; killed when the test process exits, even if a test never disposed of one. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a private nats-server (JetStream on) on a free port. */
export async function startPrivateNatsServer(): Promise<PrivateNatsServer> {
  const port = await getFreePort();
  const store = mkdtempSync(join(tmpdir(), 'nats-test-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    // A server a failed setup never handed back must not keep the test process alive.
    started.unref();
    running.add(started);
    started.once('exit', () => running.delete(started));
    child = started;
    await waitForPort(port, 10_000);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
