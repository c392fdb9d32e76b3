// An RPC provider a test can break: an HTTP proxy in front of a real node that passes JSON-RPC requests on, and
// that can be killed (connections refused), stalled (requests held without an answer) and brought back, or limit
// eth_getLogs as public providers do (block range, requests a second).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getFreePort } from './ports';

export interface RpcProxy {
  readonly url: string;
  readonly port: number;
  /** Requests passed on so far. */
  readonly forwarded: number;
  /** Closes the port: connections are refused, open ones cut. */
  kill(): Promise<void>;
  /** Listens again on the same port and passes requests on. */
  revive(): Promise<void>;
  /** Keeps accepting requests but answers none until `resume` (or `kill`). */
  stall(): void;
  /** Answers again, the held requests too. */
  resume(): void;
  /** Answers every request `ms` late (a node alive but busy); 0 to answer at once again. */
  slow(ms: number): void;
  /**
   * Refuses eth_getLogs as public providers do: a block range wider than `maxLogRange` with a JSON-RPC error
   * (`query exceeds max block range N`), and more than `maxLogRequestsPerSecond` a second with HTTP 429 (Retry-After
   * 1). Counts what it refused in `refused`.
   */
  limit(limits: RpcLimits): void;
  readonly refused: { readonly range: number; readonly rate: number };
  close(): Promise<void>;
}

export interface RpcLimits {
  readonly maxLogRange?: number;
  readonly maxLogRequestsPerSecond?: number;
}

/** Starts a proxy to `target` (an RPC URL) on a free port of 127.0.0.1. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const port = await getFreePort();
  let server: Server | undefined;
  let stalled = false;
  let lateMs = 0;
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const held: (() => void)[] = [];

  let limits: RpcLimits = {};
  const refused = { range: 0, rate: 0 };
  let window = { second: 0, count: 0 };
  /** The answer to a refused eth_getLogs, or undefined to pass the request on. */
  const refusal = (body: Buffer): { status: number; headers: Record<string, string>; json: unknown } | undefined => {
    if (limits.maxLogRange === undefined && limits.maxLogRequestsPerSecond === undefined) return undefined;
    let request: { id?: unknown; method?: string; params?: { fromBlock?: string; toBlock?: string }[] };
    try {
      request = JSON.parse(body.toString());
    } catch {
      return undefined;
    }
    if (Array.isArray(request) || request.method !== 'eth_getLogs') return undefined;
    if (limits.maxLogRequestsPerSecond !== undefined) {
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) window = { second, count: 0 };
      if (++window.count > limits.maxLogRequestsPerSecond) {
        refused.rate++;
        return { status: 429, headers: { 'retry-after': '1' }, json: { jsonrpc: '2.0', id: request.id, error: { code: 429, message: 'Too Many Requests' } } };
      }
    }
    const filter = request.params?.[0];
    if (limits.maxLogRange !== undefined && filter?.fromBlock?.startsWith('0x') && filter.toBlock?.startsWith('0x')) {
      const width = Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1;
      if (width > limits.maxLogRange) {
        refused.range++;
        return { status: 200, headers: {}, json: { jsonrpc: '2.0', id: request.id, error: { code: -32005, message: `query exceeds max block range ${limits.maxLogRange}` } } };
      }
    }
    return undefined;
  };

  const pass = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const refuse = refusal(body);
    if (refuse) {
      res.writeHead(refuse.status, { 'content-type': 'application/json', ...refuse.headers });
      res.end(JSON.stringify(refuse.json));
      return;
    }
    try {
      if (lateMs > 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(30_000) });
      forwarded++;
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (stalled) held.push(() => void pass(req, res, body));
      else void pass(req, res, body);
    });
  };

  const revive = async () => {
    if (server) return;
    const s = createServer(handle);
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    server = s;
  };

  const kill = async () => {
    const s = server;
    server = undefined;
    held.length = 0;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  const resume = () => {
    stalled = false;
    for (const answer of held.splice(0)) answer();
  };

  await revive();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get forwarded() {
      return forwarded;
    },
    kill,
    slow: (ms: number) => {
      lateMs = ms;
    },
    revive,
    stall: () => (stalled = true),
    resume,
    limit: (l: RpcLimits) => {
      limits = l;
    },
    refused,
    close: kill,
  };
}
