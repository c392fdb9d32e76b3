// The database is opt-in: ChainServiceModule connects a Postgres client and checks it for readiness only for a
// service that passes its `databaseUrl`; each chain is a readiness check of its own.
import 'reflect-metadata';
import { Test, type TestingModule } from '@nestjs/testing';
import { createJsonLogger, HealthService, NatsBus } from '@dex/service';
import { ChainServiceModule, DB_CLIENT, type ChainServiceModuleOptions } from '../src';

// Nothing listens on these ports: every check fails fast.
const compile = (options: Partial<ChainServiceModuleOptions>) => {
  const bus = new NatsBus({ url: 'nats://127.0.0.1:1', name: 'opt-in', logger: createJsonLogger('opt-in', 'fatal') });
  return Test.createTestingModule({ imports: [ChainServiceModule.register({ service: 'opt-in', bus, ...options })] }).compile();
};

describe('the database module of a service', () => {
  const modules: TestingModule[] = [];
  afterAll(() => Promise.all(modules.map((m) => m.close())));

  it('is absent without a databaseUrl: no client, no postgres check', async () => {
    const moduleRef = await compile({});
    modules.push(moduleRef);
    expect(() => moduleRef.get(DB_CLIENT, { strict: false })).toThrow();
    expect(Object.keys((await moduleRef.get(HealthService, { strict: false }).readiness()).checks)).toEqual(['nats']);
  });

  it('gives the service a client and a postgres check when it passes one', async () => {
    const moduleRef = await compile({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/dex' });
    modules.push(moduleRef);
    expect(moduleRef.get(DB_CLIENT, { strict: false })).toBeDefined();
    const report = await moduleRef.get(HealthService, { strict: false }).readiness();
    expect(Object.keys(report.checks).sort()).toEqual(['nats', 'postgres']);
    expect(report.checks.postgres.status).toBe('down');
  });

  it("follows the service's settings: a database for settings that read DATABASE_URL, a check per chain", async () => {
    const bus = new NatsBus({ url: 'nats://127.0.0.1:1', name: 'opt-in', logger: createJsonLogger('opt-in', 'fatal') });
    const chains = [{ chainId: 999, rpcUrl: 'http://127.0.0.1:1' }];
    const withDb = await Test.createTestingModule({
      imports: [ChainServiceModule.forSettings('opt-in', { chains, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/dex' }, bus, {})],
    }).compile();
    const without = await Test.createTestingModule({ imports: [ChainServiceModule.forSettings('opt-in', { chains }, bus, {})] }).compile();
    modules.push(withDb, without);
    expect(Object.keys((await withDb.get(HealthService, { strict: false }).readiness()).checks).sort()).toEqual(['nats', 'postgres', 'rpc:999']);
    expect(() => without.get(DB_CLIENT, { strict: false })).toThrow();
    expect(Object.keys((await without.get(HealthService, { strict: false }).readiness()).checks).sort()).toEqual(['nats', 'rpc:999']);
  });
});
