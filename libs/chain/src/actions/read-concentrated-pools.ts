// Reads concentrated-liquidity pools whole at a block: price, tick, active liquidity, fee, tick spacing and every
// initialized tick with its net and gross liquidity. For a pool whose events the liquidity state never saw (it
// starts on a chain whose pools have positions already, or a pool's history predates the indexer's start).
//
// Uniswap V3 (and forks): slot0, liquidity, fee, tickSpacing; the initialized ticks are the set bits of the
// tickBitmap words over the whole tick range (compressed tick = tick / tickSpacing, word = compressed >> 8), then
// ticks(i) of each. Algebra Integral 1.2: globalState (price, tick, lastFee), liquidity, tickSpacing; the
// initialized ticks are a linked list (ticks(i).prevTick / nextTick) between the MIN_TICK and MAX_TICK sentinels.
import type { ConcentratedPoolRead } from '@dex/messages';
import { parseAbi, toFunctionSelector, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { aggregateCalls, forEachCall, returnWord, type Call3 } from '../multicall3';

const MIN_TICK = -887272;
const MAX_TICK = 887272;

export const uniswapV3PoolReadAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
]);

export const algebraPoolReadAbi = parseAbi([
  'function globalState() view returns (uint160 price, int24 tick, uint16 lastFee, uint8 pluginConfig, uint16 communityFee, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function ticks(int24 tick) view returns (uint256 liquidityTotal, int128 liquidityDelta, int24 prevTick, int24 nextTick, uint256 outerFeeGrowth0Token, uint256 outerFeeGrowth1Token)',
]);

export interface ReadConcentratedPoolsParameters {
  readonly pools: readonly { readonly address: Address; readonly kind: 'uniswap-v3' | 'algebra' }[];
  readonly blockNumber: bigint;
}

/** Per pool, its state, or undefined when the pool did not answer. */
export type ReadConcentratedPoolsReturnType = (ConcentratedPoolRead | undefined)[];

const floorDiv = (a: number, b: number) => Math.floor(a / b);

const select = (signature: string) => toFunctionSelector(signature);
const V3 = {
  slot0: select('slot0()'),
  liquidity: select('liquidity()'),
  fee: select('fee()'),
  tickSpacing: select('tickSpacing()'),
  tickBitmap: select('tickBitmap(int16)'),
  ticks: select('ticks(int24)'),
};
const ALGEBRA = {
  globalState: select('globalState()'),
  liquidity: select('liquidity()'),
  tickSpacing: select('tickSpacing()'),
  ticks: select('ticks(int24)'),
};
/** A call with one signed integer argument (int16 / int24), in two's complement over its 32-byte word. */
const withInt = (selector: Hex, n: number): Hex => `${selector}${BigInt.asUintN(256, BigInt(n)).toString(16).padStart(64, '0')}`;
const signed = (bits: number, word: bigint) => Number(BigInt.asIntN(bits, word));

/** A pool read failed (a call reverted, an answer short): the pool is undefined. */
class Unread extends Error {}

/** The `index`-th word of a call's answer; a failed call or a short answer fails the pool's read. */
function must(data: Hex | undefined, index: number): bigint {
  const w = data === undefined ? undefined : returnWord(data, index);
  if (w === undefined) throw new Unread();
  return w;
}

/** A pool's header and initialized ticks as they are read, and whether a call of its read failed. */
interface PoolRead {
  readonly address: Address;
  header?: Omit<ConcentratedPoolRead, 'ticks'>;
  ticks: ConcentratedPoolRead['ticks'][number][];
  failed: boolean;
}

/**
 * Reads every pool's header in one round (V3: slot0, liquidity, fee, tickSpacing; Algebra: globalState,
 * liquidity, tickSpacing and its MIN_TICK and MAX_TICK sentinels), then the V3 pools' whole tick bitmaps and the
 * ticks their set bits name, and the Algebra pools' tick lists one step a round (all pools in each), each round in
 * Multicall3 chunks (`aggregateCalls`). A pool whose call fails or answers short is undefined; the others are read.
 */
export async function readConcentratedPools(client: ChainPublicClient, params: ReadConcentratedPoolsParameters): Promise<ReadConcentratedPoolsReturnType> {
  const { blockNumber } = params;
  const reads: PoolRead[] = params.pools.map((p) => ({ address: p.address, ticks: [], failed: false }));
  const attempt = (read: PoolRead, step: () => void) => {
    if (read.failed) return;
    try {
      step();
    } catch (err) {
      if (!(err instanceof Unread)) throw err;
      read.failed = true;
    }
  };
  try {
    // Round 1: the headers.
    const headerCalls = params.pools.flatMap((p): Call3[] =>
      p.kind === 'algebra'
        ? [ALGEBRA.globalState, ALGEBRA.liquidity, ALGEBRA.tickSpacing, withInt(ALGEBRA.ticks, MIN_TICK), withInt(ALGEBRA.ticks, MAX_TICK)].map((callData) => ({ target: p.address, callData }))
        : [V3.slot0, V3.liquidity, V3.fee, V3.tickSpacing].map((callData) => ({ target: p.address, callData })),
    );
    const headers = await aggregateCalls(client, blockNumber, headerCalls);
    let at = 0;
    /** Algebra: the sentinels' ticks, recorded around the list. */
    const sentinels = new Map<PoolRead, { min: Hex | undefined; max: Hex | undefined }>();
    params.pools.forEach((p, i) => {
      const read = reads[i];
      const answers = headers.slice(at, at + (p.kind === 'algebra' ? 5 : 4));
      at += answers.length;
      attempt(read, () => {
        if (p.kind === 'algebra') {
          const [state, liquidity, spacing, min, max] = answers;
          read.header = { sqrtPriceX96: must(state, 0), tick: signed(24, must(state, 1)), liquidity: must(liquidity, 0), fee: Number(must(state, 2)), tickSpacing: signed(24, must(spacing, 0)) };
          sentinels.set(read, { min, max });
        } else {
          const [slot0, liquidity, fee, spacing] = answers;
          read.header = { sqrtPriceX96: must(slot0, 0), tick: signed(24, must(slot0, 1)), liquidity: must(liquidity, 0), fee: Number(must(fee, 0)), tickSpacing: signed(24, must(spacing, 0)) };
          if (read.header.tickSpacing <= 0) throw new Unread();
        }
      });
    });

    // V3: every word of each pool's tick bitmap over the whole tick range, then the ticks its set bits name.
    const v3 = params.pools.flatMap((p, i) => (p.kind !== 'algebra' && !reads[i].failed ? [reads[i]] : []));
    const words = v3.map((read) => {
      const spacing = read.header!.tickSpacing;
      const first = floorDiv(floorDiv(MIN_TICK, spacing), 256);
      const last = floorDiv(floorDiv(MAX_TICK, spacing), 256);
      return { read, first, count: last - first + 1 };
    });
    // The words are asked and read chunk by chunk (a V3 pool at tick spacing 1 has 6,932): only set bits are kept.
    const wordStarts: number[] = [];
    let total = 0;
    for (const w of words) {
      wordStarts.push(total);
      total += w.count;
    }
    const setBits: { read: PoolRead; word: number; bits: bigint }[] = [];
    /** The pool and bitmap word of the i-th call: the last pool whose first call is at or before i. */
    const wordOf = (i: number) => {
      let lo = 0;
      let hi = words.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (wordStarts[mid] <= i) lo = mid;
        else hi = mid - 1;
      }
      return { read: words[lo].read, word: words[lo].first + (i - wordStarts[lo]) };
    };
    await forEachCall(
      client,
      blockNumber,
      total,
      (i) => {
        const { read, word } = wordOf(i);
        return { target: read.address, callData: withInt(V3.tickBitmap, word) };
      },
      (i, answer) => {
        const { read, word } = wordOf(i);
        attempt(read, () => {
          const bits = must(answer, 0);
          if (bits !== 0n) setBits.push({ read, word, bits });
        });
      },
    );
    const tickCalls: { read: PoolRead; index: number }[] = [];
    // Chunks come back in any order: each pool's ticks ascending, as the read returns them.
    const order = new Map(reads.map((read, i) => [read, i]));
    setBits.sort((a, b) => (a.read === b.read ? a.word - b.word : order.get(a.read)! - order.get(b.read)!));
    for (const { read, word, bits } of setBits) {
      if (read.failed) continue;
      const spacing = read.header!.tickSpacing;
      for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) tickCalls.push({ read, index: (word * 256 + bit) * spacing });
    }
    const ticks = await aggregateCalls(client, blockNumber, tickCalls.map(({ read, index }) => ({ target: read.address, callData: withInt(V3.ticks, index) })));
    tickCalls.forEach(({ read, index }, k) => attempt(read, () => read.ticks.push({ index, liquidityGross: must(ticks[k], 0), liquidityNet: BigInt.asIntN(128, must(ticks[k], 1)) })));

    // Algebra: the tick list from MIN_TICK to MAX_TICK, one step a round for every pool still on its list.
    const record = (read: PoolRead, index: number, answer: Hex | undefined) => {
      // The sentinels hold liquidity only when a position is bounded by them; the list runs between them.
      const total = must(answer, 0);
      if (total > 0n) read.ticks.push({ index, liquidityGross: total, liquidityNet: BigInt.asIntN(128, must(answer, 1)) });
    };
    let walking: { read: PoolRead; next: number; seen: Set<number> }[] = [];
    for (const [read, { min }] of sentinels) {
      attempt(read, () => {
        record(read, MIN_TICK, min);
        walking.push({ read, next: signed(24, must(min, 3)), seen: new Set() });
      });
    }
    for (;;) {
      walking = walking.filter((w) => !w.read.failed && w.next !== MAX_TICK && w.next > MIN_TICK && !w.seen.has(w.next));
      if (walking.length === 0) break;
      const answers = await aggregateCalls(client, blockNumber, walking.map((w) => ({ target: w.read.address, callData: withInt(ALGEBRA.ticks, w.next) })));
      walking.forEach((w, k) =>
        attempt(w.read, () => {
          w.seen.add(w.next);
          record(w.read, w.next, answers[k]);
          w.next = signed(24, must(answers[k], 3));
        }),
      );
    }
    for (const [read, { max }] of sentinels) attempt(read, () => record(read, MAX_TICK, max));
  } catch {
    // The node or the transport failed a round: no pool is read (each is read again later).
    return params.pools.map(() => undefined);
  }
  return reads.map((read) => (read.failed || !read.header ? undefined : { ...read.header, ticks: read.ticks }));
}
