// A service's readiness asked by another over a private NATS server (`serviceCheck`, what the gateway's /health
// does for each service): the answer of a service built from the kit, up or with a dependency down, and a service
// that is absent, that never answers, or that cannot answer within the bound, each counted as down in time.
import { getFreePort, startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { createServer, connect, type Server } from 'node:net';
import { createJsonLogger, NatsBus, ServiceModule, serviceCheck, startService, type HealthCheck, type RunningService, type ServiceDefinition } from '../src';

jest.setTimeout(30_000);

const logger = createJsonLogger('test', 'fatal');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A dependency reached over TCP (as a database is): up while something listens on `port`. */
function tcpCheck(name: string, port: number): HealthCheck {
  return {
    name,
    run: () =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', (err) => reject(err));
      }),
  };
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function startKitService(nats: PrivateNatsServer, name: string, extraChecks: readonly HealthCheck[]): Promise<RunningService<unknown>> {
  const port = await getFreePort();
  const definition: ServiceDefinition<Record<string, never>> = {
    name,
    loadConfig: () => ({ NATS_URL: nats.url, LOG_LEVEL: 'fatal', HTTP_HOST: '127.0.0.1', HTTP_PORT: port, BUS_TIMEOUT_MS: 2_000 }) as never,
    module: (_config, bus) => ServiceModule.register({ service: name, bus, extraChecks }),
  };
  const service = (await startService(definition, { logger })) as RunningService<unknown>;
  await (await service.bus.connect()).flush();
  return service;
}

describe('serviceCheck: a service asked for its readiness over the bus', () => {
  let nats: PrivateNatsServer;
  let asker: NatsBus;
  let storePort: number;
  let store: Server | undefined;
  const services: RunningService<unknown>[] = [];

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    storePort = await getFreePort();
    store = await listen(storePort);
    services.push(
      await startKitService(nats, 'alpha', [tcpCheck('store', storePort)]),
      // Its dependency takes longer than anyone waits.
      await startKitService(nats, 'slow', [{ name: 'store', run: () => sleep(1_000) }]),
    );
    asker = new NatsBus({ url: nats.url, name: 'asker', logger });
    await (await asker.connect()).flush();
  });

  afterAll(async () => {
    await asker?.close();
    await Promise.all(services.map((s) => s.close()));
    await new Promise((resolve) => (store ? store.close(resolve) : resolve(undefined)));
    await nats?.dispose();
  });

  const ask = (service: string, timeoutMs = 1_000) => serviceCheck(asker, service, timeoutMs);

  it("is up when the service answers that each of its dependencies is, with the service's checks", async () => {
    const check = ask('alpha');
    expect(check.name).toBe('alpha');
    expect(await check.run()).toEqual({
      checks: { nats: { status: 'up', latencyMs: expect.any(Number), rttMs: expect.any(Number) }, store: { status: 'up', latencyMs: expect.any(Number) } },
    });
  });

  it('is down when a dependency of the service is, naming it, with the checks as the service reported them', async () => {
    await new Promise((resolve) => store!.close(resolve));
    store = undefined;
    try {
      await expect(ask('alpha').run()).rejects.toMatchObject({
        name: 'CheckFailure',
        message: 'store down',
        details: { checks: { nats: { status: 'up' }, store: { status: 'down', error: expect.stringContaining('ECONNREFUSED') } } },
      });
    } finally {
      store = await listen(storePort);
    }
    expect(await ask('alpha').run()).toMatchObject({ checks: { store: { status: 'up' } } });
  });

  it('is down at once when no service answers the subject', async () => {
    const started = performance.now();
    await expect(ask('nobody').run()).rejects.toThrow('No service is answering: nobody.health');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('is down within the bound when the service never answers', async () => {
    // Something subscribed that never replies (a process stuck before it answers).
    const nc = asker.current!;
    const mute = nc.subscribe('mute.health', { callback: () => undefined });
    await nc.flush();
    try {
      const started = performance.now();
      await expect(ask('mute', 400).run()).rejects.toThrow('Upstream service timed out: mute.health');
      expect(performance.now() - started).toBeGreaterThanOrEqual(390);
      expect(performance.now() - started).toBeLessThan(900);
    } finally {
      mute.unsubscribe();
    }
  });

  it('is down within the bound when the service cannot answer in time', async () => {
    const started = performance.now();
    await expect(ask('slow', 400).run()).rejects.toThrow(/^Service overloaded: slow\.health|^Upstream service timed out: slow\.health/);
    expect(performance.now() - started).toBeLessThan(900);
    await sleep(800); // its check finishes
  });
});
