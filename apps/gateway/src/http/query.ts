import { isSupportedChainId, SUPPORTED_CHAIN_IDS } from '@dex/chain';
import { getAddress, isAddress } from 'viem';
import { ApiError } from './api-error';

export type Query = Record<string, string | string[] | undefined>;

/** The single value of a query parameter; a repeated parameter is a 400. */
export function param(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw ApiError.badRequest(`Invalid ${name}: must be given once`);
  return value === undefined || value === '' ? undefined : value;
}

/** `chainId`: required, an integer, one of the supported chains. */
export function requireChainId(query: Query): number {
  const raw = param(query, 'chainId');
  if (raw === undefined) throw ApiError.badRequest('Missing required parameter: chainId');
  if (!/^\d+$/.test(raw)) throw ApiError.badRequest('Invalid chainId: must be an integer', `got ${JSON.stringify(raw)}`);
  const chainId = Number(raw);
  if (!isSupportedChainId(chainId)) {
    throw ApiError.badRequest(`Unsupported chainId: ${raw}`, `supported chains: ${SUPPORTED_CHAIN_IDS.join(', ')}`);
  }
  return chainId;
}

/** An address parameter's value (query or path): `Missing required parameter: <name>` / `Invalid address: <name>`. */
export function addressValue(value: string | undefined, name: string): `0x${string}` {
  if (value === undefined) throw ApiError.badRequest(`Missing required parameter: ${name}`);
  if (!isAddress(value, { strict: false })) throw ApiError.badRequest(`Invalid address: ${name}`, `got ${JSON.stringify(value)}`);
  return getAddress(value);
}

/** A required address query parameter, checksummed. */
export function requireAddress(query: Query, name: string): `0x${string}` {
  return addressValue(param(query, name), name);
}

/** An optional integer query parameter in [min, max]; undefined when absent. */
export function integerParam(query: Query, name: string, min: number, max: number): number | undefined {
  const raw = param(query, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw ApiError.badRequest(`Invalid ${name}: must be an integer in [${min}, ${max}]`, `got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
