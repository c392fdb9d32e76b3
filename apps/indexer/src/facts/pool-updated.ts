// pool.updated: reserves of a V2 or stable pool from its Sync (the two Sync events differ in their
// parameter types, so in topic0). Only the last Sync of each pool in the batch is kept.
import { stablePoolAbi, uniswapV2PairAbi } from '@dex/abis';
import type { ReserveUpdate } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { getAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent, logFields } from './fact';
import { word, type ChainLog } from './log';

export const v2SyncEvent = factEvent('v2Sync', getAbiItem({ abi: uniswapV2PairAbi, name: 'Sync' }) as AbiEvent);
export const stableSyncEvent = factEvent('stableSync', getAbiItem({ abi: stablePoolAbi, name: 'Sync' }) as AbiEvent);

/** New reserves of a pool, with the log that set them. */
export type ReserveRow = ReserveUpdate & { log: ChainLog };

export const poolUpdatedFact = defineFact<'reserves', ReserveRow>({
  name: CHAIN_FACTS.poolUpdated,
  stage: 'facts',
  events: [v2SyncEvent, stableSyncEvent],
  list: 'reserves',
  // Decoded by hand (hot path).
  decode(log, ctx) {
    const pool = ctx.pools.get(log.address);
    if (!pool || (pool.kind !== 'uniswap-v2' && pool.kind !== 'stable')) return undefined;
    return { pool: log.address, reserve0: word(log.data, 0), reserve1: word(log.data, 1), blockNumber: log.blockNumber, log };
  },
  key: (row) => row.pool,
  store: ({ log: _log, ...reserves }) => reserves,
  fact: CHAIN_FACTS.poolUpdated,
  // The time is the log's own when the node gave it, else the batch's last block's.
  message: (r, { log }, { last }) => ({
    blockNumber: r.blockNumber,
    id: String(log.logIndex),
    payload: { ...logFields({ ...log, timestamp: log.timestamp ?? last.timestamp }), address: r.pool, reserve0: r.reserve0.toString(), reserve1: r.reserve1.toString() },
  }),
});
