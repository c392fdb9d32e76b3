import { createServer } from 'node:net';
import { getFreePort } from './ports';

describe('getFreePort', () => {
  it('returns a port that can be bound right away', async () => {
    const port = await getFreePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('serves concurrent callers', async () => {
    const ports = await Promise.all(Array.from({ length: 5 }, () => getFreePort()));
    expect(ports.every((p) => Number.isInteger(p) && p > 0)).toBe(true);
  });
});
