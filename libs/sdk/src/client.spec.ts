// The client against a real HTTP server on a free port: what goes on the wire, and what comes back.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS, type EndpointName } from '@dex/messages';
import { createDexClient, DexApiError, DexClientError, DexNetworkError, DexResponseError, type DexClient } from './index';

const USDC = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const USDT = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

const dexes = (extra: Record<string, unknown> = {}) => ({
  success: true,
  data: { chainId: 999, dexes: [{ routerIndex: 1, name: 'DevSwap V2', kind: 'uniswap-v2', addresses: { factory: FACTORY }, feeBps: 30, status: 'active', ...extra }] },
});
const report = (status: 'ok' | 'error') => ({
  status,
  service: 'gateway',
  checks: { nats: { status: status === 'ok' ? 'up' : 'down', latencyMs: 2, rttMs: 1.4, ...(status === 'ok' ? {} : { error: 'connection closed' }) } },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  handler = json(200, dexes());
});

const lastUrl = () => seen[seen.length - 1].url;
const caught = (promise: Promise<unknown>): Promise<unknown> => promise.then(
  (value) => {
    throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
  },
  (error: unknown) => error,
);

describe('requests', () => {
  let client: DexClient;
  beforeEach(() => {
    client = createDexClient({ baseUrl });
  });

  it('has one method per endpoint, named by its operationId, each on its own path', async () => {
    const names = Object.keys(ENDPOINTS) as EndpointName[];
    expect(names.map((n) => ENDPOINTS[n].operationId)).toEqual(names);
    for (const name of names) {
      expect(typeof client[name]).toBe('function');
      handler = json(400, { success: false, error: 'Missing required parameter: chainId' });
      await client.request(name, { address: FACTORY } as never);
      expect(lastUrl().split('?')[0]).toBe(ENDPOINTS[name].path.replace('{address}', FACTORY));
      expect(seen[seen.length - 1].method).toBe('GET');
    }
  });

  it('writes numbers, booleans, bigints and lists as the API reads them', async () => {
    handler = json(200, { success: true, data: {} });
    await client.request('route', {
      chainId: 999,
      tokenIn: USDC,
      tokenOut: USDT,
      amountIn: 1.5,
      multiHop: true,
      unwrapNative: false,
      slippage: 0.5,
      includeDexes: [0, 2],
      excludeDexes: ['3'],
      feeBps: 25,
      feeRecipient: undefined,
    });
    expect(lastUrl()).toBe(
      `/v2/route?chainId=999&tokenIn=${USDC}&tokenOut=${USDT}&amountIn=1.5&multiHop=true&unwrapNative=false&slippage=0.5&includeDexes=0%2C2&excludeDexes=3&feeBps=25`,
    );

    await client.request('coreQuote', { chainId: '4663', tokenIn: USDC, tokenOut: USDT, amountIn: [10n ** 30n, '7'], includeCalldata: true, slippageBps: 37, refCode: 'ALPHA' });
    const quote = new URL(lastUrl(), baseUrl).searchParams;
    expect(Object.fromEntries(quote)).toEqual({
      chainId: '4663',
      tokenIn: USDC,
      tokenOut: USDT,
      amountIn: '1000000000000000000000000000000,7',
      includeCalldata: 'true',
      slippageBps: '37',
      refCode: 'ALPHA',
    });

    await client.request('coreQuote', { chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: 5n });
    expect(new URL(lastUrl(), baseUrl).searchParams.get('amountIn')).toBe('5');

    await client.request('tokenBalances', { chainId: 999, wallet: USDC, tokens: [USDC, USDT] });
    expect(new URL(lastUrl(), baseUrl).searchParams.get('tokens')).toBe(`${USDC},${USDT}`);

    await client.request('listTokens', { chainId: 999, search: 'dai stable', limit: 2, offset: 0, metadata: false });
    expect(lastUrl()).toBe('/tokens?chainId=999&search=dai+stable&limit=2&offset=0&metadata=false');

    await client.request('launchpadEstimate', { chainId: 999, token: USDC, side: 'sell', amount: 2n ** 200n });
    expect(new URL(lastUrl(), baseUrl).searchParams.get('amount')).toBe((2n ** 200n).toString());
  });

  it('sends strings as given: an empty value, or one the API will reject', async () => {
    handler = json(200, { success: true, data: {} });
    await client.request('coreQuote', { chainId: 999, tokenIn: '0x1234', tokenOut: USDT, amountIn: '1,,2', includeCalldata: '' });
    expect(lastUrl()).toBe(`/core/quote?chainId=999&tokenIn=0x1234&tokenOut=${USDT}&amountIn=1%2C%2C2&includeCalldata=`);
  });

  it('refuses numbers without a plain decimal form, before sending anything', async () => {
    await expect(client.route({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: 1e21 })).rejects.toThrow(new TypeError('amountIn: 1e+21 has no plain decimal form; pass it as a string'));
    await expect(client.route({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: Number.NaN })).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(0);
  });

  it('substitutes path parameters, URI-encoded, and leaves them out of the query', async () => {
    handler = json(200, { success: true, data: {} });
    await client.request('launchpadTrades', { chainId: 999, address: USDC, limit: 1 });
    expect(lastUrl()).toBe(`/launchpad/tokens/${USDC}/trades?chainId=999&limit=1`);
    await client.request('corePool', { chainId: 999, address: 'a/b?c' });
    expect(lastUrl()).toBe('/core/pool/a%2Fb%3Fc?chainId=999');
    await expect(client.request('corePool', { chainId: 999 })).rejects.toThrow(new TypeError('corePool: missing path parameter address'));
    expect(client.url('launchpadToken', { chainId: 999, address: USDC })).toBe(`${baseUrl}/launchpad/tokens/${USDC}?chainId=999`);
  });

  it('keeps a path prefix of the base URL', async () => {
    handler = json(200, dexes());
    const prefixed = createDexClient({ baseUrl: `${baseUrl}/api/` });
    await prefixed.listDexes({ chainId: 999 });
    expect(lastUrl()).toBe('/api/dexes?chainId=999');
  });

  it('sends the request id, default and per-call headers; returns the answered request id', async () => {
    handler = json(200, dexes(), { 'x-request-id': 'answered-1' });
    const withHeaders = createDexClient({ baseUrl, headers: { 'x-api-key': 'k1', 'x-client': 'default' } });
    const raw = await withHeaders.request('listDexes', { chainId: 999 }, { requestId: 'trace-42', headers: { 'x-client': 'call' } });
    expect(seen[0].headers).toMatchObject({ 'x-request-id': 'trace-42', 'x-api-key': 'k1', 'x-client': 'call', accept: 'application/json' });
    expect(raw.requestId).toBe('answered-1');
    await withHeaders.listDexes({ chainId: 999 });
    expect(seen[1].headers['x-request-id']).toBeUndefined();
  });

  it('uses the fetch implementation it is given', async () => {
    const urls: string[] = [];
    const counting: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    await createDexClient({ baseUrl, fetch: counting }).listDexes({ chainId: 4663 });
    expect(urls).toEqual([`${baseUrl}/dexes?chainId=4663`]);
  });
});

describe('responses', () => {
  it('a method resolves to the success body as received', async () => {
    handler = json(200, { success: true, data: [], totalTVL: '0.00', totals24h: { fees: '0.00', volume: '0.00' } });
    const client = createDexClient({ baseUrl });
    expect(await client.corePools({ chainId: 999 })).toEqual({ success: true, data: [], totalTVL: '0.00', totals24h: { fees: '0.00', volume: '0.00' } });
    handler = json(200, { success: true, data: { status: 'ok' } });
    expect(await client.live()).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('an error status throws DexApiError with the message, details, request id and endpoint', async () => {
    handler = json(400, { success: false, error: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' }, { 'x-request-id': 'r-400' });
    const client = createDexClient({ baseUrl });
    const error = (await caught(client.listDexes({ chainId: 1 }))) as DexApiError;
    expect(error).toBeInstanceOf(DexApiError);
    expect(error).toBeInstanceOf(DexClientError);
    expect(error).toMatchObject({
      name: 'DexApiError',
      endpoint: 'listDexes',
      status: 400,
      error: 'Unsupported chainId: 1',
      details: 'supported chains: 999, 4663',
      requestId: 'r-400',
      url: `${baseUrl}/dexes?chainId=1`,
      body: { success: false, error: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' },
    });
    expect(error.message).toBe('listDexes: 400 Unsupported chainId: 1 (supported chains: 999, 4663)');
    // Serialisable, e.g. in a failed poll's message.
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status: 400, error: 'Unsupported chainId: 1' });
  });

  it('an error body that is not the envelope still gives the status', async () => {
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    const client = createDexClient({ baseUrl });
    const error = (await caught(client.listDexes({ chainId: 999 }))) as DexApiError;
    expect(error).toMatchObject({ status: 502, error: 'HTTP 502', details: undefined, body: '<html>bad gateway</html>' });

    handler = json(503, { success: false, data: report('error') });
    const down = (await caught(client.health())) as DexApiError;
    expect(down).toMatchObject({ endpoint: 'health', status: 503, error: 'HTTP 503', body: { success: false, data: report('error') } });
  });

  it('request() answers every status without throwing', async () => {
    const client = createDexClient({ baseUrl });
    handler = json(404, { success: false, error: 'No route found', details: 'no admitted pool' }, { 'x-request-id': 'r-404' });
    const failed = await client.request('route', { chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1' });
    expect(failed).toMatchObject({ ok: false, status: 404, error: 'No route found', details: 'no admitted pool', requestId: 'r-404', body: { success: false, error: 'No route found', details: 'no admitted pool' } });
    expect(failed.headers.get('content-type')).toBe('application/json');

    handler = json(200, dexes());
    const ok = await client.request('listDexes', { chainId: 999 });
    expect(ok).toMatchObject({ ok: true, status: 200, body: dexes() });
    expect(ok.error).toBeUndefined();
  });

  it('a success that is not JSON is a DexResponseError, validating or not', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    };
    const error = (await caught(createDexClient({ baseUrl }).listDexes({ chainId: 999 }))) as DexResponseError;
    expect(error).toBeInstanceOf(DexResponseError);
    expect(error.issues).toEqual([{ path: '', message: 'not JSON: "ok"' }]);
  });
});

describe('network failures', () => {
  it('a time limit that passes is a DexNetworkError with reason timeout', async () => {
    handler = () => undefined; // never answers
    const client = createDexClient({ baseUrl, timeoutMs: 150 });
    const started = Date.now();
    const error = (await caught(client.listDexes({ chainId: 999 }))) as DexNetworkError;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(DexNetworkError);
    expect(error).not.toBeInstanceOf(DexApiError);
    expect(error).toMatchObject({ name: 'DexNetworkError', reason: 'timeout', endpoint: 'listDexes' });
    expect(error.message).toBe(`listDexes: GET ${baseUrl}/dexes?chainId=999: no response within 150 ms`);
    // A call's own limit replaces the client's.
    const own = (await caught(createDexClient({ baseUrl }).request('listDexes', { chainId: 999 }, { timeoutMs: 100 }))) as DexNetworkError;
    expect(own).toMatchObject({ reason: 'timeout' });
  });

  it('the time limit covers a body that stops half-way', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    };
    const error = await caught(createDexClient({ baseUrl, timeoutMs: 150 }).listDexes({ chainId: 999 }));
    expect(error).toMatchObject({ name: 'DexNetworkError', reason: 'timeout' });
  });

  it("the caller's abort signal is reason aborted", async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const pending = caught(createDexClient({ baseUrl }).listDexes({ chainId: 999 }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ name: 'DexNetworkError', reason: 'aborted' });
  });

  it('a refused connection is reason network', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = (await caught(createDexClient({ baseUrl: `http://127.0.0.1:${port}` }).request('live'))) as DexNetworkError;
    expect(error).toBeInstanceOf(DexNetworkError);
    expect(error.reason).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('response validation', () => {
  const wrongType = { success: true, data: { chainId: 999, dexes: [{ routerIndex: 1, name: 'DevSwap V2', kind: 'uniswap-v2', addresses: { factory: FACTORY }, feeBps: '30', status: 'active' }] } };

  it('off (the default): a body is returned as received, whatever it holds', async () => {
    handler = json(200, wrongType);
    expect(await createDexClient({ baseUrl }).listDexes({ chainId: 999 })).toEqual(wrongType);
  });

  it('on: a body that departs from the documented schema throws, naming where', async () => {
    handler = json(200, wrongType, { 'x-request-id': 'r-bad' });
    const client = createDexClient({ baseUrl, validateResponses: true });
    const error = (await caught(client.listDexes({ chainId: 999 }))) as DexResponseError;
    expect(error).toBeInstanceOf(DexResponseError);
    expect(error).toMatchObject({ endpoint: 'listDexes', status: 200, requestId: 'r-bad', body: wrongType });
    expect(error.issues).toEqual([{ path: 'data.dexes[0].feeBps', message: expect.stringContaining('expected number') }]);
    expect(error.message).toContain('data.dexes[0].feeBps: ');
    // request() validates successes too.
    await expect(client.request('listDexes', { chainId: 999 })).rejects.toBeInstanceOf(DexResponseError);
  });

  it('on: the body is returned as received, not as parsed (no checksumming, no dropped field)', async () => {
    const lower = dexes({ addresses: { factory: FACTORY.toLowerCase() }, extra: 1 });
    handler = json(200, lower);
    expect(await createDexClient({ baseUrl, validateResponses: true }).listDexes({ chainId: 999 })).toEqual(lower);
  });

  it('strict: an undocumented field is a mismatch; loose objects (health checks) keep theirs', async () => {
    handler = json(200, dexes({ extra: 1 }));
    const strict = createDexClient({ baseUrl, validateResponses: 'strict' });
    const error = (await caught(strict.listDexes({ chainId: 999 }))) as DexResponseError;
    expect(error.issues).toEqual([{ path: 'data.dexes[0].extra', message: 'undocumented field' }]);

    handler = json(200, { success: true, data: report('ok') });
    expect((await strict.health()).data.checks.nats).toEqual({ status: 'up', latencyMs: 2, rttMs: 1.4 });
  });

  it('strict: failures are the documented envelope, at a documented status', async () => {
    const strict = createDexClient({ baseUrl, validateResponses: 'strict' });
    handler = json(400, { success: false, error: 'Missing required parameter: chainId' });
    expect(await strict.request('listDexes', {})).toMatchObject({ ok: false, status: 400, error: 'Missing required parameter: chainId' });

    handler = json(400, { success: false, error: 'x', details: null });
    expect(((await caught(strict.request('listDexes', {}))) as DexResponseError).issues).toEqual([{ path: 'details', message: expect.stringContaining('expected string') }]);

    handler = json(400, { success: false, error: 'x', hint: 'y' });
    expect(((await caught(strict.listDexes({ chainId: 999 }))) as DexResponseError).issues).toEqual([{ path: 'hint', message: 'undocumented field' }]);

    handler = json(409, { success: false, error: 'Conflict' });
    expect(((await caught(strict.listDexes({ chainId: 999 }))) as DexResponseError).issues).toEqual([{ path: '', message: 'status 409 is not documented for listDexes' }]);

    handler = json(500, { success: false, error: 'Internal server error' });
    await expect(strict.listDexes({ chainId: 999 })).rejects.toMatchObject({ name: 'DexApiError', status: 500 });

    // The 503 of /health carries the report with success: false, checked against the report's schema.
    handler = json(503, { success: false, data: report('error') });
    await expect(strict.health()).rejects.toMatchObject({ name: 'DexApiError', status: 503 });
    handler = json(503, { success: false, data: { status: 'broken' } });
    await expect(strict.health()).rejects.toBeInstanceOf(DexResponseError);
  });

  it('strict: the success status is 200', async () => {
    handler = json(203, dexes());
    const error = (await caught(createDexClient({ baseUrl, validateResponses: 'strict' }).listDexes({ chainId: 999 }))) as DexResponseError;
    expect(error.issues).toEqual([{ path: '', message: 'status 203, the documented success status is 200' }]);
    handler = json(203, dexes());
    expect(await createDexClient({ baseUrl, validateResponses: true }).listDexes({ chainId: 999 })).toEqual(dexes());
  });
});
