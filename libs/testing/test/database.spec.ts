import { CheckpointRepository, adminQuery, databaseExists } from '@dex/db';
import { createTestDatabase } from '../src';

jest.setTimeout(30_000);

describe('createTestDatabase', () => {
  it('gives a fresh, migrated database with a working client, and drops it', async () => {
    const db = await createTestDatabase();
    try {
      expect(db.name).toMatch(new RegExp(`^test_${process.pid}_[0-9a-f]{8}$`));
      expect(await databaseExists(db.url)).toBe(true);
      const repo = new CheckpointRepository(db.client);
      await repo.upsert({ chainId: 999, lastProcessedBlock: 5n, lastProcessedHash: '0x05' });
      expect((await repo.get(999))?.lastProcessedBlock).toBe(5n);
    } finally {
      await db.drop();
    }
    expect(await databaseExists(db.url)).toBe(false);
    await db.drop(); // twice is fine
    expect(() => db.client).toThrow(/dropped/);
  });

  it('gives every caller its own database', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(a.url).not.toBe(b.url);
      await new CheckpointRepository(a.client).upsert({ chainId: 1, lastProcessedBlock: 1n, lastProcessedHash: '0x' });
      expect(await new CheckpointRepository(b.client).get(1)).toBeNull();
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  });

  it('drops a database that still has open sessions', async () => {
    const db = await createTestDatabase({ migrate: false });
    const tables = await adminQuery(db.url, "SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables).toHaveLength(0);
    await db.client.$queryRaw`SELECT 1`; // leaves a pooled connection open
    await db.drop();
    expect(await databaseExists(db.url)).toBe(false);
  });
});
