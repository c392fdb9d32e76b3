// The first vertical slice end to end on real infrastructure: gateway -> NATS -> aggregator-router, with
// readiness checking real NATS, Postgres and both anvil chains.
import { createJsonLogger, startService, type RunningService } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, testNatsUrl, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { loadAggregatorConfig } from '../../aggregator-router/src/config';
import { aggregatorRouterService } from '../../aggregator-router/src/service';
import { loadGatewayConfig } from '../src/config';
import { gatewayService } from '../src/service';

jest.setTimeout(60_000);

const quiet = (name: string) => createJsonLogger(name, 'fatal');

async function get(base: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: await res.json() };
}

async function until<T>(probe: () => Promise<T>, accept: (v: T) => boolean, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (accept(value)) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('gateway /dexes and /health over the real bus', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let aggregator: RunningService<unknown>;
  let gateway: RunningService<unknown>;

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains(), createTestDatabase()]);
    const env = { ...chains.env, NATS_URL: testNatsUrl(), DATABASE_URL: db.url, HTTP_PORT: '0', HTTP_HOST: '127.0.0.1' };
    aggregator = await startService(
      { ...aggregatorRouterService, loadConfig: () => loadAggregatorConfig({ ...env, SOURCES_CONFIG: chains.manifestPath }) },
      { logger: quiet('aggregator-router') },
    );
    gateway = await startService({ ...gatewayService, loadConfig: () => loadGatewayConfig(env) }, { logger: quiet('gateway') });
    await aggregator.bus.connect();
    await gateway.bus.connect();
  });

  afterAll(async () => {
    await gateway?.close();
    await aggregator?.close();
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('lists the configured sources of a chain', async () => {
    const { status, body } = await until(() => get(gateway.url, '/dexes?chainId=999'), (r) => r.status === 200, 10_000).then((r) => r.value);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.chainId).toBe(999);
    expect(body.data.dexes).toEqual(
      chains.manifest.chains['999'].sources.map((s) => expect.objectContaining({ routerIndex: s.routerIndex, name: s.name, kind: s.kind })),
    );
  });

  it('answers 400 in the error shape for a missing chainId', async () => {
    const { status, body } = await get(gateway.url, '/dexes');
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'Missing required parameter: chainId' });
  });

  it('answers 400 for an unsupported or malformed chainId', async () => {
    const unsupported = await get(gateway.url, '/dexes?chainId=1');
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({ success: false, error: 'Unsupported chainId: 1' });
    expect(unsupported.body.details).toContain('999');

    const malformed = await get(gateway.url, '/dexes?chainId=abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: 'Invalid chainId: must be an integer' });

    const repeated = await get(gateway.url, '/dexes?chainId=999&chainId=4663');
    expect(repeated.status).toBe(400);
    expect(repeated.body.success).toBe(false);
  });

  it('answers unknown paths with a 404 in the error shape', async () => {
    const { status, body } = await get(gateway.url, '/nope');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'Not found: GET /nope' });
  });

  it('reports readiness of NATS, Postgres and each chain', async () => {
    const { status, body } = await get(gateway.url, '/health');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.status).toBe('ok');
    expect(Object.keys(body.data.checks).sort()).toEqual(['nats', 'postgres', 'rpc:4663', 'rpc:999']);
    for (const check of Object.values<any>(body.data.checks)) expect(check.status).toBe('up');
  });

  it('answers the service health subject over the bus', async () => {
    const reply = await gateway.bus.request(
      { subject: 'aggregator-router.health', description: '', request: (await import('zod')).z.object({}), response: (await import('@dex/messages')).healthReportSchema },
      {},
    );
    expect(reply.ok && reply.data.status).toBe('ok');
  });
});

describe('gateway readiness follows a NATS outage', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let gateway: RunningService<unknown>;
  let aggregator: RunningService<unknown>;

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, HTTP_PORT: '0', HTTP_HOST: '127.0.0.1', BUS_TIMEOUT_MS: '1000' };
    aggregator = await startService(
      { ...aggregatorRouterService, loadConfig: () => loadAggregatorConfig({ ...env, SOURCES_CONFIG: chains.manifestPath }) },
      { logger: quiet('aggregator-router') },
    );
    gateway = await startService({ ...gatewayService, loadConfig: () => loadGatewayConfig(env) }, { logger: quiet('gateway') });
    await gateway.bus.connect();
    await aggregator.bus.connect();
  });

  afterAll(async () => {
    await gateway?.close();
    await aggregator?.close();
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('turns red within seconds when NATS stops and green again when it is back, without restarts', async () => {
    await until(() => get(gateway.url, '/health'), (r) => r.status === 200, 10_000);

    await nats.stop();
    const down = await until(() => get(gateway.url, '/health'), (r) => r.status === 503, 10_000);
    expect(down.ms).toBeLessThan(5_000);
    expect(down.value.body.success).toBe(false);
    expect(down.value.body.data.checks.nats.status).toBe('down');
    expect(down.value.body.data.checks.postgres.status).toBe('up');

    const during = await get(gateway.url, '/dexes?chainId=999');
    expect(during.status).toBeGreaterThanOrEqual(500);
    expect(during.body.success).toBe(false);

    await nats.start();
    await until(() => get(gateway.url, '/health'), (r) => r.status === 200, 15_000);
    // The aggregator's subscription came back too: the slice answers again.
    const after = await until(() => get(gateway.url, '/dexes?chainId=999'), (r) => r.status === 200, 15_000);
    expect(after.value.body.data.chainId).toBe(999);
  });
});
