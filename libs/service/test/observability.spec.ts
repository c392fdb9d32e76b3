// Request ids and bus metrics on a real NATS server: an edge asks a middle service, which asks a leaf
// service while it handles the request. The id given at the edge reaches both handlers and their log
// lines without anyone passing it on, and each side records the round trip in its own registry.
import type { LogLevel } from '@nestjs/common';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { defineContract, REQUEST_ID_HEADER, type MessageContract } from '@dex/messages';
import { startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { randomUUID } from 'node:crypto';
import { headers, JSONCodec } from 'nats';
import { z } from 'zod';
import { BusContext, BusError, currentRequestId, JsonLogger, NatsBus, NatsBusServer, type JsonLogLine, type MetricsRegistry } from '../src';

jest.setTimeout(30_000);

/** A service's JSON logger that keeps its lines. */
class CapturingLogger extends JsonLogger {
  readonly lines: JsonLogLine[] = [];

  constructor(service: string) {
    super(service, { json: true, colors: false, logLevels: ['fatal', 'error', 'warn', 'log'] });
  }

  protected override printAsJson(message: unknown, options: { context: string; logLevel: LogLevel }): void {
    this.lines.push(this.getJsonLogObject(message, options));
  }

  find(msg: string): JsonLogLine[] {
    return this.lines.filter((l) => (l.message as { msg?: string } | undefined)?.msg === msg);
  }
}

const run = randomUUID();
const seen = z.object({ contextId: z.string(), headerId: z.string() });
const leafContract = defineContract({
  subject: `test.${run}.leaf`,
  description: 'answers with the request id it saw',
  request: z.object({ mode: z.enum(['ok', 'fail', 'slow']) }),
  response: seen,
});
const middleContract = defineContract({
  subject: `test.${run}.middle`,
  description: 'asks the leaf and answers with what both saw',
  request: z.object({}),
  response: z.object({ middle: seen, leaf: seen }),
});
const nobodyContract = defineContract({ ...leafContract, subject: `test.${run}.nobody` });

const count = (metrics: MetricsRegistry, name: string, labels: string): number => {
  const line = metrics.render().split('\n').find((l) => l.startsWith(`${name}_count{${labels}} `));
  return line ? Number(line.split(' ')[1]) : 0;
};

async function startService(name: string, contracts: MessageContract[], controller: (bus: NatsBus, logger: CapturingLogger) => new () => unknown, url: string) {
  const logger = new CapturingLogger(name);
  const bus = new NatsBus({ url, name, logger, requestTimeoutMs: 2_000 });
  @Module({ controllers: [controller(bus, logger)] })
  class ServiceTestModule {}
  const app = await NestFactory.createMicroservice(ServiceTestModule, { strategy: new NatsBusServer(bus, name, contracts), logger });
  await app.listen();
  await (await bus.connect()).flush();
  return { name, bus, logger, app, metrics: bus.metrics };
}

describe('request ids and bus metrics across services', () => {
  let nats: PrivateNatsServer;
  let edge: NatsBus;
  let middle: Awaited<ReturnType<typeof startService>>;
  let leaf: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    leaf = await startService(
      'leaf',
      [leafContract],
      (_bus, logger) => {
        @Controller()
        class LeafHandler {
          @MessagePattern(leafContract.subject)
          async answer(@Payload() req: { mode: string }, @Ctx() ctx: BusContext) {
            if (req.mode === 'slow') await new Promise((r) => setTimeout(r, 1_500));
            logger.log({ msg: 'leaf handled', mode: req.mode }, 'LeafHandler');
            if (req.mode === 'fail') throw new BusError(500, 'Leaf failed');
            return { contextId: currentRequestId(), headerId: ctx.requestId };
          }
        }
        return LeafHandler;
      },
      nats.url,
    );
    middle = await startService(
      'middle',
      [middleContract],
      (bus, logger) => {
        @Controller()
        class MiddleHandler {
          @MessagePattern(middleContract.subject)
          async answer(@Ctx() ctx: BusContext) {
            const mine = { contextId: currentRequestId()!, headerId: ctx.requestId };
            // Nobody passes the id on: the bus takes it from the request being handled.
            const reply = await bus.request(leafContract, { mode: 'ok' });
            logger.log({ msg: 'middle handled' }, 'MiddleHandler');
            if (!reply.ok) throw new BusError(reply.error.status, reply.error.message);
            return { middle: mine, leaf: reply.data };
          }
        }
        return MiddleHandler;
      },
      nats.url,
    );
    edge = new NatsBus({ url: nats.url, name: 'edge', logger: new CapturingLogger('edge') });
    await (await edge.connect()).flush();
  });

  afterAll(async () => {
    await edge?.close();
    for (const s of [middle, leaf]) {
      await s?.app.close();
      await s?.bus.close();
    }
    await nats?.dispose();
  });

  it('carries the request id from the edge through every handler, its nested requests and its log lines', async () => {
    const reply = await edge.request(middleContract, {}, { requestId: 'edge-req-1' });
    expect(reply).toEqual({
      ok: true,
      data: { middle: { contextId: 'edge-req-1', headerId: 'edge-req-1' }, leaf: { contextId: 'edge-req-1', headerId: 'edge-req-1' } },
    });
    expect(middle.logger.find('middle handled')).toEqual([expect.objectContaining({ requestId: 'edge-req-1', context: 'MiddleHandler' })]);
    expect(leaf.logger.find('leaf handled')).toEqual([expect.objectContaining({ requestId: 'edge-req-1', context: 'LeafHandler' })]);
  });

  it('counts the round trip on both sides: the requester and the handler, per subject and outcome', () => {
    const middleSubject = `test.*.middle`;
    const leafSubject = `test.*.leaf`;
    expect(count(edge.metrics, 'nats_request_duration_seconds', `outcome="ok",subject="${middleSubject}"`)).toBe(1);
    expect(count(middle.metrics, 'nats_handler_duration_seconds', `outcome="ok",subject="${middleSubject}"`)).toBe(1);
    expect(count(middle.metrics, 'nats_request_duration_seconds', `outcome="ok",subject="${leafSubject}"`)).toBe(1);
    expect(count(leaf.metrics, 'nats_handler_duration_seconds', `outcome="ok",subject="${leafSubject}"`)).toBe(1);
    // Each service's registry holds its own figures only.
    expect(count(leaf.metrics, 'nats_request_duration_seconds', `outcome="ok",subject="${leafSubject}"`)).toBe(0);
    expect(edge.metrics.render()).not.toContain(run);
  });

  it('gives a request without an id a new one, shared by every service that handles it', async () => {
    const reply = await edge.request(middleContract, {});
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    const id = reply.data.middle.headerId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.data.leaf).toEqual({ contextId: id, headerId: id });
    expect(leaf.logger.find('leaf handled').at(-1)).toMatchObject({ requestId: id });
  });

  it('replaces an unusable id sent on the wire', async () => {
    const codec = JSONCodec<unknown>();
    const h = headers();
    h.set(REQUEST_ID_HEADER, 'x'.repeat(200));
    const msg = await edge.current!.request(leafContract.subject, codec.encode({ mode: 'ok' }), { timeout: 2_000, headers: h });
    const reply = codec.decode(msg.data) as { ok: true; data: { contextId: string; headerId: string } };
    expect(reply.data.headerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.data.contextId).toBe(reply.data.headerId);
  });

  it('records failures, late answers and subjects nobody serves under their outcome', async () => {
    const leafSubject = `test.*.leaf`;
    expect(await edge.request(leafContract, { mode: 'fail' })).toMatchObject({ ok: false, error: { status: 500 } });
    // The handler answers a 503 before the requester's deadline rather than letting it time out (a second: its
    // answer leaves 50 ms before it, room for a busy machine's reply).
    expect(await edge.request(leafContract, { mode: 'slow' }, { timeoutMs: 1_000 })).toMatchObject({ ok: false, error: { status: 503, message: 'Service overloaded' } });
    expect(await edge.request(nobodyContract, { mode: 'ok' })).toMatchObject({ ok: false, error: { status: 503 } });
    expect(count(edge.metrics, 'nats_request_duration_seconds', `outcome="error",subject="${leafSubject}"`)).toBe(2);
    expect(count(edge.metrics, 'nats_request_duration_seconds', `outcome="timeout",subject="${leafSubject}"`)).toBe(0);
    expect(count(edge.metrics, 'nats_request_duration_seconds', `outcome="no_responders",subject="test.*.nobody"`)).toBe(1);
    expect(count(leaf.metrics, 'nats_handler_duration_seconds', `outcome="error",subject="${leafSubject}"`)).toBe(2);
    expect(leaf.metrics.render()).toContain(`nats_handler_refused_total{reason="late",subject="${leafSubject}"} 1`);
    // The slow handler still runs to its end after the late answer; only the answer given counts as handled.
    await new Promise((r) => setTimeout(r, 500));
    expect(count(leaf.metrics, 'nats_handler_duration_seconds', `outcome="ok",subject="${leafSubject}"`)).toBe(3);
    const buckets = leaf.metrics.render().split('\n').filter((l) => l.startsWith(`nats_handler_duration_seconds_bucket{outcome="ok",subject="${leafSubject}",le="0.25"}`));
    expect(buckets).toEqual([`nats_handler_duration_seconds_bucket{outcome="ok",subject="${leafSubject}",le="0.25"} 3`]);
  });
});
