// Quotes Curve's NG pools (StableswapNG, TwocryptoNG) through their own `get_dy`, all of them in one multicall: the
// samples the aggregator routes them on and the exact amounts it answers with.
//
// Why: an NG pool's price is its own maths at its own state (StableswapNG's dynamic off-peg fee, rate oracles and
// rebasing coins; TwocryptoNG's repegging price scale), which the product does not replicate. The pool's view
// `get_dy(i, j, dx)` is what it pays for `dx` of coin i in coin j at the block (StableswapNG: int128 indices, the
// views contract's maths, which mid-ramp truncates A as the real one does, so it can differ from `exchange` there;
// the answer's simulated execution is what a route is answered with). Every ordered coin pair of a pool is a
// direction of its own.
//
// Cost: one `eth_call` per block for all the pools sampled, Multicall3's `aggregate3` through `quoteCalls`
// (quoted-calls.ts: chunks of `CURVE_QUOTES_PER_MULTICALL`, a call out of gas halved). A Vyper `assert` reverts with
// no data, which reads as a quote starved of gas: asked once more alone, then undefined.
//
// Semantics: a direction's inputs are quoted ascending (duplicates once, 0 dropped) and its samples end before the
// first the pool refuses (an input past what the pool can pay reverts) or that pays less than the one before.
import { refineSampleLadder } from '@dex/routing';
import { toFunctionSelector, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { returnWord, type Call3 } from '../multicall3';
import { ladderSamples, quoteCalls } from '../quoted-calls';

/** Which NG pool: their `get_dy` differ in the indices' type. */
export type CurvePoolFlavor = 'stableswap-ng' | 'twocrypto-ng';

/** Quotes in one `eth_call`: a `get_dy` runs the pool's Newton iterations, some 30,000 to 150,000 gas. */
export const CURVE_QUOTES_PER_MULTICALL = 200;

const GET_DY: Readonly<Record<CurvePoolFlavor, string>> = {
  'stableswap-ng': toFunctionSelector('get_dy(int128,int128,uint256)').slice(2),
  'twocrypto-ng': toFunctionSelector('get_dy(uint256,uint256,uint256)').slice(2),
};

const word = (n: bigint): string => n.toString(16).padStart(64, '0');

/** `get_dy(i, j, dx)` calldata of a pool's direction, for any input (coin indices from 0; both flavors encode them alike). */
export function curveGetDyCalldata(flavor: CurvePoolFlavor, i: number, j: number): (amountIn: bigint) => Hex {
  if (!Number.isInteger(i) || !Number.isInteger(j) || i < 0 || j < 0 || i === j) throw new RangeError(`not a coin pair: ${i}, ${j}`);
  const head = `0x${GET_DY[flavor]}${word(BigInt(i))}${word(BigInt(j))}`;
  return (amountIn) => {
    if (amountIn <= 0n || amountIn >= 1n << 256n) throw new RangeError(`not an input: ${amountIn}`);
    return `${head}${word(amountIn)}` as Hex;
  };
}

/** A quote: what the pool pays. */
export interface CurveQuote {
  readonly amountOut: bigint;
}

const options = {
  decode: (data: Hex): CurveQuote | undefined => {
    const amountOut = returnWord(data, 0);
    return amountOut === undefined ? undefined : { amountOut };
  },
  // Out of gas inside a call leaves no revert data; so does a Vyper assert (asked once more, then undefined).
  starved: (data: Hex): boolean => data === '0x',
  perMulticall: CURVE_QUOTES_PER_MULTICALL,
};

export interface CurveSwapToQuote {
  readonly pool: Address;
  readonly flavor: CurvePoolFlavor;
  /** The coins' indices in the pool: i in, j out. */
  readonly i: number;
  readonly j: number;
  readonly amountIn: bigint;
}

/**
 * Each swap's `get_dy` at `blockNumber`, in one `eth_call` (see the module note); undefined where the pool refuses it
 * (or the input is 0). A failure of the call as a whole (the node, the transport) throws.
 */
export async function quoteCurveSwaps(client: ChainPublicClient, params: { readonly swaps: readonly CurveSwapToQuote[]; readonly blockNumber: bigint }): Promise<(bigint | undefined)[]> {
  const sent = params.swaps.flatMap((s, k) => (s.amountIn > 0n ? [k] : []));
  const out: (bigint | undefined)[] = params.swaps.map(() => undefined);
  if (sent.length === 0) return out;
  const calls = sent.map((k): Call3 => {
    const s = params.swaps[k];
    return { target: s.pool, callData: curveGetDyCalldata(s.flavor, s.i, s.j)(s.amountIn) };
  });
  const quotes = await quoteCalls(client, params.blockNumber, calls, options);
  sent.forEach((k, n) => (out[k] = quotes[n]?.amountOut));
  return out;
}

/** One direction of a pool to sample: coin i in, coin j out, at the inputs of `ladder` (any order). */
export interface CurveDirectionToSample {
  readonly i: number;
  readonly j: number;
  readonly ladder: readonly bigint[];
}

export interface CurvePoolToSample {
  readonly pool: Address;
  readonly flavor: CurvePoolFlavor;
  readonly directions: readonly CurveDirectionToSample[];
}

/** A direction's samples: by input ascending, up to the first the pool refuses or that pays less than the one before. */
export interface CurveDirectionSample {
  readonly i: number;
  readonly j: number;
  readonly samples: { readonly amountIn: bigint; readonly amountOut: bigint }[];
}

/**
 * Samples NG pools at `blockNumber` by their `get_dy`: every input of every direction of every pool in one `eth_call`
 * (see the module note). With `refine`, a second round adds up to that many inputs to each direction where its first
 * samples' chords fall furthest under the pool's curve (`refineSampleLadder`: at a stable pool's bend, where the output
 * coin runs out), every direction's in one more `eth_call`. Per pool, in the order given, its directions' samples.
 */
export async function sampleCurvePools(
  client: ChainPublicClient,
  params: { readonly pools: readonly CurvePoolToSample[]; readonly blockNumber: bigint; readonly refine?: number },
): Promise<CurveDirectionSample[][]> {
  const directions = params.pools.flatMap((pool) => pool.directions.map((d) => ({ pool, d, inputs: ascending(d.ladder) })));
  const quote = async (inputsOf: readonly (readonly bigint[])[]) => {
    const calls = directions.flatMap(({ pool, d }, k) => {
      const calldata = curveGetDyCalldata(pool.flavor, d.i, d.j);
      return inputsOf[k].map((amountIn): Call3 => ({ target: pool.pool, callData: calldata(amountIn) }));
    });
    const quotes = await quoteCalls(client, params.blockNumber, calls, options);
    let at = 0;
    return inputsOf.map((inputs) => quotes.slice(at, (at += inputs.length)));
  };
  const first = await quote(directions.map((d) => d.inputs));
  let sampled = directions.map(({ inputs }, k) => ladderSamples(inputs, first[k]));
  if (params.refine) {
    const extras = sampled.map((samples) => refineSampleLadder(samples, params.refine!));
    const second = await quote(extras);
    sampled = directions.map(({ inputs }, k) => {
      const merged = [...inputs.map((amountIn, n) => ({ amountIn, quote: first[k][n] })), ...extras[k].map((amountIn, n) => ({ amountIn, quote: second[k][n] }))];
      merged.sort((a, b) => (a.amountIn < b.amountIn ? -1 : a.amountIn > b.amountIn ? 1 : 0));
      return ladderSamples(
        merged.map((m) => m.amountIn),
        merged.map((m) => m.quote),
      );
    });
  }
  const out = directions.map(({ d }, k): CurveDirectionSample => ({ i: d.i, j: d.j, samples: sampled[k].map(({ amountIn, amountOut }) => ({ amountIn, amountOut })) }));
  let next = 0;
  return params.pools.map((pool) => out.slice(next, (next += pool.directions.length)));
}

/** A ladder's inputs ascending, each once, 0 left out. */
const ascending = (ladder: readonly bigint[]): bigint[] => [...new Set(ladder)].filter((a) => a > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const FACTORY_ABI = [
  { type: 'function', name: 'pool_count', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  { type: 'function', name: 'pool_list', stateMutability: 'view', inputs: [{ type: 'uint256' }], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'get_coins', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'address[]' }] },
] as const;

/** A Curve NG factory: StableswapNG's (`get_coins` an `address[]`) or TwocryptoNG's (an `address[2]`). */
export interface CurveFactoryRef {
  readonly factory: Address;
  readonly flavor: CurvePoolFlavor;
}

const TWOCRYPTO_FACTORY_ABI = [{ type: 'function', name: 'get_coins', stateMutability: 'view', inputs: [{ type: 'address' }], outputs: [{ type: 'address[2]' }] }] as const;

/** Each factory's `pool_count()` at `blockNumber`, in one multicall (both NG factories have it). A failing read throws. */
export async function readCurvePoolCounts(client: ChainPublicClient, params: { readonly factories: readonly Address[]; readonly blockNumber?: bigint }): Promise<number[]> {
  if (params.factories.length === 0) return [];
  const counts = (await client.multicall({
    allowFailure: false,
    blockNumber: params.blockNumber,
    contracts: params.factories.map((factory) => ({ address: factory, abi: FACTORY_ABI, functionName: 'pool_count' })),
  } as never)) as unknown as bigint[];
  return counts.map(Number);
}

/** `pool_list(index)` of each entry at `blockNumber`, in one multicall (both NG factories have it). A failing read throws. */
export async function readCurvePoolList(client: ChainPublicClient, params: { readonly entries: readonly { readonly factory: Address; readonly index: number }[]; readonly blockNumber?: bigint }): Promise<Address[]> {
  if (params.entries.length === 0) return [];
  return (await client.multicall({
    allowFailure: false,
    blockNumber: params.blockNumber,
    contracts: params.entries.map((e) => ({ address: e.factory, abi: FACTORY_ABI, functionName: 'pool_list', args: [BigInt(e.index)] })),
  } as never)) as unknown as Address[];
}

/**
 * Each pool's coins at `blockNumber` as its factory's `get_coins(pool)` tells them (in the pool's coin order), in one
 * multicall. A failing read throws.
 */
export async function readCurvePoolCoins(client: ChainPublicClient, params: { readonly pools: readonly (CurveFactoryRef & { readonly pool: Address })[]; readonly blockNumber?: bigint }): Promise<Address[][]> {
  if (params.pools.length === 0) return [];
  const coins = (await client.multicall({
    allowFailure: false,
    blockNumber: params.blockNumber,
    contracts: params.pools.map((p) => ({ address: p.factory, abi: p.flavor === 'twocrypto-ng' ? TWOCRYPTO_FACTORY_ABI : FACTORY_ABI, functionName: 'get_coins', args: [p.pool] })),
  } as never)) as unknown as (readonly Address[])[];
  return coins.map((c) => [...c]);
}

/**
 * Every pool of a Curve NG factory at `blockNumber` with its coins, in the pool's coin order: `pool_count`, then
 * `pool_list(k)` of each, then the factory's `get_coins(pool)` of each (three `eth_call`s); none for a factory with no
 * code at the block (deployed later: its deployment logs announce its pools). Without `blockNumber`, at the newest
 * block. A failing read throws.
 */
export async function readCurveFactoryPools(client: ChainPublicClient, params: CurveFactoryRef & { readonly blockNumber?: bigint }): Promise<{ readonly address: Address; readonly coins: readonly Address[] }[]> {
  const { factory, flavor, blockNumber } = params;
  // A factory not deployed yet at the block has no pool there: its deployments' logs announce its pools later.
  const code = await client.getCode({ address: factory, blockNumber });
  if (!code || code === '0x') return [];
  const [count] = await readCurvePoolCounts(client, { factories: [factory], blockNumber });
  const pools = await readCurvePoolList(client, { entries: Array.from({ length: count }, (_, index) => ({ factory, index })), blockNumber });
  const coins = await readCurvePoolCoins(client, { pools: pools.map((pool) => ({ factory, flavor, pool })), blockNumber });
  return pools.map((address, k) => ({ address, coins: coins[k] }));
}
