// pool.concentrated: every event of a Uniswap V3 or Algebra Integral pool that moves its state, in chain order:
// Initialize, Mint, Burn, Swap, and Algebra's Fee and TickSpacing. The four shared ones have the same signature
// (so topic0) and layout in both protocols. Uniswap V4 pools' events come from their PoolManager, naming the pool by
// its PoolId: ModifyLiquidity, Swap, Donate and ProtocolFeeUpdated (`pool-uniswap-v4.ts`; their Initialize is their
// pool.created). A liquidity state keeps each pool's price, tick, active liquidity and initialized ticks from them;
// none is dropped, unlike pool.updated's Sync (only the last one counts). Nothing of them is written to Postgres
// besides the outbox: a state that starts later reads the pools from the chain once.
import type { LogPosition } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { parseAbiItem, type Address } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { int24, topicAddress, word, type ChainLog } from './log';
import { decodeUniswapV4Event, V4_POOL_EVENTS, type UniswapV4EventRow } from './pool-uniswap-v4';

export const clInitializeEvent = factEvent('clInitialize', parseAbiItem('event Initialize(uint160 sqrtPriceX96, int24 tick)'));
export const clMintEvent = factEvent(
  'clMint',
  parseAbiItem('event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)'),
);
export const clBurnEvent = factEvent(
  'clBurn',
  parseAbiItem('event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)'),
);
export const clSwapEvent = factEvent(
  'clSwap',
  parseAbiItem('event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)'),
);
export const algebraFeeEvent = factEvent('algebraFee', parseAbiItem('event Fee(uint16 fee)'));
export const algebraTickSpacingEvent = factEvent('algebraTickSpacing', parseAbiItem('event TickSpacing(int24 newTickSpacing)'));

/** One pool event, decoded: a pool contract's, or a V4 pool's (its `pool` the PoolId). */
export type ConcentratedEventRow =
  | (LogPosition & { pool: Address } & (
        | { event: 'initialize'; sqrtPriceX96: bigint; tick: number }
        | { event: 'mint' | 'burn'; owner: Address; tickLower: number; tickUpper: number; liquidity: bigint; amount0: bigint; amount1: bigint }
        | { event: 'swap'; sqrtPriceX96: bigint; tick: number; liquidity: bigint; amount0: bigint; amount1: bigint }
        | { event: 'fee'; fee: number }
        | { event: 'tickSpacing'; tickSpacing: number }
      ))
  | UniswapV4EventRow;

const topicTick = (topic: string | undefined): number => {
  if (!topic) throw new Error('missing indexed tick');
  return int24(BigInt(topic));
};
const signed = (w: bigint): bigint => BigInt.asIntN(256, w);

const decoders: Record<string, (log: ChainLog) => Record<string, unknown>> = {
  [clInitializeEvent.topic]: (log) => ({ event: 'initialize', sqrtPriceX96: word(log.data, 0), tick: int24(word(log.data, 1)) }),
  [clMintEvent.topic]: (log) => ({
    event: 'mint',
    owner: topicAddress(log.topics[1]),
    tickLower: topicTick(log.topics[2]),
    tickUpper: topicTick(log.topics[3]),
    liquidity: word(log.data, 1),
    amount0: word(log.data, 2),
    amount1: word(log.data, 3),
  }),
  [clBurnEvent.topic]: (log) => ({
    event: 'burn',
    owner: topicAddress(log.topics[1]),
    tickLower: topicTick(log.topics[2]),
    tickUpper: topicTick(log.topics[3]),
    liquidity: word(log.data, 0),
    amount0: word(log.data, 1),
    amount1: word(log.data, 2),
  }),
  [clSwapEvent.topic]: (log) => ({
    event: 'swap',
    amount0: signed(word(log.data, 0)),
    amount1: signed(word(log.data, 1)),
    sqrtPriceX96: word(log.data, 2),
    liquidity: word(log.data, 3),
    tick: int24(word(log.data, 4)),
  }),
  [algebraFeeEvent.topic]: (log) => ({ event: 'fee', fee: Number(word(log.data, 0)) }),
  [algebraTickSpacingEvent.topic]: (log) => ({ event: 'tickSpacing', tickSpacing: int24(word(log.data, 0)) }),
};
/** Events only Algebra pools emit. */
const ALGEBRA_ONLY = new Set<string>([algebraFeeEvent.topic, algebraTickSpacingEvent.topic]);
/** Events of V4 pools, from their PoolManager. */
const V4_TOPICS = new Set<string>(V4_POOL_EVENTS.map((e) => e.topic));

export const poolConcentratedFact = defineFact<'concentrated', ConcentratedEventRow>({
  name: CHAIN_FACTS.poolConcentrated,
  stage: 'facts',
  events: [clInitializeEvent, clMintEvent, clBurnEvent, clSwapEvent, algebraFeeEvent, algebraTickSpacingEvent, ...V4_POOL_EVENTS],
  list: 'concentrated',
  decode(log, ctx, at) {
    const topic = log.topics[0].toLowerCase();
    if (V4_TOPICS.has(topic)) return decodeUniswapV4Event(log, ctx, at);
    const kind = ctx.pools.get(log.address)?.kind;
    if (kind !== 'uniswap-v3' && kind !== 'algebra') return undefined;
    if (kind === 'uniswap-v3' && ALGEBRA_ONLY.has(topic)) return undefined;
    const decode = decoders[topic];
    return decode ? ({ ...at, pool: log.address, ...decode(log) } as ConcentratedEventRow) : undefined;
  },
  fact: CHAIN_FACTS.poolConcentrated,
  message: (row) => {
    const { blockNumber: _b, logIndex: _l, txHash: _t, timestamp: _ts, pool, ...event } = row;
    const fields: Record<string, unknown> = { address: pool };
    for (const [key, value] of Object.entries(event)) fields[key] = typeof value === 'bigint' ? value.toString() : value;
    return logMessage(row, fields);
  },
});

