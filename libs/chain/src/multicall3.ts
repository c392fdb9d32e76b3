/**
 * Multicall3's `aggregate3` for reads of many small calls (the ticks of concentrated pools, a route's core quotes):
 * the calldata built and the answer read word by word, the calls cut into chunks of `CALLS_PER_MULTICALL` sent a
 * few at a time, each as one `eth_call` at the block. viem's `multicall` encodes and decodes each call through its
 * generic ABI coder and schedules each on a batch timer: some 40 us a call, which reading a pool's whole tick bitmap
 * (6,932 words at tick spacing 1) made seconds for a few hundred pools.
 */
import { toFunctionSelector, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from './clients';

/** Calls in one `eth_call` (each a pool getter of a few thousand gas: far under any node's call gas cap). */
export const CALLS_PER_MULTICALL = 1_000;
/** `eth_call`s of one `aggregateCalls` in flight at once. */
const MULTICALLS_IN_FLIGHT = 4;

const AGGREGATE3 = toFunctionSelector('aggregate3((address,bool,bytes)[])').slice(2);

/** One call: its target and calldata (0x-prefixed, whole bytes). */
export interface Call3 {
  readonly target: Address;
  readonly callData: Hex;
}

const pad = (hex: string) => hex.padStart(64, '0');
const wordOf = (n: number) => pad(n.toString(16));

/** `aggregate3(calls)` calldata, every call allowed to fail: the same bytes as viem's `encodeFunctionData`. */
export function encodeAggregate3(calls: readonly Call3[]): Hex {
  const heads: string[] = [];
  const tails: string[] = [];
  // Each element's offset is counted from the start of the element offsets (right after the length word).
  let offset = calls.length * 32;
  for (const { target, callData } of calls) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(target)) throw new Error(`not an address: ${target}`);
    if ((callData.length - 2) % 2 !== 0) throw new Error(`calldata of odd length: ${callData}`);
    const data = callData.slice(2).toLowerCase();
    const bytes = data.length / 2;
    const padded = data.padEnd(Math.ceil(bytes / 32) * 64, '0');
    // (address target, bool allowFailure, bytes callData): two static words, the bytes' offset (3 words), its length, data.
    const element = pad(target.slice(2).toLowerCase()) + wordOf(1) + wordOf(96) + wordOf(bytes) + padded;
    heads.push(wordOf(offset));
    tails.push(element);
    offset += element.length / 2;
  }
  return `0x${AGGREGATE3}${wordOf(32)}${wordOf(calls.length)}${heads.join('')}${tails.join('')}`;
}

/**
 * The answers of `aggregate3`'s `(bool success, bytes returnData)[]`: each call's return data, or undefined where it
 * failed. Throws on an answer that is not of that shape.
 */
export function decodeAggregate3(data: Hex, count: number): (Hex | undefined)[] {
  const hex = data.slice(2);
  const word = (at: number): number => {
    const w = hex.slice(at * 2, at * 2 + 64);
    if (w.length !== 64) throw new Error('aggregate3 answer cut short');
    const n = Number.parseInt(w, 16);
    if (!Number.isSafeInteger(n)) throw new Error('aggregate3 answer out of range');
    return n;
  };
  const array = word(0);
  const length = word(array);
  if (length !== count) throw new Error(`aggregate3 answered ${length} results for ${count} calls`);
  const base = array + 32;
  const out: (Hex | undefined)[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const element = base + word(base + i * 32);
    const success = word(element) !== 0;
    const bytesAt = element + word(element + 32);
    const size = word(bytesAt);
    const body = hex.slice((bytesAt + 32) * 2, (bytesAt + 32 + size) * 2);
    if (body.length !== size * 2) throw new Error('aggregate3 answer cut short');
    out[i] = success ? `0x${body}` : undefined;
  }
  return out;
}

/**
 * Calls `count` calls at `blockNumber` through Multicall3 in chunks, `MULTICALLS_IN_FLIGHT` at a time: `callAt(i)`
 * makes the i-th call when its chunk is sent and `answer(i, data)` takes its return data (undefined where the call
 * failed) when its chunk comes back, so a read of hundreds of thousands of calls holds a few chunks at a time. A
 * chunk whose `eth_call` fails as a whole (the node, the transport) rejects the read.
 */
export async function forEachCall(client: ChainPublicClient, blockNumber: bigint, count: number, callAt: (i: number) => Call3, answer: (i: number, data: Hex | undefined) => void): Promise<void> {
  if (count === 0) return;
  const multicall3 = client.chain.contracts?.multicall3?.address;
  if (!multicall3) throw new Error(`chain ${client.chain.id} has no Multicall3 address`);
  const chunks = Math.ceil(count / CALLS_PER_MULTICALL);
  let next = 0;
  const worker = async () => {
    while (next < chunks) {
      const start = next++ * CALLS_PER_MULTICALL;
      const chunk = Array.from({ length: Math.min(CALLS_PER_MULTICALL, count - start) }, (_, j) => callAt(start + j));
      const { data } = await client.call({ to: multicall3, data: encodeAggregate3(chunk), blockNumber, batch: false });
      if (!data) throw new Error(`Multicall3 at ${multicall3} returned no data`);
      decodeAggregate3(data, chunk.length).forEach((r, j) => answer(start + j, r));
    }
  };
  await Promise.all(Array.from({ length: Math.min(MULTICALLS_IN_FLIGHT, chunks) }, worker));
}

/** Each call's return data at `blockNumber` (undefined where the call failed), through Multicall3 in chunks (`forEachCall`). */
export async function aggregateCalls(client: ChainPublicClient, blockNumber: bigint, calls: readonly Call3[]): Promise<(Hex | undefined)[]> {
  const out: (Hex | undefined)[] = new Array(calls.length);
  await forEachCall(client, blockNumber, calls.length, (i) => calls[i], (i, data) => (out[i] = data));
  return out;
}

/** The `index`-th 32-byte word of return data as an unsigned integer (undefined past its end). */
export function returnWord(data: Hex, index: number): bigint | undefined {
  const w = data.slice(2 + index * 64, 2 + (index + 1) * 64);
  return w.length === 64 ? BigInt(`0x${w}`) : undefined;
}
