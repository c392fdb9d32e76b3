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

export interface NatsClusterNode {
  /** The server's name (`n1`, `n2`, ...), as JetStream names a stream's leader. */
  readonly name: string;
  readonly url: string;
  readonly port: number;
  /** The HTTP monitoring port (`/connz`, `/jsz`). */
  readonly monitorPort: number;
  readonly running: boolean;
}

export interface NatsCluster {
  readonly nodes: readonly NatsClusterNode[];
  /** Every node's URL, comma-separated: a `NATS_URL` value. */
  readonly url: string;
  /** Kills a node (SIGKILL); its store stays for `start`. */
  kill(name: string): Promise<void>;
  /** Starts a killed node again on its ports, with its store. */
  start(name: string): Promise<void>;
  /** The name of the node a client connection of that name (a service's name) is connected to, if any. */
  connectedTo(connectionName: string): Promise<string[]>;
  /** Stops every node and removes the stores. */
  dispose(): Promise<void>;
}

/**
 * A NATS cluster with JetStream on loopback: `size` nodes (3 by default) on free client, cluster and monitoring
 * ports, routes between all of them, each with its own store in a temporary directory. Resolves once every
 * node listens and the cluster has formed (each node sees the others as routes).
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
  const specs: { name: string; port: number; clusterPort: number; monitorPort: number }[] = [];
  for (let i = 1; i <= size; i++) specs.push({ name: `n${i}`, port: await getFreePort(), clusterPort: await getFreePort(), monitorPort: await getFreePort() });
  const routes = specs.map((s) => `nats-route://127.0.0.1:${s.clusterPort}`).join(',');
  const children = new Map<string, ChildProcess>();

  const start = async (name: string) => {
    const s = specs.find((x) => x.name === name);
    if (!s) throw new Error(`no node ${name}`);
    if (children.has(name)) return;
    const store = join(dir, name);
    const args = ['-a', '127.0.0.1', '-p', String(s.port), '-m', String(s.monitorPort), '-n', s.name, '-js', '-sd', store, '--cluster_name', 'test', '--cluster', `nats://127.0.0.1:${s.clusterPort}`, '--routes', routes];
    const child = spawn(natsServerBinary(), args, { stdio: 'ignore' });
    child.unref();
    running.add(child);
    children.set(name, child);
    child.once('exit', () => {
      running.delete(child);
      if (children.get(name) === child) children.delete(name);
    });
    await waitForPort(s.port, 10_000);
  };
  const kill = async (name: string) => {
    const child = children.get(name);
    if (!child || child.exitCode !== null) return;
    children.delete(name);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const monitor = async (port: number, path: string): Promise<{ num_routes?: number; connections?: { name?: string }[] }> => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2_000) });
    return (await res.json()) as { num_routes?: number; connections?: { name?: string }[] };
  };

  await Promise.all(specs.map((s) => start(s.name)));
  // Formed when every node has a route to each other one.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const counts = await Promise.all(specs.map((s) => monitor(s.monitorPort, '/routez').then((r) => Number(r.num_routes ?? 0), () => 0)));
    if (counts.every((n) => n >= size - 1)) break;
    if (Date.now() > deadline) throw new Error(`the NATS cluster did not form within 15 s (routes: ${counts.join(', ')})`);
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    get nodes() {
      return specs.map((s) => ({ name: s.name, url: `nats://127.0.0.1:${s.port}`, port: s.port, monitorPort: s.monitorPort, running: children.has(s.name) }));
    },
    url: specs.map((s) => `nats://127.0.0.1:${s.port}`).join(','),
    kill,
    start,
    connectedTo: async (connectionName: string) => {
      const found: string[] = [];
      for (const s of specs) {
        if (!children.has(s.name)) continue;
        const connz = await monitor(s.monitorPort, '/connz?limit=1024').catch(() => ({ connections: [] }));
        if ((connz.connections ?? []).some((c) => c.name === connectionName)) found.push(s.name);
      }
      return found;
    },
    dispose: async () => {
      await Promise.all(specs.map((s) => kill(s.name)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
