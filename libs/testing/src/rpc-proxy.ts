// An RPC provider a test can break: an HTTP proxy in front of a real node that passes JSON-RPC requests on, and
// that can be killed (connections refused), stalled (requests held without an answer) and brought back.
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
  close(): Promise<void>;
}

/** Starts a proxy to `target` (an RPC URL) on a free port of 127.0.0.1. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const port = await getFreePort();
  let server: Server | undefined;
  let stalled = false;
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const held: (() => void)[] = [];

  const pass = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    try {
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
    revive,
    stall: () => (stalled = true),
    resume,
    close: kill,
  };
}
