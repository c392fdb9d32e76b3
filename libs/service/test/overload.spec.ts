// Load refused early on a real NATS server: a subject with one handler slot and one place in its queue answers the
// requests past them with an immediate 503 (before any admitted one is answered), a handler that cannot answer
// within its requester's deadline gets a 503 sent in time instead of a timeout, the time left travels with the
// requests a handler makes in turn, and a busy dependency is a 503, not a 500.
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineContract, REQUEST_TIMEOUT_HEADER } from '@dex/messages';
import { testNatsUrl } from '@dex/testing';
import { randomUUID } from 'node:crypto';
import { JSONCodec } from 'nats';
import { z } from 'zod';
import { createJsonLogger, NatsBus, NatsBusServer, TransientFailureInterceptor } from '../src';

jest.setTimeout(30_000);

const run = randomUUID();
const slow = defineContract({ subject: `test.${run}.slow`, description: 'answers after a while', request: z.object({ ms: z.number().int(), fail: z.string().optional() }), response: z.object({ waited: z.number() }) });
const relay = defineContract({ subject: `test.${run}.relay`, description: 'asks the echo after a while', request: z.object({ ms: z.number().int() }), response: z.object({ timeoutMs: z.string() }) });
const echo = defineContract({ subject: `test.${run}.echo`, description: 'the timeout header it got', request: z.object({}), response: z.object({ timeoutMs: z.string() }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logger = createJsonLogger('test', 'fatal');

describe('NatsBusServer under load', () => {
  let server: NatsBus;
  let client: NatsBus;
  let app: Awaited<ReturnType<typeof NestFactory.createMicroservice>>;

  beforeAll(async () => {
    server = new NatsBus({ url: testNatsUrl(), name: 'slow', logger });
    @Controller()
    class Handlers {
      @MessagePattern(slow.subject)
      async slow(@Payload() req: { ms: number; fail?: string }) {
        await sleep(req.ms);
        if (req.fail) throw new Error(req.fail);
        return { waited: req.ms };
      }

      @MessagePattern(relay.subject)
      async relay(@Payload() req: { ms: number }) {
        await sleep(req.ms);
        const reply = await server.request(echo, {});
        if (!reply.ok) throw new Error(reply.error.message);
        return reply.data;
      }
    }
    @Module({ controllers: [Handlers] })
    class TestModule {}
    app = await NestFactory.createMicroservice(TestModule, {
      strategy: new NatsBusServer(server, 'slow', [slow, relay], { admission: { inFlight: 32, queued: 32, maxQueueWaitMs: 10_000 }, subjects: { [slow.subject]: { inFlight: 1, queued: 1 } } }),
      logger,
    });
    app.useGlobalInterceptors(new TransientFailureInterceptor());
    await app.listen();
    const nc = await server.connect();
    // The echo: a plain subscriber that answers with the header it received.
    const codec = JSONCodec();
    nc.subscribe(echo.subject, { callback: (_err, msg) => msg.respond(codec.encode({ ok: true, data: { timeoutMs: msg.headers?.get(REQUEST_TIMEOUT_HEADER) ?? '' } })) });
    await nc.flush();
    client = new NatsBus({ url: testNatsUrl(), name: 'client', logger });
    await (await client.connect()).flush();
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await server?.close();
  });

  it('answers past its slot and queue with an immediate 503 that says when to retry, before any admitted request', async () => {
    const answered: string[] = [];
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.request(slow, { ms: 300 }).then((r) => {
          answered.push(r.ok ? 'ok' : String(r.error.status));
          return r;
        }),
      ),
    );
    expect(replies.filter((r) => r.ok)).toHaveLength(2);
    const refused = replies.filter((r) => !r.ok).map((r) => (r.ok ? null : r.error));
    expect(refused).toHaveLength(4);
    for (const e of refused) expect(e).toEqual({ status: 503, message: 'Service overloaded', details: `${slow.subject}: too many requests are waiting`, retryAfterMs: 1_000 });
    expect(answered).toEqual(['503', '503', '503', '503', 'ok', 'ok']);
    expect(server.metrics.render()).toMatch(/nats_handler_refused_total\{reason="queue_full",subject="test\.\*\.slow"\} 4/);
  });

  it('answers a 503 within the requester’s deadline when the handler is slower than it, not a timeout', async () => {
    const reply = await client.request(slow, { ms: 1_500 }, { timeoutMs: 400 });
    expect(reply).toEqual({ ok: false, error: { status: 503, message: 'Service overloaded', details: `${slow.subject}: no answer within the request's deadline`, retryAfterMs: 1_000 } });
    await sleep(1_200); // the handler finishes and gives its slot back
  });

  it('passes on only the time that is left to the requests a handler makes', async () => {
    const reply = await client.request(relay, { ms: 400 }, { timeoutMs: 1_000 });
    expect(reply.ok).toBe(true);
    const left = Number(reply.ok ? reply.data.timeoutMs : NaN);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1_000 - 400);
  });

  it('answers a busy dependency with a 503, an unexpected fault with a 500', async () => {
    const busy = await client.request(slow, { ms: 0, fail: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(busy).toEqual({ ok: false, error: { status: 503, message: 'Service temporarily unavailable', details: `${slow.subject}: a dependency is busy or out of reach: connect ECONNREFUSED 127.0.0.1:5432`, retryAfterMs: 1_000 } });
    const fault = await client.request(slow, { ms: 0, fail: 'undefined is not a function' });
    expect(fault).toEqual({ ok: false, error: { status: 500, message: 'Internal error', details: slow.subject } });
  });
});
