// Quotes Uniswap V4 pools through their source's own V4Quoter (v4-periphery 1.0.3), all of them in one multicall:
// the aggregator's amounts for the V4 pools whose hooks may change a swap.
//
// Why: a hook with swap permissions (beforeSwap, afterSwap, their return deltas) runs its own code inside the
// swap: it may take a fee from the input or the output, change the LP fee for the one swap, refuse the swap. That
// maths is the hook's own and cannot be replicated off chain, so the engine's tick-exact swap (`@dex/routing`'s
// `swapUniswapV4`) does not price these pools. The source's V4Quoter runs the PoolManager's real swap, hooks
// included, inside an `unlock` that reverts with the amounts (`QuoteSwap(amount)`): what the swap pays at the
// block, to the wei. Each quote is asked with empty hookData, as RouterV2 swaps.
//
// Cost: one `eth_call` per block for every pool sampled: Multicall3's `aggregate3` (`encodeAggregate3`), each
// quote allowed to fail, whatever the pools and ladders up to `V4_QUOTES_PER_MULTICALL` quotes (past that, a few
// calls sent together). A quote is a real swap: from some 55,000 gas (dust) to 0.5M crossing a few ticks, and past
// 10M on a spacing-1 pool swapped through to its price limit (the swap walks the whole tick bitmap), all of it under
// the node's gas cap for one call (30M on anvil). Where the quotes ask more than that, `quoteCalls` (quoted-calls.ts)
// halves a call out of gas and asks the quotes starved inside one again: a starved quote answers the V4Quoter's
// `UnexpectedRevertBytes` of nothing (or nothing at all), which no refusal does. One starved inside a hook's own call
// reads as the hook's refusal (the PoolManager wraps it): rare, the swap's own work being most of a quote's gas.
//
// Semantics:
//   - a quote is an exact input through `quoteExactInputSingle`: `amountOut` is what the swapper receives (net of
//     every hook's take), `gasEstimate` the V4Quoter's own measure of the swap (the unlock and swap inside the
//     quoter, not a RouterV2 transaction's);
//   - a quote the V4Quoter refuses is undefined: a hook that reverts (wrapped by the PoolManager in `WrappedError`,
//     then by the quoter in `UnexpectedRevertBytes`), a pool that cannot take the whole input before its price
//     limit (`NotEnoughLiquidity`; a full-range position takes any input, for next to nothing out), a pool not
//     initialized, an answer that is not two words (no code at the quoter);
//   - an amount of 0 or of 2^127 and more is undefined without being sent: V4 swaps amounts of int128, and the
//     V4Quoter casts its uint128 `exactAmount` to int128 unchecked, so 2^127 and more would wrap into an exact
//     OUTPUT swap (2^128 - 1 quotes as "1 out", the exact output of 1) and answer a wrong amount as if right;
//   - the native currency (address(0)) is quoted as any other: the quoter settles nothing, so no value is sent;
//   - a sampled direction's inputs are sorted ascending (duplicates once) and its samples end before the first
//     input the quoter refuses (a hook refusing swaps above a limit ends the ladder below it, as does a pool too
//     shallow for the input) and before the first whose output is less than the one before (an output that falls
//     as the input grows is no curve to route on).
import { v4QuoterAbi } from '@dex/abis';
import type { UniswapV4KeyRead } from '@dex/messages';
import { encodeFunctionData, toFunctionSelector, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { returnWord, type Call3 } from '../multicall3';
import { ladderSamples, quoteCalls } from '../quoted-calls';

/**
 * Quotes in one `eth_call`: each a real swap of 55,000 gas and more, so that a block's quotes of the usual sizes
 * (a few hundred thousand gas each) stay under a node's gas cap for one call (see the module note).
 */
export const V4_QUOTES_PER_MULTICALL = 200;

/** The largest exact input a V4Quoter quotes as one: V4's int128 amount (see the module note). */
export const MAX_V4_QUOTE_AMOUNT = (1n << 127n) - 1n;

/** An exact input the V4Quoter quotes as one: above 0, at most `MAX_V4_QUOTE_AMOUNT`. */
const isQuotable = (amountIn: bigint): boolean => amountIn > 0n && amountIn <= MAX_V4_QUOTE_AMOUNT;

/** One quote: what the swapper receives, and the V4Quoter's measure of the swap's gas. */
export interface UniswapV4Quote {
  readonly amountOut: bigint;
  readonly gasEstimate: bigint;
}

export interface UniswapV4SwapToQuote {
  /** The source's V4Quoter (bound to the PoolManager of the pool). */
  readonly quoter: Address;
  /** The pool's key (`fee` as the key has it: the dynamic flag or pips). */
  readonly key: UniswapV4KeyRead;
  /** currency0 in, currency1 out. */
  readonly zeroForOne: boolean;
  readonly amountIn: bigint;
}

export interface QuoteUniswapV4SwapsParameters {
  readonly swaps: readonly UniswapV4SwapToQuote[];
  readonly blockNumber: bigint;
}

/** Per swap, in the order given, its quote; undefined where the V4Quoter refuses it (see the module note). */
export type QuoteUniswapV4SwapsReturnType = (UniswapV4Quote | undefined)[];

/** The word of `exactAmount` in `quoteExactInputSingle`'s calldata after the selector: the params' offset, the key's five, zeroForOne. */
const AMOUNT_WORD = 7;
const AMOUNT_AT = 2 + 8 + AMOUNT_WORD * 64;

/**
 * `quoteExactInputSingle((key, zeroForOne, amount, 0x))` calldata of a pool and direction, for any amount: encoded
 * once by viem (which checks the key), the amount's word put in for each quote.
 */
export function v4QuoteCalldata(key: UniswapV4KeyRead, zeroForOne: boolean): (amountIn: bigint) => Hex {
  const data = encodeFunctionData({
    abi: v4QuoterAbi,
    functionName: 'quoteExactInputSingle',
    args: [{ poolKey: { ...key, currency0: key.currency0 as Address, currency1: key.currency1 as Address, hooks: key.hooks as Address }, zeroForOne, exactAmount: 0n, hookData: '0x' }],
  });
  const [head, tail] = [data.slice(0, AMOUNT_AT), data.slice(AMOUNT_AT + 64)];
  return (amountIn) => {
    if (!isQuotable(amountIn)) throw new RangeError(`not an amount a V4Quoter quotes: ${amountIn}`);
    return `${head}${amountIn.toString(16).padStart(64, '0')}${tail}` as Hex;
  };
}

/** A quote from `quoteExactInputSingle`'s return data (amountOut, gasEstimate); undefined for a failure or another shape. */
function decodeQuote(data: Hex | undefined): UniswapV4Quote | undefined {
  if (data === undefined) return undefined;
  const amountOut = returnWord(data, 0);
  const gasEstimate = returnWord(data, 1);
  return amountOut === undefined || gasEstimate === undefined ? undefined : { amountOut, gasEstimate };
}

/** The V4Quoter's `UnexpectedRevertBytes(bytes)` of nothing: the quote's swap ran out of gas (see the module note). */
const STARVED = `${toFunctionSelector('UnexpectedRevertBytes(bytes)')}${'20'.padStart(64, '0')}${'0'.repeat(64)}`;

/** A failed quote's return data says it ran out of gas, not that the quoter refused it. */
export const isStarvedQuote = (returnData: Hex): boolean => returnData === '0x' || returnData.toLowerCase() === STARVED;

/** The V4 quotes of `calls` at the block (`quoteCalls`: chunks, halving, starved quotes asked again). */
const quoteAll = (client: ChainPublicClient, blockNumber: bigint, calls: readonly Call3[]): Promise<(UniswapV4Quote | undefined)[]> =>
  quoteCalls(client, blockNumber, calls, { decode: decodeQuote, starved: isStarvedQuote, perMulticall: V4_QUOTES_PER_MULTICALL });

/**
 * Each swap's quote by its source's V4Quoter (`quoteExactInputSingle`, empty hookData) at `blockNumber`, in one
 * `eth_call` to Multicall3's `aggregate3` (each call allowed to fail; more only for quotes asking more gas than one
 * call holds: see the module note). A refusal (a hook's revert, a pool too shallow for the input, an answer of
 * another shape) is that swap's undefined, as is an amount of 0 or above `MAX_V4_QUOTE_AMOUNT` (not sent); a
 * failure of the call as a whole (the node, the transport) throws.
 *
 * The call is sent at once, not through the client's multicall batching (which holds every call for a timer tick).
 *
 * @example
 * const [quote] = await quoteUniswapV4Swaps(client, { swaps: [{ quoter, key, zeroForOne: true, amountIn }], blockNumber });
 */
export async function quoteUniswapV4Swaps(client: ChainPublicClient, params: QuoteUniswapV4SwapsParameters): Promise<QuoteUniswapV4SwapsReturnType> {
  const sent = params.swaps.flatMap((s, i) => (isQuotable(s.amountIn) ? [i] : []));
  const out: QuoteUniswapV4SwapsReturnType = params.swaps.map(() => undefined);
  if (sent.length === 0) return out;
  const quotes = await quoteAll(
    client,
    params.blockNumber,
    sent.map((i) => {
      const s = params.swaps[i];
      return { target: s.quoter, callData: v4QuoteCalldata(s.key, s.zeroForOne)(s.amountIn) };
    }),
  );
  sent.forEach((i, k) => (out[i] = quotes[k]));
  return out;
}

/** One sample of a direction: an input and its quote. */
export interface UniswapV4QuoteSample extends UniswapV4Quote {
  readonly amountIn: bigint;
}

export interface UniswapV4PoolToSample {
  /** The source's V4Quoter (bound to the PoolManager of the pool). */
  readonly quoter: Address;
  readonly key: UniswapV4KeyRead;
  /** The inputs of currency0 to quote, in any order. */
  readonly ladder0to1: readonly bigint[];
  /** The inputs of currency1 to quote, in any order. */
  readonly ladder1to0: readonly bigint[];
}

export interface SampleUniswapV4PoolsParameters {
  readonly pools: readonly UniswapV4PoolToSample[];
  readonly blockNumber: bigint;
}

export interface UniswapV4PoolSample {
  /** By input ascending, up to the first input refused or paying less than the one before (see the module note). */
  readonly samples0to1: UniswapV4QuoteSample[];
  readonly samples1to0: UniswapV4QuoteSample[];
}

/** Per pool, in the order given, its samples (a pool the quoter refuses whole: none either way). */
export type SampleUniswapV4PoolsReturnType = UniswapV4PoolSample[];

/** A ladder as quoted: its inputs ascending, each once; those past `MAX_V4_QUOTE_AMOUNT` end it, those of 0 or less dropped. */
export function v4SampleInputs(ladder: readonly bigint[]): bigint[] {
  const sorted = [...new Set(ladder)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.filter(isQuotable);
}

/** A direction's samples from its inputs' quotes: up to the first refused, or paying less than the sample before. */
export const v4LadderSamples = (inputs: readonly bigint[], quotes: readonly (UniswapV4Quote | undefined)[]): UniswapV4QuoteSample[] => ladderSamples(inputs, quotes);

/**
 * Samples V4 pools at `blockNumber` through their sources' V4Quoters: every input of every pool's two ladders
 * quoted (`quoteExactInputSingle`, empty hookData) in one `eth_call` to Multicall3's `aggregate3`, each quote
 * allowed to fail (past `V4_QUOTES_PER_MULTICALL` quotes a few calls sent together, and more for quotes asking more
 * gas than one call holds: see the module note). Each direction's samples run
 * up its inputs ascending to the first the quoter refuses or that pays less than the one before (see the module
 * note). A failure of a call as a whole (the node, the transport) throws.
 *
 * @example
 * const [sample] = await sampleUniswapV4Pools(client, { pools: [{ quoter, key, ladder0to1, ladder1to0 }], blockNumber });
 */
export async function sampleUniswapV4Pools(client: ChainPublicClient, params: SampleUniswapV4PoolsParameters): Promise<SampleUniswapV4PoolsReturnType> {
  const directions = params.pools.flatMap((p) =>
    ([true, false] as const).map((zeroForOne) => ({ pool: p, zeroForOne, inputs: v4SampleInputs(zeroForOne ? p.ladder0to1 : p.ladder1to0) })),
  );
  const calls = directions.flatMap(({ pool, zeroForOne, inputs }) => {
    if (inputs.length === 0) return [];
    const calldata = v4QuoteCalldata(pool.key, zeroForOne);
    return inputs.map((amountIn) => ({ target: pool.quoter, callData: calldata(amountIn) }));
  });
  const quotes = calls.length === 0 ? [] : await quoteAll(client, params.blockNumber, calls);
  let k = 0;
  const samples = directions.map(({ inputs }) => {
    const own = quotes.slice(k, (k += inputs.length));
    return v4LadderSamples(inputs, own);
  });
  return params.pools.map((_, i) => ({ samples0to1: samples[2 * i], samples1to0: samples[2 * i + 1] }));
}
