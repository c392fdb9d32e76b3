// pool.created: a V2 factory's PairCreated, a stable factory's PoolCreated, the core router's PoolAdded, a
// Uniswap V3 factory's PoolCreated (with the pool's fee and tick spacing), an Algebra Integral factory's Pool, a
// Uniswap V4 PoolManager's Initialize (the pool's key and first price; the pool named by its PoolId). Each adds a
// pool (and its tokens) to what the indexer follows; a launch's curve pool is announced by
// launchpad.token.created. Published from the batch's new pools.
import { uniswapV2FactoryAbi, stablePoolFactoryAbi, ammRouterAbi } from '@dex/abis';
import { toPoolRow, type PoolRow as StoredPoolRow } from '@dex/db';
import { CHAIN_FACTS, UNISWAP_V4_KIND, type SourceKind } from '@dex/messages';
import { getAbiItem, parseAbiItem, zeroAddress, type AbiEvent, type Address } from 'viem';
import type { SourceRef } from '../chain/watch-list';
import { defineFact, factEvent, type DecodeContext } from './fact';
import { int24, topicAddress, word, wordAddress, type ChainLog } from './log';
import { decodeV4Initialize, v4InitializeEvent } from './pool-uniswap-v4';

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

/**
 * A pool row as decoded: a concentrated pool also carries what its creation event says of it (a V4 pool: its key's
 * fee, a dynamic one's flag included, and tick spacing, and `uniswapV4`: the rest of its Initialize).
 */
export type PoolRow = StoredPoolRow & {
  fee?: number;
  tickSpacing?: number;
  uniswapV4?: { poolManager: Address; currency0: Address; currency1: Address; hooks: Address; sqrtPriceX96: bigint; tick: number };
};


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

/**
 * A V4 pool its PoolManager's Initialize announces: named by its PoolId, its tokens the key's currencies in the key's
 * order, the chain's wrapped native token for the native coin (address(0), kept as it is on a chain without one).
 */
export function v4PoolRow(log: ChainLog, source: SourceRef, ctx: DecodeContext): PoolRow {
  const init = decodeV4Initialize(log);
  const traded = (currency: Address): Address => (currency === zeroAddress && ctx.wrappedNative ? ctx.wrappedNative : currency);
  const { id, currency0, currency1, fee, tickSpacing, hooks, sqrtPriceX96, tick } = init;
  return {
    ...poolRow(id, traded(currency0), traded(currency1), false, source, log),
    fee,
    tickSpacing,
    uniswapV4: { poolManager: log.address, currency0, currency1, hooks, sqrtPriceX96, tick },
  };
}

/** Each announcing event, the kind of source whose contract emits it, and the pool it announces. */
const announcers: Record<string, { kind: SourceKind; pool: (log: ChainLog, source: SourceRef, ctx: DecodeContext) => PoolRow }> = {
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
  [v4InitializeEvent.topic]: { kind: UNISWAP_V4_KIND, pool: v4PoolRow },
};

export const poolCreatedFact = defineFact<'pools', PoolRow>({
  name: CHAIN_FACTS.poolCreated,
  stage: 'discovery',
  events: [v2PairCreatedEvent, stablePoolCreatedEvent, coreRouterPoolAddedEvent, v3PoolCreatedEvent, algebraPoolEvent, v4InitializeEvent],
  list: 'pools',
  decode(log, ctx) {
    const source = ctx.announcers.get(log.address);
    const announcer = announcers[log.topics[0].toLowerCase()];
    return source && announcer && source.kind === announcer.kind ? announcer.pool(log, source, ctx) : undefined;
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
      ...(row.uniswapV4 ? { ...row.uniswapV4, sqrtPriceX96: row.uniswapV4.sqrtPriceX96.toString() } : {}),
    },
  }),
});
