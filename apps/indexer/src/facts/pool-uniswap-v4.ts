// The Uniswap V4 PoolManager's events, for a source of kind `uniswap-v4` (its `poolManager` or `factory` address): one
// contract emits the events of every pool of the source, each naming its pool by its PoolId (the first indexed
// topic). Initialize announces a pool with its key and first price (pool.created, `pool-created.ts`);
// ModifyLiquidity, Swap, Donate and ProtocolFeeUpdated move it (pool.concentrated, `pool-concentrated.ts`). A
// dynamic-fee pool's LP fee changes without an event (the hook's updateDynamicLPFee): the services read it from the
// pool's slot0.
import { uniswapV4InitializeEvent } from '@dex/chain';
import type { LogPosition } from '@dex/db';
import { UNISWAP_V4_KIND } from '@dex/messages';
import { parseAbiItem, type Address, type Hex } from 'viem';
import { factEvent, type DecodeContext } from './fact';
import { checksum, int24, topicAddress, topicWord, word, wordAddress, type ChainLog } from './log';

export const v4InitializeEvent = factEvent('v4Initialize', uniswapV4InitializeEvent);
export const v4ModifyLiquidityEvent = factEvent(
  'v4ModifyLiquidity',
  parseAbiItem('event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)'),
);
export const v4SwapEvent = factEvent(
  'v4Swap',
  parseAbiItem('event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)'),
);
export const v4DonateEvent = factEvent('v4Donate', parseAbiItem('event Donate(bytes32 indexed id, address indexed sender, uint256 amount0, uint256 amount1)'));
export const v4ProtocolFeeUpdatedEvent = factEvent('v4ProtocolFeeUpdated', parseAbiItem('event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)'));

/** The events that move a V4 pool after its Initialize. */
export const V4_POOL_EVENTS = [v4ModifyLiquidityEvent, v4SwapEvent, v4DonateEvent, v4ProtocolFeeUpdatedEvent];

/** One event of a V4 pool, decoded; `pool` is its PoolId. */
export type UniswapV4EventRow = LogPosition & { pool: Address } & (
    | { event: 'modifyLiquidity'; sender: Address; tickLower: number; tickUpper: number; liquidityDelta: bigint; salt: Hex }
    | { event: 'swap'; sender: Address; amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; liquidity: bigint; tick: number; fee: number }
    | { event: 'donate'; sender: Address; amount0: bigint; amount1: bigint }
    | { event: 'protocolFee'; protocolFee: number }
  );

const signed = (w: bigint): bigint => BigInt.asIntN(256, w);

const decoders: Record<string, (log: ChainLog) => Record<string, unknown>> = {
  [v4ModifyLiquidityEvent.topic]: (log) => ({
    event: 'modifyLiquidity',
    sender: topicAddress(log.topics[2]),
    tickLower: int24(word(log.data, 0)),
    tickUpper: int24(word(log.data, 1)),
    liquidityDelta: signed(word(log.data, 2)),
    salt: `0x${word(log.data, 3).toString(16).padStart(64, '0')}`,
  }),
  [v4SwapEvent.topic]: (log) => ({
    event: 'swap',
    sender: topicAddress(log.topics[2]),
    amount0: signed(word(log.data, 0)),
    amount1: signed(word(log.data, 1)),
    sqrtPriceX96: word(log.data, 2),
    liquidity: word(log.data, 3),
    tick: int24(word(log.data, 4)),
    fee: Number(word(log.data, 5)),
  }),
  [v4DonateEvent.topic]: (log) => ({ event: 'donate', sender: topicAddress(log.topics[2]), amount0: word(log.data, 0), amount1: word(log.data, 1) }),
  [v4ProtocolFeeUpdatedEvent.topic]: (log) => ({ event: 'protocolFee', protocolFee: Number(word(log.data, 0)) }),
};

/**
 * A PoolManager's event of a V4 pool the indexer follows, as a row: only from the PoolManager that announced the pool
 * (another deployment's pool of the same key has the same id); undefined for any other log.
 */
export function decodeUniswapV4Event(log: ChainLog, ctx: DecodeContext, at: LogPosition): UniswapV4EventRow | undefined {
  const decode = decoders[log.topics[0].toLowerCase()];
  if (!decode) return undefined;
  const id = topicWord(log.topics[1]) as Address;
  const pool = ctx.pools.get(id);
  if (pool?.kind !== UNISWAP_V4_KIND || !pool.discoveredBy || checksum(pool.discoveredBy) !== log.address) return undefined;
  return { ...at, pool: id, ...decode(log) } as UniswapV4EventRow;
}

/** A V4 pool's key and first price, from its Initialize. */
export interface V4Initialize {
  id: Hex;
  currency0: Address;
  currency1: Address;
  fee: number;
  tickSpacing: number;
  hooks: Address;
  sqrtPriceX96: bigint;
  tick: number;
}

/** The PoolManager's Initialize, decoded. */
export function decodeV4Initialize(log: ChainLog): V4Initialize {
  return {
    id: topicWord(log.topics[1]),
    currency0: topicAddress(log.topics[2]),
    currency1: topicAddress(log.topics[3]),
    fee: Number(word(log.data, 0)),
    tickSpacing: int24(word(log.data, 1)),
    hooks: wordAddress(log.data, 2),
    sqrtPriceX96: word(log.data, 3),
    tick: int24(word(log.data, 4)),
  };
}
