import { AMOUNT_ONE_OF, DEXES_EXCLUSIVE, INVALID_FEE_BPS, INVALID_SLIPPAGE, parseBalancesQuery, parsePoolsQuery, parseRouteQuery, slippageBpsParam } from './route-query';

const USDC = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const USDT = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const base = { chainId: '999', tokenIn: USDC, tokenOut: USDT, amountIn: '1.5' };

function errorOf(f: () => unknown): { status: number; body: any } {
  try {
    f();
  } catch (err: any) {
    return { status: err.getStatus(), body: err.getResponse() };
  }
  throw new Error('did not throw');
}

describe('parseRouteQuery', () => {
  it('applies the defaults of the specification', () => {
    expect(parseRouteQuery(base)).toEqual({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1.5', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps: 0 });
  });

  it('exactly one of amountIn and amountOut', () => {
    expect(errorOf(() => parseRouteQuery({ ...base, amountOut: '2' })).body.error).toBe(AMOUNT_ONE_OF);
    expect(errorOf(() => parseRouteQuery({ chainId: '999', tokenIn: USDC, tokenOut: USDT })).body.error).toBe(AMOUNT_ONE_OF);
    expect(parseRouteQuery({ chainId: '999', tokenIn: USDC, tokenOut: USDT, amountOut: '.5' }).amountOut).toBe('.5');
  });

  it('rejects amounts that are not positive decimals', () => {
    for (const amountIn of ['0', '0.000', '-1', '1e5', 'abc', '1.2.3']) {
      expect(errorOf(() => parseRouteQuery({ ...base, amountIn })).body.error).toBe('Invalid amountIn: must be a positive decimal number');
    }
  });

  it('feeBps in [0, 100], feeRecipient required above 0', () => {
    expect(errorOf(() => parseRouteQuery({ ...base, feeBps: '101', feeRecipient: USDC })).body.error).toBe(INVALID_FEE_BPS);
    expect(errorOf(() => parseRouteQuery({ ...base, feeBps: '5' })).body.error).toBe('Missing required parameter: feeRecipient');
    expect(parseRouteQuery({ ...base, feeBps: '100', feeRecipient: USDC.toLowerCase() })).toMatchObject({ feeBps: 100, feeRecipient: USDC });
  });

  it('includeDexes overrides excludeDexes', () => {
    const r = parseRouteQuery({ ...base, includeDexes: '1,2', excludeDexes: '2' });
    expect(r.includeDexes).toEqual([1, 2]);
    expect(r.excludeDexes).toBeUndefined();
  });
});

describe('slippage', () => {
  it('is a percent in (0, 50) with at most two decimals, in bps', () => {
    expect(slippageBpsParam({})).toBe(100);
    expect(slippageBpsParam({ slippage: '0.1' })).toBe(10);
    expect(slippageBpsParam({ slippage: '49.99' })).toBe(4999);
    for (const slippage of ['0', '50', '-1', '0.001', 'x']) expect(errorOf(() => slippageBpsParam({ slippage })).body.error).toBe(INVALID_SLIPPAGE);
  });
});

describe('parsePoolsQuery / parseBalancesQuery', () => {
  it('include and exclude together is a 400', () => {
    const e = errorOf(() => parsePoolsQuery({ chainId: '999', tokenA: USDC, tokenB: USDT, includeDexes: '1', excludeDexes: '2' }));
    expect(e).toEqual({ status: 400, body: expect.objectContaining({ success: false, error: DEXES_EXCLUSIVE }) });
  });

  it('wallet and tokens are addresses', () => {
    expect(errorOf(() => parseBalancesQuery({ chainId: '999' })).body.error).toBe('Missing required parameter: wallet');
    expect(errorOf(() => parseBalancesQuery({ chainId: '999', wallet: USDC, tokens: `${USDT},x` })).body.error).toBe('Invalid address: tokens');
    expect(parseBalancesQuery({ chainId: '999', wallet: USDC, tokens: USDT })).toEqual({ chainId: 999, wallet: USDC, tokens: [USDT] });
  });
});
