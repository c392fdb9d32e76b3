import { errorEnvelopeSchema, type Endpoint } from '@dex/messages';
import { z } from 'zod';
import { isRecord } from './body';
import type { SchemaIssue } from './errors';

/** How strictly bodies are checked: off, against the schema, or against the schema with no undocumented field. */
export type Validation = false | true | 'strict';

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? String(key) : `${out}.${String(key)}`), '');
}

/**
 * Fields of `raw` the schema does not know: zod objects drop unknown keys from their output, so a key of the
 * received body missing from the parsed one is undocumented (loose objects, like the health checks, keep theirs).
 */
function undocumented(raw: unknown, parsed: unknown, path: PropertyKey[]): SchemaIssue[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => undocumented(item, parsed[i], [...path, i]));
  if (isRecord(raw) && isRecord(parsed)) {
    return Object.keys(raw).flatMap((key) =>
      key in parsed ? undocumented(raw[key], parsed[key], [...path, key]) : [{ path: formatPath([...path, key]), message: 'undocumented field' }],
    );
  }
  return [];
}

/** The issues of `body` against `schema`; none when it matches. */
export function checkBody(schema: z.ZodType, body: unknown, validation: Validation): SchemaIssue[] {
  if (validation === false) return [];
  const result = schema.safeParse(body);
  if (!result.success) return result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return validation === 'strict' ? undocumented(body, result.data, []) : [];
}

const failureReports = new WeakMap<Endpoint, z.ZodType>();

/**
 * The documented shape of a failure body: the error envelope `{success: false, error, details?}`, or, for a body
 * without `error` (the 503 of /health and /health/ready), the endpoint's own body with `success: false`.
 */
export function failureSchema(endpoint: Endpoint, body: unknown): z.ZodType {
  if (isRecord(body) && 'error' in body) return errorEnvelopeSchema;
  if (!(endpoint.body instanceof z.ZodObject)) return errorEnvelopeSchema;
  let schema = failureReports.get(endpoint);
  if (schema === undefined) {
    schema = endpoint.body.extend({ success: z.literal(false) });
    failureReports.set(endpoint, schema);
  }
  return schema;
}
