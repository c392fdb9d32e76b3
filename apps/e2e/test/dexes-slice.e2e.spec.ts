// The first vertical slice end to end, with the built apps as processes: gateway -> NATS ->
// aggregator-router, readiness on real NATS, Postgres and both anvil chains: the gateway's /health asks the
// services over NATS (here the aggregator, and in the outage suite the AMM quoter too) and reaches no chain itself.
import { ENDPOINTS, healthContract, healthReportSchema, listDexesContract, QUEUE_GROUPS, type EndpointName } from '@dex/messages';
import { DexApiError, type DexClient } from '@dex/sdk';
import { createJsonLogger, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, bodyOf, fileNatsUrl, getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(90_000);

/** A source that is not what its config says: RouterV2 slot 42, named a V3 source, at a V2 factory's address. */
const BOGUS = { name: 'Not a V3 factory', kind: 'uniswap-v3', routerIndex: 42 } as const;

/** A GET of `path` exactly as written (fetch would normalise it), over node:http: status, headers and JSON body. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /dexes and /health through the stack', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let aggregator: AppProcess;
  let gateway: AppProcess;
  let api: DexClient;

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains(), createTestDatabase()]);
    const env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url };
    // The devnet's sources, and on chain 999 one that is not what it says: the V2 factory named as a V3 source.
    const manifest = JSON.parse(readFileSync(chains.manifestPath, 'utf8'));
    const v2 = manifest.chains['999'].sources.find((s: { kind: string }) => s.kind === 'uniswap-v2');
    manifest.chains['999'].sources.push({ ...BOGUS, addresses: { factory: v2.addresses.factory } });
    const sourcesPath = join(mkdtempSync(join(tmpdir(), 'dexes-')), 'sources.json');
    writeFileSync(sourcesPath, JSON.stringify(manifest));
    [aggregator, gateway] = await Promise.all([
      startApp('aggregator-router', { ...env, SOURCES_CONFIG: sourcesPath }),
      startApp('gateway', { ...env, HEALTH_SERVICES: QUEUE_GROUPS.aggregatorRouter }),
    ]);
    api = apiClient(gateway.url);
    await until(() => api.request('health'), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), aggregator?.stop()]);
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('lists the configured sources of each chain, each checked against the chain: active, or failed saying why', async () => {
    for (const chainId of [999, 4663]) {
      const { value } = await until(() => api.listDexes({ chainId }), (r) => r.success === true, 10_000);
      expect(value.success).toBe(true);
      expect(value.data.chainId).toBe(chainId);
      const configured = chains.manifest.chains[String(chainId)].sources;
      const bogus = chainId === 999 ? [{ ...BOGUS, addresses: expect.any(Object), status: 'failed', reason: expect.stringMatching(/^feeAmountTickSpacing\(500\) is not answered/) }] : [];
      expect(value.data.dexes).toEqual(
        [
          ...[...configured].map((s) => ({ routerIndex: s.routerIndex, name: s.name, kind: s.kind, addresses: s.addresses, ...(s.feeBps === undefined ? {} : { feeBps: s.feeBps }), status: 'active' })),
          ...bogus,
        ].sort((a, b) => a.routerIndex - b.routerIndex),
      );
    }
  });

  it('counts the sources by status and logs the one left out', async () => {
    const metrics = await (await fetch(`${aggregator.url}/metrics`)).text();
    expect(metrics).toContain('dex_sources{chain="999",status="failed"} 1');
    expect(metrics).toMatch(/dex_sources\{chain="999",status="active"\} [1-9]/);
    expect(aggregator.output()).toContain('source left out: not what its config says');
  });

  it('answers 400 in the error shape for a missing chainId', async () => {
    const { status, body } = await api.request('listDexes', {});
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'Missing required parameter: chainId' });
  });

  it('answers 400 for an unsupported, malformed or repeated chainId', async () => {
    const unsupported = await api.request('listDexes', { chainId: 1 });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toEqual({ success: false, error: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' });

    const malformed = await api.request('listDexes', { chainId: 'abc' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: 'Invalid chainId: must be an integer' });

    // A repeated parameter is beyond what the client can send.
    const repeated = await getJson(`${gateway.url}/dexes?chainId=999&chainId=4663`);
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual({ success: false, error: 'Invalid chainId: must be given once' });
  });

  it('serves the OpenAPI document of every endpoint and the interactive docs', async () => {
    const doc = await getJson(`${gateway.url}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    for (const endpoint of Object.values(ENDPOINTS)) {
      expect(doc.body.paths[endpoint.path].get.operationId).toBe(endpoint.operationId);
      // Every documented path is routed: an unrouted one answers 404 "Not found: GET <path>".
      const pathParams = Object.fromEntries(endpoint.pathParams.map((name) => [name, '0x0000000000000000000000000000000000000001']));
      const r = await api.request(endpoint.operationId as EndpointName, pathParams);
      expect(String(r.error ?? '')).not.toMatch(/^Not found: GET/);
    }
    // Parameters and their checks come from the schemas the gateway validates with.
    const route = doc.body.paths['/v2/route'].get;
    expect(route.parameters.find((p: { name: string }) => p.name === 'chainId')).toMatchObject({ required: true, schema: { enum: ['999', '4663'] } });

    const page = await fetch(`${gateway.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain("url: '/openapi.json'");
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
      expect(html).toContain(asset);
      const res = await fetch(gateway.url + asset);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    expect((await fetch(`${gateway.url}/docs/package.json`)).status).toBe(404);
  });

  it('answers with the request id it was given, on successes and failures', async () => {
    const ok = await api.request('listDexes', { chainId: 999 }, { requestId: 'e2e-trace-1' });
    expect([ok.status, ok.requestId]).toEqual([200, 'e2e-trace-1']);
    const failed = await api.listDexes({ chainId: 1 }, { requestId: 'e2e-trace-2' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DexApiError);
    expect(failed).toMatchObject({ endpoint: 'listDexes', status: 400, error: 'Unsupported chainId: 1', requestId: 'e2e-trace-2' });
  });

  it('answers unknown paths with a 404 in the error shape', async () => {
    const { status, body } = await getJson(`${gateway.url}/nope?x=1`);
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'Not found: GET /nope' });
  });

  it('answers what fails before routing in the error shape too, with the same status', async () => {
    const badUrl = await rawGet(gateway.url, '/core/pool/%zz?chainId=999');
    expect([badUrl.status, badUrl.body]).toEqual([400, { success: false, error: 'Invalid URL' }]);
    expect(badUrl.headers['x-request-id']).toEqual(expect.any(String));
    const longParam = await rawGet(gateway.url, `/core/pool/0x${'1'.repeat(200)}?chainId=999`);
    expect([longParam.status, longParam.body]).toEqual([414, { success: false, error: 'URI too long' }]);
    // The request line and headers together are over Node's 16 KB limit.
    const longUrl = await rawGet(gateway.url, `/dexes?chainId=999&pad=${'x'.repeat(20_000)}`);
    expect([longUrl.status, longUrl.body]).toEqual([431, { success: false, error: 'Request header fields too large' }]);
    // The server still answers.
    expect((await api.request('listDexes', { chainId: 999 })).status).toBe(200);
  });

  it('answers a HEAD refused before routing with the status and no body (431, 400 on raw non-ASCII bytes, 400 on a bad URL)', async () => {
    const { port } = new URL(gateway.url);
    const exchange = (request: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const cases: [Buffer, number][] = [
      [Buffer.from(`HEAD /dexes?chainId=999&pad=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`), 431],
      [Buffer.concat([Buffer.from('HEAD /dexes?chainId=999&q='), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]), 400],
      [Buffer.from('HEAD /core/pool/%zz?chainId=999 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'), 400],
    ];
    for (const [request, status] of cases) {
      const answer = await exchange(request);
      const end = answer.indexOf('\r\n\r\n');
      expect([answer.slice(0, 12), answer.slice(end + 4)]).toEqual([`HTTP/1.1 ${status}`, '']);
    }
    // A GET refused the same way still carries the error envelope.
    const get = await exchange(Buffer.concat([Buffer.from('GET /dexes?chainId=999&q='), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]));
    expect(JSON.parse(get.slice(get.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error: 'Bad request' });
  });

  it("reports its NATS and the aggregator's readiness as the aggregator answers it (NATS, Postgres, each chain); no chain or database of its own", async () => {
    const r = await api.request('health');
    expect(r.status).toBe(200);
    const body = bodyOf(r);
    expect(body.success).toBe(true);
    expect(body.data.status).toBe('ok');
    expect(Object.keys(body.data.checks).sort()).toEqual(['aggregator-router', 'nats']);
    const answer = body.data.checks['aggregator-router'];
    expect(answer.status).toBe('up');
    expect(Object.keys(answer.checks ?? {}).sort()).toEqual(['nats', 'postgres', 'rpc:4663', 'rpc:999']);
    for (const check of Object.values(answer.checks ?? {})) expect(check.status).toBe('up');
    expect(Number(answer.checks?.['rpc:999'].blockNumber)).toBeGreaterThan(0);
    // The gateway's own readiness, its probe's: NATS alone.
    const ready = bodyOf(await api.request('ready'));
    expect(Object.keys(ready.data.checks)).toEqual(['nats']);
  });

  it('answers each service health subject over the bus, in its queue group', async () => {
    const bus = new NatsBus({ url: await fileNatsUrl(), name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    await bus.connect();
    try {
      for (const service of [QUEUE_GROUPS.aggregatorRouter, QUEUE_GROUPS.gateway]) {
        const reply = await bus.request(healthContract(service), {});
        expect(reply.ok).toBe(true);
        if (reply.ok) expect(healthReportSchema.parse(reply.data).service).toBe(service);
      }
      // The aggregator validates on its side too: a chain it does not serve is a typed 400.
      expect(await bus.request(listDexesContract, { chainId: 1 })).toEqual({
        ok: false,
        error: { status: 400, message: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' },
      });
    } finally {
      await bus.close();
    }
  });

  it('logs one JSON object per line', () => {
    const lines = gateway.output().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.map((l) => JSON.parse(l)).some((l) => l.context === 'gateway')).toBe(true);
  });
});

describe('readiness follows the services and a NATS outage without restarts', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let env: Record<string, string>;
  let aggregator: AppProcess;
  let quoter: AppProcess | undefined;
  let gateway: AppProcess;
  let api: DexClient;
  let aggregatorApi: DexClient;

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, BUS_TIMEOUT_MS: '1000' };
    // The devnet's sources, and on chain 999 one that is not what it says: the V2 factory named as a V3 source.
    const manifest = JSON.parse(readFileSync(chains.manifestPath, 'utf8'));
    const v2 = manifest.chains['999'].sources.find((s: { kind: string }) => s.kind === 'uniswap-v2');
    manifest.chains['999'].sources.push({ ...BOGUS, addresses: { factory: v2.addresses.factory } });
    const sourcesPath = join(mkdtempSync(join(tmpdir(), 'dexes-')), 'sources.json');
    writeFileSync(sourcesPath, JSON.stringify(manifest));
    [aggregator, gateway] = await Promise.all([
      startApp('aggregator-router', { ...env, SOURCES_CONFIG: sourcesPath }),
      startApp('gateway', { ...env, HEALTH_SERVICES: `${QUEUE_GROUPS.aggregatorRouter},${QUEUE_GROUPS.ammQuoter}` }),
    ]);
    api = apiClient(gateway.url);
    aggregatorApi = apiClient(aggregator.url);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), aggregator?.stop(), quoter?.stop()]);
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('counts a service that does not answer as down (503) until it answers', async () => {
    const absent = await until(() => api.request('health'), (r) => r.status === 503 && (r.body as any)?.data?.checks?.['aggregator-router']?.status === 'up', 20_000);
    expect(absent.value.body).toMatchObject({
      success: false,
      data: { status: 'error', checks: { nats: { status: 'up' }, 'amm-quoter': { status: 'down', error: 'No service is answering: amm-quoter.health' } } },
    });

    quoter = await startApp('amm-quoter', { ...env, SOURCES_CONFIG: chains.manifestPath });
    const present = await until(() => api.request('health'), (r) => r.status === 200, 20_000);
    expect(present.value.body).toMatchObject({
      success: true,
      data: { status: 'ok', checks: { 'amm-quoter': { status: 'up', checks: { nats: { status: 'up' }, postgres: { status: 'up' }, 'rpc:999': { status: 'up' } } } } },
    });
  });

  it('turns red within seconds when NATS stops and green again when it is back', async () => {
    await until(() => api.request('health'), (r) => r.status === 200, 20_000);
    const aggregatorReady = await aggregatorApi.request('ready');
    expect(aggregatorReady.status).toBe(200);

    await nats.stop();
    const down = await until(() => api.request('health'), (r) => r.status === 503 && (r.body as any)?.data?.checks?.nats?.status === 'down', 15_000);
    // The 503 body is the readiness report with success: false; with the bus down no service can be asked.
    expect(down.value.body).toMatchObject({
      success: false,
      data: {
        checks: {
          nats: { status: 'down' },
          'aggregator-router': { status: 'down', error: 'Message bus unavailable: aggregator-router.health' },
          'amm-quoter': { status: 'down', error: 'Message bus unavailable: amm-quoter.health' },
        },
      },
    });
    await until(() => aggregatorApi.request('ready'), (r) => r.status === 503, 15_000);

    const during = await api.request('listDexes', { chainId: 999 });
    expect(during.status).toBeGreaterThanOrEqual(500);
    expect(during.body).toMatchObject({ success: false });

    await nats.start();
    await until(() => api.request('health'), (r) => r.status === 200, 20_000);
    // The aggregator resubscribed on its own: the slice answers again, with no process restarted.
    const after = await until(() => api.listDexes({ chainId: 999 }), (r) => r.success === true, 20_000);
    expect(after.value.data.chainId).toBe(999);
    expect(gateway.child.exitCode).toBeNull();
    expect(aggregator.child.exitCode).toBeNull();
    expect(quoter?.child.exitCode).toBeNull();
  });
});
