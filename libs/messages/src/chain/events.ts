import { z } from 'zod';
import { addressSchema, chainIdSchema, CURVE_KINDS, parseCurvePairId, sourceKindSchema, UNISWAP_V4_KIND } from '../primitives';
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

/**
 * A Uniswap V4 pool's id: keccak256(abi.encode(PoolKey)), lowercase `0x` and 64 hex digits. It is the pool's
 * identity in facts (its `address`): the pool lives inside its PoolManager and has no address of its own.
 */
export const v4PoolIdSchema = z.string().regex(/^0x[0-9a-f]{64}$/, 'must be a lowercase 0x-prefixed 32-byte pool id');

/** A Curve pool's coin pair (`curvePairId`): the pool's address in lower case, then the coins' indexes i < j. */
export const curvePairIdSchema = z.string().refine((id) => id === id.toLowerCase() && parseCurvePairId(id) !== undefined, 'must be a Curve pair id: the pool in lower case, then coin indexes i < j (0x…:0:1)');

/** A pool's identity in facts: its contract's address, a Uniswap V4 pool's id (`v4PoolIdSchema`), or a Curve pair's (`curvePairIdSchema`). */
export const poolIdSchema = z.union([addressSchema, v4PoolIdSchema, curvePairIdSchema]);

/** Whether a pool's identity is a Uniswap V4 PoolId (32 bytes) rather than a contract's address. */
export const isV4PoolId = (id: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(id);

/** v4-core's `LPFeeLibrary.DYNAMIC_FEE_FLAG`: a key's fee that leaves the LP fee to the hook. */
export const V4_DYNAMIC_FEE_FLAG = 0x800000;

/** A V4 pool key's fee: a static LP fee of at most 100% (1,000,000 pips), or the dynamic-fee flag. */
const v4KeyFeeSchema = z
  .number()
  .int()
  .min(0)
  .refine((fee) => fee <= 1_000_000 || fee === V4_DYNAMIC_FEE_FLAG, { message: 'must be a static LP fee of at most 1,000,000 pips or 0x800000 (dynamic)' });

/** A V4 pool's key, as its PoolManager's Initialize names it (`fee` as the key has it: `V4_DYNAMIC_FEE_FLAG` or pips). */
export interface UniswapV4KeyRead {
  readonly currency0: string;
  readonly currency1: string;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: string;
}

/** A V4 pool's slot0 at a block (libs/chain's readUniswapV4Slot0s: the PoolManager's storage through `extsload`). */
export interface UniswapV4Slot0Read {
  /** 0 for a pool not initialized. */
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  /** 12 bits each way, pips: the low ones zeroForOne's, the high ones oneForZero's. */
  readonly protocolFee: number;
  /** The LP fee in pips (a dynamic-fee pool's as its hook last set it). */
  readonly lpFee: number;
}

/**
 * A V4 pool read whole at a block (libs/chain's readUniswapV4Pools): slot0, the active liquidity and every
 * initialized tick, ascending, with its liquidityNet and liquidityGross.
 */
export interface UniswapV4PoolRead extends UniswapV4Slot0Read {
  readonly liquidity: bigint;
  readonly ticks: ConcentratedPoolRead['ticks'];
}

const int = z.string().regex(/^-?\d+$/, 'must be an integer string');
/** A tick index (int24). */
const tickSchema = z.number().int().min(-8_388_608).max(8_388_607);

/**
 * A pool the indexer found (its announcer's event): every kind's but Uniswap V4's, named by its contract's address.
 */
const contractPoolCreatedSchema = z.object({
  ...factBase,
  address: addressSchema,
  // Every kind but Uniswap V4's, whose pools are named by PoolId (`v4PoolCreatedSchema`), and Curve's, whose coin
  // pairs are (`curvePoolCreatedSchema`).
  kind: z.union([sourceKindSchema.exclude([UNISWAP_V4_KIND, ...CURVE_KINDS]), concentratedKindSchema]),
  routerIndex: z.number().int().min(0),
  token0: addressSchema,
  token1: addressSchema,
  stable: z.boolean(),
  /** Concentrated pools whose creation event names them (Uniswap V3's PoolCreated): the fee in pips and the tick spacing. */
  fee: z.number().int().min(0).optional(),
  tickSpacing: z.number().int().positive().optional(),
});

/**
 * A Uniswap V4 pool, announced by its PoolManager's Initialize, which this fact carries whole: the pool named by its
 * PoolId; its key (`currency0`, `currency1` with address(0) for the native coin, `fee` as the key has it,
 * `tickSpacing`, `hooks`); its first price (`sqrtPriceX96`, `tick`); `token0` and `token1` the currencies in the
 * key's order with the chain's wrapped native token for the native coin.
 */
const v4PoolCreatedSchema = z.object({
  ...factBase,
  address: v4PoolIdSchema,
  kind: z.literal(UNISWAP_V4_KIND),
  routerIndex: z.number().int().min(0),
  token0: addressSchema,
  token1: addressSchema,
  stable: z.literal(false),
  fee: v4KeyFeeSchema,
  tickSpacing: z.number().int().min(1).max(32_767),
  /** The PoolManager holding the pool (its source's `poolManager`, or `factory`): it emitted the Initialize. */
  poolManager: addressSchema,
  currency0: addressSchema,
  currency1: addressSchema,
  hooks: addressSchema,
  sqrtPriceX96: uint,
  tick: tickSchema,
});

/**
 * One coin pair of a Curve NG pool (each pair of a pool of N coins is announced, N(N-1)/2 facts): named by its pair id
 * (`curvePairId`); `pool` the pool's contract, `i` < `j` the coins' indexes in it, `token0` and `token1` those
 * coins, `nCoins` the pool's coin count.
 */
const curvePoolCreatedSchema = z.object({
  ...factBase,
  address: curvePairIdSchema,
  kind: z.enum(CURVE_KINDS),
  routerIndex: z.number().int().min(0),
  token0: addressSchema,
  token1: addressSchema,
  stable: z.boolean(),
  pool: addressSchema,
  i: z.number().int().min(0).max(7),
  j: z.number().int().min(1).max(7),
  nCoins: z.number().int().min(2).max(8),
});

/** A new pool: a contract's (by its address), a Uniswap V4 pool (by its PoolId, with its key), a Curve pool's coin pair. */
export const poolCreatedEventSchema = z.discriminatedUnion('kind', [contractPoolCreatedSchema, v4PoolCreatedSchema, curvePoolCreatedSchema]);

/**
 * One event of a concentrated-liquidity pool contract, every one of them in chain order (not only the batch's last):
 * `initialize` (the first price), `mint` / `burn` (liquidity of the range [tickLower, tickUpper) added or removed;
 * a burn of 0 collects fees), `swap` (price, tick and active liquidity after it; amounts signed, the pool's view),
 * and Algebra's `fee` (pips) and `tickSpacing`.
 */
const contractPoolEventSchema = z.discriminatedUnion('event', [
  z.object({ ...logBase, address: addressSchema, event: z.literal('initialize'), sqrtPriceX96: uint, tick: tickSchema }),
  z.object({ ...logBase, address: addressSchema, event: z.enum(['mint', 'burn']), owner: addressSchema, tickLower: tickSchema, tickUpper: tickSchema, liquidity: uint, amount0: uint, amount1: uint }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('swap'), sqrtPriceX96: uint, tick: tickSchema, liquidity: uint, amount0: int, amount1: int }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('fee'), fee: z.number().int().min(0) }),
  z.object({ ...logBase, address: addressSchema, event: z.literal('tickSpacing'), tickSpacing: z.number().int().positive() }),
]);

/** A V4 pool's event: named by the PoolId (`address`), emitted by its PoolManager. */
const v4Log = { ...logBase, address: v4PoolIdSchema };

/**
 * A Uniswap V4 pool's events, from its PoolManager, after its Initialize (the pool-created fact carries it):
 * `modifyLiquidity` (liquidity of [tickLower, tickUpper) added, > 0, or removed, < 0, by `sender`'s position `salt`),
 * `swap` (price, tick and active liquidity after it; amounts signed from the swapper's side, negative what it paid;
 * `fee` the swap fee charged, pips: the LP fee and the protocol fee on it), `donate` (amounts given to the in-range
 * positions: no price or liquidity moves) and `protocolFee` (the protocol fee set, 12 bits each way).
 */
const v4PoolEventSchema = z.discriminatedUnion('event', [
  z.object({ ...v4Log, event: z.literal('modifyLiquidity'), sender: addressSchema, tickLower: tickSchema, tickUpper: tickSchema, liquidityDelta: int, salt: hex32 }),
  z.object({ ...v4Log, event: z.literal('swap'), sender: addressSchema, sqrtPriceX96: uint, tick: tickSchema, liquidity: uint, amount0: int, amount1: int, fee: z.number().int().min(0).max(1_000_000) }),
  z.object({ ...v4Log, event: z.literal('donate'), sender: addressSchema, amount0: uint, amount1: uint }),
  z.object({ ...v4Log, event: z.literal('protocolFee'), protocolFee: z.number().int().min(0).max(0xffffff) }),
]);

/** One event of a concentrated-liquidity pool: a pool contract's (V3, Algebra) or a V4 pool's (by its PoolId). */
export const poolConcentratedEventSchema = z.union([contractPoolEventSchema, v4PoolEventSchema]);

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
