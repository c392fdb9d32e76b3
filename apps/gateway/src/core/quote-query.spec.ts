import { keccak256, stringToHex } from 'viem';
import { ApiError } from '../http/api-error';
import { INVALID_AMOUNT_IN, INVALID_SLIPPAGE, isTruthyFlag, MISSING_QUOTE_PARAMS, normalizeRefCode, parseQuoteQuery } from './quote-query';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

function errorOf(fn: () => unknown): { status: number; body: any } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.getStatus(), body: err.getResponse() };
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('/core/quote query', () => {
  it('parses a batch into base-unit strings', () => {
    expect(parseQuoteQuery({ chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1, 002,3' })).toEqual({
      chainId: 999,
      tokenIn: A,
      tokenOut: B,
      amountsIn: ['1', '2', '3'],
      includeCalldata: false,
    });
  });

  it('includeCalldata truthiness', () => {
    expect(isTruthyFlag(undefined)).toBe(false);
    expect(['false', '0', ''].map(isTruthyFlag)).toEqual([false, false, false]);
    expect(['true', '1', 'no', 'False'].map(isTruthyFlag)).toEqual([true, true, true, true]);
  });

  it('refCode: 32-byte hex as is (lower-cased), anything else hashed', () => {
    expect(normalizeRefCode(`0x${'Ab'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(normalizeRefCode('ALPHA')).toBe(keccak256(stringToHex('ALPHA')));
    expect(normalizeRefCode('0x1234')).toBe(keccak256(stringToHex('0x1234')));
  });

  it('names the missing parameters in details', () => {
    const e = errorOf(() => parseQuoteQuery({ chainId: '999', tokenIn: A }));
    expect(e.status).toBe(400);
    expect(e.body).toEqual({ success: false, error: MISSING_QUOTE_PARAMS, details: 'missing: tokenOut, amountIn' });
  });

  it('validates slippageBps only with includeCalldata', () => {
    expect(errorOf(() => parseQuoteQuery({ chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', includeCalldata: '1', slippageBps: '10000' })).body.error).toBe(INVALID_SLIPPAGE);
    expect(parseQuoteQuery({ chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', slippageBps: 'x' })).not.toHaveProperty('slippageBps');
    expect(parseQuoteQuery({ chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', includeCalldata: '1', slippageBps: '0' }).slippageBps).toBe(0);
  });

  it('rejects more than 100 amounts, zero and non-integers', () => {
    const many = Array.from({ length: 101 }, () => '1').join(',');
    for (const amountIn of [many, '0', '1e18', ' ']) {
      expect(errorOf(() => parseQuoteQuery({ chainId: '999', tokenIn: A, tokenOut: B, amountIn })).body.error).toBe(INVALID_AMOUNT_IN);
    }
  });
});
