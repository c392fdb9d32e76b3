/**
 * From the indexer's `pool.concentrated` payloads (V4 pools' included), its `pool.created` payloads, and from a pool
 * read whole from the chain, to the liquidity state's facts and states.
 */
import type { ChainFactPayload, ConcentratedPoolRead } from '@dex/messages';
import type { ConcentratedState, TickRecord } from './concentrated-state';
import type { ConcentratedFact, PoolCreatedFact, PoolManagerFact } from './facts';
import { kindModule } from './kinds/registry';

/**
 * The state's fact for one pool event: a pool contract's (V3, Algebra), or a V4 pool's from its PoolManager (named
 * by its PoolId: ModifyLiquidity moves a range as Mint and Burn do, its Swap says the fee it paid; its Initialize is
 * its pool-created fact).
 */
export function concentratedFactOf(p: ChainFactPayload<'pool.concentrated'>): ConcentratedFact | PoolManagerFact {
  const at = { block: BigInt(p.blockNumber), logIndex: p.logIndex, pool: p.address };
  switch (p.event) {
    case 'initialize':
      return { type: 'poolInitialized', ...at, sqrtPriceX96: BigInt(p.sqrtPriceX96), tick: p.tick };
    case 'mint':
    case 'burn':
      return { type: 'positionChanged', ...at, tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: p.event === 'mint' ? BigInt(p.liquidity) : -BigInt(p.liquidity) };
    case 'modifyLiquidity':
      return { type: 'positionChanged', ...at, tickLower: p.tickLower, tickUpper: p.tickUpper, liquidityDelta: BigInt(p.liquidityDelta) };
    case 'swap':
      return { type: 'concentratedSwapped', ...at, sqrtPriceX96: BigInt(p.sqrtPriceX96), tick: p.tick, liquidity: BigInt(p.liquidity), ...('fee' in p ? { fee: p.fee } : {}) };
    case 'fee':
      return { type: 'poolFeeChanged', ...at, fee: p.fee };
    case 'tickSpacing':
      return { type: 'tickSpacingChanged', ...at, tickSpacing: p.tickSpacing };
    case 'donate':
      return { type: 'poolDonated', ...at };
    case 'protocolFee':
      return { type: 'protocolFeeChanged', ...at, protocolFee: p.protocolFee };
  }
}

/** The state of a pool read whole from the chain: its initialized ticks (those with liquidity) by index. */
export function concentratedStateOf(read: ConcentratedPoolRead): ConcentratedState {
  const ticks = new Map<number, TickRecord>();
  for (const t of read.ticks) if (t.liquidityGross > 0n) ticks.set(t.index, { liquidityNet: t.liquidityNet, liquidityGross: t.liquidityGross });
  return { sqrtPriceX96: read.sqrtPriceX96, tick: read.tick, liquidity: read.liquidity, fee: read.fee, tickSpacing: read.tickSpacing, ticks };
}

/**
 * The state's fact for a published pool creation, with what a concentrated pool's creation names (a V3 pool's fee
 * and tick spacing; a V4 pool's PoolManager, key and first price); undefined for a kind the state does not keep.
 */
export function poolCreatedFactOf(p: ChainFactPayload<'pool.created'>): PoolCreatedFact | undefined {
  const module = kindModule(p.kind);
  if (!module) return undefined;
  return {
    type: 'poolCreated',
    block: BigInt(p.blockNumber),
    kind: module.kind,
    address: p.address,
    routerIndex: p.routerIndex,
    token0: p.token0,
    token1: p.token1,
    ...('fee' in p && p.fee !== undefined ? { fee: p.fee } : {}),
    ...('tickSpacing' in p && p.tickSpacing !== undefined ? { tickSpacing: p.tickSpacing } : {}),
    ...('poolManager' in p
      ? { poolManager: p.poolManager, currency0: p.currency0, currency1: p.currency1, hooks: p.hooks, sqrtPriceX96: BigInt(p.sqrtPriceX96), tick: p.tick }
      : {}),
  };
}
