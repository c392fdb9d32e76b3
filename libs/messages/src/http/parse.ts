import type { z } from 'zod';
import type { Endpoint } from './endpoints';
import { got } from './fields';

/** A rejected request: the API's message and, when there is one, `details`. */
export interface InvalidInput {
  readonly message: string;
  readonly details?: string;
}

export type ParsedInput<E extends Endpoint> = { ok: true; value: z.output<E['input']> } | { ok: false; error: InvalidInput };

type Raw = Record<string, unknown>;

/**
 * Validates a request's query and path parameters with the endpoint's schema. An empty value counts as absent;
 * a repeated parameter is a 400 unless its last value wins (`lastValueWins`). The first failure is reported,
 * in the order the parameters are declared; when several required parameters share one message (as on
 * /core/quote), `details` names all of the missing ones (and the one missing, when the message does not name it).
 */
export function parseEndpointInput<E extends Endpoint>(endpoint: E, query: Raw, pathParams: Raw = {}): ParsedInput<E> {
  const input: Raw = {};
  for (const [name, value] of Object.entries(query)) {
    const single = Array.isArray(value) && endpoint.lastValueWins?.includes(name) ? value[value.length - 1] : value;
    if (single !== '' && single !== undefined) input[name] = single;
  }
  for (const name of endpoint.pathParams) input[name] = pathParams[name];
  const result = endpoint.input.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data as z.output<E['input']> };
  return { ok: false, error: describe(result.error.issues) };
}

function describe(issues: readonly z.core.$ZodIssue[]): InvalidInput {
  const first = issues[0]!;
  const explicit = (first as { params?: { details?: unknown } }).params?.details;
  if (typeof explicit === 'string') return { message: first.message, details: explicit };
  const input = (first as { input?: unknown }).input;
  if (input === undefined) {
    const missing = issues.filter((i) => i.message === first.message && (i as { input?: unknown }).input === undefined && i.path.length > 0).map((i) => i.path.join('.'));
    // Named when several share the message, or when the message does not name the one missing (chainId on /core/quote).
    const named = missing.length === 1 && first.message.split(/\W+/).includes(missing[0]!);
    return missing.length > 0 && !named ? { message: first.message, details: `missing: ${missing.join(', ')}` } : { message: first.message };
  }
  return typeof input === 'string' ? { message: first.message, details: got(input) } : { message: first.message };
}
