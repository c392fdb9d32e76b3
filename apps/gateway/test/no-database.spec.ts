// The gateway keeps no data: it reads no DATABASE_URL, its module has no database client, and its readiness
// report checks NATS and each chain's RPC but no Postgres.
import 'reflect-metadata';
import { Test, type TestingModule } from '@nestjs/testing';
import { createJsonLogger, DB_CLIENT, HealthService, NatsBus } from '@dex/service';
import { loadGatewayConfig } from '../src/config';
import { gatewayModule } from '../src/gateway.module';

// Nothing listens on these ports: the checks fail fast, and none of them is Postgres.
const env = { CHAIN_IDS: '999,4663', RPC_URL_999: 'http://127.0.0.1:1', RPC_URL_4663: 'http://127.0.0.1:2', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/dex' };

describe('the gateway and the database', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    const config = loadGatewayConfig(env);
    const bus = new NatsBus({ url: 'nats://127.0.0.1:1', name: 'gateway', logger: createJsonLogger('gateway', 'fatal') });
    moduleRef = await Test.createTestingModule({ imports: [gatewayModule(config, bus)] }).compile();
  });

  afterAll(() => moduleRef?.close());

  it('reads no DATABASE_URL, even when the environment has one', () => {
    expect(loadGatewayConfig(env)).not.toHaveProperty('DATABASE_URL');
  });

  it('has no database client', () => {
    expect(() => moduleRef.get(DB_CLIENT, { strict: false })).toThrow();
  });

  it('reports NATS and each chain, and no Postgres, as its readiness', async () => {
    const report = await moduleRef.get(HealthService, { strict: false }).readiness();
    expect(report.service).toBe('gateway');
    expect(Object.keys(report.checks).sort()).toEqual(['nats', 'rpc:4663', 'rpc:999']);
  });
});
