// swap: a core pool's Swap and SwapWithRef. `user` is the pool's caller; `sender` (the trader behind a
// router swap) is the transaction's sender, read from the node before the batch is stored.
import { ammPoolAbi } from '@dex/abis';
import type { AmmSwapRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { getAbiItem, type AbiEvent, type Hex } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { topicAddress, word, wordAddress } from './log';

export const ammSwapEvent = factEvent('ammSwap', getAbiItem({ abi: ammPoolAbi, name: 'Swap' }) as AbiEvent);
export const ammSwapWithRefEvent = factEvent('ammSwapWithRef', getAbiItem({ abi: ammPoolAbi, name: 'SwapWithRef' }) as AbiEvent);

/** A core swap without its transaction sender yet. */
export type SwapRow = Omit<AmmSwapRow, 'sender'>;

export const swapFact = defineFact<'swaps', SwapRow>({
  name: CHAIN_FACTS.swap,
  stage: 'facts',
  events: [ammSwapEvent, ammSwapWithRefEvent],
  list: 'swaps',
  // Decoded by hand (hot path).
  decode(log, ctx, at) {
    if (ctx.pools.get(log.address)?.kind !== 'core') return undefined;
    if (log.topics[0].toLowerCase() === ammSwapEvent.topic) {
      return {
        ...at,
        pool: log.address,
        user: topicAddress(log.topics[1]),
        tokenIn: topicAddress(log.topics[2]),
        tokenOut: topicAddress(log.topics[3]),
        amountIn: word(log.data, 0),
        amountOut: word(log.data, 1),
        fee: word(log.data, 2),
        refCode: null,
        refFee: null,
      };
    }
    return {
      ...at,
      pool: log.address,
      user: topicAddress(log.topics[1]),
      tokenIn: topicAddress(log.topics[2]),
      refCode: (log.topics[3] ?? '').toLowerCase() || null,
      tokenOut: wordAddress(log.data, 0),
      amountIn: word(log.data, 1),
      amountOut: word(log.data, 2),
      fee: word(log.data, 3),
      refFee: word(log.data, 4),
    };
  },
  senderOf: (row) => row.txHash as Hex,
  store: (row, { senders }) => ({ ...row, sender: senders.get(row.txHash) ?? row.user }),
  fact: CHAIN_FACTS.swap,
  message: (s) =>
    logMessage(s, {
      pool: s.pool,
      user: s.user,
      sender: s.sender,
      tokenIn: s.tokenIn,
      tokenOut: s.tokenOut,
      amountIn: s.amountIn.toString(),
      amountOut: s.amountOut.toString(),
      fee: s.fee.toString(),
      refCode: s.refCode,
      refFee: s.refFee === null ? null : s.refFee.toString(),
    }),
});
