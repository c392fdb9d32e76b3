import { keccak256, stringToHex, zeroAddress } from 'viem';
import { INVALID_SEARCH_CONTROL } from '../aggregator/tokens';
import {
  AMOUNT_ONE_OF,
  DEXES_EXCLUSIVE,
  INVALID_DEADLINE,
  INVALID_MAX_PRICE_IMPACT,
  INVALID_RECIPIENT,
  ENDPOINTS,
  INVALID_AMOUNT_IN,
  INVALID_FEE_BPS,
  INVALID_FEE_RECIPIENT,
  INVALID_QUOTE_SLIPPAGE,
  INVALID_SLIPPAGE,
  isTruthyFlag,
  MISSING_QUOTE_PARAMS,
  normalizeRefCode,
} from './endpoints';
import { buildOpenApiDocument } from './openapi';
import { parseEndpointInput } from './parse';

const USDC = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const USDT = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

type Name = keyof typeof ENDPOINTS;
const ok = (name: Name, query: Record<string, unknown>, path: Record<string, unknown> = {}) => {
  const r = parseEndpointInput(ENDPOINTS[name], query, path);
  if (!r.ok) throw new Error(`rejected: ${r.error.message}`);
  return r.value as any;
};
const seen: { name: Name; message: string }[] = [];
const rejected = (name: Name, query: Record<string, unknown>, path: Record<string, unknown> = {}) => {
  const r = parseEndpointInput(ENDPOINTS[name], query, path);
  if (r.ok) throw new Error('accepted');
  seen.push({ name, message: r.error.message });
  return r.error;
};

// Every message a rejection above answered with is in its endpoint's documented failures (`<...>` stands for a value).
afterAll(() => {
  const documented = (name: Name, message: string) =>
    ENDPOINTS[name].errors.some((e) => e.status === 400 && new RegExp(`^${e.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<\w+>/g, '.+')}$`).test(message));
  expect(seen.filter((s) => !documented(s.name, s.message))).toEqual([]);
});

describe('chainId', () => {
  it('is required, an integer and a supported chain', () => {
    expect(rejected('listDexes', {})).toEqual({ message: 'Missing required parameter: chainId' });
    expect(rejected('listDexes', { chainId: 'x' })).toEqual({ message: 'Invalid chainId: must be an integer', details: 'got "x"' });
    expect(rejected('listDexes', { chainId: '1' })).toEqual({ message: 'Unsupported chainId: 1', details: 'supported chains: 999, 4663' });
    expect(rejected('listDexes', { chainId: ['999', '999'] })).toEqual({ message: 'Invalid chainId: must be given once' });
    expect(ok('listDexes', { chainId: '4663' })).toEqual({ chainId: 4663 });
  });

  it('an empty value counts as absent', () => {
    expect(rejected('listDexes', { chainId: '' }).message).toBe('Missing required parameter: chainId');
  });
});

describe('/v2/route', () => {
  const base = { chainId: '999', tokenIn: USDC, tokenOut: USDT, amountIn: '1.5' };

  it('applies the defaults of the specification', () => {
    expect(ok('route', base)).toEqual({ chainId: 999, tokenIn: USDC, tokenOut: USDT, amountIn: '1.5', multiHop: false, slippageBps: 100, unwrapNative: false, feeBps: 0, gasAware: true, permit2: false });
  });

  it('checksums addresses and names the bad one', () => {
    expect(ok('route', { ...base, tokenIn: USDC.toLowerCase() }).tokenIn).toBe(USDC);
    expect(rejected('route', { ...base, tokenOut: '0x12' })).toEqual({ message: 'Invalid address: tokenOut', details: 'got "0x12"' });
    expect(rejected('route', { chainId: '999', tokenOut: USDT, amountIn: '1' })).toEqual({ message: 'Missing required parameter: tokenIn' });
  });

  it('exactly one of amountIn and amountOut', () => {
    expect(rejected('route', { ...base, amountOut: '2' })).toEqual({ message: AMOUNT_ONE_OF, details: 'both amountIn and amountOut were given' });
    expect(rejected('route', { chainId: '999', tokenIn: USDC, tokenOut: USDT }).message).toBe(AMOUNT_ONE_OF);
    expect(ok('route', { chainId: '999', tokenIn: USDC, tokenOut: USDT, amountOut: '.5' }).amountOut).toBe('.5');
  });

  it('rejects amounts that are not positive decimals', () => {
    for (const amountIn of ['0', '0.000', '-1', '1e5', 'abc', '1.2.3']) {
      expect(rejected('route', { ...base, amountIn }).message).toBe('Invalid amountIn: must be a positive decimal number');
    }
  });

  it('feeBps in [0, 100], feeRecipient required above 0', () => {
    expect(rejected('route', { ...base, feeBps: '101', feeRecipient: USDC }).message).toBe(INVALID_FEE_BPS);
    expect(rejected('route', { ...base, feeBps: '5' }).message).toBe('Missing required parameter: feeRecipient');
    expect(ok('route', { ...base, feeBps: '100', feeRecipient: USDC.toLowerCase() })).toMatchObject({ feeBps: 100, feeRecipient: USDC });
  });

  it('refuses the zero address as the recipient of a fee (RouterV2 reverts FeeRecipientRequired)', () => {
    expect(rejected('route', { ...base, feeBps: '5', feeRecipient: zeroAddress })).toEqual({ message: INVALID_FEE_RECIPIENT, details: 'the zero address cannot receive a fee (feeBps > 0)' });
    // Without a fee the zero address stands for no recipient, which RouterV2 accepts.
    expect(ok('route', { ...base, feeBps: '0', feeRecipient: zeroAddress })).toMatchObject({ feeBps: 0, feeRecipient: zeroAddress });
  });

  it('slippage is a percent in (0, 50) with at most two decimals, in bps', () => {
    expect(ok('route', { ...base, slippage: '0.1' }).slippageBps).toBe(10);
    expect(ok('route', { ...base, slippage: '49.99' }).slippageBps).toBe(4999);
    for (const slippage of ['0', '50', '-1', '0.001', 'x']) expect(rejected('route', { ...base, slippage }).message).toBe(INVALID_SLIPPAGE);
  });

  it('booleans accept true/false/1/0 only', () => {
    expect(ok('route', { ...base, multiHop: '1', unwrapNative: 'true' })).toMatchObject({ multiHop: true, unwrapNative: true });
    expect(ok('route', { ...base, gasAware: 'false' })).toMatchObject({ gasAware: false });
    expect(rejected('route', { ...base, multiHop: 'yes' })).toEqual({ message: 'Invalid multiHop: must be true or false', details: 'got "yes"' });
  });

  it('permit2: needs the sender, who signs and, without a recipient, receives the output', () => {
    expect(ok('route', { ...base, permit2: 'true', sender: B })).toMatchObject({ permit2: true, sender: B, recipient: B });
    expect(ok('route', { ...base, permit2: '1', sender: B, recipient: A })).toMatchObject({ permit2: true, sender: B, recipient: A });
    expect(rejected('route', { ...base, permit2: 'true' })).toEqual({ message: 'Missing required parameter: sender', details: 'permit2 needs the sender, who signs the route' });
    expect(rejected('route', { ...base, permit2: 'yes', sender: B })).toEqual({ message: 'Invalid permit2: must be true or false', details: 'got "yes"' });
  });

  it('recipient and deadline: a wallet, unix seconds; a deadline needs a recipient or else takes the sender', () => {
    expect(ok('route', { ...base, recipient: A.toLowerCase(), deadline: '1900000000' })).toMatchObject({ recipient: A, deadline: '1900000000' });
    expect(ok('route', { ...base, recipient: A })).toMatchObject({ recipient: A });
    expect(ok('route', { ...base, recipient: A }).deadline).toBeUndefined();
    expect(ok('route', { ...base, deadline: '0001900000000', sender: B })).toMatchObject({ recipient: B, sender: B, deadline: '1900000000' });
    expect(ok('route', { ...base, sender: B }).recipient).toBeUndefined();
    expect(rejected('route', { ...base, deadline: '1900000000' })).toEqual({ message: 'Missing required parameter: recipient', details: 'a deadline needs a recipient (or a sender, who then receives the output)' });
    expect(rejected('route', { ...base, recipient: zeroAddress })).toEqual({ message: INVALID_RECIPIENT, details: 'RouterV2 reverts InvalidRecipient for the zero address' });
    expect(rejected('route', { ...base, recipient: '0x12' }).message).toBe('Invalid address: recipient');
    for (const deadline of ['-1', '1.5', 'soon', '1e9', (2n ** 256n).toString(), '9'.repeat(100)]) {
      expect(rejected('route', { ...base, recipient: A, deadline }).message).toBe(INVALID_DEADLINE);
    }
    expect(ok('route', { ...base, recipient: A, deadline: (2n ** 256n - 1n).toString() }).deadline).toBe((2n ** 256n - 1n).toString());
  });

  it('maxPriceImpact is a percent in [0, 100]; sender an address', () => {
    expect(ok('route', { ...base, maxPriceImpact: '2.5' }).maxPriceImpact).toBe(2.5);
    expect(ok('route', { ...base, maxPriceImpact: '0' }).maxPriceImpact).toBe(0);
    expect(ok('route', { ...base, maxPriceImpact: '100' }).maxPriceImpact).toBe(100);
    for (const maxPriceImpact of ['-1', '100.01', '1e2', 'NaN', 'Infinity', '50%', '1000']) {
      expect(rejected('route', { ...base, maxPriceImpact }).message).toBe(INVALID_MAX_PRICE_IMPACT);
    }
    expect(ok('route', { ...base, sender: B.toLowerCase() }).sender).toBe(B);
    expect(rejected('route', { ...base, sender: 'me' }).message).toBe('Invalid address: sender');
  });

  it('includeDexes overrides excludeDexes; lists are routerIndex values', () => {
    const r = ok('route', { ...base, includeDexes: '1,2,2', excludeDexes: '2' });
    expect(r.includeDexes).toEqual([1, 2]);
    expect(r.excludeDexes).toBeUndefined();
    expect(rejected('route', { ...base, excludeDexes: '1,300' }).message).toBe('Invalid excludeDexes: must be comma-separated routerIndex values');
  });
});

describe('/pools, /tokens, /tokens/balances', () => {
  it('include and exclude together is a 400 on /pools', () => {
    expect(rejected('findPools', { chainId: '999', tokenA: USDC, tokenB: USDT, includeDexes: '1', excludeDexes: '2' }).message).toBe(DEXES_EXCLUSIVE);
  });

  it('wallet and tokens are addresses', () => {
    expect(rejected('tokenBalances', { chainId: '999' }).message).toBe('Missing required parameter: wallet');
    expect(rejected('tokenBalances', { chainId: '999', wallet: USDC, tokens: `${USDT},x` })).toEqual({ message: 'Invalid address: tokens', details: 'got "x"' });
    expect(ok('tokenBalances', { chainId: '999', wallet: USDC, tokens: USDT })).toEqual({ chainId: 999, wallet: USDC, tokens: [USDT] });
  });

  it('token list paging, search and metadata', () => {
    expect(ok('listTokens', { chainId: '999' })).toEqual({ chainId: 999, offset: 0, metadata: true });
    expect(ok('listTokens', { chainId: '999', limit: '5', offset: '10', metadata: 'false', search: 'us' })).toEqual({ chainId: 999, offset: 10, limit: 5, metadata: false, search: 'us' });
    expect(rejected('listTokens', { chainId: '999', limit: '0' }).message).toBe('Invalid limit: must be an integer in [1, 1000]');
    expect(rejected('listTokens', { chainId: '999', search: 'x'.repeat(101) }).message).toBe('Invalid search: at most 100 characters');
    expect(rejected('listTokens', { chainId: '999', metadata: 'no' }).message).toBe('Invalid metadata: must be true or false');
  });

  it('search must not contain control characters (Postgres refuses NUL)', () => {
    for (const search of ['\u0000', 'us\u0000d', 'a\nb', '\t', '\u001f', '\u007f']) {
      expect(rejected('listTokens', { chainId: '999', search })).toEqual({ message: INVALID_SEARCH_CONTROL, details: `got ${JSON.stringify(search)}` });
    }
    expect(ok('listTokens', { chainId: '999', search: 'usd coin é\u0080' }).search).toBe('usd coin é\u0080');
  });
});

describe('/core/quote', () => {
  it('parses a batch into base-unit strings', () => {
    expect(ok('coreQuote', { chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1, 002,3' })).toEqual({ chainId: 999, tokenIn: A, tokenOut: B, amountsIn: ['1', '2', '3'], includeCalldata: false });
  });

  it('includeCalldata truthiness, the last value wins', () => {
    expect(isTruthyFlag(undefined)).toBe(false);
    expect(['false', '0', ''].map(isTruthyFlag)).toEqual([false, false, false]);
    expect(['true', '1', 'no', 'False'].map(isTruthyFlag)).toEqual([true, true, true, true]);
    expect(ok('coreQuote', { chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', includeCalldata: ['0', 'yes'] }).includeCalldata).toBe(true);
  });

  it('refCode: 32-byte hex as is (lower-cased), anything else hashed', () => {
    expect(normalizeRefCode(`0x${'Ab'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(normalizeRefCode('ALPHA')).toBe(keccak256(stringToHex('ALPHA')));
    expect(ok('coreQuote', { chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', refCode: 'ALPHA' }).refCode).toBe(keccak256(stringToHex('ALPHA')));
  });

  it('refCode given twice is a 400, not a raw zod message', () => {
    expect(rejected('coreQuote', { chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1', refCode: ['a', 'b'] })).toEqual({ message: 'Invalid refCode: must be given once' });
  });

  it('names the missing parameters in details', () => {
    expect(rejected('coreQuote', { chainId: '999', tokenIn: A })).toEqual({ message: MISSING_QUOTE_PARAMS, details: 'missing: tokenOut, amountIn' });
    expect(rejected('coreQuote', { chainId: '999', tokenIn: 'x', tokenOut: B, amountIn: '1' }).message).toBe('Invalid address: tokenIn');
  });

  it('a missing chainId is one of the missing required parameters of the specification', () => {
    expect(rejected('coreQuote', { tokenIn: A, tokenOut: B, amountIn: '1' })).toEqual({ message: MISSING_QUOTE_PARAMS, details: 'missing: chainId' });
    expect(rejected('coreQuote', { tokenOut: B })).toEqual({ message: MISSING_QUOTE_PARAMS, details: 'missing: chainId, tokenIn, amountIn' });
    expect(rejected('coreQuote', { chainId: 'x', tokenIn: A, tokenOut: B, amountIn: '1' }).message).toBe('Invalid chainId: must be an integer');
    expect(ENDPOINTS.coreQuote.errors.map((e) => e.message)).not.toContain('Missing required parameter: chainId');
  });

  it('validates slippageBps only with includeCalldata', () => {
    const q = { chainId: '999', tokenIn: A, tokenOut: B, amountIn: '1' };
    expect(rejected('coreQuote', { ...q, includeCalldata: '1', slippageBps: '10000' }).message).toBe(INVALID_QUOTE_SLIPPAGE);
    expect(ok('coreQuote', { ...q, slippageBps: 'x' })).not.toHaveProperty('slippageBps');
    expect(ok('coreQuote', { ...q, includeCalldata: '1', slippageBps: '0' }).slippageBps).toBe(0);
  });

  it('rejects more than 100 amounts, zero, overflow and non-integers', () => {
    const many = Array.from({ length: 101 }, () => '1').join(',');
    for (const amountIn of [many, '0', '1e18', ' ', (2n ** 256n).toString()]) {
      expect(rejected('coreQuote', { chainId: '999', tokenIn: A, tokenOut: B, amountIn }).message).toBe(INVALID_AMOUNT_IN);
    }
  });
});

describe('path parameters and the launchpad', () => {
  it('take the path value, checksummed', () => {
    expect(ok('corePool', { chainId: '999' }, { address: A })).toEqual({ chainId: 999, pool: A });
    expect(rejected('corePool', { chainId: '999' }, { address: 'nope' })).toEqual({ message: 'Invalid address: address', details: 'got "nope"' });
    expect(ok('launchpadTrades', { chainId: '999', limit: '3' }, { address: A })).toEqual({ chainId: 999, token: A, limit: 3 });
  });

  it('estimate: side and amount', () => {
    const q = { chainId: '999', token: A };
    expect(ok('launchpadEstimate', { ...q, side: 'buy', amount: '5' })).toEqual({ chainId: 999, token: A, side: 'buy', amount: '5' });
    expect(rejected('launchpadEstimate', { ...q, side: 'hold', amount: '5' }).message).toBe('Invalid side: must be buy or sell');
    expect(rejected('launchpadEstimate', { ...q, side: 'sell' }).message).toBe('Invalid amount: must be a positive base-unit integer');
    expect(rejected('launchpadEstimate', { ...q, side: 'sell', amount: '0' }).message).toBe('Invalid amount: must be a positive base-unit integer');
  });

  it('launchpad list defaults', () => {
    expect(ok('launchpadTokens', { chainId: '4663' })).toEqual({ chainId: 4663, offset: 0, limit: 50 });
    expect(rejected('launchpadTokens', { chainId: '4663', limit: '101' }).message).toBe('Invalid limit: must be an integer in [1, 100]');
  });
});

describe('every parameter of every endpoint', () => {
  /** A value each query parameter accepts. */
  const SAMPLES: Record<string, string> = {
    chainId: '999', tokenIn: USDC, tokenOut: USDT, tokenA: USDC, tokenB: USDT, wallet: A, tokens: B, token: A, amountIn: '1', amountOut: '1',
    multiHop: 'true', slippage: '1', unwrapNative: 'false', gasAware: 'true', permit2: 'false', excludeDexes: '1', includeDexes: '2', feeBps: '0', feeRecipient: B, search: 'us',
    limit: '1', offset: '0', metadata: 'true', includeCalldata: '1', slippageBps: '100', refCode: 'ALPHA', side: 'buy', amount: '1',
    recipient: A, deadline: '1900000000', maxPriceImpact: '5', sender: B,
  };
  const doc = buildOpenApiDocument({ version: '1' }) as any;

  it('given twice answers `Invalid <name>: must be given once` (or the last value wins), never a raw zod message', () => {
    let checked = 0;
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as [Name, (typeof ENDPOINTS)[Name]][]) {
      const parameters: { name: string; in: string; required: boolean }[] = doc.paths[endpoint.path].get.parameters;
      const path = Object.fromEntries(endpoint.pathParams.map((p) => [p, A]));
      const required = Object.fromEntries(parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, SAMPLES[p.name]]));
      for (const param of parameters.filter((p) => p.in === 'query')) {
        expect([name, param.name, SAMPLES[param.name]]).toEqual([name, param.name, expect.any(String)]);
        const query = { ...required, [param.name]: [SAMPLES[param.name], SAMPLES[param.name]] };
        // Whatever the first failure is, no issue of the schema is zod's own wording.
        const raw = endpoint.input.safeParse(query);
        expect([name, param.name, raw.success ? [] : raw.error.issues.map((i) => i.message).filter((m) => m.startsWith('Invalid input'))]).toEqual([name, param.name, []]);
        const lastWins = (endpoint as { lastValueWins?: readonly string[] }).lastValueWins?.includes(param.name) ?? false;
        if (lastWins) expect(parseEndpointInput(endpoint, query, path).ok).toBe(true);
        else expect([name, param.name, rejected(name, query, path)]).toEqual([name, param.name, { message: `Invalid ${param.name}: must be given once` }]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument({ version: '1.2.3' }) as any;

  it('lists every endpoint with its parameters as the schemas validate them', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const e of Object.values(ENDPOINTS)) expect(doc.paths[e.path]?.get?.operationId).toBe(e.operationId);
    const route = doc.paths['/v2/route'].get;
    const names = route.parameters.map((p: any) => p.name);
    expect(names).toEqual(['chainId', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut', 'multiHop', 'slippage', 'unwrapNative', 'excludeDexes', 'includeDexes', 'feeBps', 'feeRecipient', 'recipient', 'deadline', 'maxPriceImpact', 'sender', 'gasAware', 'permit2', 'x-request-id']);
    expect(route.parameters.at(-1).in).toBe('header');
    const byName = Object.fromEntries(route.parameters.map((p: any) => [p.name, p]));
    expect(byName.chainId).toMatchObject({ in: 'query', required: true, schema: { type: 'string', enum: ['999', '4663'] } });
    expect(byName.tokenIn).toMatchObject({ required: true, schema: { pattern: '^0x[0-9a-fA-F]{40}$' } });
    expect(byName.amountIn.required).toBe(false);
    expect(byName.slippage.schema.default).toBe('1.0');
    expect(route.responses['404'].content['application/json'].examples.e1.value).toEqual({ success: false, error: 'No route found' });
  });

  it('marks path parameters and describes success bodies', () => {
    const pool = doc.paths['/core/pool/{address}'].get;
    expect(pool.parameters.find((p: any) => p.name === 'address')).toMatchObject({ in: 'path', required: true });
    const body = pool.responses['200'].content['application/json'].schema;
    expect(body.required).toEqual(['success', 'data']);
    expect(doc.paths['/core/pools'].get.responses['200'].content['application/json'].schema.required).toEqual(['success', 'data', 'totalTVL', 'totals24h']);
    expect(doc.paths['/core/quote'].get.responses['400'].description).toContain(MISSING_QUOTE_PARAMS);
  });

  it('documents the transfer behaviour of tokens in routes and /tokens, and the 422 for tokens that cannot be transferred', () => {
    const json = JSON.stringify(doc.paths['/v2/route'].get.responses['200']);
    expect(json).toContain('transferFeeBps');
    expect(doc.paths['/v2/route'].get.responses['422'].description).toContain('Token transfers fail: <symbol> (<address>)');
    const tokens = JSON.stringify(doc.paths['/tokens'].get.responses['200']);
    expect(tokens).toContain('transferFeeBps');
    expect(tokens).toContain('transferFailure');
  });

  it('gives the default a parameter has in effect', () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
    expect(param('/tokens', 'offset').default).toBe('0');
    expect(ok('listTokens', { chainId: '999' }).offset).toBe(0);
    expect(param('/launchpad/tokens', 'offset').default).toBe('0');
    expect(param('/launchpad/tokens', 'limit').default).toBe('50');
    expect(param('/launchpad/tokens/{address}/trades', 'limit').default).toBe('50');
    expect(ok('launchpadTrades', { chainId: '999' }, { address: A }).limit).toBe(50);
    // /tokens has no limit unless one is given.
    expect(param('/tokens', 'limit')).not.toHaveProperty('default');
    expect(ok('listTokens', { chainId: '999' })).not.toHaveProperty('limit');
  });
});
