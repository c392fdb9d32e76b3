import { z } from 'zod';
import { addressSchema, chainIdSchema, sourceKindSchema } from '../primitives';
import { CHAIN_FACTS, type ChainFact } from '../subjects';
import { launchMetadataShape } from '../launchpad/metadata';

// Payloads of the chain facts the indexer publishes on JetStream (stream CHAIN_EVENTS, subjects
// `chain.<chainId>.<fact>`). Every message carries a `Nats-Msg-Id` of `<chainId>:<block>:<logIndex>` (or
// `<chainId>:<fact>:<block>...` for facts without a log) so a re-published fact is dropped by JetStream.
// Amounts are base-unit integer strings; block numbers are decimal strings; times are Unix seconds.

const uint = z.string().regex(/^\d+$/, 'must be a non-negative integer string');
const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

const factBase = {
  chainId: chainIdSchema,
  blockNumber: uint,
  blockHash: hex32,
  timestamp: z.number().int().nonnegative(),
};
const logBase = { ...factBase, logIndex: z.number().int().nonnegative(), txHash: hex32 };

/** The indexer committed blocks up to `blockNumber` (one per batch, for the batch's last block). */
export const blockEventSchema = z.object({ ...factBase, parentHash: hex32 });

/** A reorg: everything above `ancestor` was undone; facts published for those blocks are void. */
export const reorgEventSchema = z.object({
  chainId: chainIdSchema,
  ancestor: uint,
  ancestorHash: hex32,
  /** The checkpoint before the reorg was undone. */
  previousBlock: uint,
});

export const tokenCreatedEventSchema = z.object({
  ...factBase,
  address: addressSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  isERC20Verified: z.boolean(),
  source: z.enum(['config', 'pool', 'launchpad']),
});

/** The concentrated-liquidity pool kinds: Uniswap V3 (and forks), Algebra Integral. */
export const CONCENTRATED_KINDS = ['uniswap-v3', 'algebra'] as const;
export const concentratedKindSchema = z.enum(CONCENTRATED_KINDS);
export type ConcentratedKind = z.infer<typeof concentratedKindSchema>;

/**
 * A concentrated-liquidity pool read whole from the chain at a block (libs/chain's readConcentratedPools), as the
 * liquidity state takes it when it starts following a pool whose earlier events it never saw.
 */
export interface ConcentratedPoolRead {
  /** 0 for a pool not initialized yet. */
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  /** The active liquidity. */
  readonly liquidity: bigint;
  /** In pips (V3 fee(); Algebra globalState.lastFee). */
  readonly fee: number;
  readonly tickSpacing: number;
  /**
   * Every initialized tick, ascending: the liquidity added when the price crosses it upwards (V3 liquidityNet,
   * Algebra liquidityDelta) and that of every position bounded by it (V3 liquidityGross, Algebra liquidityTotal).
   */
  readonly ticks: readonly { readonly index: number; readonly liquidityNet: bigint; readonly liquidityGross: bigint }[];
}

const int = z.string().regex(/^-?\d+$/, 'must be an integer string');
/** A tick index (int24). */
const tickSchema = z.number().int().min(-8_388_608).max(8_388_607);

export const poolCreatedEventSchema = z.object({
  ...factBase,
  address: addressSchema,
  kind: z.union([sourceKindSchema, concentratedKindSchema]),
  routerIndex: z.number().int().min(0),
  token0: addressSchema,
  token1: addressSchema,
  stable: z.boolean(),
  /** Concentrated pools whose creation event names them (Uniswap V3's PoolCreated): the fee in pips and the tick spacing. */
  fee: z.number().int().min(0).optional(),
  tickSpacing: z.number().int().positive().optional(),
});

/**
 * One event of a concentrated-liquidity pool, every one of them in chain order (not only the batch's last):
 * `initialize` (the first price), `mint` / `burn` (liquidity of the range [tickLower, tickUpper) added or removed;
 * a burn of 0 collects fees), `swap` (price, tick and active liquidity after it; amounts signed, the pool's view),
 * and Algebra's `fee` (pips) and `tickSpacing`.
 */
export const poolConcentratedEventSchema = z.discriminatedUnion('event', [
  z.object({ ...logBase, address: addressSchema, event: z.literal('initialize'), sqrtPriceX96: uint, tick: tickSchema }),
  z.object({ ...logBase, address: addressSchema, event: z.enum(['mint', 'burn']), owner: addressSchema, tickLower: tickSchema, tickUpper: tickSchema, liquidity: uint, amount0: uint, amount1: uint }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('swap'), sqrtPriceX96: uint, tick: tickSchema, liquidity: uint, amount0: int, amount1: int }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('fee'), fee: z.number().int().min(0) }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('tickSpacing'), tickSpacing: z.number().int().positive() }),
]);

/** New reserves of a pool (the last Sync of the pool in the batch). */
export const poolUpdatedEventSchema = z.object({
  ...logBase,
  address: addressSchema,
  reserve0: uint,
  reserve1: uint,
});

/** A swap on a core AMM pool. */
export const swapEventSchema = z.object({
  ...logBase,
  pool: addressSchema,
  user: addressSchema,
  sender: addressSchema,
  tokenIn: addressSchema,
  tokenOut: addressSchema,
  amountIn: uint,
  amountOut: uint,
  fee: uint,
  refCode: hex32.nullable(),
  refFee: uint.nullable(),
});

export const referralClaimedEventSchema = z.object({
  ...logBase,
  pool: addressSchema,
  refCode: hex32,
  wallet: addressSchema,
  amount0: uint,
  amount1: uint,
  kind: z.enum(['claim', 'distribution']),
});

export const launchpadTokenCreatedEventSchema = z.object({
  ...logBase,
  token: addressSchema,
  creator: addressSchema,
  name: z.string(),
  symbol: z.string(),
  ...launchMetadataShape,
  creationTimestamp: uint,
  startingLiquidity: uint,
  nativeReserves: uint,
  tokenReserves: uint,
  totalSupply: uint,
  price: uint,
  initialPurchaseAmount: uint,
});

export const launchpadTradeEventSchema = z.object({
  ...logBase,
  token: addressSchema,
  trader: addressSchema,
  side: z.enum(['buy', 'sell']),
  nativeAmount: uint,
  tokenAmount: uint,
  price: uint,
  nativeReserves: uint,
  tokenReserves: uint,
  totalSupply: uint,
});

export const launchpadMetadataUpdatedEventSchema = z.object({
  ...logBase,
  token: addressSchema,
  creator: addressSchema,
  ...launchMetadataShape,
});

/**
 * A token's curve sold out and it moved to its DEX pair (TokenGraduated): `nativeAmount` native coin (deposited
 * wrapped) and `tokenAmount` reserved tokens seeded `pair`, which minted `liquidity` LP tokens to the launchpad.
 */
export const launchpadTokenGraduatedEventSchema = z.object({
  ...logBase,
  token: addressSchema,
  pair: addressSchema,
  nativeAmount: uint,
  tokenAmount: uint,
  liquidity: uint,
});

/** The payload schema of each fact. */
export const chainEventSchemas = {
  [CHAIN_FACTS.block]: blockEventSchema,
  [CHAIN_FACTS.reorg]: reorgEventSchema,
  [CHAIN_FACTS.tokenCreated]: tokenCreatedEventSchema,
  [CHAIN_FACTS.poolCreated]: poolCreatedEventSchema,
  [CHAIN_FACTS.poolUpdated]: poolUpdatedEventSchema,
  [CHAIN_FACTS.poolConcentrated]: poolConcentratedEventSchema,
  [CHAIN_FACTS.swap]: swapEventSchema,
  [CHAIN_FACTS.referralClaimed]: referralClaimedEventSchema,
  [CHAIN_FACTS.launchpadTokenCreated]: launchpadTokenCreatedEventSchema,
  [CHAIN_FACTS.launchpadTrade]: launchpadTradeEventSchema,
  [CHAIN_FACTS.launchpadMetadataUpdated]: launchpadMetadataUpdatedEventSchema,
  [CHAIN_FACTS.launchpadTokenGraduated]: launchpadTokenGraduatedEventSchema,
} as const satisfies Record<ChainFact, z.ZodType>;

export type ChainEventOf<F extends ChainFact> = z.input<(typeof chainEventSchemas)[F]>;
/** A fact's payload as validated by its schema (addresses typed as such). */
export type ChainFactPayload<F extends ChainFact> = z.output<(typeof chainEventSchemas)[F]>;
