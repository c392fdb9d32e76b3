// The gateway's readiness on a private NATS server: its own (`/health/ready`, `gateway.health`) is NATS alone, as
// it opens no database and no chain client; `GET /health` adds each service of HEALTH_SERVICES as the service
// answers on `<service>.health`, a service that does not answer counting as down. (The services answering, up or
// not, through the real apps: apps/e2e/test/dexes-slice.e2e.spec.ts.)
import 'reflect-metadata';
import { gatewayHealthReportSchema, healthContract, QUEUE_GROUPS } from '@dex/messages';
import { createJsonLogger, NatsBus, startService, type RunningService } from '@dex/service';
import { getFreePort, startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { loadGatewayConfig, type GatewayConfig } from '../src/config';
import { service } from '../src/service';

jest.setTimeout(30_000);

const logger = createJsonLogger('gateway', 'fatal');

async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the gateway's readiness", () => {
  let nats: PrivateNatsServer;
  let gateway: RunningService<GatewayConfig>;
  let client: NatsBus;

  const get = async (path: string) => {
    const res = await fetch(`${gateway.url}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    const env = {
      NATS_URL: nats.url,
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(await getFreePort()),
      HEALTH_SERVICES: `${QUEUE_GROUPS.aggregatorRouter},${QUEUE_GROUPS.indexer}`,
      HEALTH_SERVICE_TIMEOUT_MS: '500',
      // Set for the services of a deployment; the gateway reads none of them (nothing listens there anyway).
      CHAIN_IDS: '999',
      RPC_URL_999: 'http://127.0.0.1:1',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/dex',
    };
    gateway = await startService({ ...service, loadConfig: () => loadGatewayConfig(env) }, { logger });
    await (await gateway.bus.connect()).flush();
    client = new NatsBus({ url: nats.url, name: 'client', logger });
    await (await client.connect()).flush();
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await nats?.dispose();
  });

  it('is NATS alone for itself, at /health/ready and on gateway.health: no database, no chain', async () => {
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, data: { status: 'ok', service: 'gateway', checks: { nats: expect.objectContaining({ status: 'up' }) } } });
    const reply = await client.request(healthContract(QUEUE_GROUPS.gateway), {});
    expect(reply).toEqual({ ok: true, data: { status: 'ok', service: 'gateway', checks: { nats: expect.objectContaining({ status: 'up' }) } } });
  });

  it('answers /health 503 while a service it asks does not answer, each named, within the bound', async () => {
    const started = performance.now();
    const health = await get('/health');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(health.status).toBe(503);
    expect(gatewayHealthReportSchema.safeParse(health.body.data).success).toBe(true);
    expect(health.body).toEqual({
      success: false,
      data: {
        status: 'error',
        service: 'gateway',
        checks: {
          nats: expect.objectContaining({ status: 'up' }),
          'aggregator-router': { status: 'down', latencyMs: expect.any(Number), error: 'No service is answering: aggregator-router.health' },
          indexer: { status: 'down', latencyMs: expect.any(Number), error: 'No service is answering: indexer.health' },
        },
      },
    });
  });

  it('reports its NATS down, and the services out of reach, while NATS is down; and recovers', async () => {
    await nats.stop();
    try {
      const down = await until(() => get('/health'), (r) => r.body.data.checks.nats.status === 'down', 10_000);
      expect(down.status).toBe(503);
      expect(down.body.data.checks).toEqual({
        nats: expect.objectContaining({ status: 'down' }),
        'aggregator-router': expect.objectContaining({ status: 'down', error: 'Message bus unavailable: aggregator-router.health' }),
        indexer: expect.objectContaining({ status: 'down', error: 'Message bus unavailable: indexer.health' }),
      });
      expect((await get('/health/ready')).status).toBe(503);
    } finally {
      await nats.start();
    }
    const back = await until(() => get('/health/ready'), (r) => r.status === 200, 15_000);
    expect(back.body.data.checks.nats.status).toBe('up');
  });
});
