import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

export interface AnvilOptions {
  readonly chainId: number;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Seconds between blocks; undefined mines a block per transaction. */
  readonly blockTime?: number;
  /** Where anvil's own output goes; discarded when unset. */
  readonly logFile?: string;
  readonly accounts?: number;
  /** Balance of each dev account, in whole native coins. */
  readonly balance?: number;
  /** A state file (anvil's `--dump-state` JSON) to start from: accounts, blocks, transactions and logs. */
  readonly loadState?: string;
  /**
   * Most block states anvil keeps on disk once they leave its memory (`--max-persisted-states`); unbounded by
   * default, which on a chain with thousands of pools grows by gigabytes a minute.
   */
  readonly maxPersistedStates?: number;
  /** Another chain's RPC to fork from (`--fork-url`): the node starts with that chain's state, fetched as needed. */
  readonly forkUrl?: string;
  /** The block to fork at (`--fork-block-number`); the chain's newest when unset. */
  readonly forkBlockNumber?: bigint;
}

export interface AnvilNode {
  readonly chainId: number;
  readonly port: number;
  readonly rpcUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Path of the anvil binary shipped in the platform package of `@foundry-rs/anvil`. */
export function anvilBinary(): string {
  const require = createRequire(__filename);
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    const pkg = require.resolve(`${platformPackage}/package.json`);
    const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the error below
  }
  throw new Error(`anvil binary not found: install ${platformPackage} (npm ci installs it on linux-x64)`);
}

/**
 * A TCP port that was free a moment ago on `host` (the OS picks it). Another process may still take it
 * before you bind, so bind soon after asking.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port the OS assigned'));
        return;
      }
      server.close((error) => (error ? reject(error) : resolve(address.port)));
    });
  });
}

/** Whether something already listens on `port`. */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(true));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}

/** Running nodes and the folder each keeps its older block states in (removed when it exits). */
const running = new Map<ChildProcess, string>();
process.once('exit', () => {
  for (const [child, states] of running) {
    child.kill('SIGKILL');
    rmSync(states, { recursive: true, force: true });
  }
});

async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result === undefined ? undefined : Number(body.result);
  } catch {
    return undefined;
  }
}

/** Starts a fresh anvil chain and resolves once it answers `eth_chainId`. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  if (await portInUse(port, host)) {
    throw new Error(`port ${port} is already in use; cannot start the chain ${options.chainId} node there`);
  }
  const args = [
    '--chain-id', String(options.chainId),
    '--port', String(port),
    '--host', host,
    '--accounts', String(options.accounts ?? 10),
    '--balance', String(options.balance ?? 1_000_000),
  ];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.loadState !== undefined) args.push('--load-state', options.loadState);
  if (options.maxPersistedStates !== undefined) args.push('--max-persisted-states', String(options.maxPersistedStates));
  if (options.forkUrl !== undefined) args.push('--fork-url', options.forkUrl, ...(options.forkBlockNumber === undefined ? [] : ['--fork-block-number', String(options.forkBlockNumber)]));
  // Block states that leave anvil's memory go to disk; anvil never removes them, so each node gets a folder of
  // its own that goes with it.
  const states = mkdtempSync(join(tmpdir(), `anvil-${options.chainId}-states-`));
  args.push('--cache-path', states);
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.set(child, states);
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < 4_000) output += chunk.toString();
    log?.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.once('exit', () => {
    running.delete(child);
    rmSync(states, { recursive: true, force: true });
    log?.end();
  });

  const rpcUrl = `http://${host}:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`anvil for chain ${options.chainId} exited with code ${child.exitCode}: ${output.trim().slice(-500)}`);
    }
    const chainId = await rpcChainId(rpcUrl);
    if (chainId === options.chainId) break;
    if (chainId !== undefined) throw new Error(`a node on ${rpcUrl} answers chain ${chainId}, expected ${options.chainId}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil for chain ${options.chainId} did not answer on ${rpcUrl} within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    chainId: options.chainId,
    port,
    rpcUrl,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
