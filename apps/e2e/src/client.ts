import { createDexClient, type DexClient, type EndpointBody, type EndpointName, type RawResponse } from '@dex/sdk';

/**
 * A client of an app's REST API that holds every answer to what `ENDPOINTS` documents (`validateResponses:
 * 'strict'`): a method resolves only on status 200 with a body that matches the endpoint's schema and has no
 * undocumented field, and a failure must be the error envelope at one of the endpoint's documented statuses.
 * Any departure throws a `DexResponseError` naming it.
 */
export function apiClient(baseUrl: string): DexClient {
  return createDexClient({ baseUrl, validateResponses: 'strict', timeoutMs: 10_000 });
}

/** The success body of a raw response; a failure throws, with its status and message. */
export function bodyOf<N extends EndpointName>(r: RawResponse<N>): EndpointBody<N> {
  if (!r.ok) throw new Error(`expected a success, got ${r.status} ${r.error ?? ''}${r.details === undefined ? '' : ` (${r.details})`}`);
  return r.body;
}
