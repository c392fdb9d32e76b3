// Reads Uniswap V4 pools at a block through their PoolManager's own storage (`extsload`), so that no StateView
// (nor any periphery contract) is needed: a pool's Pool.State is at keccak256(abi.encodePacked(poolId, uint256(6)))
// (the PoolManager's `pools` mapping, v4-core's StateLibrary.POOLS_SLOT), and from there
//   +0 slot0: sqrtPriceX96 (160 bits) | tick (int24) | protocolFee (24 bits) | lpFee (24 bits), low to high
//   +1, +2 feeGrowthGlobal0X128, feeGrowthGlobal1X128
//   +3 liquidity (uint128)
//   +4 ticks: mapping(int24 => TickInfo), a tick's first word liquidityGross (low 128 bits) | liquidityNet (int128)
//   +5 tickBitmap: mapping(int16 => uint256), as Uniswap V3's (compressed tick = tick / tickSpacing, word = >> 8)
//   +6 positions
// A mapping's entry for key k is at keccak256(abi.encodePacked(int256(k), mappingSlot)). The pool key itself is not
// in storage (only its id): it is read from the pool's Initialize event.
import type { UniswapV4KeyRead, UniswapV4PoolRead, UniswapV4Slot0Read } from '@dex/messages';
import { concat, keccak256, numberToHex, parseAbiItem, toFunctionSelector, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';

const MIN_TICK = -887272;
const MAX_TICK = 887272;
/** v4-core's StateLibrary offsets within Pool.State. */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;
const TICKS_OFFSET = 4n;
const TICK_BITMAP_OFFSET = 5n;
/** Slots asked in one `extsload(bytes32[])` call: some 2,100 gas each, far under any node's call gas cap. */
export const SLOTS_PER_CALL = 2_000;
/** `extsload` calls of one read in flight at once. */
const CALLS_IN_FLIGHT = 4;

const EXTSLOAD = toFunctionSelector('extsload(bytes32[])');
const MASK_24 = (1n << 24n) - 1n;
const MASK_128 = (1n << 128n) - 1n;

/** IPoolManager's Initialize: the pool's key in full (the PoolManager keeps only its id). */
export const uniswapV4InitializeEvent = parseAbiItem(
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
);

const word = (n: bigint): Hex => numberToHex(BigInt.asUintN(256, n), { size: 32 });

/** The slot of a pool's Pool.State (its slot0) in the PoolManager's storage. */
export const v4PoolStateSlot = (id: Hex): bigint => BigInt(keccak256(concat([id, word(POOLS_SLOT)])));

/** The slot of a mapping's entry for a signed key (a tick, a bitmap word), the mapping at `mappingSlot`. */
const entrySlot = (key: number, mappingSlot: bigint): bigint => BigInt(keccak256(concat([word(BigInt(key)), word(mappingSlot)])));

/** The slot of a pool's tick's first word (liquidityGross | liquidityNet). */
export const v4TickSlot = (stateSlot: bigint, tick: number): bigint => entrySlot(tick, stateSlot + TICKS_OFFSET);

/** The slot of a pool's tick bitmap word. */
export const v4BitmapSlot = (stateSlot: bigint, wordPosition: number): bigint => entrySlot(wordPosition, stateSlot + TICK_BITMAP_OFFSET);

/** slot0's fields from its word (v4-core's Slot0Library). */
export function decodeV4Slot0(value: bigint): UniswapV4Slot0Read {
  return {
    sqrtPriceX96: value & ((1n << 160n) - 1n),
    tick: Number(BigInt.asIntN(24, value >> 160n)),
    protocolFee: Number((value >> 184n) & MASK_24),
    lpFee: Number((value >> 208n) & MASK_24),
  };
}

/** A tick's first word: liquidityGross (low 128 bits) and liquidityNet (the high 128, signed). */
export const decodeV4TickLiquidity = (value: bigint) => ({ liquidityGross: value & MASK_128, liquidityNet: BigInt.asIntN(128, value >> 128n) });

/** `extsload(bytes32[] slots)` calldata. */
function extsloadCall(slots: readonly bigint[]): Hex {
  return `${EXTSLOAD}${word(32n).slice(2)}${word(BigInt(slots.length)).slice(2)}${slots.map((s) => word(s).slice(2)).join('')}`;
}

/** The values of an `extsload(bytes32[])` answer; throws on an answer of another shape. */
function extsloadValues(data: Hex | undefined, count: number): bigint[] {
  const hex = data?.slice(2) ?? '';
  const at = (i: number) => BigInt(`0x${hex.slice(i * 64, (i + 1) * 64)}`);
  if (hex.length !== (count + 2) * 64 || at(0) !== 32n || at(1) !== BigInt(count)) throw new Error(`extsload answered ${hex.length / 2} bytes for ${count} slots`);
  return Array.from({ length: count }, (_, i) => at(i + 2));
}

/**
 * The PoolManager's storage at `slots` at `blockNumber`, in calls of `SLOTS_PER_CALL`, `CALLS_IN_FLIGHT` at a time.
 * A call that fails (the node, the transport, a contract without `extsload`) rejects the read.
 */
export async function readPoolManagerSlots(client: ChainPublicClient, poolManager: Address, slots: readonly bigint[], blockNumber: bigint): Promise<bigint[]> {
  const values = new Array<bigint>(slots.length);
  const chunks = Math.ceil(slots.length / SLOTS_PER_CALL);
  let next = 0;
  const worker = async () => {
    while (next < chunks) {
      const start = next++ * SLOTS_PER_CALL;
      const chunk = slots.slice(start, start + SLOTS_PER_CALL);
      const { data } = await client.call({ to: poolManager, data: extsloadCall(chunk), blockNumber, batch: false });
      extsloadValues(data, chunk.length).forEach((v, j) => (values[start + j] = v));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CALLS_IN_FLIGHT, chunks) }, worker));
  return values;
}

export interface ReadUniswapV4Slot0sParameters {
  readonly poolManager: Address;
  /** The pools' ids (PoolId). */
  readonly ids: readonly Hex[];
  readonly blockNumber: bigint;
}

/**
 * Each pool's slot0 at a block (price, tick, protocol fee, LP fee: a dynamic-fee pool's LP fee changes without an
 * event), in one round; every pool undefined when the read fails.
 */
export async function readUniswapV4Slot0s(client: ChainPublicClient, params: ReadUniswapV4Slot0sParameters): Promise<(UniswapV4Slot0Read | undefined)[]> {
  if (params.ids.length === 0) return [];
  try {
    const values = await readPoolManagerSlots(client, params.poolManager, params.ids.map(v4PoolStateSlot), params.blockNumber);
    return values.map(decodeV4Slot0);
  } catch {
    return params.ids.map(() => undefined);
  }
}

export interface ReadUniswapV4PoolsParameters {
  readonly poolManager: Address;
  /** Each pool's id and its key's tick spacing (the bitmap's words are of compressed ticks). */
  readonly pools: readonly { readonly id: Hex; readonly tickSpacing: number }[];
  readonly blockNumber: bigint;
}

/**
 * Reads pools whole at a block, in three rounds over every pool: slot0 and liquidity; every word of each
 * initialized pool's tick bitmap over the whole tick range (6,932 at tick spacing 1); the first word of each tick
 * the set bits name (liquidityGross, liquidityNet). A pool not initialized reads as zeros without ticks; every pool
 * is undefined when a round fails (the node or the transport), and a pool with a tick spacing no key can have.
 */
export async function readUniswapV4Pools(client: ChainPublicClient, params: ReadUniswapV4PoolsParameters): Promise<(UniswapV4PoolRead | undefined)[]> {
  const { poolManager, blockNumber } = params;
  const pools = params.pools.map((p) => ({ ...p, valid: Number.isInteger(p.tickSpacing) && p.tickSpacing >= 1 && p.tickSpacing <= 32_767, state: v4PoolStateSlot(p.id) }));
  try {
    const headers = await readPoolManagerSlots(client, poolManager, pools.flatMap((p) => [p.state, p.state + LIQUIDITY_OFFSET]), blockNumber);
    const reads = pools.map((p, i) => ({ ...p, slot0: decodeV4Slot0(headers[2 * i]), liquidity: headers[2 * i + 1] & MASK_128, ticks: [] as UniswapV4PoolRead['ticks'][number][] }));
    const walked = reads.filter((r) => r.valid && r.slot0.sqrtPriceX96 !== 0n);
    const words = walked.flatMap((r) => {
      const first = Math.floor(Math.floor(MIN_TICK / r.tickSpacing) / 256);
      const last = Math.floor(Math.floor(MAX_TICK / r.tickSpacing) / 256);
      return Array.from({ length: last - first + 1 }, (_, k) => ({ read: r, position: first + k }));
    });
    const bitmap = await readPoolManagerSlots(client, poolManager, words.map((w) => v4BitmapSlot(w.read.state, w.position)), blockNumber);
    const ticks = words.flatMap((w, k) => setBits(bitmap[k]).map((bit) => ({ read: w.read, index: (w.position * 256 + bit) * w.read.tickSpacing })));
    const infos = await readPoolManagerSlots(client, poolManager, ticks.map((t) => v4TickSlot(t.read.state, t.index)), blockNumber);
    ticks.forEach((t, k) => t.read.ticks.push({ index: t.index, ...decodeV4TickLiquidity(infos[k]) }));
    return reads.map((r) => (r.valid ? { ...r.slot0, liquidity: r.liquidity, ticks: r.ticks } : undefined));
  } catch {
    return params.pools.map(() => undefined);
  }
}

/** The set bits of a bitmap word, ascending. */
function setBits(bits: bigint): number[] {
  const out: number[] = [];
  for (let bit = 0; bits !== 0n; bit++, bits >>= 1n) if (bits & 1n) out.push(bit);
  return out;
}

export interface ReadUniswapV4PoolKeysParameters {
  readonly poolManager: Address;
  /** Each pool's id and the block of its Initialize (the pool's creation block, as the indexer stored it). */
  readonly pools: readonly { readonly id: Hex; readonly block: bigint }[];
}

/**
 * Each pool's key, from its Initialize event in its creation block (one eth_getLogs per block, for the pools
 * created in it); undefined for a pool whose Initialize is not there. Rejects when the node does not answer.
 */
export async function readUniswapV4PoolKeys(client: ChainPublicClient, params: ReadUniswapV4PoolKeysParameters): Promise<(UniswapV4KeyRead | undefined)[]> {
  const byBlock = new Map<bigint, Hex[]>();
  for (const p of params.pools) byBlock.set(p.block, [...(byBlock.get(p.block) ?? []), p.id.toLowerCase() as Hex]);
  const keys = new Map<string, UniswapV4KeyRead>();
  for (const [block, ids] of byBlock) {
    const logs = await client.getLogs({ address: params.poolManager, event: uniswapV4InitializeEvent, args: { id: ids }, fromBlock: block, toBlock: block, strict: true });
    for (const { args } of logs) {
      keys.set(args.id.toLowerCase(), { currency0: args.currency0, currency1: args.currency1, fee: args.fee, tickSpacing: args.tickSpacing, hooks: args.hooks });
    }
  }
  return params.pools.map((p) => keys.get(p.id.toLowerCase()));
}
