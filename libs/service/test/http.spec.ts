// A service started as every service is (startService: Fastify, the bus, ServiceModule) on a private NATS
// server: request ids over HTTP and into the bus, the access log, and HTTP metrics by route template.
import type { LogLevel } from '@nestjs/common';
import { BadRequestException, Controller, Get, Inject, Param } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { defineContract, type ParsedRequestOf } from '@dex/messages';
import { getFreePort, startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { z } from 'zod';
import {
  BusContext,
  currentRequestContext,
  currentRequestId,
  JsonLogger,
  NatsBus,
  ServiceModule,
  startService,
  type JsonLogLine,
  type RunningService,
  type ServiceDefinition,
} from '../src';

jest.setTimeout(30_000);

class CapturingLogger extends JsonLogger {
  readonly lines: JsonLogLine[] = [];

  constructor() {
    super('web', { json: true, colors: false, logLevels: ['fatal', 'error', 'warn', 'log'] });
  }

  protected override printAsJson(message: unknown, options: { context: string; logLevel: LogLevel }): void {
    this.lines.push(this.getJsonLogObject(message, options));
  }

  find(msg: string): JsonLogLine[] {
    return this.lines.filter((l) => (l.message as { msg?: string } | undefined)?.msg === msg);
  }
}

const lookupContract = defineContract({
  subject: 'web.lookup',
  description: 'looks an item up',
  request: z.object({ id: z.string() }),
  response: z.object({ id: z.string(), handledAs: z.string() }),
});

/** What is left of the request's deadline when its handler runs, milliseconds. */
const leftContract = defineContract({ subject: 'web.left', description: 'the time left', request: z.object({}), response: z.object({ leftMs: z.number() }) });

const logger = new CapturingLogger();

@Controller('items')
class ItemsController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  @Get(':id')
  async item(@Param('id') id: string) {
    if (!/^\d+$/.test(id)) throw new BadRequestException('id must be a number');
    logger.log({ msg: 'looking up', id }, 'ItemsController');
    // No request id passed: the bus takes the HTTP request's.
    const reply = await this.bus.request(lookupContract, { id });
    if (!reply.ok) throw new Error(reply.error.message);
    return { success: true, data: reply.data, requestId: currentRequestId() };
  }
}

@Controller('late')
class LateController {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  /** Spends `ms` first, then asks the bus what is left. */
  @Get(':ms')
  async late(@Param('ms') ms: string) {
    await new Promise((r) => setTimeout(r, Number(ms)));
    const reply = await this.bus.request(leftContract, {});
    if (!reply.ok) throw new Error(reply.error.message);
    return { success: true, data: reply.data };
  }
}

@Controller()
class LookupHandler {
  @MessagePattern(leftContract.subject)
  left() {
    return { leftMs: Math.round((currentRequestContext()?.deadlineAt ?? Infinity) - performance.now()) };
  }

  @MessagePattern(lookupContract.subject)
  lookup(@Payload() req: ParsedRequestOf<typeof lookupContract>, @Ctx() ctx: BusContext) {
    logger.log({ msg: 'lookup handled', id: req.id }, 'LookupHandler');
    return { id: req.id, handledAs: ctx.requestId };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP requests of a service', () => {
  let nats: PrivateNatsServer;
  let service: RunningService<unknown>;

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers });
  const httpCount = (labels: string): number => {
    const line = service.metrics
      .render()
      .split('\n')
      .find((l) => l.startsWith(`http_requests_total{${labels}} `));
    return line ? Number(line.split(' ')[1]) : 0;
  };

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    const port = await getFreePort();
    const definition: ServiceDefinition<Record<string, never>> = {
      name: 'web',
      loadConfig: () => ({ NATS_URL: nats.url, LOG_LEVEL: 'log', HTTP_HOST: '127.0.0.1', HTTP_PORT: port, BUS_TIMEOUT_MS: 2_000 }) as never,
      module: (_config, bus) => ServiceModule.register({ service: 'web', bus, controllers: [ItemsController, LateController, LookupHandler] }),
      serves: [lookupContract, leftContract],
      accessLog: true,
    };
    service = (await startService(definition, { logger })) as RunningService<unknown>;
    await (await service.bus.connect()).flush();
    // The subscription is made once NATS is reached; wait until the subject answers.
    for (let i = 0; i < 50 && !(await service.bus.request(lookupContract, { id: 'probe' })).ok; i++) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await service?.close();
    await nats?.dispose();
  });

  it("answers the caller's x-request-id and carries it into the handling, the bus and every log line", async () => {
    const res = await get('/items/42', { 'x-request-id': 'client-req-42' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('client-req-42');
    expect(await res.json()).toEqual({ success: true, data: { id: '42', handledAs: 'client-req-42' }, requestId: 'client-req-42' });
    expect(logger.find('looking up')).toEqual([expect.objectContaining({ requestId: 'client-req-42' })]);
    expect(logger.find('lookup handled').filter((l) => l.requestId === 'client-req-42')).toHaveLength(1);
    expect(logger.find('http request').filter((l) => l.requestId === 'client-req-42')).toEqual([
      expect.objectContaining({
        level: 'log',
        context: 'http',
        message: { msg: 'http request', method: 'GET', route: '/items/:id', path: '/items/42', status: 200, durationMs: expect.any(Number) },
      }),
    ]);
  });

  it("gives the services behind only what is left of the HTTP request's deadline (BUS_TIMEOUT_MS from its arrival)", async () => {
    const res = await get('/late/400');
    expect(res.status).toBe(200);
    const { leftMs } = ((await res.json()) as { data: { leftMs: number } }).data;
    expect(leftMs).toBeGreaterThan(0);
    expect(leftMs).toBeLessThanOrEqual(2_000 - 400);
  });

  it('gives a request without a usable id a new UUID', async () => {
    for (const headers of [{}, { 'x-request-id': 'x'.repeat(129) }, { 'x-request-id': 'two words' }] as Record<string, string>[]) {
      const res = await get('/items/7', headers);
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(((await res.json()) as { data: { handledAs: string } }).data.handledAs).toBe(id);
    }
  });

  it('counts every answer by route template, including refusals, unknown paths and /metrics', async () => {
    const bad = await get('/items/abc', { 'x-request-id': 'bad-1' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toBe('bad-1');
    const unknown = await get('/no/such/path/0xdeadbeef');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toMatch(UUID);
    expect((await get('/metrics')).status).toBe(200);

    expect(httpCount('method="GET",route="/items/:id",status="200"')).toBe(4);
    expect(httpCount('method="GET",route="/items/:id",status="400"')).toBe(1);
    expect(httpCount('method="GET",route="unmatched",status="404"')).toBe(1);
    expect(httpCount('method="GET",route="/metrics",status="200"')).toBe(1);
    expect(logger.find('http request').filter((l) => l.requestId === 'bad-1')).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ route: '/items/:id', status: 400 }) }),
    ]);

    const text = await (await get('/metrics')).text();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/items/:id",status="200"} 4');
    expect(text).toContain('http_request_duration_seconds_bucket{method="GET",route="unmatched",status="404",le="+Inf"} 1');
    expect(text).toContain('nats_request_duration_seconds_count{outcome="ok",subject="web.lookup"}');
    expect(text).toContain('nats_handler_duration_seconds_count{outcome="ok",subject="web.lookup"}');
    expect(text).not.toContain('/items/42');
    expect(text).not.toContain('deadbeef');
  });
});
