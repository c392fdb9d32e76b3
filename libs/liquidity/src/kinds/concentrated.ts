/**
 * What the concentrated-liquidity kinds share (Uniswap V3 and its forks, Algebra Integral): the state of
 * `concentrated-state.ts`, started from the creation's fee and tick spacing when it names them, moved by the pool's
 * Initialize, Mint, Burn and Swap (and Algebra's Fee and TickSpacing), and routed once initialized, with a known
 * fee and tick spacing and at least one initialized tick. A pool a store holds without its state is read whole from
 * the chain; until then no fact applies to it.
 */
import type { PoolSnapshot, TickLiquidity } from '@dex/routing';
import { applyConcentrated, newConcentratedState, tickList } from '../concentrated-state';
import type { ConcentratedFact, PoolFact } from '../facts';
import type { KindSnapshot, LiquidityKindModule } from './kind-module';

/**
 * The concentrated-liquidity kinds of pool contracts: those whose engine snapshot is a concentrated pool's state,
 * but for the pools inside a PoolManager (Uniswap V4: read through it, `uniswap-v4.ts`).
 */
export type ConcentratedKind = Exclude<Extract<PoolSnapshot, { readonly ticks: readonly TickLiquidity[] }>, { readonly poolManager: string }>['kind'];

/** Whether a fact moves a concentrated pool. */
function isConcentratedFact(fact: PoolFact): fact is ConcentratedFact {
  switch (fact.type) {
    case 'poolInitialized':
    case 'positionChanged':
    case 'concentratedSwapped':
    case 'poolFeeChanged':
    case 'tickSpacingChanged':
      return true;
    default:
      return false;
  }
}

/** The module of a concentrated-liquidity kind. */
export function concentratedModule<K extends ConcentratedKind>(kind: K): LiquidityKindModule<K> {
  return {
    kind,
    created: (fact) => ({ concentrated: newConcentratedState({ fee: fact.fee, tickSpacing: fact.tickSpacing }) }),
    apply: (pool, fact) => (isConcentratedFact(fact) && pool.concentrated ? { concentrated: applyConcentrated(pool.concentrated, fact) } : undefined),
    snapshot(pool, inputs) {
      const c = pool.concentrated;
      if (!c || c.sqrtPriceX96 === 0n || c.fee === undefined || c.tickSpacing === undefined || c.ticks.size === 0) return undefined;
      const state = { sqrtPriceX96: c.sqrtPriceX96, tick: c.tick, liquidity: c.liquidity, fee: c.fee, tickSpacing: c.tickSpacing, ticks: tickList(c.ticks) };
      return { kind, ...inputs.identity, ...state } as KindSnapshot<K>;
    },
    sampled: false,
    concentrated: true,
    reserves: false,
    restored: () => ({}),
  };
}
