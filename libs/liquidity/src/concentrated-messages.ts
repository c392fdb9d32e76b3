/**
 * From the indexer's `pool.concentrated` payloads, and from a pool read whole from the chain, to the liquidity
 * state's concentrated facts and states.
 */
import type { ChainFactPayload, ConcentratedPoolRead } from '@dex/messages';
import type { ConcentratedState, TickRecord } from './concentrated-state';
import type { ConcentratedFact } from './facts';

/** The state's fact for one pool event. */
export function concentratedFactOf(p: ChainFactPayload<'pool.concentrated'>): ConcentratedFact {
  const at = { block: BigInt(p.blockNumber), logIndex: p.logIndex, pool: p.address };
  switch (p.event) {
    case 'initialize':
      return { type: 'poolInitialized', ...at, sqrtPriceX96: BigInt(p.sqrtPriceX96), tick: p.tick };
    case 'mint':
    case 'burn':
      return { type: 'positionChanged', ...at, tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.event === 'mint' ? BigInt(p.liquidity) : -BigInt(p.liquidity) };
    case 'swap':
      return { type: 'concentratedSwapped', ...at, sqrtPriceX96: BigInt(p.sqrtPriceX96), tick: p.tick, liquidity: BigInt(p.liquidity) };
    case 'fee':
      return { type: 'poolFeeChanged', ...at, fee: p.fee };
    case 'tickSpacing':
      return { type: 'tickSpacingChanged', ...at, tickSpacing: p.tickSpacing };
  }
}

/** The state of a pool read whole from the chain: its initialized ticks (those with liquidity) by index. */
export function concentratedStateOf(read: ConcentratedPoolRead): ConcentratedState {
  const ticks = new Map<number, TickRecord>();
  for (const t of read.ticks) if (t.liquidityGross > 0n) ticks.set(t.index, { liquidityNet: t.liquidityNet, liquidityGross: t.liquidityGross });
  return { sqrtPriceX96: read.sqrtPriceX96, tick: read.tick, liquidity: read.liquidity, fee: read.fee, tickSpacing: read.tickSpacing, ticks };
}
