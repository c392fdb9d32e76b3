// The first vertical slice end to end, with the built apps as processes: gateway -> NATS ->
// aggregator-router, readiness on real NATS, Postgres and both anvil chains.
import { healthContract, healthReportSchema, listDexesContract } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { fileNatsUrl, getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(90_000);

describe('GET /dexes and /health through the stack', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let aggregator: AppProcess;
  let gateway: AppProcess;

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains(), createTestDatabase()]);
    const env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url };
    [aggregator, gateway] = await Promise.all([
      startApp('aggregator-router', { ...env, SOURCES_CONFIG: chains.manifestPath }),
      startApp('gateway', env),
    ]);
    await until(() => getJson(`${gateway.url}/health`), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), aggregator?.stop()]);
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('lists the configured sources of each chain', async () => {
    for (const chainId of [999, 4663]) {
      const { value } = await until(() => getJson(`${gateway.url}/dexes?chainId=${chainId}`), (r) => r.status === 200, 10_000);
      expect(value.body.success).toBe(true);
      expect(value.body.data.chainId).toBe(chainId);
      const configured = chains.manifest.chains[String(chainId)].sources;
      expect(value.body.data.dexes).toEqual(
        [...configured]
          .sort((a, b) => a.routerIndex - b.routerIndex)
          .map((s) => ({ routerIndex: s.routerIndex, name: s.name, kind: s.kind, addresses: s.addresses, ...(s.feeBps === undefined ? {} : { feeBps: s.feeBps }) })),
      );
    }
  });

  it('answers 400 in the error shape for a missing chainId', async () => {
    const { status, body } = await getJson(`${gateway.url}/dexes`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'Missing required parameter: chainId' });
  });

  it('answers 400 for an unsupported, malformed or repeated chainId', async () => {
    const unsupported = await getJson(`${gateway.url}/dexes?chainId=1`);
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toEqual({ success: false, error: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' });

    const malformed = await getJson(`${gateway.url}/dexes?chainId=abc`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: 'Invalid chainId: must be an integer' });

    const repeated = await getJson(`${gateway.url}/dexes?chainId=999&chainId=4663`);
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual({ success: false, error: 'Invalid chainId: must be given once' });
  });

  it('answers unknown paths with a 404 in the error shape', async () => {
    const { status, body } = await getJson(`${gateway.url}/nope?x=1`);
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'Not found: GET /nope' });
  });

  it('reports readiness of NATS, Postgres and each chain', async () => {
    const { status, body } = await getJson(`${gateway.url}/health`);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.status).toBe('ok');
    expect(Object.keys(body.data.checks).sort()).toEqual(['nats', 'postgres', 'rpc:4663', 'rpc:999']);
    for (const check of Object.values<any>(body.data.checks)) expect(check.status).toBe('up');
    expect(Number(body.data.checks['rpc:999'].blockNumber)).toBeGreaterThan(0);
  });

  it('answers each service health subject over the bus, in its queue group', async () => {
    const bus = new NatsBus({ url: await fileNatsUrl(), name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    await bus.connect();
    try {
      for (const service of ['aggregator-router', 'gateway']) {
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

describe('readiness follows a NATS outage without restarts', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let aggregator: AppProcess;
  let gateway: AppProcess;

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, BUS_TIMEOUT_MS: '1000' };
    [aggregator, gateway] = await Promise.all([
      startApp('aggregator-router', { ...env, SOURCES_CONFIG: chains.manifestPath }),
      startApp('gateway', env),
    ]);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), aggregator?.stop()]);
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('turns red within seconds when NATS stops and green again when it is back', async () => {
    await until(() => getJson(`${gateway.url}/health`), (r) => r.status === 200, 20_000);
    const aggregatorReady = await getJson(`${aggregator.url}/health/ready`);
    expect(aggregatorReady.status).toBe(200);

    await nats.stop();
    const down = await until(() => getJson(`${gateway.url}/health`), (r) => r.status === 503, 15_000);
    expect(down.ms).toBeLessThan(5_000);
    expect(down.value.body.success).toBe(false);
    expect(down.value.body.data.checks.nats.status).toBe('down');
    expect(down.value.body.data.checks.postgres.status).toBe('up');
    await until(() => getJson(`${aggregator.url}/health/ready`), (r) => r.status === 503, 15_000);

    const during = await getJson(`${gateway.url}/dexes?chainId=999`);
    expect(during.status).toBeGreaterThanOrEqual(500);
    expect(during.body.success).toBe(false);

    await nats.start();
    const up = await until(() => getJson(`${gateway.url}/health`), (r) => r.status === 200, 20_000);
    expect(up.ms).toBeLessThan(10_000);
    // The aggregator resubscribed on its own: the slice answers again, with no process restarted.
    const after = await until(() => getJson(`${gateway.url}/dexes?chainId=999`), (r) => r.status === 200, 20_000);
    expect(after.value.body.data.chainId).toBe(999);
    expect(gateway.child.exitCode).toBeNull();
    expect(aggregator.child.exitCode).toBeNull();
  });
});
