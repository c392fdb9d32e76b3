import { createServer, type AddressInfo, type Socket } from 'node:net';
import { CheckpointRepository, checkDatabase, createPrismaClient, migrate, withDatabaseName, type DbClient } from '../src';
import { createTempDatabase, type TempDatabase } from './support/temp-database';

jest.setTimeout(30_000);

describe('CheckpointRepository', () => {
  let db: TempDatabase;
  let client: DbClient;
  let repo: CheckpointRepository;

  beforeAll(async () => {
    db = await createTempDatabase();
    await migrate(db.url);
    client = createPrismaClient(db.url, { maxConnections: 2 });
    repo = new CheckpointRepository(client);
  });

  afterAll(async () => {
    await client?.$disconnect();
    await db?.drop();
  });

  it('has no checkpoint for a chain it never saw', async () => {
    expect(await repo.get(4663)).toBeNull();
  });

  it('round-trips a checkpoint, keeping block numbers beyond 2^53 exact', async () => {
    const block = 2n ** 62n + 7n;
    const hash = '0x' + 'ab'.repeat(32);
    const saved = await repo.upsert({ chainId: 999, lastProcessedBlock: block, lastProcessedHash: hash });
    expect(saved).toEqual({
      chainId: 999,
      lastProcessedBlock: block,
      lastProcessedHash: hash,
      lastProcessedTime: null,
      status: 'running',
      updatedAt: expect.any(Date),
    });
    expect(await repo.get(999)).toEqual(saved);
  });

  it('moves an existing checkpoint forward and bumps updatedAt', async () => {
    const first = await repo.upsert({ chainId: 4663, lastProcessedBlock: 10n, lastProcessedHash: '0x01' });
    await new Promise((done) => setTimeout(done, 5));
    const second = await repo.upsert({
      chainId: 4663,
      lastProcessedBlock: 11n,
      lastProcessedHash: '0x02',
      status: 'stopped',
    });
    expect(second).toMatchObject({ chainId: 4663, lastProcessedBlock: 11n, lastProcessedHash: '0x02', status: 'stopped' });
    expect(second.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(await repo.get(4663)).toEqual(second);
    expect((await repo.list()).map((c) => c.chainId)).toEqual([999, 4663]);
  });

  it('rejects impossible input before touching the database', async () => {
    await expect(repo.upsert({ chainId: 0, lastProcessedBlock: 1n, lastProcessedHash: '0x' })).rejects.toThrow(RangeError);
    await expect(repo.upsert({ chainId: 1, lastProcessedBlock: -1n, lastProcessedHash: '0x' })).rejects.toThrow(RangeError);
  });
});

describe('checkDatabase', () => {
  jest.setTimeout(30_000);

  it('reports a reachable database as ok', async () => {
    const db = await createTempDatabase();
    const client = createPrismaClient(db.url, { maxConnections: 1 });
    try {
      const health = await checkDatabase(client);
      expect(health.ok).toBe(true);
      expect(health.error).toBeUndefined();
    } finally {
      await client.$disconnect();
      await db.drop();
    }
  });

  it('reports a missing database as not ok, with the reason', async () => {
    const url = withDatabaseName(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 'no_such_db_here');
    const client = createPrismaClient(url, { maxConnections: 1 });
    try {
      const health = await checkDatabase(client, 3_000);
      expect(health.ok).toBe(false);
      expect(health.error).toEqual(expect.any(String));
    } finally {
      await client.$disconnect();
    }
  });

  it('gives up after its timeout when the server does not answer', async () => {
    // A TCP server that accepts connections and never speaks the Postgres protocol.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const client = createPrismaClient(`postgresql://postgres@127.0.0.1:${port}/dex`, { connectTimeoutMs: 10_000 });
    try {
      const health = await checkDatabase(client, 300);
      expect(health).toMatchObject({ ok: false, error: expect.stringMatching(/within 300 ms/) });
    } finally {
      for (const socket of sockets) socket.destroy();
      await client.$disconnect();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
