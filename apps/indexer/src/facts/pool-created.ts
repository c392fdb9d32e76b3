// pool.created: a V2 factory's PairCreated, a stable factory's PoolCreated, the core router's PoolAdded.
// Each adds a pool (and its tokens) to what the indexer follows; a launch's curve pool is announced by
// launchpad.token.created. Published from the batch's new pools.
import { uniswapV2FactoryAbi, stablePoolFactoryAbi, ammRouterAbi } from '@dex/abis';
import type { PoolRow } from '@dex/db';
import { CHAIN_FACTS, type SourceKind } from '@dex/messages';
import { getAbiItem, type AbiEvent, type Address } from 'viem';
import type { SourceRef } from '../chain/watch-list';
import { defineFact, factEvent } from './fact';
import { topicAddress, wordAddress, type ChainLog } from './log';

const abiEvent = (abi: readonly unknown[], name: string) => getAbiItem({ abi: abi as never, name: name as never }) as unknown as AbiEvent;

export const v2PairCreatedEvent = factEvent('v2PairCreated', abiEvent(uniswapV2FactoryAbi, 'PairCreated'));
export const stablePoolCreatedEvent = factEvent('stablePoolCreated', abiEvent(stablePoolFactoryAbi, 'PoolCreated'));
export const coreRouterPoolAddedEvent = factEvent('coreRouterPoolAdded', abiEvent(ammRouterAbi, 'PoolAdded'));

/** A pool announced by `log` of the contract of `source`. */
export function poolRow(address: Address, token0: Address, token1: Address, stable: boolean, source: SourceRef, log: Pick<ChainLog, 'address' | 'blockNumber'>): PoolRow {
  return {
    address,
    kind: source.kind,
    routerIndex: source.routerIndex,
    source: source.name,
    discoveredBy: log.address,
    token0,
    token1,
    stable,
    feeBps: source.feeBps,
    createdBlock: log.blockNumber,
  };
}

/** Each announcing event, the kind of source whose contract emits it, and the pool it announces. */
const announcers: Record<string, { kind: SourceKind; pool: (log: ChainLog, source: SourceRef) => PoolRow }> = {
  [v2PairCreatedEvent.topic]: {
    kind: 'uniswap-v2',
    pool: (log, source) => poolRow(wordAddress(log.data, 0), topicAddress(log.topics[1]), topicAddress(log.topics[2]), false, source, log),
  },
  [stablePoolCreatedEvent.topic]: {
    kind: 'stable',
    pool: (log, source) =>
      poolRow(wordAddress(log.data, 0), topicAddress(log.topics[1]), topicAddress(log.topics[2]), BigInt(log.topics[3] ?? '0x0') !== 0n, source, log),
  },
  [coreRouterPoolAddedEvent.topic]: {
    kind: 'core',
    pool: (log, source) => poolRow(topicAddress(log.topics[1]), topicAddress(log.topics[2]), topicAddress(log.topics[3]), false, source, log),
  },
};

export const poolCreatedFact = defineFact({
  name: CHAIN_FACTS.poolCreated,
  stage: 'discovery',
  events: [v2PairCreatedEvent, stablePoolCreatedEvent, coreRouterPoolAddedEvent],
  list: 'pools',
  decode(log, ctx) {
    const source = ctx.announcers.get(log.address);
    const announcer = announcers[log.topics[0].toLowerCase()];
    return source && announcer && source.kind === announcer.kind ? announcer.pool(log, source) : undefined;
  },
  fact: CHAIN_FACTS.poolCreated,
  message: (pool, _row, { last }) => ({
    blockNumber: pool.createdBlock,
    id: `pool:${pool.address}`,
    payload: {
      timestamp: Number(last.timestamp),
      address: pool.address,
      kind: pool.kind,
      routerIndex: pool.routerIndex,
      token0: pool.token0,
      token1: pool.token1,
      stable: pool.stable,
    },
  }),
});
