// Samples core (oracle-priced) pools: their prices cannot be replicated off chain, so each block the
// aggregator asks the pools themselves, all of them in one multicall: the reserves and a ladder of inputs per
// direction, from dust to the most the pool will quote.
//
// How far a pool quotes: `estimateSwap` reverts (`InsufficientReserve`) once the output would pass the output
// reserve, so a direction's bound is the input whose output is the whole output reserve. Its output is the
// input at the oracle price less the dynamic fee, whose rate grows with the swap's size (or falls, for a swap that
// rebalances the pool): a concave output, so the average rate out(a) / a falls with size and the input
// reserveOut / (out(a) / a), measured at the largest input the last sample quoted, is at most the bound (and at
// that sample's size, close to it). Each ladder is laid on the previous sample's reserves and rates:
//
//   - CORE_LADDER_SIZE (19) inputs per direction: 7 geometric from a millionth of that lower estimate to 1/32 of
//     it, then 1/16, 2/16, 3/16, 4/16, 6/16, 8/16, 10/16 and 12/16 of it (these 15 in one `estimateSwapBatch`: where a
//     trade is a fair share of the pool the chords between samples stay within about 5e-5 of its curve), and 4 that
//     close in geometrically on the bound, 1 - 2^-4, 2^-6, 2^-8 and 2^-10 of its likely value (the average rate
//     extrapolated along the fee's growth), each its own `estimateSwap`: one past the bound (the price moved, a swap
//     drained the pool) fails alone and the ladder ends below it;
//   - a pool sampled for the first time (or whose last samples paid nothing) has no rate yet: its ladder runs
//     geometric up to half its input reserve, and it is sampled again at once (a second multicall, for those
//     pools only) on the ladder its first samples give.
//
// A batch the pool refuses as a whole is retried amount by amount, cut at the first failure (another multicall,
// only for those).
import { ammPoolAbi } from '@dex/abis';
import { geometricLadder } from '@dex/routing';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export { geometricLadder };

export interface QuoteSample {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface CorePoolToSample {
  readonly address: Address;
  readonly token0: Address;
  readonly token1: Address;
  /**
   * The pool's previous sample: the ladders are laid on its reserves and on the rates its samples show. Without
   * it the reserves are read first and the pool is sampled twice (see the module note).
   */
  readonly previous?: Omit<CorePoolSample, 'address'>;
}

export interface SampleCorePoolsParameters {
  readonly pools: readonly CorePoolToSample[];
  readonly blockNumber: bigint;
  /** Inputs per direction (default CORE_LADDER_SIZE). */
  readonly ladderSize?: number;
}

export interface CorePoolSample {
  readonly address: Address;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly samples0to1: QuoteSample[];
  readonly samples1to0: QuoteSample[];
}

/** Undefined for a pool whose reserves could not be read. */
export type SampleCorePoolsReturnType = (CorePoolSample | undefined)[];

/** Inputs sampled per direction of a core pool (see the module note). */
export const CORE_LADDER_SIZE = 19;
/** The ladder's inputs from a sixteenth of the bound up, in sixteenths of it. */
const UPPER_SIXTEENTHS = [1n, 2n, 3n, 4n, 6n, 8n, 10n, 12n];
/** Of them, the inputs closing in on the bound, quoted one by one. */
export const CORE_LADDER_NEAR_BOUND = 4;

/** A direction's inputs: those quoted in one batch and those quoted one by one (allowed to fail). */
export interface CoreLadder {
  readonly batch: bigint[];
  readonly single: bigint[];
  /** Laid without a rate (first sample): the pool is sampled again on the ladder its samples give. */
  readonly blind: boolean;
}

/**
 * Estimates of a direction's bound from its last samples; undefined without a sample that paid anything.
 * `lower`: reserveOut over the average rate of the largest paying input (at most the bound for a concave output).
 * `likely`: where the average rate, extrapolated along the line through the two largest paying inputs (a fee rate
 * growing linearly with size, as the pool's own does until it reaches its cap), pays the reserve; at least `lower`.
 */
export function coreBoundEstimate(reserveOut: bigint, samples: readonly QuoteSample[]): { lower: bigint; likely: bigint } | undefined {
  const paying = samples.filter((s) => s.amountOut > 0n).sort((a, b) => (a.amountIn < b.amountIn ? -1 : a.amountIn > b.amountIn ? 1 : 0));
  const top = paying[paying.length - 1];
  if (!top || reserveOut <= 0n) return undefined;
  const lower = (reserveOut * top.amountIn) / top.amountOut;
  const below = paying[paying.length - 2];
  if (!below || below.amountIn * 16n > top.amountIn * 15n) return { lower, likely: lower };
  // Average rate r(a) = c0 - c1 a through the two samples; r(b) b = reserveOut.
  const [a1, r1, a2, r2] = [Number(below.amountIn), Number(below.amountOut) / Number(below.amountIn), Number(top.amountIn), Number(top.amountOut) / Number(top.amountIn)];
  const c1 = (r1 - r2) / (a2 - a1);
  const c0 = r2 + c1 * a2;
  const R = Number(reserveOut);
  const disc = c0 * c0 - 4 * c1 * R;
  const b = c1 > 0 && disc > 0 ? (c0 - Math.sqrt(disc)) / (2 * c1) : NaN;
  const likely = Number.isFinite(b) && b > Number(lower) && b < Number(lower) * 1.05 ? BigInt(Math.floor(b)) : lower;
  return { lower, likely };
}

/** The ladder of one direction of `n` inputs (see the module note); empty when the input reserve is empty. */
export function coreLadder(reserveIn: bigint, reserveOut: bigint, previous: readonly QuoteSample[] | undefined, n: number = CORE_LADDER_SIZE): CoreLadder {
  const estimate = previous ? coreBoundEstimate(reserveOut, previous) : undefined;
  if (estimate === undefined || estimate.lower < 1_000n) {
    if (reserveIn <= 0n) return { batch: [], single: [], blind: true };
    return { batch: geometricLadder(reserveIn / 1_000_000n || 1n, reserveIn / 2n || 1n, n), single: [], blind: true };
  }
  const { lower, likely } = estimate;
  const near = Math.min(CORE_LADDER_NEAR_BOUND, n >> 2);
  // Sixteenths of the bound (where a trade is a fair share of the pool, and the chords between samples must stay
  // close to the curve), then the body down to a millionth of it, geometric.
  const upperCount = Math.min(UPPER_SIXTEENTHS.length, Math.max(0, n - near - 2));
  const upper = UPPER_SIXTEENTHS.slice(UPPER_SIXTEENTHS.length - upperCount).map((k) => (lower * k) / 16n);
  const body = geometricLadder(lower / 1_000_000n || 1n, upper.length ? upper[0] / 2n : lower / 2n, n - near - upper.length);
  const batch = [...body, ...upper];
  const single = [10n, 8n, 6n, 4n]
    .slice(CORE_LADDER_NEAR_BOUND - near)
    .reverse()
    .map((k) => likely - (likely >> k));
  const ladder = [...batch, ...single];
  for (let i = 1; i < ladder.length; i++) if (ladder[i] <= ladder[i - 1]) ladder[i] = ladder[i - 1] + 1n;
  return { batch: ladder.slice(0, batch.length), single: ladder.slice(batch.length), blind: false };
}

type Side = 0 | 1;

export async function sampleCorePools(client: ChainPublicClient, params: SampleCorePoolsParameters): Promise<SampleCorePoolsReturnType> {
  const { blockNumber } = params;
  const n = params.ladderSize ?? CORE_LADDER_SIZE;
  const pools = [...params.pools];
  // Pools seen for the first time: their reserves first, to lay the ladders on.
  const unknown = pools.map((p, i) => (p.previous ? -1 : i)).filter((i) => i >= 0);
  if (unknown.length) {
    const reads = await client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: unknown.map((i) => ({ address: pools[i].address, abi: ammPoolAbi, functionName: 'getReserves' }) as const),
    });
    unknown.forEach((i, k) => {
      const r = reads[k];
      if (r.status === 'success') pools[i] = { ...pools[i], previous: { reserve0: r.result[0], reserve1: r.result[1], samples0to1: [], samples1to0: [] } };
    });
  }
  const laddersOf = (p: CorePoolToSample): [CoreLadder, CoreLadder] | undefined => {
    const prev = p.previous;
    if (!prev) return undefined;
    return [coreLadder(prev.reserve0, prev.reserve1, prev.samples0to1, n), coreLadder(prev.reserve1, prev.reserve0, prev.samples1to0, n)];
  };
  const first = await sampleOnLadders(client, blockNumber, pools, pools.map(laddersOf));
  // Pools laid blind whose first samples now give a rate: sampled again on the ladders those give.
  const again = first.flatMap((s, i) => {
    const ladders = laddersOf(pools[i]);
    const next = s && laddersOf({ ...pools[i], previous: s });
    return ladders && next && ([0, 1] as const).some((side) => ladders[side].blind && !next[side].blind) ? [i] : [];
  });
  if (again.length) {
    const ladders = again.map((i) => laddersOf({ ...pools[i], previous: first[i]! }));
    const second = await sampleOnLadders(
      client,
      blockNumber,
      again.map((i) => pools[i]),
      ladders,
    );
    again.forEach((i, k) => {
      if (second[k]) first[i] = second[k];
    });
  }
  return first;
}

/** One multicall: per pool its reserves, per direction its batch and its single quotes (then the batches' retries). */
async function sampleOnLadders(
  client: ChainPublicClient,
  blockNumber: bigint,
  pools: readonly CorePoolToSample[],
  ladders: readonly ([CoreLadder, CoreLadder] | undefined)[],
): Promise<SampleCorePoolsReturnType> {
  const directions = (p: CorePoolToSample, side: Side): [Address, Address] => (side === 0 ? [p.token0, p.token1] : [p.token1, p.token0]);
  const contracts = pools.flatMap((p, i) => {
    const pair = ladders[i] ?? [{ batch: [], single: [], blind: true }, { batch: [], single: [], blind: true }];
    return [
      { address: p.address, abi: ammPoolAbi, functionName: 'getReserves' } as const,
      ...([0, 1] as const).flatMap((side) => {
        const [tokenIn, tokenOut] = directions(p, side);
        return [
          { address: p.address, abi: ammPoolAbi, functionName: 'estimateSwapBatch', args: [tokenIn, tokenOut, pair[side].batch] } as const,
          ...pair[side].single.map((a) => ({ address: p.address, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, a] }) as const),
        ];
      }),
    ];
  });
  const reads = await client.multicall({ blockNumber, allowFailure: true, contracts });
  const retry: { pool: number; side: Side; amounts: bigint[] }[] = [];
  let k = 0;
  const out: SampleCorePoolsReturnType = pools.map((p, i) => {
    const pair = ladders[i];
    const reserves = reads[k++];
    const sides = ([0, 1] as const).map((side): QuoteSample[] => {
      const ladder = pair?.[side];
      const batch = reads[k++];
      const singles = (ladder?.single ?? []).map(() => reads[k++]);
      if (!ladder || reserves.status !== 'success' || ladder.batch.length === 0) return [];
      if (batch.status !== 'success') {
        retry.push({ pool: i, side, amounts: [...ladder.batch, ...ladder.single] });
        return [];
      }
      const samples = ladder.batch.map((amountIn, j) => ({ amountIn, amountOut: (batch.result as readonly bigint[])[j] }));
      // The quotes near the bound, up to the first the pool refuses.
      for (const [j, r] of singles.entries()) {
        if (r.status !== 'success' || (r.result as bigint) === 0n) break;
        samples.push({ amountIn: ladder.single[j], amountOut: r.result as bigint });
      }
      return samples;
    });
    if (reserves.status !== 'success') return undefined;
    const [reserve0, reserve1] = reserves.result as readonly [bigint, bigint, ...unknown[]];
    return { address: p.address, reserve0, reserve1, samples0to1: sides[0], samples1to0: sides[1] };
  });
  if (retry.length) {
    const singles = await client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: retry.flatMap(({ pool, side, amounts }) => {
        const p = pools[pool];
        const [tokenIn, tokenOut] = directions(p, side);
        return amounts.map((a) => ({ address: p.address, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, a] }) as const);
      }),
    });
    let j = 0;
    for (const { pool, side, amounts } of retry) {
      const samples: QuoteSample[] = [];
      let cut = false;
      for (const amountIn of amounts) {
        const r = singles[j++];
        if (cut) continue;
        if (r.status !== 'success' || r.result === 0n) {
          if (samples.length > 0) cut = true;
          continue;
        }
        samples.push({ amountIn, amountOut: r.result });
      }
      const sample = out[pool];
      if (sample) sample[side === 0 ? 'samples0to1' : 'samples1to0'].push(...samples);
    }
  }
  return out;
}
