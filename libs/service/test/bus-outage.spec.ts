// The bus while its NATS server is down: requests fail fast (503) instead of waiting in the client's buffer for
// the whole timeout, the ones in flight when the server went away too, and it answers again once the server is
// back. A slow handler still gets 504 after the timeout.
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { defineContract } from '@dex/messages';
import { startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { z } from 'zod';
import { createJsonLogger, NatsBus, NatsBusServer } from '../src';

jest.setTimeout(30_000);

const contract = defineContract({
  subject: 'outage.echo',
  description: 'answers after the given delay',
  request: z.object({ delayMs: z.number().int().nonnegative() }),
  response: z.object({ waited: z.number().int() }),
});

@Controller()
class EchoHandler {
  @MessagePattern(contract.subject)
  async echo(@Payload() req: { delayMs: number }) {
    await new Promise((r) => setTimeout(r, req.delayMs));
    return { waited: req.delayMs };
  }
}
@Module({ controllers: [EchoHandler] })
class EchoModule {}

const logger = createJsonLogger('test', 'fatal');
const TIMEOUT_MS = 1_500;

describe('the bus while NATS is down', () => {
  let nats: PrivateNatsServer;
  let client: NatsBus;
  let serverBus: NatsBus;
  let app: INestMicroservice;

  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const value = await run();
    return { value, ms: performance.now() - started };
  };
  /** Asks until a request succeeds; resolves with how long that took. */
  const untilAnswered = async (limitMs: number) => {
    const started = performance.now();
    while (performance.now() - started < limitMs) {
      if ((await client.request(contract, { delayMs: 0 })).ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no answer within ${limitMs} ms`);
  };

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    serverBus = new NatsBus({ url: nats.url, name: 'echo', logger });
    app = await NestFactory.createMicroservice(EchoModule, { strategy: new NatsBusServer(serverBus, 'echo', [contract]), logger });
    await app.listen();
    await serverBus.connect();
    client = new NatsBus({ url: nats.url, name: 'client', logger, requestTimeoutMs: TIMEOUT_MS });
    await client.connect();
    await untilAnswered(5_000);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await serverBus?.close();
    await nats?.dispose();
  });

  it('answers 503 at once, to requests in flight and to new ones, and again as soon as NATS is back', async () => {
    expect(client.connected).toBe(true);
    // In flight when the server dies: its answer would never come.
    const inFlight = timed(() => client.request(contract, { delayMs: 1_000 }));
    await new Promise((r) => setTimeout(r, 100));
    const stopped = performance.now();
    await nats.stop();
    const lost = await inFlight;
    expect(lost.value).toEqual({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } });
    // Answered when the connection dropped, not at the timeout.
    expect(performance.now() - stopped).toBeLessThan(TIMEOUT_MS - 500);
    expect(client.connected).toBe(false);

    // While it is down, each request is refused at once rather than after the timeout (how fast: bench/faults).
    for (let i = 0; i < 20; i++) {
      const { value, ms } = await timed(() => client.request(contract, { delayMs: 0 }));
      expect(value).toEqual({ ok: false, error: { status: 503, message: 'Message bus unavailable', details: contract.subject } });
      expect(ms).toBeLessThan(TIMEOUT_MS / 3);
    }
    const text = client.metrics.render();
    expect(text).toMatch(/nats_request_duration_seconds_count\{outcome="unavailable",subject="outage\.echo"\} 21/);

    await nats.start();
    // Both sides reconnect on their own (a reconnect attempt every 500 ms).
    await untilAnswered(10_000);
    expect(client.connected).toBe(true);
  });

  it('still gives a slow handler until the timeout, then 504', async () => {
    const { value, ms } = await timed(() => client.request(contract, { delayMs: TIMEOUT_MS + 500 }));
    expect(value).toEqual({ ok: false, error: { status: 504, message: 'Upstream service timed out', details: contract.subject } });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
  });
});
