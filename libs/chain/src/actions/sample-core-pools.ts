// Samples core (oracle-priced) pools: their prices cannot be replicated off chain, so each block the
// aggregator asks the pools themselves, all of them in one multicall: the reserves and an `estimateSwapBatch`
// ladder per direction. A ladder the pool refuses as a whole is retried amount by amount, cut at the first
// failure (a second multicall, only for those).
import { ammPoolAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface QuoteSample {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface CorePoolToSample {
  readonly address: Address;
  readonly token0: Address;
  readonly token1: Address;
  /** The reserves the ladders are laid on (those of the previous sample); read first when unknown. */
  readonly reserves?: { readonly reserve0: bigint; readonly reserve1: bigint };
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

/** Inputs sampled per direction of a core pool: geometric from a millionth of the input reserve to half of it. */
export const CORE_LADDER_SIZE = 16;

/** `n` amounts from `low` to `high`, geometric, strictly increasing. */
export function geometricLadder(low: bigint, high: bigint, n: number): bigint[] {
  if (high <= low) return [low];
  const ratio = Math.pow(Number(high) / Number(low), 1 / (n - 1));
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    let a = i === n - 1 ? high : BigInt(Math.floor(Number(low) * Math.pow(ratio, i)));
    if (out.length && a <= out[out.length - 1]) a = out[out.length - 1] + 1n;
    out.push(a);
  }
  return out;
}

const ladderOn = (reserveIn: bigint, n: number): bigint[] => (reserveIn <= 0n ? [] : geometricLadder(reserveIn / 1_000_000n || 1n, reserveIn / 2n || 1n, n));

export async function sampleCorePools(client: ChainPublicClient, params: SampleCorePoolsParameters): Promise<SampleCorePoolsReturnType> {
  const { blockNumber } = params;
  const n = params.ladderSize ?? CORE_LADDER_SIZE;
  const pools = [...params.pools];
  // Pools seen for the first time: their reserves first, to lay the ladders on.
  const unknown = pools.map((p, i) => (p.reserves ? -1 : i)).filter((i) => i >= 0);
  if (unknown.length) {
    const reads = await client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: unknown.map((i) => ({ address: pools[i].address, abi: ammPoolAbi, functionName: 'getReserves' }) as const),
    });
    unknown.forEach((i, k) => {
      const r = reads[k];
      if (r.status === 'success') pools[i] = { ...pools[i], reserves: { reserve0: r.result[0], reserve1: r.result[1] } };
    });
  }
  const ladders = pools.map((p) => (p.reserves ? [ladderOn(p.reserves.reserve0, n), ladderOn(p.reserves.reserve1, n)] : [[], []]));
  const reads = await client.multicall({
    blockNumber,
    allowFailure: true,
    contracts: pools.flatMap((p, i) => [
      { address: p.address, abi: ammPoolAbi, functionName: 'getReserves' } as const,
      { address: p.address, abi: ammPoolAbi, functionName: 'estimateSwapBatch', args: [p.token0, p.token1, ladders[i][0]] } as const,
      { address: p.address, abi: ammPoolAbi, functionName: 'estimateSwapBatch', args: [p.token1, p.token0, ladders[i][1]] } as const,
    ]),
  });
  const retry: { pool: number; side: 0 | 1; amounts: bigint[] }[] = [];
  const out: SampleCorePoolsReturnType = pools.map((p, i) => {
    const [reserves, zeroToOne, oneToZero] = [reads[3 * i], reads[3 * i + 1], reads[3 * i + 2]];
    if (reserves.status !== 'success') return undefined;
    const side = (r: typeof zeroToOne, s: 0 | 1): QuoteSample[] => {
      const amounts = ladders[i][s];
      if (amounts.length === 0) return [];
      if (r.status === 'success') return amounts.map((amountIn, k) => ({ amountIn, amountOut: (r.result as readonly bigint[])[k] }));
      retry.push({ pool: i, side: s, amounts });
      return [];
    };
    return { address: p.address, reserve0: reserves.result[0], reserve1: reserves.result[1], samples0to1: side(zeroToOne, 0), samples1to0: side(oneToZero, 1) };
  });
  if (retry.length) {
    const singles = await client.multicall({
      blockNumber,
      allowFailure: true,
      contracts: retry.flatMap(({ pool, side, amounts }) => {
        const p = pools[pool];
        const [tokenIn, tokenOut] = side === 0 ? [p.token0, p.token1] : [p.token1, p.token0];
        return amounts.map((a) => ({ address: p.address, abi: ammPoolAbi, functionName: 'estimateSwap', args: [tokenIn, tokenOut, a] }) as const);
      }),
    });
    let k = 0;
    for (const { pool, side, amounts } of retry) {
      const samples: QuoteSample[] = [];
      let cut = false;
      for (const amountIn of amounts) {
        const r = singles[k++];
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
