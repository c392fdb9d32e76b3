import type { RouteRequest } from '@dex/messages';
import { getAddress, isAddress } from 'viem';
import { ApiError } from '../http/api-error';
import { param, requireAddress, requireChainId, type Query } from '../http/query';

export const AMOUNT_ONE_OF = 'Provide exactly one of amountIn and amountOut';
export const INVALID_FEE_BPS = 'Invalid feeBps: must be an integer in [0, 100]';
export const INVALID_SLIPPAGE = 'Invalid slippage: must be a percent greater than 0 and below 50, with at most two decimals';
export const DEXES_EXCLUSIVE = 'excludeDexes and includeDexes cannot be used together';

/** `true`/`false` (also `1`/`0`); absent is the default. */
export function booleanParam(query: Query, name: string, fallback: boolean): boolean {
  const raw = param(query, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw ApiError.badRequest(`Invalid ${name}: must be true or false`, `got ${JSON.stringify(raw)}`);
}

/** Comma-separated routerIndex values (integers 0-255). */
export function dexListParam(query: Query, name: string): number[] | undefined {
  const raw = param(query, name);
  if (raw === undefined) return undefined;
  const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p) || Number(p) > 255)) {
    throw ApiError.badRequest(`Invalid ${name}: must be comma-separated routerIndex values`, `got ${JSON.stringify(raw)}`);
  }
  return [...new Set(parts.map(Number))];
}

function amountParam(query: Query, name: string): string | undefined {
  const raw = param(query, name);
  if (raw === undefined) return undefined;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw) || !/[1-9]/.test(raw)) {
    throw ApiError.badRequest(`Invalid ${name}: must be a positive decimal number`, `got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** `slippage` in percent, 0 < slippage < 50, at most two decimals; default 1.0. Returned in basis points. */
export function slippageBpsParam(query: Query): number {
  const raw = param(query, 'slippage');
  if (raw === undefined) return 100;
  if (!/^(\d+(\.\d{0,2})?|\.\d{1,2})$/.test(raw)) throw ApiError.badRequest(INVALID_SLIPPAGE, `got ${JSON.stringify(raw)}`);
  const bps = Math.round(Number(raw) * 100);
  if (!(bps > 0 && bps < 5_000)) throw ApiError.badRequest(INVALID_SLIPPAGE, `got ${JSON.stringify(raw)}`);
  return bps;
}

/** Validates the /v2/route query into the bus request. */
export function parseRouteQuery(query: Query): RouteRequest {
  const chainId = requireChainId(query);
  const tokenIn = requireAddress(query, 'tokenIn');
  const tokenOut = requireAddress(query, 'tokenOut');
  const amountIn = amountParam(query, 'amountIn');
  const amountOut = amountParam(query, 'amountOut');
  if ((amountIn === undefined) === (amountOut === undefined)) {
    throw ApiError.badRequest(AMOUNT_ONE_OF, amountIn === undefined ? 'neither amountIn nor amountOut was given' : 'both amountIn and amountOut were given');
  }
  const rawFee = param(query, 'feeBps');
  if (rawFee !== undefined && (!/^\d+$/.test(rawFee) || Number(rawFee) > 100)) throw ApiError.badRequest(INVALID_FEE_BPS, `got ${JSON.stringify(rawFee)}`);
  const feeBps = rawFee === undefined ? 0 : Number(rawFee);
  const rawRecipient = param(query, 'feeRecipient');
  if (rawRecipient !== undefined && !isAddress(rawRecipient, { strict: false })) {
    throw ApiError.badRequest('Invalid address: feeRecipient', `got ${JSON.stringify(rawRecipient)}`);
  }
  if (feeBps > 0 && rawRecipient === undefined) throw ApiError.badRequest('Missing required parameter: feeRecipient', 'feeRecipient is required when feeBps > 0');
  const includeDexes = dexListParam(query, 'includeDexes');
  const excludeDexes = dexListParam(query, 'excludeDexes');
  return {
    chainId,
    tokenIn,
    tokenOut,
    ...(amountIn !== undefined ? { amountIn } : { amountOut }),
    multiHop: booleanParam(query, 'multiHop', false),
    slippageBps: slippageBpsParam(query),
    unwrapNative: booleanParam(query, 'unwrapNative', false),
    // includeDexes overrides excludeDexes on /v2/route.
    ...(includeDexes ? { includeDexes } : excludeDexes ? { excludeDexes } : {}),
    feeBps,
    ...(rawRecipient !== undefined ? { feeRecipient: getAddress(rawRecipient) } : {}),
  };
}

/** Validates the /pools query: include and exclude together is a 400. */
export function parsePoolsQuery(query: Query) {
  const chainId = requireChainId(query);
  const tokenA = requireAddress(query, 'tokenA');
  const tokenB = requireAddress(query, 'tokenB');
  const includeDexes = dexListParam(query, 'includeDexes');
  const excludeDexes = dexListParam(query, 'excludeDexes');
  if (includeDexes && excludeDexes) throw ApiError.badRequest(DEXES_EXCLUSIVE, 'give includeDexes or excludeDexes, not both');
  return { chainId, tokenA, tokenB, ...(includeDexes ? { includeDexes } : {}), ...(excludeDexes ? { excludeDexes } : {}) };
}

/** Validates the /tokens/balances query. */
export function parseBalancesQuery(query: Query) {
  const chainId = requireChainId(query);
  const wallet = requireAddress(query, 'wallet');
  const raw = param(query, 'tokens');
  let tokens: string[] | undefined;
  if (raw !== undefined) {
    tokens = raw.split(',').map((t) => t.trim()).filter((t) => t !== '');
    const bad = tokens.find((t) => !isAddress(t, { strict: false }));
    if (bad !== undefined || tokens.length === 0) throw ApiError.badRequest('Invalid address: tokens', `got ${JSON.stringify(bad ?? raw)}`);
    tokens = tokens.map((t) => getAddress(t));
  }
  return { chainId, wallet, ...(tokens ? { tokens } : {}) };
}
