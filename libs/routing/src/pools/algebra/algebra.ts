/**
 * Algebra Integral (1.2) pools: concentrated liquidity, the swap of AlgebraPool to the wei
 * (`concentrated-math.ts`: PriceMovementMath.movePriceTowardsTarget, the linked list of initialized ticks).
 *
 * The fee: the pool charges globalState.lastFee, in pips. Without a plugin that is the pool's static fee (set from
 * the factory's defaultFee at creation, changeable by the pool's administrator through setFee). A plugin may
 * change it before each swap (an adaptive-fee plugin writes a new lastFee from the price's volatility), return an
 * override fee for the swap, or add a plugin fee on top. The engine prices a swap at the snapshot's `fee`: the fee
 * the next swap pays as the state holder last saw it (lastFee, or the override plus the plugin fee where a plugin
 * sets them). The community fee is carved out of the fee taken and does not change what the trader pays or gets.
 */
import { swapAlgebra } from '../concentrated/concentrated-math';
import type { PoolSnapshotBase } from '../pool-module';
import { concentratedCrossings, concentratedLegs, type ConcentratedPoolFields } from '../concentrated/concentrated-leg';
import type { PoolModule } from '../pool-module';

/**
 * An Algebra Integral pool: globalState's price (sqrtPriceX96) and tick, the active liquidity, the fee the next
 * swap pays in pips (globalState.lastFee, plus a plugin's fee if it adds one), the tick spacing and the initialized
 * ticks with their liquidityDelta (as `liquidityNet`: the liquidity added when the price crosses the tick upwards).
 */
export interface AlgebraPoolSnapshot extends PoolSnapshotBase, ConcentratedPoolFields {
  readonly kind: 'algebra';
}

export const algebraModule: PoolModule<AlgebraPoolSnapshot> = {
  kind: 'algebra',
  legsOf: (pool) => concentratedLegs(pool, (state, zeroToOne, amount, ladder) => swapAlgebra(state, zeroToOne, amount, undefined, ladder)),
  /** None: the fee can change from swap to swap (plugins, setFee); the snapshot's `fee` is the current one. */
  feeBps: () => undefined,
  /** The fee the next swap pays, in pips, as the snapshot holds it. */
  fee: (pool) => pool.fee,
  tickSpacing: (pool) => pool.tickSpacing,
  stable: false,
  refineSplits: () => false,
  quotedOnChain: () => false,
  tradesWhatArrives: false,
  transfersTokens: true,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { algebra: 75_448 }, swapKind: () => 'algebra', perTick: 18_303, crossings: concentratedCrossings },
};
