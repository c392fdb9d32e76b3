import { isSupportedChainId, SUPPORTED_CHAIN_IDS } from '@dex/chain';
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
