import { MAX_QUOTE_BATCH, type CoreQuoteRequest } from '@dex/messages';
import { keccak256, stringToHex } from 'viem';
import { ApiError } from '../http/api-error';
import { addressValue, param, requireChainId, type Query } from '../http/query';

export const MISSING_QUOTE_PARAMS = 'Missing required parameters: tokenIn, tokenOut, amountIn';
export const INVALID_SLIPPAGE = 'Invalid slippageBps: must be an integer in [0, 10000)';
export const INVALID_AMOUNT_IN = 'Invalid amountIn: must be a raw uint256 (base units) or comma-separated list';

const UINT256_MAX = 2n ** 256n - 1n;

/** `includeCalldata`: any value except `false`, `0` or empty is truthy; absent is falsy. */
export function isTruthyFlag(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  return v !== 'false' && v !== '0' && v !== '';
}

/** A 32-byte hex string is used as is (lower-cased); any other string is hashed with keccak256. */
export function normalizeRefCode(raw: string): `0x${string}` {
  return /^0x[0-9a-fA-F]{64}$/.test(raw) ? (raw.toLowerCase() as `0x${string}`) : keccak256(stringToHex(raw));
}

function parseAmounts(raw: string): string[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > MAX_QUOTE_BATCH) throw ApiError.badRequest(INVALID_AMOUNT_IN, `at most ${MAX_QUOTE_BATCH} amounts per request`);
  for (const p of parts) {
    if (!/^\d+$/.test(p)) throw ApiError.badRequest(INVALID_AMOUNT_IN, `not a base-unit integer: ${JSON.stringify(p)}`);
    const n = BigInt(p);
    if (n > UINT256_MAX) throw ApiError.badRequest(INVALID_AMOUNT_IN, `exceeds uint256: ${p}`);
    if (n === 0n) throw ApiError.badRequest(INVALID_AMOUNT_IN, 'amounts must be greater than zero');
  }
  return parts.map((p) => BigInt(p).toString());
}

/** Validates the /core/quote query into the bus request, with the specification's messages. */
export function parseQuoteQuery(query: Query): CoreQuoteRequest {
  const chainId = requireChainId(query);
  const tokenIn = param(query, 'tokenIn');
  const tokenOut = param(query, 'tokenOut');
  const amountIn = param(query, 'amountIn');
  const missing = [['tokenIn', tokenIn], ['tokenOut', tokenOut], ['amountIn', amountIn]].filter(([, v]) => v === undefined).map(([k]) => k);
  if (missing.length) throw ApiError.badRequest(MISSING_QUOTE_PARAMS, `missing: ${missing.join(', ')}`);
  const checkedIn = addressValue(tokenIn, 'tokenIn');
  const checkedOut = addressValue(tokenOut, 'tokenOut');
  const amountsIn = parseAmounts(amountIn!);

  const includeCalldata = isTruthyFlag(query.includeCalldata);
  const rawSlippage = query.slippageBps === undefined ? undefined : Array.isArray(query.slippageBps) ? query.slippageBps[query.slippageBps.length - 1] : query.slippageBps;
  let slippageBps: number | undefined;
  if (rawSlippage !== undefined) {
    const valid = /^\d+$/.test(rawSlippage) && Number(rawSlippage) < 10_000;
    if (valid) slippageBps = Number(rawSlippage);
    else if (includeCalldata) throw ApiError.badRequest(INVALID_SLIPPAGE, `got ${JSON.stringify(rawSlippage)}`);
  }
  const rawRef = param(query, 'refCode');
  return {
    chainId,
    tokenIn: checkedIn,
    tokenOut: checkedOut,
    amountsIn,
    includeCalldata,
    ...(slippageBps === undefined ? {} : { slippageBps }),
    ...(rawRef === undefined ? {} : { refCode: normalizeRefCode(rawRef) }),
  };
}
