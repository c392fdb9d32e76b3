// Reads concentrated-liquidity pools whole at a block: price, tick, active liquidity, fee, tick spacing and every
// initialized tick with its net and gross liquidity. For a pool whose events the liquidity state never saw (it
// starts on a chain whose pools have positions already, or a pool's history predates the indexer's start).
//
// Uniswap V3 (and forks): slot0, liquidity, fee, tickSpacing; the initialized ticks are the set bits of the
// tickBitmap words over the whole tick range (compressed tick = tick / tickSpacing, word = compressed >> 8), then
// ticks(i) of each. Algebra Integral 1.2: globalState (price, tick, lastFee), liquidity, tickSpacing; the
// initialized ticks are a linked list (ticks(i).prevTick / nextTick) between the MIN_TICK and MAX_TICK sentinels.
import type { ConcentratedPoolRead } from '@dex/messages';
import { parseAbi, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

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

async function readUniswapV3(client: ChainPublicClient, address: Address, blockNumber: bigint): Promise<ConcentratedPoolRead> {
  const at = { address, abi: uniswapV3PoolReadAbi, blockNumber } as const;
  const [slot0, liquidity, fee, tickSpacing] = await Promise.all([
    client.readContract({ ...at, functionName: 'slot0' }),
    client.readContract({ ...at, functionName: 'liquidity' }),
    client.readContract({ ...at, functionName: 'fee' }),
    client.readContract({ ...at, functionName: 'tickSpacing' }),
  ]);
  const spacing = Number(tickSpacing);
  const firstWord = floorDiv(floorDiv(MIN_TICK, spacing), 256);
  const lastWord = floorDiv(floorDiv(MAX_TICK, spacing), 256);
  const positions: number[] = [];
  for (let w = firstWord; w <= lastWord; w++) positions.push(w);
  const words = await client.multicall({
    blockNumber,
    allowFailure: false,
    contracts: positions.map((w) => ({ ...at, functionName: 'tickBitmap', args: [w] }) as const),
  });
  const indexes: number[] = [];
  words.forEach((bits, i) => {
    if (bits === 0n) return;
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) indexes.push((positions[i] * 256 + bit) * spacing);
  });
  const ticks = await client.multicall({
    blockNumber,
    allowFailure: false,
    contracts: indexes.map((index) => ({ ...at, functionName: 'ticks', args: [index] }) as const),
  });
  return {
    sqrtPriceX96: slot0[0],
    tick: Number(slot0[1]),
    liquidity,
    fee: Number(fee),
    tickSpacing: spacing,
    ticks: indexes.map((index, i) => ({ index, liquidityGross: ticks[i][0], liquidityNet: ticks[i][1] })),
  };
}

async function readAlgebra(client: ChainPublicClient, address: Address, blockNumber: bigint): Promise<ConcentratedPoolRead> {
  const at = { address, abi: algebraPoolReadAbi, blockNumber } as const;
  const [state, liquidity, tickSpacing] = await Promise.all([
    client.readContract({ ...at, functionName: 'globalState' }),
    client.readContract({ ...at, functionName: 'liquidity' }),
    client.readContract({ ...at, functionName: 'tickSpacing' }),
  ]);
  const ticks: ConcentratedPoolRead['ticks'][number][] = [];
  // The sentinels hold liquidity only when a position is bounded by them; the list runs between them.
  const record = (index: number, t: readonly [bigint, bigint, number, number, bigint, bigint]) => {
    if (t[0] > 0n) ticks.push({ index, liquidityGross: t[0], liquidityNet: t[1] });
  };
  const min = await client.readContract({ ...at, functionName: 'ticks', args: [MIN_TICK] });
  record(MIN_TICK, min);
  let next = Number(min[3]);
  const seen = new Set<number>();
  while (next !== MAX_TICK && next > MIN_TICK && !seen.has(next)) {
    seen.add(next);
    const t = await client.readContract({ ...at, functionName: 'ticks', args: [next] });
    record(next, t);
    next = Number(t[3]);
  }
  record(MAX_TICK, await client.readContract({ ...at, functionName: 'ticks', args: [MAX_TICK] }));
  return { sqrtPriceX96: state[0], tick: Number(state[1]), liquidity, fee: Number(state[2]), tickSpacing: Number(tickSpacing), ticks };
}

export async function readConcentratedPools(client: ChainPublicClient, params: ReadConcentratedPoolsParameters): Promise<ReadConcentratedPoolsReturnType> {
  const out: ReadConcentratedPoolsReturnType = [];
  for (const pool of params.pools) {
    try {
      out.push(pool.kind === 'algebra' ? await readAlgebra(client, pool.address, params.blockNumber) : await readUniswapV3(client, pool.address, params.blockNumber));
    } catch {
      out.push(undefined);
    }
  }
  return out;
}
