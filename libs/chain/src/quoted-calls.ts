/**
 * Pools quoted by their own contracts (a V4 pool by its source's V4Quoter, a Curve pool by its `get_dy`): many
 * quotes at one block in one `eth_call` of Multicall3's `aggregate3`, each allowed to fail, for the samples the
 * aggregator routes such pools on and the exact amounts it answers with.
 *
 * A quote may be a real swap run inside the call (a V4Quoter's: 55,000 gas to past 10M), so the quotes of one call can
 * ask more gas than a node gives one call (30M on anvil):
 *   - a call that runs out of gas as a whole is halved and each half asked again (a quote alone in such a call is
 *     undefined);
 *   - Multicall3 gives each call 63/64 of the gas left, so a quote that exhausts it fails inside the call and the
 *     quotes after it get what remains: a failure whose revert data says "out of gas" (`starved`: for the V4Quoter
 *     its `UnexpectedRevertBytes` of nothing, for any contract no data at all) is asked again, without the others, in
 *     another call; one starved alone in a call is undefined. A contract that reverts with no data of its own (a
 *     Vyper `assert`) is asked twice for it, and answered undefined.
 * The failures' revert data is why this does not use `aggregateCalls`, which drops it.
 */
import { multicall3Abi } from '@dex/abis';
import { BaseError, decodeFunctionResult, type Hex } from 'viem';
import type { ChainPublicClient } from './clients';
import { encodeAggregate3, type Call3 } from './multicall3';

/** How a kind of quote is read. */
export interface QuotedCallsOptions<T> {
  /** A quote from a call's return data; undefined for an answer of another shape. */
  decode(returnData: Hex): T | undefined;
  /** Whether a failed call's revert data says it ran out of gas (asked again alone) rather than refused. */
  starved(returnData: Hex): boolean;
  /** Quotes in one `eth_call` (past it, several sent together). */
  readonly perMulticall: number;
}

/** How nodes say a call ran out of gas: geth's `out of gas`, revm's (anvil's) `OutOfGas` and `MemoryOOG`-like halts. */
const OUT_OF_GAS = /out ?of ?gas|[A-Za-z]OOG\b/i;

/**
 * A call that failed as a whole for want of gas (the quotes asked more than the node gives one call; anvil halts a
 * call whose memory grows past what its gas pays for with `MemoryOOG`).
 */
export function isOutOfGas(err: unknown): boolean {
  const text = (e: unknown) => (e instanceof BaseError ? `${e.shortMessage} ${e.details}` : e instanceof Error ? e.message : '');
  return err instanceof BaseError ? !!err.walk((e) => OUT_OF_GAS.test(text(e))) : OUT_OF_GAS.test(text(err));
}

/** One `eth_call` of `aggregate3` at the block: each call's success and return data (a failure's revert data). */
async function aggregate3(client: ChainPublicClient, blockNumber: bigint, calls: readonly Call3[]): Promise<readonly { success: boolean; returnData: Hex }[]> {
  const multicall3 = client.chain.contracts?.multicall3?.address;
  if (!multicall3) throw new Error(`chain ${client.chain.id} has no Multicall3 address`);
  const { data } = await client.call({ to: multicall3, data: encodeAggregate3(calls), blockNumber, batch: false });
  if (!data) throw new Error(`Multicall3 at ${multicall3} returned no data`);
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data });
  if (results.length !== calls.length) throw new Error(`aggregate3 answered ${results.length} results for ${calls.length} calls`);
  return results;
}

const halves = <T>(items: readonly T[]): [T[], T[]] => [items.slice(0, items.length >> 1), items.slice(items.length >> 1)];

/**
 * The quotes of `calls` at the block, in their order: one `eth_call` per `perMulticall` of them, sent together; a
 * call out of gas as a whole halved, the quotes starved of gas inside one asked again (see the module note); a
 * refusal undefined. Throws when a call fails otherwise as a whole (the node, the transport).
 */
export async function quoteCalls<T>(client: ChainPublicClient, blockNumber: bigint, calls: readonly Call3[], options: QuotedCallsOptions<T>): Promise<(T | undefined)[]> {
  if (calls.length === 0) return [];
  if (calls.length > options.perMulticall) {
    const chunks: Call3[][] = [];
    for (let i = 0; i < calls.length; i += options.perMulticall) chunks.push(calls.slice(i, i + options.perMulticall));
    return (await Promise.all(chunks.map((chunk) => quoteCalls(client, blockNumber, chunk, options)))).flat();
  }
  const inHalves = async () => (await Promise.all(halves(calls).map((half) => quoteCalls(client, blockNumber, half, options)))).flat();
  let answers: Awaited<ReturnType<typeof aggregate3>>;
  try {
    answers = await aggregate3(client, blockNumber, calls);
  } catch (err) {
    // Out of gas as a whole: halved; a quote alone that a call cannot hold is undefined.
    if (isOutOfGas(err)) return calls.length > 1 ? inHalves() : [undefined];
    throw err;
  }
  const starved = answers.flatMap((a, i) => (!a.success && options.starved(a.returnData) ? [i] : []));
  // Every quote starved: the first alone asks more than the call holds; halved, it ends alone (and undefined).
  if (starved.length === calls.length && calls.length > 1) return inHalves();
  const quotes = answers.map((a) => (a.success ? options.decode(a.returnData) : undefined));
  if (starved.length > 0 && starved.length < calls.length) {
    const again = await quoteCalls(
      client,
      blockNumber,
      starved.map((i) => calls[i]),
      options,
    );
    starved.forEach((i, k) => (quotes[i] = again[k]));
  }
  return quotes;
}

/** A sample of a direction: an input and its quote's output (and what else the quote tells). */
export type LadderSample<T extends { readonly amountOut: bigint }> = T & { readonly amountIn: bigint };

/**
 * A direction's samples from its inputs' quotes (inputs ascending): up to the first refused, or paying less than the
 * sample before (an output that falls as the input grows is no curve to route on).
 */
export function ladderSamples<T extends { readonly amountOut: bigint }>(inputs: readonly bigint[], quotes: readonly (T | undefined)[]): LadderSample<T>[] {
  const samples: LadderSample<T>[] = [];
  for (const [i, amountIn] of inputs.entries()) {
    const q = quotes[i];
    if (q === undefined || (samples.length > 0 && q.amountOut < samples[samples.length - 1].amountOut)) break;
    samples.push({ ...q, amountIn });
  }
  return samples;
}
