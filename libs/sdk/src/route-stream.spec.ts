import { DexApiError } from './errors';
import { createDexClient } from './client';
import { sseEvents } from './route-stream';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const USDC = '0xb88339CB7199b77E23DB6E890353E22632Ba630f';
const USDT = '0xB8CE59FC3717ada4C02eaDF9682A9e934F625ebb';

describe('sseEvents', () => {
  it('splits events across chunks, joins data lines, drops comments, retry and id lines', async () => {
    const events = await collect(sseEvents(chunks('retry: 1000\n\n: heart', 'beat\n\nevent: route\nid: 7\ndata: {"a"', ':1}\n\nevent: error\r\ndata: x\r\ndata: y\r\n\r\n')));
    expect(events).toEqual([
      { name: 'route', data: '{"a":1}' },
      { name: 'error', data: 'x\ny' },
    ]);
  });
});

describe('routeStream', () => {
  const body = (text: string[], onCancel?: () => void) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const t of text) controller.enqueue(new TextEncoder().encode(t));
      },
      cancel: onCancel,
    });

  it("asks /v2/route/stream with /v2/route's parameters and yields route, error and end events", async () => {
    let asked = '';
    const fetch = (async (url: string) => {
      asked = url;
      return new Response(
        body([
          'retry: 1000\n\n',
          'event: route\nid: 12\ndata: {"success":true,"data":{"blockNumber":"12","amountOut":"5"}}\n\n',
          ': block 13: unchanged\n\n',
          'event: error\ndata: {"success":false,"error":"No route found","status":404,"details":"d"}\n\n',
          'event: end\ndata: {"reason":"maxDuration","maxDurationSeconds":900}\n\n',
        ]),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    }) as typeof globalThis.fetch;
    const dex = createDexClient({ baseUrl: 'http://gw', fetch });
    const events = await collect(dex.routeStream({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1.5', multiHop: true }));
    expect(asked).toBe(`http://gw/v2/route/stream?chainId=999&tokenIn=${USDC}&tokenOut=${USDT}&amountIn=1.5&multiHop=true`);
    expect(events).toEqual([
      { type: 'route', blockNumber: '12', data: { blockNumber: '12', amountOut: '5' } },
      { type: 'error', status: 404, error: 'No route found', details: 'd' },
      { type: 'end', reason: 'maxDuration' },
    ]);
  });

  it('throws the refusal (400, 429) before any event', async () => {
    const fetch = (async () => new Response(JSON.stringify({ success: false, error: 'Too many route streams', details: 'a client may hold 10 streams at once' }), { status: 429 })) as typeof globalThis.fetch;
    const dex = createDexClient({ baseUrl: 'http://gw', fetch });
    const failure = await collect(dex.routeStream({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1' })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DexApiError);
    expect(failure).toMatchObject({ status: 429, error: 'Too many route streams' });
  });

  it('finishes without an error when the signal aborts, and closes the connection', async () => {
    const abort = new AbortController();
    let cancelled = false;
    const fetch = (async (_url: string, init: RequestInit) => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('event: route\ndata: {"success":true,"data":{"blockNumber":"1"}}\n\n'));
          init.signal?.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
        cancel: () => {
          cancelled = true;
        },
      });
      return new Response(stream, { status: 200 });
    }) as typeof globalThis.fetch;
    const dex = createDexClient({ baseUrl: 'http://gw', fetch });
    const seen: string[] = [];
    for await (const event of dex.routeStream({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1' }, { signal: abort.signal })) {
      seen.push(event.type);
      abort.abort();
    }
    expect(seen).toEqual(['route']);
    expect(cancelled || abort.signal.aborted).toBe(true);
  });
});
