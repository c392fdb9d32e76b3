/**
 * Uniswap V3 pools and their forks: concentrated liquidity, the swap loop of UniswapV3Pool to the wei
 * (`concentrated-math.ts`), the fee tier fixed at the pool's creation.
 */
import { swapUniswapV3 } from '../concentrated/concentrated-math';
import type { PoolSnapshotBase } from '../pool-module';
import { concentratedCrossings, concentratedLegs, type ConcentratedPoolFields } from '../concentrated/concentrated-leg';
import type { PoolModule } from '../pool-module';

/**
 * A Uniswap V3 pool: slot0's sqrtPriceX96 and tick, the active liquidity, the fee tier in pips (100, 500, 3000,
 * 10000: hundredths of a bip), the tick spacing (1, 10, 60, 200) and the initialized ticks with their liquidityNet.
 */
export interface UniswapV3PoolSnapshot extends PoolSnapshotBase, ConcentratedPoolFields {
  readonly kind: 'uniswap-v3';
}

export const uniswapV3Module: PoolModule<UniswapV3PoolSnapshot> = {
  kind: 'uniswap-v3',
  legsOf: (pool) => concentratedLegs(pool, (state, zeroForOne, amount, ladder) => swapUniswapV3(state, zeroForOne, amount, undefined, ladder)),
  /** The fee tier in basis points (pips / 100: 3000 -> 30, 500 -> 5, 100 -> 1). */
  feeBps: (pool) => pool.fee / 100,
  /** The fee tier in pips. */
  fee: (pool) => pool.fee,
  tickSpacing: (pool) => pool.tickSpacing,
  stable: false,
  refineSplits: () => false,
  quotedOnChain: () => false,
  tradesWhatArrives: false,
  transfersTokens: true,
  // Fitted by bench/gas-model (see gas-model.ts).
  gas: { swaps: { 'uniswap-v3': 78_469 }, swapKind: () => 'uniswap-v3', perTick: 26_773, crossings: concentratedCrossings },
};
