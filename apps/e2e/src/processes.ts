// Runs the built apps (dist/) as real processes, the way the stack and the container images run them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getFreePort } from '@dex/testing';
import { readManifest } from '@dex/devnet-kit';
import type { DevnetManifest } from '@dex/messages';
import { apiClient } from './client';

export const WORKSPACE = resolve(__dirname, '../../..');

export interface AppProcess {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function appEntry(name: string): string {
  const entry = join(WORKSPACE, 'dist/apps', name, 'src/main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run node tools/build/build.mjs first`);
  return entry;
}

/** Apps still running; killed when the test process exits, even if a failed setup never stopped one. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns an app with exactly `env` (plus PATH) and returns at once. */
export function spawnApp(name: string, env: Record<string, string>): Omit<AppProcess, 'url'> {
  const child = spawn(process.execPath, [appEntry(name)], {
    cwd: WORKSPACE,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | string>((r) => child.once('exit', (code, signal) => r(code ?? signal ?? -1)));
  return {
    name,
    child,
    output: () => output,
    exited,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/** Starts an app on a free HTTP port and waits until it answers `/health/live`. */
export async function startApp(name: string, env: Record<string, string>, timeoutMs = 30_000): Promise<AppProcess> {
  const port = await getFreePort();
  const proc = spawnApp(name, { HTTP_HOST: '127.0.0.1', HTTP_PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited with ${proc.child.exitCode}:\n${proc.output()}`);
    try {
      const res = await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return { ...proc, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`${name} did not answer /health/live within ${timeoutMs} ms:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
}

/** Polls `probe` until `accept` holds; returns the value and how long it took. */
export async function until<T>(probe: () => Promise<T>, accept: (v: T) => boolean, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch((err: unknown) => err as T);
    if (accept(value)) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The devnet app as a process: chains 999 and 4663 on free ports, the activity simulator on, its manifest read. */
export interface DevnetApp {
  readonly devnet: AppProcess;
  readonly manifest: DevnetManifest;
  readonly manifestPath: string;
}

/**
 * Starts the devnet app on the bus at `natsUrl`, its manifest and logs in `dir`, the simulator trading every
 * `simulateIntervalMs`; resolves once it is ready and its manifest written.
 */
export async function startDevnetApp(dir: string, natsUrl: string, simulateIntervalMs: number): Promise<DevnetApp> {
  const manifestPath = join(dir, 'manifest.json');
  const devnet = await startApp('devnet', {
    NATS_URL: natsUrl,
    DEVNET_PORT_999: '0',
    DEVNET_PORT_4663: '0',
    MANIFEST_PATH: manifestPath,
    DEVNET_LOG_DIR: join(dir, 'logs'),
    GATEWAY_URL: 'http://127.0.0.1:3999',
    DEVNET_SIMULATE: 'true',
    DEVNET_SIMULATE_INTERVAL_MS: String(simulateIntervalMs),
  });
  await until(() => apiClient(devnet.url).request('ready'), (r) => r.status === 200, 90_000);
  return { devnet, manifest: readManifest(manifestPath), manifestPath };
}
