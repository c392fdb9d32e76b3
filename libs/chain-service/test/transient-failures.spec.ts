// The failures of a chain's RPC and of the database that mean busy or out of reach, met for real (a node and a
// database server that accept connections and never answer, a node that answers with an error), and what a
// service's bus answers for them: a chain service answers 503, a service of the kit alone knows only sockets.
import 'reflect-metadata';
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { createChainClient } from '@dex/chain';
import { createPrismaClient } from '@dex/db';
import { defineContract } from '@dex/messages';
import { createJsonLogger, NatsBus, ServiceModule, startService, transientFailure, type RunningService, type ServiceDefinition } from '@dex/service';
import { getFreePort, startPrivateNatsServer, type PrivateNatsServer } from '@dex/testing';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';
import { ChainServiceModule, chainUnreachable, databaseBusy } from '../src';

jest.setTimeout(30_000);

const logger = createJsonLogger('test', 'fatal');

/** Where errors come from: a server that takes connections and never says a word, and a node that refuses every method. */
let silent: Server;
let silentPort: number;
let refusing: HttpServer;
let refusingUrl: string;

const held = new Set<Socket>();

beforeAll(async () => {
  silent = createServer((socket) => {
    held.add(socket);
    socket.once('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
  refusing = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'the method does not exist' } }));
    });
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  refusing?.closeAllConnections();
  await new Promise((resolve) => refusing?.close(resolve));
});

const failureOf = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (err: unknown) => err);
const blockNumberAt = (rpcUrl: string) => createChainClient({ chainId: 999, rpcUrl, timeoutMs: 300 }).getBlockNumber();

describe('chainUnreachable', () => {
  it('knows a node that does not answer in time, which the kit alone does not', async () => {
    const err = await failureOf(blockNumberAt(`http://127.0.0.1:${silentPort}`));
    expect(chainUnreachable(err)).toBe('a chain RPC provider did not answer in time');
    expect(transientFailure(err)).toBeUndefined();
    expect(transientFailure(err, [chainUnreachable])).toBe('a chain RPC provider did not answer in time');
  });

  it('knows a node that refuses connections', async () => {
    expect(chainUnreachable(await failureOf(blockNumberAt(`http://127.0.0.1:${await getFreePort()}`)))).toBe('a chain RPC provider did not answer in time');
  });

  it('leaves alone a node that answers with an error', async () => {
    const err = await failureOf(blockNumberAt(refusingUrl));
    expect(chainUnreachable(err)).toBeUndefined();
    expect(transientFailure(err, [chainUnreachable, databaseBusy])).toBeUndefined();
  });
});

describe('databaseBusy', () => {
  it('knows a database server that does not answer in time, which the kit alone does not', async () => {
    const db = createPrismaClient(`postgresql://postgres@127.0.0.1:${silentPort}/dex`, { maxConnections: 1, connectTimeoutMs: 300 });
    try {
      const err = await failureOf(db.$queryRaw`SELECT 1`);
      expect(databaseBusy(err)).toBe('a dependency is busy or out of reach: Connection terminated due to connection timeout');
      expect(transientFailure(err)).toBeUndefined();
      expect(chainUnreachable(err)).toBeUndefined();
    } finally {
      await db.$disconnect();
    }
  });

  it('leaves alone a failure that is not the database', () => {
    expect(databaseBusy(new TypeError("Cannot read properties of undefined (reading 'address')"))).toBeUndefined();
  });
});

const blockContract = defineContract({ subject: 'reader.block', description: 'the head of a chain', request: z.object({}), response: z.object({ block: z.string() }) });

describe("a service's bus answer to a node that does not answer in time", () => {
  let nats: PrivateNatsServer;
  let client: NatsBus;
  const services: RunningService<unknown>[] = [];

  @Controller()
  class BlockHandler {
    @MessagePattern(blockContract.subject)
    async block() {
      return { block: String(await blockNumberAt(`http://127.0.0.1:${silentPort}`)) };
    }
  }

  const start = async (name: string, module: ServiceDefinition<unknown>['module']) => {
    const port = await getFreePort();
    const service = (await startService(
      { name, loadConfig: () => ({ NATS_URL: nats.url, LOG_LEVEL: 'fatal', HTTP_HOST: '127.0.0.1', HTTP_PORT: port, BUS_TIMEOUT_MS: 5_000 }) as never, module, serves: [blockContract] },
      { logger },
    )) as RunningService<unknown>;
    await (await service.bus.connect()).flush();
    services.push(service);
  };

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    client = new NatsBus({ url: nats.url, name: 'client', logger });
    await (await client.connect()).flush();
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all(services.map((s) => s.close()));
    await nats?.dispose();
  });

  it('is a 503 to try again from a chain service', async () => {
    await start('reader', (_config, bus) => ChainServiceModule.register({ service: 'reader', bus, controllers: [BlockHandler] }));
    expect(await client.request(blockContract, {})).toEqual({
      ok: false,
      error: { status: 503, message: 'Service temporarily unavailable', details: 'reader.block: a chain RPC provider did not answer in time', retryAfterMs: 1_000 },
    });
    await services.pop()!.close();
  });

  it('is a fault (500) from a service built on the kit alone, which knows no chain', async () => {
    await start('reader', (_config, bus) => ServiceModule.register({ service: 'reader', bus, controllers: [BlockHandler] }));
    expect(await client.request(blockContract, {})).toEqual({ ok: false, error: { status: 500, message: 'Internal error', details: 'reader.block' } });
  });
});
