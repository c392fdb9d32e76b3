import { isAddress } from 'viem/utils';
import { z } from 'zod';
import { CHAIN_IDS, checksummed, type ChainId } from '../primitives';

/**
 * Query and path parameters of the REST API as zod schemas. The gateway validates every request with these
 * schemas and the OpenAPI document is generated from them, so the documented pattern, range and default of a
 * parameter are the ones enforced. Each failure carries the API's error message; `params.details` (when set)
 * becomes the response's `details`.
 */

/** Adds an issue with the API's message (and optional details); a transform ends with `return fail(...)`. */
export function fail(ctx: z.RefinementCtx, message: string, details?: string): never {
  ctx.addIssue({ code: 'custom', message, ...(details === undefined ? {} : { params: { details } }) });
  return z.NEVER;
}

/** `got "<raw>"`: the details of a rejected value. */
export const got = (raw: unknown): string => `got ${JSON.stringify(raw)}`;

/** A query parameter's raw string; missing → `<missing>`, given twice → `Invalid <name>: must be given once`. */
export function rawParam(name: string, missing = `Missing required parameter: ${name}`) {
  return z.string({ error: (issue) => (issue.input === undefined ? missing : `Invalid ${name}: must be given once`) });
}

/** `chainId`: required (`missing` when absent), an integer, one of the supported chains. */
export function chainIdField(missing?: string) {
  return rawParam('chainId', missing)
    .regex(/^\d+$/, { error: 'Invalid chainId: must be an integer' })
    .transform((raw, ctx): ChainId => {
      const chainId = Number(raw);
      if (!(CHAIN_IDS as readonly number[]).includes(chainId)) return fail(ctx, `Unsupported chainId: ${raw}`, `supported chains: ${CHAIN_IDS.join(', ')}`);
      return chainId as ChainId;
    })
    .meta({ description: `Chain id: ${CHAIN_IDS.join(' or ')}`, enum: CHAIN_IDS.map(String), examples: ['999'] });
}

/** `chainId`, answering `Missing required parameter: chainId` when absent. */
export const chainIdParam = chainIdField();

const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

/** An address (query or path), checksummed; `Invalid address: <name>`. */
export function addressParam(name: string, description: string, missing?: string) {
  return rawParam(name, missing)
    .refine((value) => isAddress(value, { strict: false }), { error: `Invalid address: ${name}` })
    .transform((value) => checksummed(value))
    .meta({ description, pattern: ADDRESS_PATTERN, examples: ['0x0000000000000000000000000000000000000000'] });
}

/**
 * An optional integer in [min, max]; `Invalid <name>: must be an integer in [min, max]`. With a `fallback`,
 * an absent value is the fallback (documented as the parameter's default).
 */
export function integerParam<F extends number | undefined = undefined>(name: string, min: number, max: number, description: string, fallback?: F) {
  const message = `Invalid ${name}: must be an integer in [${min}, ${max}]`;
  return rawParam(name)
    .regex(/^\d+$/, { error: message })
    .refine((raw) => Number(raw) >= min && Number(raw) <= max, { error: message })
    .transform(Number)
    .optional()
    .transform((value): number | F => value ?? (fallback as F))
    .meta({ description: `${description} (an integer in [${min}, ${max}])`, pattern: '^\\d+$', ...(fallback === undefined ? {} : { default: String(fallback) }) });
}

/** An optional `true`/`false` flag (also `1`/`0`) with its default. */
export function booleanParam(name: string, fallback: boolean, description: string) {
  return rawParam(name)
    .refine((raw) => ['true', 'false', '1', '0'].includes(raw), { error: `Invalid ${name}: must be true or false` })
    .transform((raw) => raw === 'true' || raw === '1')
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ description, enum: ['true', 'false', '1', '0'], default: String(fallback) });
}

/** Comma-separated routerIndex values (integers 0–255), deduplicated. */
export function dexListParam(name: string, description: string) {
  return rawParam(name)
    .transform((raw, ctx) => {
      const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
      if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p) || Number(p) > 255)) {
        return fail(ctx, `Invalid ${name}: must be comma-separated routerIndex values`, got(raw));
      }
      return [...new Set(parts.map(Number))];
    })
    .optional()
    .meta({ description, pattern: '^\\s*\\d{1,3}\\s*(,\\s*\\d{1,3}\\s*)*$', examples: ['0,2'] });
}

/** A comma-separated list of addresses, checksummed. */
export function addressListParam(name: string, description: string) {
  return rawParam(name)
    .transform((raw, ctx) => {
      const list = raw.split(',').map((t) => t.trim()).filter((t) => t !== '');
      const bad = list.find((t) => !isAddress(t, { strict: false }));
      if (bad !== undefined || list.length === 0) return fail(ctx, `Invalid address: ${name}`, got(bad ?? raw));
      return list.map((t) => checksummed(t));
    })
    .optional()
    .meta({ description });
}
