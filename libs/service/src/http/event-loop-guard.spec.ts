import { SERVICE_OVERLOADED } from '@dex/messages';
import Fastify, { type FastifyInstance } from 'fastify';
import { MetricsRegistry } from '../metrics/metrics';
import { EventLoopLag, guardEventLoop } from './event-loop-guard';

/** Keeps the event loop busy for `ms` (as a request burst does). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event loop guard', () => {
  let app: FastifyInstance;
  let metrics: MetricsRegistry;

  beforeEach(async () => {
    app = Fastify();
    metrics = new MetricsRegistry('test');
    guardEventLoop(app, { maxLagMs: 150, metrics });
    app.get('/v2/route', async () => ({ success: true, data: {} }));
    app.get('/health/live', async () => ({ status: 'ok' }));
    app.get('/metrics', async () => metrics.render());
    await app.ready();
    await tick(30);
  });

  afterEach(async () => {
    await app.close();
  });

  it('serves requests while the loop keeps up', async () => {
    const res = await app.inject({ method: 'GET', url: '/v2/route' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses at arrival with 503 Service overloaded and Retry-After while the loop lags, and serves again once it caught up', async () => {
    block(400);
    const [refused, health, scrape] = await Promise.all([
      app.inject({ method: 'GET', url: '/v2/route?chainId=999' }),
      app.inject({ method: 'GET', url: '/health/live' }),
      app.inject({ method: 'GET', url: '/metrics' }),
    ]);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ success: false, error: SERVICE_OVERLOADED, details: expect.stringMatching(/^the service is behind by \d+ ms \(more than 150 ms\): try again shortly$/) });
    expect([health.statusCode, scrape.statusCode]).toEqual([200, 200]);
    expect(metrics.render()).toMatch(/^http_refused_total\{route="\/v2\/route"\} 1$/m);
    // Once the loop runs again the lag goes (at most a few samples on a busy machine).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      await tick(20);
      status = (await app.inject({ method: 'GET', url: '/v2/route' })).statusCode;
    }
    expect(status).toBe(200);
  });

  it('measures the lag a blocked loop builds, and that it went once the loop runs', async () => {
    const lag = new EventLoopLag();
    try {
      await tick(25);
      block(300);
      const blocked = lag.lagMs;
      expect(blocked).toBeGreaterThanOrEqual(280);
      await tick(50);
      expect(lag.lagMs).toBeLessThan(blocked);
    } finally {
      lag.stop();
    }
  });
});
