// The answers the gateway's HTTP server gives before any route, on a real Fastify server over real sockets:
// the error envelope for a GET, the same status and headers without a body for a HEAD.
import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { gatewayHttpErrors, refusedMethod } from './framework-errors';

/** Sends raw bytes and reads the whole answer until the server closes (or answers a complete response). */
function exchange(port: number, request: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    // A HEAD answered by a route keeps the connection open: end it once the answer's headers are in.
    setTimeout(() => socket.end(), 500);
  });
}

const split = (answer: string) => {
  const at = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, at), body: answer.slice(at + 4) };
};

describe('failures answered before routing', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ ...gatewayHttpErrors, logger: false });
    app.get('/ok', async () => ({ success: true, data: {} }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await app.close();
  });

  const longQuery = (method: string) => `${method} /ok?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
  const nonAscii = (method: string) => Buffer.concat([Buffer.from(`${method} /caf`), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]);

  it('answer a GET with the error envelope', async () => {
    const tooLarge = split(await exchange(port, longQuery('GET')));
    expect(tooLarge.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(tooLarge.body)).toEqual({ success: false, error: 'Request header fields too large' });
    const bad = split(await exchange(port, nonAscii('GET')));
    expect(bad.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(bad.body)).toEqual({ success: false, error: 'Bad request' });
  });

  it('answer a HEAD with the same status and headers and no body (431, 400 on raw non-ASCII bytes, 400 on a bad URL)', async () => {
    const tooLarge = split(await exchange(port, longQuery('HEAD')));
    expect(tooLarge.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(tooLarge.head).toContain(`Content-Length: ${JSON.stringify({ success: false, error: 'Request header fields too large' }).length}`);
    expect(tooLarge.body).toBe('');
    const bad = split(await exchange(port, nonAscii('HEAD')));
    expect(bad.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad.body).toBe('');
    const badUrl = split(await exchange(port, 'HEAD /%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    expect(badUrl.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(badUrl.body).toBe('');
  });

  it('tell the refused request from one before it on the same connection', async () => {
    const answer = await exchange(port, Buffer.concat([Buffer.from('GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n'), nonAscii('HEAD')]));
    // Node refuses the connection's packet before the GET is answered: the last answer is the HEAD's 400.
    const last = answer.split(/(?=HTTP\/1\.1 )/).at(-1)!;
    expect(split(last).head).toMatch(/^HTTP\/1\.1 400 /);
    expect(split(last).body).toBe('');
  });
});

describe('refusedMethod', () => {
  it('is the method of the last request line starting in the packet, up to where parsing stopped', () => {
    expect(refusedMethod(Buffer.from('HEAD /x HTTP/1.1\r\n'))).toBe('HEAD');
    expect(refusedMethod(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\nHEAD /caf HTTP/1.1\r\n'), 36)).toBe('HEAD');
    expect(refusedMethod(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\nHEAD /caf HTTP/1.1\r\n'), 10)).toBe('GET');
    expect(refusedMethod(Buffer.from('aaaaaaaa'))).toBeUndefined();
    expect(refusedMethod(undefined)).toBeUndefined();
  });
});
