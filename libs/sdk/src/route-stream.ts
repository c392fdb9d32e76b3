// Live routes (`GET /v2/route/stream`) as an async iterator: the gateway's Server-Sent Events read from a fetch body.
import { ENDPOINTS, REQUEST_ID_HEADER, ROUTE_STREAM_PATH, type EndpointBody } from '@dex/messages';
import { parseBody, stringField } from './body';
import { DexApiError, DexNetworkError } from './errors';
import { requestTarget, type ClientParams } from './params';

/** A `/v2/route` answer: the body's `data`. */
export type RouteAnswer = EndpointBody<'route'>['data'];

/** One event of a live route. */
export type RouteStreamEvent =
  /** The route's answer (a complete `/v2/route` answer), at once and then at each block in which it changed. */
  | { readonly type: 'route'; readonly blockNumber: string; readonly data: RouteAnswer }
  /** The route is refused or failed at a block (the API's error: status, message, details), once until it changes. */
  | { readonly type: 'error'; readonly status: number; readonly error: string; readonly details?: string }
  /** The gateway ended the stream (`reason: 'maxDuration'`); the iterator then finishes. */
  | { readonly type: 'end'; readonly reason: string };

export interface RouteStreamOptions {
  /** Ends the stream: the iterator finishes (without an error). */
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One parsed Server-Sent Event: its name and its data lines joined. */
interface RawEvent {
  readonly name: string;
  readonly data: string;
}

/** Splits an SSE text stream into events (comments and `retry:`/`id:` lines dropped: the data carries the block). */
export async function* sseEvents(chunks: AsyncIterable<string>): AsyncGenerator<RawEvent> {
  let buffer = '';
  let name = 'message';
  let data: string[] = [];
  for await (const chunk of chunks) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { name, data: data.join('\n') };
        name = 'message';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
  }
}

async function* textChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A live route: `/v2/route`'s parameters, the answers as they change, until the gateway ends the stream, the
 * `signal` aborts (the iterator finishes) or the loop breaks (the connection is closed). A refused request (400, a
 * 429 past the stream limits) throws `DexApiError` before the first event.
 *
 * @example
 * for await (const event of dex.routeStream({ chainId: 999, tokenIn: USDC, tokenOut: WHYPE, amountIn: '100' }, { signal })) {
 *   if (event.type === 'route') console.log(event.blockNumber, event.data.amountOut);
 * }
 */
export async function* routeStream(
  baseUrl: string,
  params: ClientParams<'route'>,
  options: RouteStreamOptions & { readonly fetch?: typeof fetch; readonly clientHeaders?: Readonly<Record<string, string>> } = {},
): AsyncGenerator<RouteStreamEvent> {
  const target = baseUrl + requestTarget('route', { ...ENDPOINTS.route, path: ROUTE_STREAM_PATH }, params as Readonly<Record<string, unknown>>);
  const headers = new Headers({ accept: 'text/event-stream', ...options.clientHeaders, ...options.headers });
  if (options.requestId !== undefined) headers.set(REQUEST_ID_HEADER, options.requestId);
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(target, { method: 'GET', headers, signal: controller.signal });
    } catch (cause) {
      if (options.signal?.aborted) return;
      throw new DexNetworkError({ endpoint: 'route', url: target, reason: 'network', cause, timeoutMs: 0 });
    }
    if (!response.ok || response.body === null) {
      const { body } = parseBody(await response.text());
      const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
      const details = stringField(body, 'details');
      throw new DexApiError({ endpoint: 'route', url: target, status: response.status, error: stringField(body, 'error') ?? `HTTP ${response.status}`, ...(details !== undefined ? { details } : {}), ...(requestId !== undefined ? { requestId } : {}), body });
    }
    try {
      for await (const event of sseEvents(textChunks(response.body))) {
        const payload = JSON.parse(event.data) as Record<string, unknown>;
        if (event.name === 'route') {
          const data = payload.data as RouteAnswer;
          yield { type: 'route', blockNumber: data.blockNumber, data };
        } else if (event.name === 'error') {
          yield { type: 'error', status: Number(payload.status), error: String(payload.error), ...(typeof payload.details === 'string' ? { details: payload.details } : {}) };
        } else if (event.name === 'end') {
          yield { type: 'end', reason: String(payload.reason) };
          return;
        }
      }
    } catch (cause) {
      if (options.signal?.aborted) return;
      throw new DexNetworkError({ endpoint: 'route', url: target, reason: 'network', cause, timeoutMs: 0 });
    }
  } finally {
    options.signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
