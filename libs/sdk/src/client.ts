import { ENDPOINTS, REQUEST_ID_HEADER, type Endpoint, type EndpointBody, type EndpointName } from '@dex/messages';
import { DexApiError, DexNetworkError, DexResponseError, type NetworkFailure, type SchemaIssue } from './errors';
import { requestTarget, type ClientParams, type LooseParams } from './params';
import { parseBody, stringField } from './body';
import { checkBody, failureSchema, type Validation } from './validate';
import { routeStream, type RouteStreamEvent, type RouteStreamOptions } from './route-stream';

/** Time limit of a request unless the options say otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface DexClientOptions {
  /** The gateway's URL, e.g. `http://127.0.0.1:3000`; a path prefix is kept (`https://example.com/api`). */
  readonly baseUrl: string;
  /** The fetch implementation; default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Time limit of each request in milliseconds, body included (default 30 000; 0: none). */
  readonly timeoutMs?: number;
  /**
   * Check responses against what `ENDPOINTS` documents (default `false`). The body is returned as received
   * either way; a mismatch throws `DexResponseError` naming each departure.
   * - `true`: a success body must match the endpoint's `body` schema;
   * - `'strict'`: also no undocumented field, the success status is exactly 200, a failure status is one the
   *   endpoint documents (or 500) and its body is the error envelope (the health report on a 503 of /health).
   */
  readonly validateResponses?: Validation;
}

export interface CallOptions {
  /** Sent as `x-request-id`; the API answers with the same id and its logs and bus requests carry it. */
  readonly requestId?: string;
  /** Aborts the request (a `DexNetworkError` with reason `aborted`). */
  readonly signal?: AbortSignal;
  /** This request's time limit, in place of the client's. */
  readonly timeoutMs?: number;
  /** Headers of this request, over the client's. */
  readonly headers?: Readonly<Record<string, string>>;
}

type DataOf<N extends EndpointName> = EndpointBody<N> extends { data: infer D } ? D : never;

/**
 * A failure body: `{success: false, error, details?}`; a 503 of /health or /health/ready carries the readiness
 * report as `data` instead of `error`.
 */
export interface FailureBody<N extends EndpointName = EndpointName> {
  readonly success: false;
  readonly error?: string;
  readonly details?: string;
  readonly data?: DataOf<N>;
}

interface RawCommon {
  readonly status: number;
  readonly headers: Headers;
  /** The `x-request-id` the API answered with. */
  readonly requestId: string | undefined;
  readonly url: string;
}

/** What `request` resolves to: the status, headers and body of any answer, success or failure. */
export type RawResponse<N extends EndpointName> =
  | (RawCommon & { readonly ok: true; readonly body: EndpointBody<N>; readonly error?: undefined; readonly details?: undefined })
  | (RawCommon & {
      readonly ok: false;
      /** The failure body; the text when it is not JSON. */
      readonly body: FailureBody<N> | string;
      /** `error` of the body, when it has one. */
      readonly error: string | undefined;
      readonly details: string | undefined;
    });

/** Parameters that must be given (an endpoint without parameters has the input `Record<string, never>`). */
type RequiredParam<N extends EndpointName> =
  string extends keyof ClientParams<N> ? never : { [K in keyof ClientParams<N>]-?: undefined extends ClientParams<N>[K] ? never : K }[keyof ClientParams<N>];

type MethodArgs<N extends EndpointName> = [RequiredParam<N>] extends [never]
  ? [params?: ClientParams<N>, options?: CallOptions]
  : [params: ClientParams<N>, options?: CallOptions];

/** One method per endpoint, named by its operationId; it resolves to the success body or throws. */
export type EndpointMethods = { readonly [N in EndpointName]: (...args: MethodArgs<N>) => Promise<EndpointBody<N>> };

export interface DexClient extends EndpointMethods {
  readonly baseUrl: string;
  /**
   * Sends a request and resolves with whatever status the API answers, without throwing on 4xx and 5xx
   * (network failures and, with `validateResponses`, mismatches still throw). Every parameter is optional here,
   * so that the API's own validation can be exercised.
   */
  request<N extends EndpointName>(name: N, params?: LooseParams<N>, options?: CallOptions): Promise<RawResponse<N>>;
  /** The URL a request would be sent to. */
  url<N extends EndpointName>(name: N, params?: LooseParams<N>): string;
  /**
   * A live route (`GET /v2/route/stream`): `/v2/route`'s answers as they change, an async iterator that finishes when
   * the gateway ends the stream or `options.signal` aborts (see `RouteStreamEvent`).
   */
  routeStream(params: ClientParams<'route'>, options?: RouteStreamOptions): AsyncGenerator<RouteStreamEvent>;
}


/** Statuses a strict client accepts on failure: the endpoint's documented ones, and 500 (an unexpected fault). */
function documentedStatus(endpoint: Endpoint, status: number): boolean {
  return status === 500 || endpoint.errors.some((e) => e.status === status);
}

/**
 * A client of the REST API. Methods are derived from `ENDPOINTS`: `client.route({chainId: 999, tokenIn, tokenOut,
 * amountIn: '1.5'})` resolves to the success body `{success: true, data}` (`/core/pools` also has `totalTVL` and
 * `totals24h` beside `data`) and throws `DexApiError` on an error status, `DexNetworkError` when no response
 * arrives, `DexResponseError` when the response cannot be accepted.
 */
export function createDexClient(options: DexClientOptions): DexClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const validation: Validation = options.validateResponses ?? false;
  const clientTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const endpointOf = (name: EndpointName): Endpoint => {
    const endpoint = (ENDPOINTS as Record<string, Endpoint>)[name];
    if (endpoint === undefined || !Object.hasOwn(ENDPOINTS, name)) throw new TypeError(`unknown endpoint: ${String(name)}`);
    return endpoint;
  };

  const url = (name: EndpointName, params?: Readonly<Record<string, unknown>>): string => baseUrl + requestTarget(name, endpointOf(name), params);

  async function request<N extends EndpointName>(name: N, params?: LooseParams<N>, call: CallOptions = {}): Promise<RawResponse<N>> {
    const endpoint = endpointOf(name);
    const target = url(name, params as Readonly<Record<string, unknown>> | undefined);
    const headers = new Headers({ accept: 'application/json', ...options.headers, ...call.headers });
    if (call.requestId !== undefined) headers.set(REQUEST_ID_HEADER, call.requestId);
    const timeoutMs = call.timeoutMs ?? clientTimeout;
    const timeout = timeoutMs > 0 && Number.isFinite(timeoutMs) ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [timeout, call.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];

    let response: Response;
    let text: string;
    try {
      response = await (options.fetch ?? globalThis.fetch)(target, { method: endpoint.method, headers, ...(signal ? { signal } : {}) });
      text = await response.text();
    } catch (cause) {
      const reason: NetworkFailure = timeout?.aborted ? 'timeout' : call.signal?.aborted ? 'aborted' : 'network';
      throw new DexNetworkError({ endpoint: name, url: target, reason, cause, timeoutMs });
    }

    const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const { body, json } = parseBody(text);
    const common: RawCommon = { status: response.status, headers: response.headers, requestId, url: target };
    const reject = (issues: readonly SchemaIssue[]) => new DexResponseError({ endpoint: name, url: target, status: response.status, requestId, issues, body });

    if (response.ok) {
      if (!json) throw reject([{ path: '', message: `not JSON: ${JSON.stringify(text.slice(0, 200))}` }]);
      const issues = checkBody(endpoint.body, body, validation);
      if (validation === 'strict' && response.status !== 200) issues.unshift({ path: '', message: `status ${response.status}, the documented success status is 200` });
      if (issues.length > 0) throw reject(issues);
      return { ...common, ok: true, body: body as EndpointBody<N> };
    }

    if (validation === 'strict') {
      const issues: SchemaIssue[] = documentedStatus(endpoint, response.status) ? [] : [{ path: '', message: `status ${response.status} is not documented for ${name}` }];
      issues.push(...(json ? checkBody(failureSchema(endpoint, body), body, validation) : [{ path: '', message: `not JSON: ${JSON.stringify(text.slice(0, 200))}` }]));
      if (issues.length > 0) throw reject(issues);
    }
    return { ...common, ok: false, body: body as FailureBody<N> | string, error: stringField(body, 'error'), details: stringField(body, 'details') };
  }

  const methods = Object.fromEntries(
    (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => [
      ENDPOINTS[name].operationId,
      async (params?: LooseParams<EndpointName>, call?: CallOptions) => {
        const r = await request(name, params, call);
        if (r.ok) return r.body;
        throw new DexApiError({
          endpoint: name,
          url: r.url,
          status: r.status,
          error: r.error ?? `HTTP ${r.status}`,
          ...(r.details === undefined ? {} : { details: r.details }),
          ...(r.requestId === undefined ? {} : { requestId: r.requestId }),
          body: r.body,
        });
      },
    ]),
  );

  const stream = (params: ClientParams<'route'>, call: RouteStreamOptions = {}) =>
    routeStream(baseUrl, params, { ...call, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.headers ? { clientHeaders: options.headers } : {}) });

  return Object.freeze({ ...methods, baseUrl, request, url, routeStream: stream }) as unknown as DexClient;
}
