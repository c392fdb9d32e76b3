/**
 * The chain facts the liquidity state is built from: what the indexer publishes, as plain values (bigints,
 * lower-case or checksummed addresses alike). A service maps its message payloads onto these; the state never
 * reads the chain itself.
 */
import type { UniswapV4KeyRead, UniswapV4PoolRead } from '@dex/messages';
import type { PoolKind } from '@dex/routing';

/**
 * The pool kinds the state keeps: every kind the engine routes, each with its module in `kinds/` (`KIND_MODULES`:
 * the facts that move its pools, its engine snapshot). Core pools are priced by sampling, see `setPoolSamples`.
 */
export type LiquidityPoolKind = PoolKind;

/** Where a fact stands in the chain: its block and its log's index there (-1 for facts not from a log). */
export interface FactPosition {
  readonly block: bigint;
  readonly logIndex: number;
}

/**
 * A pool appeared (a factory's PairCreated / PoolCreated, the core router's PoolAdded, a launch, a PoolManager's
 * Initialize).
 */
export interface PoolCreatedFact {
  readonly type: 'poolCreated';
  readonly block: bigint;
  readonly kind: LiquidityPoolKind;
  /** The pool; for `launchpad`, the launched token (its curve lives in the launchpad contract); a V4 pool's PoolId. */
  readonly address: string;
  readonly routerIndex: number;
  readonly token0: string;
  readonly token1: string;
  /**
   * Concentrated pools whose creation names them (a V3 factory's PoolCreated, a V4 pool's key): the fee in pips (a V4
   * key's fee as the key has it: `DYNAMIC_FEE_FLAG` for a dynamic LP fee) and the tick spacing.
   */
  readonly fee?: number;
  readonly tickSpacing?: number;
  /**
   * Uniswap V4 pools, announced by their PoolManager's Initialize: the PoolManager, the rest of the key (address(0):
   * the native coin) and the first price.
   */
  readonly poolManager?: string;
  readonly currency0?: string;
  readonly currency1?: string;
  readonly hooks?: string;
  readonly sqrtPriceX96?: bigint;
  readonly tick?: number;
}

/** New reserves of a V2 or stable pool: its Sync (swaps, liquidity added or removed all end in one). */
export interface ReservesSyncedFact extends FactPosition {
  readonly type: 'reservesSynced';
  readonly pool: string;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
}

/** A launched token's curve after a trade or after its creation (the creator's purchase included). */
export interface CurveTradedFact extends FactPosition {
  readonly type: 'curveTraded';
  readonly token: string;
  readonly nativeReserve: bigint;
  readonly tokenReserve: bigint;
}

/** A launched token left its curve for its DEX pair (TokenGraduated). */
export interface TokenGraduatedFact extends FactPosition {
  readonly type: 'tokenGraduated';
  readonly token: string;
}

/** A concentrated pool got its first price (Initialize). */
export interface PoolInitializedFact extends FactPosition {
  readonly type: 'poolInitialized';
  readonly pool: string;
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
}

/**
 * Liquidity added to (Mint, `liquidityDelta` > 0) or removed from (Burn, < 0) the range [tickLower, tickUpper) of
 * a concentrated pool. A Burn of 0 (a fee poke) changes nothing.
 */
export interface PositionChangedFact extends FactPosition {
  readonly type: 'positionChanged';
  readonly pool: string;
  readonly tickLower: number;
  readonly tickUpper: number;
  readonly liquidityDelta: bigint;
}

/** A concentrated pool after a swap (Swap): its price, tick and active liquidity. */
export interface ConcentratedSwappedFact extends FactPosition {
  readonly type: 'concentratedSwapped';
  readonly pool: string;
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  /** A V4 pool's: the fee the swap paid, pips (its LP fee, and the protocol fee on it where one is on). */
  readonly fee?: number;
}

/** The fee of an Algebra pool, in pips (Fee: set at initialisation, by the administrator or by a plugin). */
export interface PoolFeeChangedFact extends FactPosition {
  readonly type: 'poolFeeChanged';
  readonly pool: string;
  readonly fee: number;
}

/** The tick spacing of an Algebra pool (TickSpacing: set at initialisation or by the administrator). */
export interface TickSpacingChangedFact extends FactPosition {
  readonly type: 'tickSpacingChanged';
  readonly pool: string;
  readonly tickSpacing: number;
}

/** The facts that move a concentrated pool. */
export type ConcentratedFact = PoolInitializedFact | PositionChangedFact | ConcentratedSwappedFact | PoolFeeChangedFact | TickSpacingChangedFact;

/** Tokens given to the in-range positions of a V4 pool (Donate): its price, ticks and liquidity stay. */
export interface PoolDonatedFact extends FactPosition {
  readonly type: 'poolDonated';
  readonly pool: string;
}

/** The protocol fee of a V4 pool (ProtocolFeeUpdated): 12 bits each way, pips, the low ones zeroForOne's. */
export interface ProtocolFeeChangedFact extends FactPosition {
  readonly type: 'protocolFeeChanged';
  readonly pool: string;
  readonly protocolFee: number;
}

/** The facts of a PoolManager's pools beside those of every concentrated pool. */
export type PoolManagerFact = PoolDonatedFact | ProtocolFeeChangedFact;

/** The facts that move one pool's state: its kind's module says whether and how each applies. */
export type PoolFact = ReservesSyncedFact | CurveTradedFact | TokenGraduatedFact | ConcentratedFact | PoolManagerFact;

/**
 * A pool inside a PoolManager (Uniswap V4) read whole at a block, for a pool the state holds without its key and
 * state: its PoolManager, its key (from its Initialize) and its storage (slot0, liquidity, initialized ticks).
 */
export interface ManagedPoolRead {
  readonly poolManager: string;
  readonly key: UniswapV4KeyRead;
  readonly state: UniswapV4PoolRead;
}

/** A token's metadata (first seen by the indexer). */
export interface TokenListedFact {
  readonly type: 'tokenListed';
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

/** Every fact of blocks up to `block` has been delivered. */
export interface BlockProcessedFact {
  readonly type: 'blockProcessed';
  readonly block: bigint;
}

/** The blocks above `ancestor` were replaced: every fact of theirs is void. */
export interface ReorgFact {
  readonly type: 'reorg';
  readonly ancestor: bigint;
}

export type LiquidityFact =
  | PoolCreatedFact
  | ReservesSyncedFact
  | CurveTradedFact
  | TokenGraduatedFact
  | ConcentratedFact
  | PoolManagerFact
  | TokenListedFact
  | BlockProcessedFact
  | ReorgFact;

/**
 * What applying a fact did: `applied` changed the state; `duplicate` had been applied already (a fact that
 * arrives twice, or of a block the state covers); `unknown` names a pool the state does not hold;
 * `incomplete` is a reorg deeper than the state can undo (the caller reloads the state from its store).
 */
export type ApplyOutcome = 'applied' | 'duplicate' | 'unknown' | 'incomplete';
