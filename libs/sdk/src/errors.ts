import type { EndpointName } from '@dex/messages';

/** Every failure of the client: which endpoint was asked, at which URL. */
export class DexClientError extends Error {
  readonly endpoint: EndpointName;
  readonly url: string;

  constructor(message: string, endpoint: EndpointName, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DexClientError';
    this.endpoint = endpoint;
    this.url = url;
  }
}

/** The API answered with an error status (4xx, 5xx). */
export class DexApiError extends DexClientError {
  /** The HTTP status. */
  readonly status: number;
  /** The API's message (`error` of `{success: false, error, details?}`); `HTTP <status>` when the body has none. */
  readonly error: string;
  /** The API's `details`, when it gave some. */
  readonly details: string | undefined;
  /** The `x-request-id` the API answered with. */
  readonly requestId: string | undefined;
  /** The body as received (parsed JSON, or the text when it is not JSON). */
  readonly body: unknown;

  constructor(init: { endpoint: EndpointName; url: string; status: number; error: string; details?: string; requestId?: string; body: unknown }) {
    super(`${init.endpoint}: ${init.status} ${init.error}${init.details === undefined ? '' : ` (${init.details})`}`, init.endpoint, init.url);
    this.name = 'DexApiError';
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

/** Why no response arrived: the time limit passed, the caller aborted, or the connection failed. */
export type NetworkFailure = 'timeout' | 'aborted' | 'network';

/** No HTTP response: connection refused or reset, DNS failure, the time limit, or the caller's abort signal. */
export class DexNetworkError extends DexClientError {
  readonly reason: NetworkFailure;

  constructor(init: { endpoint: EndpointName; url: string; reason: NetworkFailure; cause: unknown; timeoutMs?: number }) {
    const what =
      init.reason === 'timeout'
        ? `no response within ${init.timeoutMs} ms`
        : init.reason === 'aborted'
          ? 'aborted by the caller'
          : `request failed: ${describeCause(init.cause)}`;
    super(`${init.endpoint}: GET ${init.url}: ${what}`, init.endpoint, init.url, { cause: init.cause });
    this.name = 'DexNetworkError';
    this.reason = init.reason;
  }
}

/** Where a body departs from its documented schema. */
export interface SchemaIssue {
  /** e.g. `data.dexes[0].feeBps`; empty for the body itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * A response the client cannot accept: a success whose body is not JSON, or (with `validateResponses`) a body
 * or status that does not match what `ENDPOINTS` documents for the endpoint.
 */
export class DexResponseError extends DexClientError {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly issues: readonly SchemaIssue[];
  readonly body: unknown;

  constructor(init: { endpoint: EndpointName; url: string; status: number; requestId?: string; issues: readonly SchemaIssue[]; body: unknown }) {
    const list = init.issues.map((i) => `  ${i.path === '' ? '(body)' : i.path}: ${i.message}`).join('\n');
    super(`${init.endpoint}: GET ${init.url} answered ${init.status} with a response that does not match its documented schema:\n${list}`, init.endpoint, init.url);
    this.name = 'DexResponseError';
    this.status = init.status;
    this.requestId = init.requestId;
    this.issues = init.issues;
    this.body = init.body;
  }
}

/** `fetch failed (ECONNREFUSED)`: the message and the code of the underlying socket error, when there is one. */
function describeCause(cause: unknown): string {
  // Duck-typed: the error may come from another realm (a test runner's sandbox), where instanceof fails.
  const message = (e: unknown) => (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : undefined);
  const inner = typeof cause === 'object' && cause !== null ? (cause as { cause?: unknown }).cause : undefined;
  const code = typeof inner === 'object' && inner !== null ? (inner as { code?: unknown }).code : undefined;
  return `${message(cause) ?? String(cause)}${typeof code === 'string' ? ` (${code})` : ''}`;
}
