// pool.created: a V2 factory's PairCreated, a stable factory's PoolCreated, the core router's PoolAdded, a
// Uniswap V3 factory's PoolCreated (with the pool's fee and tick spacing), an Algebra Integral factory's Pool.
// Each adds a pool (and its tokens) to what the indexer follows; a launch's curve pool is announced by
// launchpad.token.created. Published from the batch's new pools.
import { uniswapV2FactoryAbi, stablePoolFactoryAbi, ammRouterAbi } from '@dex/abis';
import { toPoolRow, type PoolRow as StoredPoolRow } from '@dex/db';
import { CHAIN_FACTS, type ConcentratedKind, type SourceKind } from '@dex/messages';
import { getAbiItem, parseAbiItem, type AbiEvent, type Address } from 'viem';
import type { SourceRef } from '../chain/watch-list';
import { defineFact, factEvent } from './fact';
import { topicAddress, word, wordAddress, type ChainLog } from './log';

const abiEvent = (abi: readonly unknown[], name: string) => getAbiItem({ abi: abi as never, name: name as never }) as unknown as AbiEvent;

export const v2PairCreatedEvent = factEvent('v2PairCreated', abiEvent(uniswapV2FactoryAbi, 'PairCreated'));
export const stablePoolCreatedEvent = factEvent('stablePoolCreated', abiEvent(stablePoolFactoryAbi, 'PoolCreated'));
export const coreRouterPoolAddedEvent = factEvent('coreRouterPoolAdded', abiEvent(ammRouterAbi, 'PoolAdded'));
/** UniswapV3Factory (and its forks). */
export const v3PoolCreatedEvent = factEvent(
  'v3PoolCreated',
  parseAbiItem('event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)'),
);
/** Algebra Integral's AlgebraFactory (the fee and tick spacing come with the pool's Initialize: its Fee and TickSpacing events). */
export const algebraPoolEvent = factEvent('algebraPool', parseAbiItem('event Pool(address indexed token0, address indexed token1, address pool)'));

/** A pool row as decoded: a concentrated pool also carries what its creation event says of it. */
export type PoolRow = StoredPoolRow & { fee?: number; tickSpacing?: number };

/** A signed int24 from a 32-byte word (sign-extended in the ABI encoding). */
export const int24 = (word: bigint): number => Number(BigInt.asIntN(24, word));

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
const announcers: Record<string, { kind: SourceKind | ConcentratedKind; pool: (log: ChainLog, source: SourceRef) => PoolRow }> = {
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
  [v3PoolCreatedEvent.topic]: {
    kind: 'uniswap-v3',
    pool: (log, source) => ({
      ...poolRow(wordAddress(log.data, 1), topicAddress(log.topics[1]), topicAddress(log.topics[2]), false, source, log),
      fee: Number(BigInt(log.topics[3] ?? '0x0')),
      tickSpacing: int24(word(log.data, 0)),
    }),
  },
  [algebraPoolEvent.topic]: {
    kind: 'algebra',
    pool: (log, source) => poolRow(wordAddress(log.data, 0), topicAddress(log.topics[1]), topicAddress(log.topics[2]), false, source, log),
  },
};

export const poolCreatedFact = defineFact<'pools', PoolRow>({
  name: CHAIN_FACTS.poolCreated,
  stage: 'discovery',
  events: [v2PairCreatedEvent, stablePoolCreatedEvent, coreRouterPoolAddedEvent, v3PoolCreatedEvent, algebraPoolEvent],
  list: 'pools',
  decode(log, ctx) {
    const source = ctx.announcers.get(log.address);
    const announcer = announcers[log.topics[0].toLowerCase()];
    return source && announcer && source.kind === announcer.kind ? announcer.pool(log, source) : undefined;
  },
  store: (row) => toPoolRow(row),
  fact: CHAIN_FACTS.poolCreated,
  message: (pool, row, { last }) => ({
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
      ...(row.fee !== undefined ? { fee: row.fee } : {}),
      ...(row.tickSpacing !== undefined ? { tickSpacing: row.tickSpacing } : {}),
    },
  }),
});
