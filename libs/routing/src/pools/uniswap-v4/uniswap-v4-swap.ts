/**
 * Uniswap V4's swap (v4-core `Pool.swap`, inside the singleton PoolManager) of a pool without hooks and without a
 * protocol fee: the tick-bitmap walk and the steps of Uniswap V3's pool, at the pool's LP fee in pips (any fee below
 * 100%; a dynamic-fee pool's as its slot0 holds it). Two conventions differ from V3's and are the caller's: V4's
 * `amountSpecified` is negative for an exact input (here, as for V3, positive), and a pool is named by its key's id,
 * not an address. The differential test `libs/routing/integration/uniswap-v4-onchain.spec.ts` holds it equal to
 * the PoolManager's own swap and to V4Quoter on v4-core's and v4-periphery's bytecode, to the wei. A protocol fee
 * changes only the fee the swap pays (`uniswapV4SwapFee` in `uniswap-v4.ts`): the swap at that fee is the pool's.
 *
 * The `uniswap-v4` kind's legs (`uniswap-v4.ts`) quote with it.
 */
import { swapUniswapV3 } from '../concentrated/concentrated-math';
import { ConcentratedMathError } from '../concentrated/full-math';
import type { SwapLadder } from '../concentrated/swap-ladder';
import type { ConcentratedPoolState } from '../concentrated/tick-table';
import type { SwapResult } from '../concentrated/concentrated-math';

/** V4's largest LP fee, pips: 100%. */
export const MAX_LP_FEE = 1_000_000;

/** A swap's balance delta is two int128: the swapper pays at most 2^127 and receives at most 2^127 - 1. */
const MAX_PAID = 1n << 127n;
const MAX_RECEIVED = (1n << 127n) - 1n;

/**
 * The swap of `amountSpecified` (> 0 an exact input, fee included; < 0 an exact output) at V4's default price limits
 * or `limit`. A pool whose fee takes the whole input pays nothing for it (and V4 refuses an exact output there):
 * both throw, as the pool is not one to trade through; so does a swap whose amounts do not fit V4's int128 balance
 * delta (the PoolManager reverts it). An exact input above what a delta holds is swapped as the most one holds: the
 * pool takes no more (an input it would take whole beyond that, the PoolManager reverts; one that stops short of it
 * at the price limit, it takes as here), so a caller asking for more sees less taken than asked, as at a price limit.
 */
export function swapUniswapV4(state: ConcentratedPoolState, zeroForOne: boolean, amountSpecified: bigint, limit?: bigint, ladder?: SwapLadder): SwapResult {
  if (!Number.isInteger(state.fee) || state.fee < 0 || state.fee >= MAX_LP_FEE) throw new ConcentratedMathError(amountSpecified < 0n ? 'InvalidFeeForExactOut' : 'fee');
  const result = swapUniswapV3(state, zeroForOne, amountSpecified > MAX_PAID ? MAX_PAID : amountSpecified, limit, ladder);
  if (result.amountIn > MAX_PAID || result.amountOut > MAX_RECEIVED) throw new ConcentratedMathError('SafeCastOverflow');
  return result;
}
