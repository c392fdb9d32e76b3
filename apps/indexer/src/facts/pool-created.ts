// pool.created: a V2 factory's PairCreated, a stable factory's PoolCreated, the core router's PoolAdded, a
// Uniswap V3 factory's PoolCreated (with the pool's fee and tick spacing), an Algebra Integral factory's Pool, a
// Uniswap V4 PoolManager's Initialize (the pool's key and first price; the pool named by its PoolId), a Curve
// StableswapNG factory's PlainPoolDeployed and a TwocryptoNG factory's TwocryptoPoolDeployed (each coin pair i < j of
// the pool a pool of its own, named by its pair id). Each adds a pool (and its tokens) to what the indexer follows; a
// launch's curve pool is announced by launchpad.token.created. Published from the batch's new pools.
import { uniswapV2FactoryAbi, stablePoolFactoryAbi, ammRouterAbi, curveStableSwapFactoryNGStandInAbi, curveTwocryptoFactoryNGStandInAbi } from '@dex/abis';
import { toPoolRow, type PoolRow as StoredPoolRow } from '@dex/db';
import { CHAIN_FACTS, curvePairId, UNISWAP_V4_KIND, type SourceKind } from '@dex/messages';
import { getAbiItem, parseAbiItem, zeroAddress, type AbiEvent, type Address } from 'viem';
import type { SourceRef } from '../chain/watch-list';
import { defineFact, factEvent, logKey, type DecodeContext } from './fact';
import { checksum, decodeArgs, int24, topicAddress, word, wordAddress, type ChainLog } from './log';
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
 * Curve's StableswapNG factory (`PlainPoolDeployed(address[] coins, uint256 A, uint256 fee, address deployer)`): the
 * event names no pool; the pool is the factory's `pool_list` entry the indexer reads for the log (`curveDeployments`).
 */
export const curvePlainPoolDeployedEvent = factEvent('curvePlainPoolDeployed', abiEvent(curveStableSwapFactoryNGStandInAbi, 'PlainPoolDeployed'));
/**
 * StableswapNG's metapool deployment: its pool is not routed (no pool from it), but it takes a `pool_list` entry, which
 * the index of a PlainPoolDeployed's pool counts (so its logs are asked for).
 */
export const curveMetaPoolDeployedEvent = factEvent('curveMetaPoolDeployed', parseAbiItem('event MetaPoolDeployed(address coin, address base_pool, uint256 A, uint256 fee, address deployer)'));
/** Curve's TwocryptoNG factory: the event names the pool and its two coins (no indexed field). */
export const curveTwocryptoPoolDeployedEvent = factEvent('curveTwocryptoPoolDeployed', abiEvent(curveTwocryptoFactoryNGStandInAbi, 'TwocryptoPoolDeployed'));

/**
 * A pool row as decoded: a concentrated pool also carries what its creation event says of it (a V4 pool: its key's
 * fee, a dynamic one's flag included, and tick spacing, and `uniswapV4`: the rest of its Initialize).
 */
export type PoolRow = StoredPoolRow & {
  fee?: number;
  tickSpacing?: number;
  uniswapV4?: { poolManager: Address; currency0: Address; currency1: Address; hooks: Address; sqrtPriceX96: bigint; tick: number };
  /** A Curve pool's coin pair: the pool, the coins' indexes i < j in it, its coin count and coins (in its order). */
  curve?: CurvePair;
};

export interface CurvePair {
  pool: Address;
  i: number;
  j: number;
  nCoins: number;
  coins: readonly Address[];
}


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

/** A Curve NG pool's coins: 2 to 8 of them. */
const MAX_CURVE_COINS = 8;

/**
 * The coin pairs i < j of a Curve NG pool of `coins` (in the pool's order), each a pool named by its pair id
 * (`curvePairId`), token0 and token1 its coins i and j; stable for a StableswapNG pool. In pair order: 0:1, 0:2, …, 1:2, …
 */
export function curvePairRows(pool: Address, coins: readonly Address[], source: SourceRef, log: Pick<ChainLog, 'address' | 'blockNumber'>): PoolRow[] {
  if (coins.length < 2 || coins.length > MAX_CURVE_COINS) throw new Error(`a Curve pool of ${coins.length} coins`);
  const at = checksum(pool);
  const tokens = coins.map((c) => checksum(c));
  const stable = source.kind === 'curve-stableswap-ng';
  const rows: PoolRow[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j < tokens.length; j++) {
      const curve = { pool: at, i, j, nCoins: tokens.length, coins: tokens };
      rows.push({ ...poolRow(curvePairId(at, i, j) as Address, tokens[i], tokens[j], stable, source, log), curve });
    }
  }
  return rows;
}

/** A StableswapNG factory's PlainPoolDeployed: its pool's first pair (which announces the others), the pool as read for the log. */
function plainPoolDeployed(log: ChainLog, source: SourceRef, ctx: DecodeContext): PoolRow | undefined {
  const pool = ctx.curveDeployments?.get(logKey(log));
  if (!pool) return undefined;
  const { coins } = decodeArgs(curvePlainPoolDeployedEvent.abi, log) as { coins: readonly Address[] };
  return curvePairRows(pool, coins, source, log)[0];
}

/** A TwocryptoNG factory's TwocryptoPoolDeployed: its pool's one pair. */
function twocryptoPoolDeployed(log: ChainLog, source: SourceRef): PoolRow {
  const { pool, coins } = decodeArgs(curveTwocryptoPoolDeployedEvent.abi, log) as { pool: Address; coins: readonly Address[] };
  return curvePairRows(pool, coins, source, log)[0];
}

/** Each announcing event, the kind of source whose contract emits it, and the pool it announces. */
const announcers: Record<string, { kind: SourceKind; pool: (log: ChainLog, source: SourceRef, ctx: DecodeContext) => PoolRow | undefined }> = {
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
  [curvePlainPoolDeployedEvent.topic]: { kind: 'curve-stableswap-ng', pool: plainPoolDeployed },
  [curveTwocryptoPoolDeployedEvent.topic]: { kind: 'curve-twocrypto-ng', pool: twocryptoPoolDeployed },
};

export const poolCreatedFact = defineFact<'pools', PoolRow>({
  name: CHAIN_FACTS.poolCreated,
  stage: 'discovery',
  events: [v2PairCreatedEvent, stablePoolCreatedEvent, coreRouterPoolAddedEvent, v3PoolCreatedEvent, algebraPoolEvent, v4InitializeEvent, curvePlainPoolDeployedEvent, curveTwocryptoPoolDeployedEvent],
  context: [curveMetaPoolDeployedEvent],
  list: 'pools',
  decode(log, ctx) {
    const source = ctx.announcers.get(log.address);
    const announcer = announcers[log.topics[0].toLowerCase()];
    return source && announcer && source.kind === announcer.kind ? announcer.pool(log, source, ctx) : undefined;
  },
  // A Curve pool's first pair announces its other pairs.
  announces(row) {
    const c = row.curve;
    if (!c || c.i !== 0 || c.j !== 1 || !row.discoveredBy) return {};
    const source: SourceRef = { name: row.source, kind: row.kind as SourceKind, routerIndex: row.routerIndex, feeBps: row.feeBps };
    return { pools: curvePairRows(c.pool, c.coins, source, { address: row.discoveredBy as Address, blockNumber: row.createdBlock }).slice(1) };
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
      ...(row.curve ? { pool: row.curve.pool, i: row.curve.i, j: row.curve.j, nCoins: row.curve.nCoins } : {}),
    },
  }),
});
