// The bus on a real NATS server: validation on both sides, typed failures, queue groups.
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { defineContract, replySchema } from '@dex/messages';
import { testNatsUrl } from '@dex/testing';
import { randomUUID } from 'node:crypto';
import { JSONCodec } from 'nats';
import { z } from 'zod';
import { BusError, createJsonLogger, NatsBus, NatsBusServer } from '../src';

jest.setTimeout(30_000);

const subject = `test.${randomUUID()}.double`;
const contract = defineContract({
  subject,
  description: 'doubles a number',
  request: z.object({ n: z.number().int() }),
  response: z.object({ doubled: z.number().int(), served: z.string() }),
});
const missing = defineContract({ ...contract, subject: `test.${randomUUID()}.nobody` });

function handlerFor(instance: string, calls: string[]) {
  @Controller()
  class DoubleHandler {
    @MessagePattern(subject)
    double(@Payload() req: { n: number }) {
      calls.push(instance);
      if (req.n === 13) throw new BusError(422, 'Unlucky number', 'n must not be 13');
      if (req.n === 7) return { doubled: 'fourteen' };
      if (req.n === 666) throw new Error('boom');
      return { doubled: req.n * 2, served: instance };
    }
  }
  @Module({ controllers: [DoubleHandler] })
  class TestModule {}
  return TestModule;
}

const logger = createJsonLogger('test', 'fatal');

async function startResponder(instance: string, calls: string[]) {
  const bus = new NatsBus({ url: testNatsUrl(), name: instance, logger });
  const app = await NestFactory.createMicroservice(handlerFor(instance, calls), {
    strategy: new NatsBusServer(bus, 'doubler', [contract]),
    logger,
  });
  await app.listen();
  await bus.connect();
  return { app, bus };
}

describe('NatsBus with NatsBusServer', () => {
  const calls: string[] = [];
  let responders: Awaited<ReturnType<typeof startResponder>>[];
  let client: NatsBus;

  beforeAll(async () => {
    responders = await Promise.all([startResponder('a', calls), startResponder('b', calls)]);
    client = new NatsBus({ url: testNatsUrl(), name: 'client', logger });
    const nc = await client.connect();
    await nc.flush();
    for (const r of responders) await r.bus.current!.flush();
  });

  afterAll(async () => {
    await client.close();
    for (const r of responders) {
      await r.app.close();
      await r.bus.close();
    }
  });

  it('answers a valid request', async () => {
    const reply = await client.request(contract, { n: 21 });
    expect(reply).toEqual({ ok: true, data: { doubled: 42, served: expect.stringMatching(/^[ab]$/) } });
  });

  it('shares requests within the queue group: each is handled exactly once', async () => {
    calls.length = 0;
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => client.request(contract, { n: i + 100 })));
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(calls).toHaveLength(40);
    expect(new Set(calls)).toEqual(new Set(['a', 'b']));
  });

  it('refuses a bad payload before sending it', async () => {
    const reply = await client.request(contract, { n: 1.5 } as never);
    expect(reply).toMatchObject({ ok: false, error: { status: 400, message: 'Invalid request' } });
  });

  it('validates on receipt too: a raw bad payload gets a 400 reply and never reaches the handler', async () => {
    calls.length = 0;
    const codec = JSONCodec<unknown>();
    const msg = await client.current!.request(subject, codec.encode({ n: 'x' }), { timeout: 2_000 });
    const reply = replySchema(contract.response).parse(codec.decode(msg.data));
    expect(reply).toMatchObject({ ok: false, error: { status: 400, message: 'Invalid request', details: expect.stringContaining('n') } });
    expect(calls).toHaveLength(0);
  });

  it('carries a handler failure back with its status', async () => {
    expect(await client.request(contract, { n: 13 })).toEqual({ ok: false, error: { status: 422, message: 'Unlucky number', details: 'n must not be 13' } });
  });

  it('never sends a reply that breaks the contract', async () => {
    expect(await client.request(contract, { n: 7 })).toMatchObject({ ok: false, error: { status: 500, message: 'Internal error' } });
  });

  it('turns an unexpected handler error into a 500 without details of the error', async () => {
    expect(await client.request(contract, { n: 666 })).toEqual({ ok: false, error: { status: 500, message: 'Internal error', details: subject } });
  });

  it('reports a subject nobody serves as 503', async () => {
    expect(await client.request(missing, { n: 1 })).toMatchObject({ ok: false, error: { status: 503, message: 'No service is answering' } });
  });

  it('reports an unreachable bus as 503 without throwing', async () => {
    const offline = new NatsBus({ url: 'nats://127.0.0.1:1', name: 'offline', logger });
    expect(await offline.request(contract, { n: 1 })).toMatchObject({ ok: false, error: { status: 503, message: 'Message bus unavailable' } });
    await expect(offline.ping()).rejects.toThrow('not connected');
    await offline.close();
  });
});
