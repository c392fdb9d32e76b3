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
  /** Uniswap V3 and Algebra pools: price, tick, active liquidity, fee, tick spacing and initialized ticks. */
  readonly concentrated?: ConcentratedState;
}

/** The part of a pool's record its kind keeps (its module in `kinds/` sets it). */
export type PoolKindState = Pick<PoolRecord, 'reserves' | 'curve' | 'concentrated'>;

export interface TokenRecord {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

/** A core pool's `estimateSwapBatch` samples, per direction, at a block. */
export interface CoreSamples {
  readonly block: bigint;
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
}
