import { keccak256, stringToHex } from 'viem/utils';
import { z } from 'zod';
import { gatewayHealthReportSchema, healthReportSchema, type MessageContract } from '../contract';
import { listDexesContract } from '../aggregator/dexes';
import { balancesContract, poolsContract, routeContract, type RouteRequest } from '../aggregator/route';
import { hasControlCharacters, INVALID_SEARCH_CONTROL, listTokensContract, MAX_TOKEN_LIMIT } from '../aggregator/tokens';
import { corePoolContract, corePoolsContract } from '../core/pools';
import { coreQuoteContract, MAX_QUOTE_BATCH, type CoreQuoteRequest } from '../core/quote';
import {
  getLaunchedTokenContract,
  launchpadEstimateContract,
  launchpadTradesContract,
  listLaunchedTokensContract,
  MAX_LAUNCHPAD_PAGE,
  ESTIMATE_AMOUNT_TOO_LARGE,
  TOKEN_GRADUATED,
  TOKEN_GRADUATING,
} from '../launchpad/tokens';
import { addressListParam, addressParam, booleanParam, chainIdField, chainIdParam, dexListParam, fail, got, integerParam, rawParam } from './fields';

/** The zero address: no recipient. */
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * The REST API, one entry per endpoint: its path, its parameters as the zod schema that validates them (the
 * output is the request the gateway sends over NATS), its success body and its documented failures. The
 * gateway validates with these schemas, the OpenAPI document at `/openapi.json` is generated from them, and
 * the typed client derives its parameter and response types from them.
 */
export interface Endpoint<Input extends z.ZodType = z.ZodType, Body extends z.ZodType = z.ZodType> {
  readonly operationId: string;
  readonly method: 'GET';
  /** OpenAPI path template, e.g. `/core/pool/{address}`. */
  readonly path: string;
  readonly tag: 'aggregator' | 'core' | 'launchpad' | 'service';
  readonly summary: string;
  readonly description?: string;
  /** Query and path parameters together (path parameters named in `pathParams`). */
  readonly input: Input;
  readonly pathParams: readonly string[];
  /** Parameters whose last value wins when repeated; any other repeated parameter is a 400. */
  readonly lastValueWins?: readonly string[];
  /** The success body (status 200). */
  readonly body: Body;
  /** The bus contract the gateway asks, when there is one. */
  readonly contract?: MessageContract;
  readonly errors: readonly { readonly status: number; readonly message: string }[];
}

/** The success envelope `{success: true, data}`. */
export const dataEnvelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** The failure envelope `{success: false, error, details?}`. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string().meta({ description: 'What went wrong, in a stable wording' }),
  details: z.string().optional().meta({ description: 'Additional information, e.g. the rejected value' }),
});

/**
 * Failures the gateway's HTTP server answers before any route, on every path: a URL that does not decode, a path
 * parameter over the length limit, a request line and headers over 16 KB, a request that times out or that
 * cannot be parsed (apps/gateway/src/http/framework-errors.ts).
 */
export const HTTP_FAILURES = {
  badUrl: { status: 400, message: 'Invalid URL' },
  badRequest: { status: 400, message: 'Bad request' },
  timeout: { status: 408, message: 'Request timeout' },
  uriTooLong: { status: 414, message: 'URI too long' },
  headersTooLarge: { status: 431, message: 'Request header fields too large' },
} as const;

/** An endpoint of the table; every endpoint can also answer the HTTP server's own failures. */
function endpoint<Input extends z.ZodType, Body extends z.ZodType>(e: Endpoint<Input, Body>): Endpoint<Input, Body> {
  return { ...e, errors: [...e.errors, ...Object.values(HTTP_FAILURES)] };
}

const e = (status: number, ...messages: string[]) => messages.map((message) => ({ status, message }));

/** Failures of a chainId that was given, and of any parameter given twice. */
const CHAIN_VALUE_ERRORS = e(400, 'Invalid chainId: must be an integer', 'Unsupported chainId: <chainId>', 'Invalid <param>: must be given once');
/** Failures every endpoint with parameters can answer: chainId, and any parameter given twice. */
const CHAIN_ERRORS = [...e(400, 'Missing required parameter: chainId'), ...CHAIN_VALUE_ERRORS];
/** No RPC provider of the chain has given a block within RPC_STALE_AFTER_MS: no quote from stale state. */
export const CHAIN_UNAVAILABLE = 'Chain <chainId> unavailable: no RPC provider is giving blocks';
/** A service past its load refused the request rather than answer it late (README: Operations: load). */
export const SERVICE_OVERLOADED = 'Service overloaded';
/** Failures of the bus and of a service past its load, on every endpoint answered over NATS (README: Operations: load). */
const UPSTREAM = [...e(503, 'No service is answering', 'Message bus unavailable', SERVICE_OVERLOADED, 'Service temporarily unavailable'), ...e(504, 'Upstream service timed out')];

// ----- aggregator -----

export const AMOUNT_ONE_OF = 'Provide exactly one of amountIn and amountOut';
export const INVALID_FEE_BPS = 'Invalid feeBps: must be an integer in [0, 100]';
export const INVALID_SLIPPAGE = 'Invalid slippage: must be a percent greater than 0 and below 50, with at most two decimals';
export const DEXES_EXCLUSIVE = 'excludeDexes and includeDexes cannot be used together';
/** A fee recipient RouterV2 reverts on: the zero address with a fee (FeeRecipientRequired), or the router itself (InvalidFeeRecipient). */
export const INVALID_FEE_RECIPIENT = 'Invalid feeRecipient: must be a wallet, not the zero address or the router';

const UINT256_MAX = 2n ** 256n - 1n;

/** A recipient RouterV2 reverts on (InvalidRecipient): the zero address or the router itself. */
export const INVALID_RECIPIENT = 'Invalid recipient: must be a wallet, not the zero address or the router';
export const INVALID_DEADLINE = 'Invalid deadline: must be a unix time in seconds';
/** The deadline is before the chain's time (its newest block's timestamp, or the clock when that is behind). */
export const DEADLINE_PASSED = 'Invalid deadline: already passed';
/** Live routes: `/v2/route`'s parameters, answered as Server-Sent Events (see docs/api.md, "GET /v2/route/stream"). */
export const ROUTE_STREAM_PATH = '/v2/route/stream';
/** A live route stream refused past the gateway's limits (429): streams per client address, streams in all. */
export const TOO_MANY_STREAMS = 'Too many route streams';

/** `permit2=true` with the native coin as the input: it is sent with the transaction, not signed for. */
export const PERMIT2_NATIVE_IN = 'Invalid permit2: the native coin is sent with the transaction, not signed for';
/** `permit2=true` on a chain whose sources file names no Permit2 or RouterV2Permit2. */
export const PERMIT2_UNAVAILABLE = 'Invalid permit2: not available on this chain';
export const INVALID_MAX_PRICE_IMPACT = 'Invalid maxPriceImpact: must be a percent in [0, 100]';
/** A route refused by `maxPriceImpact` (422); the message names the impact found. */
export const PRICE_IMPACT_TOO_HIGH = 'Price impact too high: <impact>% exceeds maxPriceImpact <maxPriceImpact>%';
/** A route through a token whose transfers revert, answer false, or are paused or blocked for the pool or router. */
export const TOKEN_TRANSFERS_FAIL = 'Token transfers fail: <symbol> (<address>)';
/**
 * A route whose RouterV2 transaction reverts when it is executed before it is answered, though each of its tokens
 * moves between its pools and the router; `details` names the revert reason.
 */
export const ROUTE_REVERTS = 'The route reverts when executed';
/** The chain did not answer a read the route needs (its block for a deadline, the simulation's calls). */
export const CHAIN_DID_NOT_ANSWER = 'The chain did not answer';
/** Default deadline of `executeSwapsWithData` when only a recipient is given: this long after the chain's time. */
export const DEFAULT_DEADLINE_SECONDS = 1_800;

const decimalAmount = (name: string, description: string) =>
  rawParam(name)
    .refine((raw) => /^(\d+(\.\d*)?|\.\d+)$/.test(raw) && /[1-9]/.test(raw), { error: `Invalid ${name}: must be a positive decimal number` })
    .optional()
    .meta({ description, pattern: '^(\\d+(\\.\\d*)?|\\.\\d+)$', examples: ['1.5'] });

/** `slippage` in percent, 0 < slippage < 50, at most two decimals; returned in basis points (default 100). */
export const slippageParam = rawParam('slippage')
  .regex(/^(\d+(\.\d{0,2})?|\.\d{1,2})$/, { error: INVALID_SLIPPAGE })
  .transform((raw) => Math.round(Number(raw) * 100))
  .refine((bps) => bps > 0 && bps < 5_000, { error: INVALID_SLIPPAGE })
  .optional()
  .transform((bps) => bps ?? 100)
  .meta({ description: 'Slippage tolerance in percent (0.1 to 5.0 recommended; below 50, at most two decimals)', default: '1.0', pattern: '^(\\d+(\\.\\d{0,2})?|\\.\\d{1,2})$' });

const feeBpsParam = rawParam('feeBps')
  .refine((raw) => /^\d+$/.test(raw) && Number(raw) <= 100, { error: INVALID_FEE_BPS })
  .transform(Number)
  .optional()
  .transform((bps) => bps ?? 0)
  .meta({ description: 'Integrator fee in basis points (100 = 1%, maximum 100)', default: '0', pattern: '^\\d+$' });

const tokenIn = addressParam('tokenIn', 'Input token (the zero address is the native coin)');
const tokenOut = addressParam('tokenOut', 'Output token (the zero address is the native coin)');

export const routeInput = z
  .object({
    chainId: chainIdParam,
    tokenIn,
    tokenOut,
    amountIn: decimalAmount('amountIn', 'Human-readable input amount (exact input); exactly one of amountIn and amountOut'),
    amountOut: decimalAmount('amountOut', 'Human-readable desired output (exact output); exactly one of amountIn and amountOut'),
    multiHop: booleanParam('multiHop', false, 'Route through intermediate tokens'),
    slippage: slippageParam,
    unwrapNative: booleanParam('unwrapNative', false, 'Receive the native coin instead of the wrapped token'),
    excludeDexes: dexListParam('excludeDexes', 'Comma-separated routerIndex values to exclude'),
    includeDexes: dexListParam('includeDexes', 'Comma-separated routerIndex values to include only; overrides excludeDexes'),
    feeBps: feeBpsParam,
    feeRecipient: addressParam('feeRecipient', 'Wallet receiving the integrator fee and positive slippage; required when feeBps > 0').optional(),
    recipient: addressParam(
      'recipient',
      'Who receives the output (not the zero address, not the router). With recipient or deadline the calldata calls executeSwapsWithData; default: the sender of the transaction (executeSwaps)',
    ).optional(),
    deadline: rawParam('deadline')
      .refine((raw) => /^\d{1,78}$/.test(raw) && BigInt(raw) <= UINT256_MAX, { error: INVALID_DEADLINE })
      .optional()
      .meta({
        description: `Unix time in seconds after which the transaction reverts (DeadlineExpired); not in the past. Needs a recipient (or a sender, who then receives the output). With only a recipient: ${DEFAULT_DEADLINE_SECONDS / 60} minutes after the chain's time at the quote`,
        pattern: '^\\d+$',
        examples: ['1900000000'],
      }),
    maxPriceImpact: rawParam('maxPriceImpact')
      .refine((raw) => /^(\d{1,3}(\.\d*)?|\.\d+)$/.test(raw) && Number(raw) <= 100, { error: INVALID_MAX_PRICE_IMPACT })
      .transform(Number)
      .optional()
      .meta({ description: 'Percent in [0, 100]: a route whose averagePriceImpact (as a percent) is above it is refused with a 422 naming the impact found', pattern: '^(\\d{1,3}(\\.\\d*)?|\\.\\d+)$', examples: ['2.5'] }),
    sender: addressParam('sender', "The wallet that will send the transaction: the answer's `simulation` says whether it would succeed now (balance, allowance, the call itself at the quote's block)").optional(),
    gasAware: booleanParam(
      'gasAware',
      true,
      "Choose the route paying the most output net of its transaction's gas at the chain's gas price (exact output: the least input plus gas), so a split or an extra hop is taken only when it pays for its gas; false: the most output whatever its gas",
    ),
    permit2: booleanParam(
      'permit2',
      false,
      "Sign the route through Permit2 instead of approving RouterV2 (needs sender, the signer, who approved Permit2 once for tokenIn): the answer's `permit2.typedData` is what the sender signs (EIP-712), and `execution.calldata`, sent to RouterV2Permit2 (`execution.to`), carries 65 zero bytes at `permit2.signatureOffset` for the signature. The output goes to recipient, or else the sender",
    ),
  })
  .transform((q, ctx): RouteRequest => {
    if ((q.amountIn === undefined) === (q.amountOut === undefined)) {
      return fail(ctx, AMOUNT_ONE_OF, q.amountIn === undefined ? 'neither amountIn nor amountOut was given' : 'both amountIn and amountOut were given');
    }
    if (q.feeBps > 0 && q.feeRecipient === undefined) return fail(ctx, 'Missing required parameter: feeRecipient', 'feeRecipient is required when feeBps > 0');
    // The router's own address is refused by aggregator-router, which knows it for each chain.
    if (q.feeBps > 0 && q.feeRecipient === ZERO_ADDRESS) return fail(ctx, INVALID_FEE_RECIPIENT, 'the zero address cannot receive a fee (feeBps > 0)');
    // The router's own address is refused by aggregator-router, as for feeRecipient.
    if (q.recipient === ZERO_ADDRESS) return fail(ctx, INVALID_RECIPIENT, 'RouterV2 reverts InvalidRecipient for the zero address');
    if (q.permit2 && q.sender === undefined) return fail(ctx, 'Missing required parameter: sender', 'permit2 needs the sender, who signs the route');
    // A deadline or a signed route needs someone to pay: the recipient, or else the sender when given.
    const recipient = q.recipient ?? (q.deadline !== undefined || q.permit2 ? q.sender : undefined);
    if (q.deadline !== undefined && recipient === undefined) {
      return fail(ctx, 'Missing required parameter: recipient', 'a deadline needs a recipient (or a sender, who then receives the output)');
    }
    return {
      chainId: q.chainId,
      tokenIn: q.tokenIn,
      tokenOut: q.tokenOut,
      ...(q.amountIn !== undefined ? { amountIn: q.amountIn } : { amountOut: q.amountOut }),
      multiHop: q.multiHop,
      slippageBps: q.slippage,
      unwrapNative: q.unwrapNative,
      // includeDexes overrides excludeDexes on /v2/route.
      ...(q.includeDexes ? { includeDexes: q.includeDexes } : q.excludeDexes ? { excludeDexes: q.excludeDexes } : {}),
      feeBps: q.feeBps,
      ...(q.feeRecipient !== undefined ? { feeRecipient: q.feeRecipient } : {}),
      ...(recipient !== undefined ? { recipient } : {}),
      ...(q.deadline !== undefined ? { deadline: BigInt(q.deadline).toString() } : {}),
      ...(q.maxPriceImpact !== undefined ? { maxPriceImpact: q.maxPriceImpact } : {}),
      ...(q.sender !== undefined ? { sender: q.sender } : {}),
      gasAware: q.gasAware,
      permit2: q.permit2,
    };
  });

export const poolsInput = z
  .object({
    chainId: chainIdParam,
    tokenA: addressParam('tokenA', 'First token'),
    tokenB: addressParam('tokenB', 'Second token; the order of tokenA and tokenB does not matter'),
    excludeDexes: dexListParam('excludeDexes', 'Comma-separated routerIndex values to exclude'),
    includeDexes: dexListParam('includeDexes', 'Comma-separated routerIndex values to include only'),
  })
  .transform((q, ctx) => {
    if (q.includeDexes && q.excludeDexes) return fail(ctx, DEXES_EXCLUSIVE, 'give includeDexes or excludeDexes, not both');
    return {
      chainId: q.chainId,
      tokenA: q.tokenA,
      tokenB: q.tokenB,
      ...(q.includeDexes ? { includeDexes: q.includeDexes } : {}),
      ...(q.excludeDexes ? { excludeDexes: q.excludeDexes } : {}),
    };
  });

export const balancesInput = z
  .object({
    chainId: chainIdParam,
    wallet: addressParam('wallet', 'The wallet whose balances are read'),
    tokens: addressListParam('tokens', "Comma-separated token addresses; default: the chain's known tokens and the native coin"),
  })
  .transform((q) => ({ chainId: q.chainId, wallet: q.wallet, ...(q.tokens ? { tokens: q.tokens } : {}) }));

export const tokensInput = z
  .object({
    chainId: chainIdParam,
    search: rawParam('search')
      .max(100, { error: 'Invalid search: at most 100 characters' })
      .refine((raw) => !hasControlCharacters(raw), { error: INVALID_SEARCH_CONTROL })
      .optional()
      .meta({ description: 'Filter by address, name or symbol (at most 100 characters, no control characters)' }),
    limit: integerParam('limit', 1, MAX_TOKEN_LIMIT, 'Maximum number of tokens returned'),
    offset: integerParam('offset', 0, Number.MAX_SAFE_INTEGER, 'Pagination offset', 0),
    metadata: rawParam('metadata')
      .refine((raw) => raw === 'true' || raw === 'false', { error: 'Invalid metadata: must be true or false' })
      .optional()
      .meta({ description: 'When false, only addresses are returned', enum: ['true', 'false'], default: 'true' }),
  })
  .transform((q) => ({
    chainId: q.chainId,
    offset: q.offset,
    metadata: q.metadata !== 'false',
    ...(q.search === undefined ? {} : { search: q.search }),
    ...(q.limit === undefined ? {} : { limit: q.limit }),
  }));

export const dexesInput = z.object({ chainId: chainIdParam });

// ----- core -----

export const MISSING_QUOTE_PARAMS = 'Missing required parameters: tokenIn, tokenOut, amountIn';
export const INVALID_QUOTE_SLIPPAGE = 'Invalid slippageBps: must be an integer in [0, 10000)';
export const INVALID_AMOUNT_IN = 'Invalid amountIn: must be a raw uint256 (base units) or comma-separated list';

/** `includeCalldata`: any value except `false`, `0` or empty is truthy; absent is falsy. */
export function isTruthyFlag(value: string | undefined): boolean {
  return value !== undefined && value !== 'false' && value !== '0' && value !== '';
}

/** A 32-byte hex string is used as is (lower-cased); any other string is hashed with keccak256. */
export function normalizeRefCode(raw: string): `0x${string}` {
  return /^0x[0-9a-fA-F]{64}$/.test(raw) ? (raw.toLowerCase() as `0x${string}`) : keccak256(stringToHex(raw));
}

const quoteAmounts = rawParam('amountIn', MISSING_QUOTE_PARAMS)
  .transform((raw, ctx) => {
    const parts = raw.split(',').map((p) => p.trim());
    if (parts.length > MAX_QUOTE_BATCH) return fail(ctx, INVALID_AMOUNT_IN, `at most ${MAX_QUOTE_BATCH} amounts per request`);
    for (const p of parts) {
      if (!/^\d+$/.test(p)) return fail(ctx, INVALID_AMOUNT_IN, `not a base-unit integer: ${JSON.stringify(p)}`);
      if (BigInt(p) > UINT256_MAX) return fail(ctx, INVALID_AMOUNT_IN, `exceeds uint256: ${p}`);
      if (BigInt(p) === 0n) return fail(ctx, INVALID_AMOUNT_IN, 'amounts must be greater than zero');
    }
    return parts.map((p) => BigInt(p).toString());
  })
  .meta({ description: `Base-unit uint256, or a comma-separated list of up to ${MAX_QUOTE_BATCH} for a batch quote`, pattern: '^\\s*\\d+\\s*(,\\s*\\d+\\s*)*$', examples: ['1000000', '1000000,5000000'] });

export const coreQuoteInput = z
  .object({
    // The specification's one message for any missing required parameter, chainId included (`details` names them).
    chainId: chainIdField(MISSING_QUOTE_PARAMS),
    tokenIn: addressParam('tokenIn', 'Input token', MISSING_QUOTE_PARAMS),
    tokenOut: addressParam('tokenOut', 'Output token', MISSING_QUOTE_PARAMS),
    amountIn: quoteAmounts,
    includeCalldata: rawParam('includeCalldata')
      .optional()
      .meta({ description: 'Any value except `false`, `0` or empty is truthy; then each quote includes minAmountOut and calldata' }),
    slippageBps: rawParam('slippageBps')
      .optional()
      .meta({ description: 'Integer in [0, 10000), used for minAmountOut when includeCalldata is set (default 100)', pattern: '^\\d+$', default: '100' }),
    refCode: rawParam('refCode')
      .optional()
      .meta({ description: 'Referral code: a 32-byte hex string is used as is, any other string is hashed with keccak256' }),
  })
  .transform((q, ctx): CoreQuoteRequest => {
    const includeCalldata = isTruthyFlag(q.includeCalldata);
    let slippageBps: number | undefined;
    if (q.slippageBps !== undefined) {
      // The tolerance only matters for calldata: without it, a bad value is ignored rather than rejected.
      if (/^\d+$/.test(q.slippageBps) && Number(q.slippageBps) < 10_000) slippageBps = Number(q.slippageBps);
      else if (includeCalldata) return fail(ctx, INVALID_QUOTE_SLIPPAGE, got(q.slippageBps));
    }
    return {
      chainId: q.chainId,
      tokenIn: q.tokenIn,
      tokenOut: q.tokenOut,
      amountsIn: q.amountIn,
      includeCalldata,
      ...(slippageBps === undefined ? {} : { slippageBps }),
      ...(q.refCode === undefined ? {} : { refCode: normalizeRefCode(q.refCode) }),
    };
  });

export const corePoolsInput = z.object({ chainId: chainIdParam });

export const corePoolInput = z
  .object({ chainId: chainIdParam, address: addressParam('address', 'Pool address (from GET /core/pools)') })
  .transform((q) => ({ chainId: q.chainId, pool: q.address }));

// ----- launchpad -----

export const launchpadListInput = z
  .object({
    chainId: chainIdParam,
    offset: integerParam('offset', 0, Number.MAX_SAFE_INTEGER, 'Pagination offset', 0),
    limit: integerParam('limit', 1, MAX_LAUNCHPAD_PAGE, 'Page size', 50),
  })
  .transform((q) => ({ chainId: q.chainId, offset: q.offset, limit: q.limit }));

export const launchpadTokenInput = z
  .object({ chainId: chainIdParam, address: addressParam('address', 'Launched token address') })
  .transform((q) => ({ chainId: q.chainId, token: q.address }));

export const launchpadTradesInput = z
  .object({
    chainId: chainIdParam,
    address: addressParam('address', 'Launched token address'),
    limit: integerParam('limit', 1, MAX_LAUNCHPAD_PAGE, 'Number of trades', 50),
  })
  .transform((q) => ({ chainId: q.chainId, token: q.address, limit: q.limit }));

const INVALID_ESTIMATE_AMOUNT = 'Invalid amount: must be a positive base-unit integer';

export const launchpadEstimateInput = z.object({
  chainId: chainIdParam,
  token: addressParam('token', 'Launched token address'),
  side: rawParam('side', 'Invalid side: must be buy or sell')
    .refine((raw) => raw === 'buy' || raw === 'sell', { error: 'Invalid side: must be buy or sell' })
    .transform((raw) => raw as 'buy' | 'sell')
    .meta({ description: 'buy: amount is native coin in; sell: amount is tokens in', enum: ['buy', 'sell'] }),
  amount: rawParam('amount', INVALID_ESTIMATE_AMOUNT)
    .refine((raw) => /^\d+$/.test(raw) && BigInt(raw) > 0n && BigInt(raw) <= UINT256_MAX, { error: INVALID_ESTIMATE_AMOUNT })
    .meta({ description: 'Base-unit amount in', pattern: '^\\d+$', examples: ['1000000000000000000'] }),
});

// ----- the table -----

const empty = z.object({});

export const ENDPOINTS = {
  listDexes: endpoint({
    operationId: 'listDexes',
    method: 'GET',
    path: '/dexes',
    tag: 'aggregator',
    summary: "The chain's liquidity sources and their routerIndex values",
    input: dexesInput,
    pathParams: [],
    body: dataEnvelope(listDexesContract.response),
    contract: listDexesContract,
    errors: [...CHAIN_ERRORS, ...UPSTREAM],
  }),
  listTokens: endpoint({
    operationId: 'listTokens',
    method: 'GET',
    path: '/tokens',
    tag: 'aggregator',
    summary: 'Token list, sorted by transfers in the last 24 hours (highest first)',
    input: tokensInput,
    pathParams: [],
    body: dataEnvelope(listTokensContract.response),
    contract: listTokensContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Invalid search: at most 100 characters', INVALID_SEARCH_CONTROL, `Invalid limit: must be an integer in [1, ${MAX_TOKEN_LIMIT}]`, `Invalid offset: must be an integer in [0, ${Number.MAX_SAFE_INTEGER}]`, 'Invalid metadata: must be true or false'), ...UPSTREAM],
  }),
  tokenBalances: endpoint({
    operationId: 'tokenBalances',
    method: 'GET',
    path: '/tokens/balances',
    tag: 'aggregator',
    summary: "A wallet's balances of the chain's known tokens and native coin",
    input: balancesInput,
    pathParams: [],
    body: dataEnvelope(balancesContract.response),
    contract: balancesContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Missing required parameter: wallet', 'Invalid address: wallet', 'Invalid address: tokens', 'Unknown token: tokens[<index>]'), ...UPSTREAM],
  }),
  findPools: endpoint({
    operationId: 'findPools',
    method: 'GET',
    path: '/pools',
    tag: 'aggregator',
    summary: 'Every pool trading tokenA against tokenB',
    input: poolsInput,
    pathParams: [],
    body: dataEnvelope(poolsContract.response),
    contract: poolsContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Missing required parameter: tokenA', 'Invalid address: tokenA', 'Invalid address: tokenB', 'Invalid includeDexes: must be comma-separated routerIndex values', DEXES_EXCLUSIVE, 'Invalid tokenB: must differ from tokenA'), ...e(503, 'Liquidity not loaded yet'), ...UPSTREAM],
  }),
  route: endpoint({
    operationId: 'route',
    method: 'GET',
    path: '/v2/route',
    tag: 'aggregator',
    summary: 'The best route and ready-to-send RouterV2 calldata',
    description:
      'Exactly one of amountIn (exact input) and amountOut (exact output). The calldata calls executeSwaps on `execution.to`, or executeSwapsWithData when recipient or deadline is given, or with permit2=true executeSwapsWithPermit2 on RouterV2Permit2 (sign `permit2.typedData`, put the signature at `permit2.signatureOffset`); a swap from the native coin carries `execution.value`. Every answer carries a `quoteId`, logged with the request id, the inputs and the block. With `sender`, `simulation` says whether the transaction would succeed from that address now and, if not, why. `gasEstimate` is the gas the transaction uses (whole, as its receipt reports), from the RouterV2 gas model per source kind and concentrated tick crossed, calibrated on executed transactions (see docs/api.md: it assumes the recipient, the fee recipient and the treasury already hold the output token); `gasPrice` is the chain gas price, `gasCostNative` and `gasCostUsd` its cost.',
    input: routeInput,
    pathParams: [],
    body: dataEnvelope(routeContract.response),
    contract: routeContract,
    errors: [
      ...CHAIN_ERRORS,
      ...e(
        400,
        'Missing required parameter: tokenIn',
        'Missing required parameter: tokenOut',
        'Invalid address: tokenIn',
        'Invalid address: tokenOut',
        AMOUNT_ONE_OF,
        'Invalid amountIn: must be a positive decimal number',
        'Invalid amountOut: must be a positive decimal number',
        'Invalid amountIn: more decimals than the token has',
        'Invalid amountOut: more decimals than the token has',
        'Invalid amountIn: too large',
        'Invalid amountOut: too large',
        'Invalid multiHop: must be true or false',
        'Invalid unwrapNative: must be true or false',
        'Invalid gasAware: must be true or false',
        INVALID_SLIPPAGE,
        'Invalid excludeDexes: must be comma-separated routerIndex values',
        'Invalid includeDexes: must be comma-separated routerIndex values',
        INVALID_FEE_BPS,
        'Missing required parameter: feeRecipient',
        'Invalid address: feeRecipient',
        INVALID_FEE_RECIPIENT,
        'Unknown token: tokenIn',
        'Unknown token: tokenOut',
        'Invalid tokenOut: must differ from tokenIn',
        'Invalid address: recipient',
        INVALID_RECIPIENT,
        'Missing required parameter: recipient',
        INVALID_DEADLINE,
        DEADLINE_PASSED,
        INVALID_MAX_PRICE_IMPACT,
        'Invalid address: sender',
        'Invalid permit2: must be true or false',
        'Missing required parameter: sender',
        PERMIT2_NATIVE_IN,
        PERMIT2_UNAVAILABLE,
      ),
      ...e(404, 'No route found'),
      ...e(422, PRICE_IMPACT_TOO_HIGH, TOKEN_TRANSFERS_FAIL, ROUTE_REVERTS),
      ...e(503, 'Liquidity not loaded yet', CHAIN_UNAVAILABLE, CHAIN_DID_NOT_ANSWER),
      ...UPSTREAM,
    ],
  }),
  coreQuote: endpoint({
    operationId: 'coreQuote',
    method: 'GET',
    path: '/core/quote',
    tag: 'core',
    summary: "One quote per amountIn on the pair's core pool, optionally with router calldata",
    description: 'To execute, approve the router (routerAddress) for amountIn of tokenIn, then send the calldata to routerAddress.',
    input: coreQuoteInput,
    pathParams: [],
    lastValueWins: ['includeCalldata', 'slippageBps'],
    body: dataEnvelope(coreQuoteContract.response),
    contract: coreQuoteContract,
    errors: [
      ...CHAIN_VALUE_ERRORS,
      ...e(
        400,
        MISSING_QUOTE_PARAMS,
        INVALID_QUOTE_SLIPPAGE,
        INVALID_AMOUNT_IN,
        'Invalid address: tokenIn',
        'Invalid address: tokenOut',
        'Invalid amountIn: too small for the pool to pay anything',
        'Insufficient reserve: amountIn exceeds what the pool can pay',
        'Invalid token for this pool',
      ),
      ...e(404, 'No core pool found for this token pair'),
      ...e(500, 'Failed to fetch quote'),
      ...e(503, 'Oracle price unavailable: quotes for this pool are paused', 'The pool is paused', CHAIN_UNAVAILABLE),
      ...UPSTREAM,
    ],
  }),
  corePools: endpoint({
    operationId: 'corePools',
    method: 'GET',
    path: '/core/pools',
    tag: 'core',
    summary: 'Every core pool of the chain, with totalTVL and totals24h',
    input: corePoolsInput,
    pathParams: [],
    body: z.object({
      success: z.literal(true),
      data: corePoolsContract.response.shape.pools,
      totalTVL: corePoolsContract.response.shape.totalTVL,
      totals24h: corePoolsContract.response.shape.totals24h,
    }),
    contract: corePoolsContract,
    errors: [...CHAIN_ERRORS, ...e(500, 'Failed to fetch pool data'), ...UPSTREAM],
  }),
  corePool: endpoint({
    operationId: 'corePool',
    method: 'GET',
    path: '/core/pool/{address}',
    tag: 'core',
    summary: 'One core pool with its 24-hour statistics',
    input: corePoolInput,
    pathParams: ['address'],
    body: dataEnvelope(corePoolContract.response),
    contract: corePoolContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Invalid address: address'), ...e(404, 'No core pool found at this address'), ...e(500, 'Failed to fetch pool data'), ...UPSTREAM],
  }),
  launchpadTokens: endpoint({
    operationId: 'launchpadTokens',
    method: 'GET',
    path: '/launchpad/tokens',
    tag: 'launchpad',
    summary: 'Launched tokens, newest first',
    input: launchpadListInput,
    pathParams: [],
    body: dataEnvelope(listLaunchedTokensContract.response),
    contract: listLaunchedTokensContract,
    errors: [...CHAIN_ERRORS, ...e(400, `Invalid offset: must be an integer in [0, ${Number.MAX_SAFE_INTEGER}]`, `Invalid limit: must be an integer in [1, ${MAX_LAUNCHPAD_PAGE}]`), ...e(500, 'Failed to read the launchpad'), ...UPSTREAM],
  }),
  launchpadToken: endpoint({
    operationId: 'launchpadToken',
    method: 'GET',
    path: '/launchpad/tokens/{address}',
    tag: 'launchpad',
    summary: 'One launched token: curve state, graduation and metadata',
    input: launchpadTokenInput,
    pathParams: ['address'],
    body: dataEnvelope(getLaunchedTokenContract.response),
    contract: getLaunchedTokenContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Invalid address: address'), ...e(404, 'Token not found on the launchpad'), ...e(500, 'Failed to read the launchpad'), ...UPSTREAM],
  }),
  launchpadTrades: endpoint({
    operationId: 'launchpadTrades',
    method: 'GET',
    path: '/launchpad/tokens/{address}/trades',
    tag: 'launchpad',
    summary: "A launched token's recent curve trades, newest first",
    input: launchpadTradesInput,
    pathParams: ['address'],
    body: dataEnvelope(launchpadTradesContract.response),
    contract: launchpadTradesContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Invalid address: address', `Invalid limit: must be an integer in [1, ${MAX_LAUNCHPAD_PAGE}]`), ...UPSTREAM],
  }),
  launchpadEstimate: endpoint({
    operationId: 'launchpadEstimate',
    method: 'GET',
    path: '/launchpad/estimate',
    tag: 'launchpad',
    summary: "A curve trade's output, the trading fee included",
    input: launchpadEstimateInput,
    pathParams: [],
    body: dataEnvelope(launchpadEstimateContract.response),
    contract: launchpadEstimateContract,
    errors: [...CHAIN_ERRORS, ...e(400, 'Missing required parameter: token', 'Invalid address: token', 'Invalid side: must be buy or sell', INVALID_ESTIMATE_AMOUNT, ESTIMATE_AMOUNT_TOO_LARGE, 'Insufficient liquidity on the curve for this amount'), ...e(404, 'Token not found on the launchpad'), ...e(409, TOKEN_GRADUATED, TOKEN_GRADUATING), ...e(500, 'Failed to read the launchpad'), ...UPSTREAM],
  }),
  health: endpoint({
    operationId: 'health',
    method: 'GET',
    path: '/health',
    tag: 'service',
    summary: "Readiness of the gateway (NATS) and of each service, as the service answers on NATS (its NATS, Postgres, each chain's RPC); 503 when one is down or does not answer",
    input: empty,
    pathParams: [],
    body: dataEnvelope(gatewayHealthReportSchema),
    errors: [{ status: 503, message: 'a dependency or a service is down (the body is the same report with success: false)' }],
  }),
  live: endpoint({
    operationId: 'live',
    method: 'GET',
    path: '/health/live',
    tag: 'service',
    summary: 'Liveness: the process answers',
    input: empty,
    pathParams: [],
    body: dataEnvelope(z.object({ status: z.literal('ok') })),
    errors: [],
  }),
  ready: endpoint({
    operationId: 'ready',
    method: 'GET',
    path: '/health/ready',
    tag: 'service',
    summary: 'Readiness: every dependency answers; 503 otherwise',
    input: empty,
    pathParams: [],
    body: dataEnvelope(healthReportSchema),
    errors: [{ status: 503, message: 'a dependency is down (the body is the same report with success: false)' }],
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
/** The parameters a caller passes (strings on the wire). */
export type EndpointParams<N extends EndpointName> = z.input<Endpoints[N]['input']>;
/** The success body of an endpoint. */
export type EndpointBody<N extends EndpointName> = z.output<Endpoints[N]['body']>;
