/**
 * What the liquidity state holds of each pool and token, at the bottom of the lib (the kinds' modules in `kinds/`
 * and the state above them read it): a pool's record is its identity and the state its kind keeps.
 */
import type { QuoteSample } from '@dex/routing';
import type { ConcentratedState } from './concentrated-state';
import type { FactPosition, LiquidityPoolKind } from './facts';

/** A pool and its state as of its last change (`at`). */
export interface PoolRecord {
  readonly kind: LiquidityPoolKind;
  /** Lower case; for `launchpad`, the launched token. */
  readonly address: string;
  readonly routerIndex: number;
  readonly token0: string;
  readonly token1: string;
  readonly createdBlock: bigint;
  /** Where the state was last set; `{ block: createdBlock, logIndex: -1 }` before any change. */
  readonly at: FactPosition;
  /** V2 and stable pools. */
  readonly reserves?: { readonly reserve0: bigint; readonly reserve1: bigint };
  /** Launchpad curves. */
  readonly curve?: { readonly nativeReserve: bigint; readonly tokenReserve: bigint; readonly graduated: boolean };
  /**
   * Uniswap V3, Algebra and V4 pools: price, tick, active liquidity, fee (a V4 pool's LP fee), tick spacing and
   * initialized ticks.
   */
  readonly concentrated?: ConcentratedState;
  /** Uniswap V4 pools: where the pool lives and what its key and slot0 say beside its concentrated state. */
  readonly uniswapV4?: UniswapV4PoolState;
}

/** A Uniswap V4 pool beside its concentrated state (whose `fee` is its LP fee). */
export interface UniswapV4PoolState {
  /** The PoolManager holding the pool. */
  readonly poolManager: string;
  /** The key's currencies: address(0) is the native coin. */
  readonly currency0: string;
  readonly currency1: string;
  /** The key's fee is the dynamic-fee flag: the hook sets the LP fee, without an event. */
  readonly dynamicFee: boolean;
  readonly hooks: string;
  /** slot0's protocol fee: 12 bits each way, pips (0 from the pool's Initialize until ProtocolFeeUpdated). */
  readonly protocolFee: number;
}

/** The part of a pool's record its kind keeps (its module in `kinds/` sets it). */
export type PoolKindState = Pick<PoolRecord, 'reserves' | 'curve' | 'concentrated' | 'uniswapV4'>;

export interface TokenRecord {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

/**
 * A sampled pool's quotes (a core pool's `estimateSwapBatch`, a sampled V4 pool's V4Quoter, a Curve pair's `get_dy`),
 * per direction, at a block.
 */
export interface PoolSamples {
  readonly block: bigint;
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
  /** A Curve pair's: what the read that sampled it found of its pool. */
  readonly curve?: CurvePoolParams;
}

/** A Curve NG pool as the read sampling it found it. */
export interface CurvePoolParams {
  /** The pool takes `exchange_received`: a TwocryptoNG pool, or a StableswapNG pool holding no rebasing coin. */
  readonly exchangeReceived: boolean;
  /** `fee()`, 1e10 = 100% (TwocryptoNG's at the pool's state). */
  readonly fee: bigint;
  /** `A()` now. */
  readonly A: bigint;
  readonly nCoins: number;
}
