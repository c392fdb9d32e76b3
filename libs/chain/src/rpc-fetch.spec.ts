import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, http as httpTransport, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { isUnreachable } from './errors';
import { RPC_MAX_RESPONSE_BYTES, rpcFetch } from './rpc-fetch';

/** A JSON-RPC server on loopback whose answers the test decides; it counts requests and the sockets they came on. */
async function rpcServer(answer: (body: { id: number; method: string; params?: unknown[] }, res: http.ServerResponse, req: http.IncomingMessage) => void) {
  const sockets = new Set<unknown>();
  const seen: { method: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ method: body.method, headers: req.headers });
      answer(body, res, req);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    sockets,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const clientOf = (url: string, timeout = 2_000) => createPublicClient({ transport: httpTransport(url, { timeout, retryCount: 0, fetchFn: rpcFetch }) });

describe('rpcFetch (the JSON-RPC transport under viem)', () => {
  it('carries calls and answers through viem, on one kept-alive socket, with its headers', async () => {
    const server = await rpcServer((body, res) => json(res, 200, { jsonrpc: '2.0', id: body.id, result: '0x2a' }));
    try {
      const client = clientOf(server.url);
      for (let i = 0; i < 5; i++) expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n);
      expect(server.seen.map((s) => s.method)).toEqual(Array(5).fill('eth_blockNumber'));
      expect(server.seen[0].headers['content-type']).toBe('application/json');
      expect(server.seen[0].headers.connection).toBe('keep-alive');
      expect(server.sockets.size).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("answers a JSON-RPC error as viem's RpcRequestError, with the node's message", async () => {
    const server = await rpcServer((body, res) => json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'header not found' } }));
    try {
      const err = await clientOf(server.url)
        .getBlockNumber({ cacheTime: 0 })
        .catch((e: unknown) => e);
      expect((err as Error & { walk: (f: (e: unknown) => boolean) => unknown }).walk((e) => e instanceof RpcRequestError)).toBeInstanceOf(RpcRequestError);
      expect(String((err as Error).message)).toContain('header not found');
      expect(isUnreachable(err)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('answers an HTTP failure as HttpRequestError with its status (unreachable for the services)', async () => {
    const server = await rpcServer((_body, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    try {
      const err = await clientOf(server.url)
        .getBlockNumber({ cacheTime: 0 })
        .catch((e: unknown) => e);
      const http = (err as Error & { walk: (f: (e: unknown) => boolean) => unknown }).walk((e) => e instanceof HttpRequestError) as HttpRequestError;
      expect(http).toBeInstanceOf(HttpRequestError);
      expect(http.status).toBe(502);
      expect(isUnreachable(err)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("stops a call that outlives viem's timeout: TimeoutError, and the socket is let go", async () => {
    const held: http.ServerResponse[] = [];
    const server = await rpcServer((_body, res) => held.push(res));
    try {
      const started = performance.now();
      const err = await clientOf(server.url, 150)
        .getBlockNumber({ cacheTime: 0 })
        .catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect((err as Error & { walk: (f: (e: unknown) => boolean) => unknown }).walk((e) => e instanceof TimeoutError)).toBeInstanceOf(TimeoutError);
      expect(isUnreachable(err)).toBe(true);
      // The server sees the aborted request's socket close.
      await new Promise((r) => setTimeout(r, 50));
      expect(held[0].socket?.destroyed ?? true).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses an answer larger than the bound', async () => {
    const server = await rpcServer((_body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"jsonrpc":"2.0","id":1,"result":"0x${'0'.repeat(RPC_MAX_RESPONSE_BYTES)}"}`);
    });
    try {
      const err = await clientOf(server.url)
        .getBlockNumber({ cacheTime: 0 })
        .catch((e: unknown) => e);
      expect(String((err as Error).message)).toContain(`larger than ${RPC_MAX_RESPONSE_BYTES} bytes`);
    } finally {
      await server.close();
    }
  });

  it('fails a provider nobody listens on as unreachable', async () => {
    const server = await rpcServer(() => undefined);
    const url = server.url;
    await server.close();
    const err = await clientOf(url)
      .getBlockNumber({ cacheTime: 0 })
      .catch((e: unknown) => e);
    expect(isUnreachable(err)).toBe(true);
  });

  it('honours an abort before the call and a non-string body is refused', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(rpcFetch('http://127.0.0.1:1', { method: 'POST', body: '{}', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(rpcFetch('http://127.0.0.1:1', { method: 'POST', body: new Uint8Array(2) })).rejects.toThrow('string bodies only');
    await expect(rpcFetch('ftp://127.0.0.1:1', { method: 'POST', body: '{}' })).rejects.toThrow('unsupported RPC URL scheme');
  });

  it('sends the credentials of a URL as basic authorization, not in the path', async () => {
    const server = await rpcServer((body, res) => json(res, 200, { jsonrpc: '2.0', id: body.id, result: '0x1' }));
    try {
      const url = server.url.replace('http://', 'http://user:p%40ss@');
      expect(await clientOf(url).getBlockNumber({ cacheTime: 0 })).toBe(1n);
      expect(server.seen[0].headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    } finally {
      await server.close();
    }
  });
});
