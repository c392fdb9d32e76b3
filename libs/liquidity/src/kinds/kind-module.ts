/**
 * What the liquidity state asks of a pool kind, at the bottom of the kinds (it imports none of them): the module
 * each kind gives (`kinds/<kind>.ts`, listed once in `registry.ts`) says how a pool of the kind starts, which facts
 * move it and how, and what the engine routes of it. The state (`chain-state.ts`) and the routing view
 * (`routing-snapshot.ts`) reach a kind only through the registry: a new kind is a module and a registry line.
 */
import type { UniswapV4KeyRead, UniswapV4Slot0Read } from '@dex/messages';
import type { PoolSnapshot } from '@dex/routing';
import type { LiquidityPoolKind, ManagedPoolRead, PoolCreatedFact, PoolFact } from '../facts';
import type { PoolSamples, PoolKindState, PoolRecord } from '../pool-record';
import type { RoutingContext, RoutingSource } from '../routing-context';

/** The engine's snapshot of a kind's pools. */
export type KindSnapshot<K extends LiquidityPoolKind> = PoolSnapshot & { readonly kind: K };

/** What every engine snapshot holds of the pool, as its record and the state's token metadata give it. */
export interface PoolIdentity {
  readonly address: string;
  readonly routerIndex: number;
  /** The source's display name. */
  readonly routerName: string;
  readonly token0: string;
  readonly token1: string;
  readonly decimals0: number;
  readonly decimals1: number;
}

/** What a pool's engine snapshot is built from beside its record. */
export interface SnapshotInputs {
  readonly identity: PoolIdentity;
  /** The pool's source, configured with the pool's kind. */
  readonly source: RoutingSource;
  readonly context: RoutingContext;
  /** A token's decimals: the state's metadata, else the context's default, else 18. */
  decimals(token: string): number;
  /** The samples the state holds for the pool (the sampled kinds'). */
  samples(): PoolSamples | undefined;
}

export interface LiquidityKindModule<K extends LiquidityPoolKind = LiquidityPoolKind> {
  readonly kind: K;
  /** The state a new pool of the kind starts with, from its creation. */
  created(fact: PoolCreatedFact): PoolKindState;
  /**
   * The pool's state after one of its facts; undefined when the fact does not apply to the kind, or the pool does
   * not hold the state it moves (the state then names the fact `unknown`).
   */
  apply(pool: PoolRecord, fact: PoolFact): PoolKindState | undefined;
  /** The engine's snapshot of the pool; undefined while it has nothing to trade (it is not routed). */
  snapshot(pool: PoolRecord, inputs: SnapshotInputs): KindSnapshot<K> | undefined;
  /**
   * The kind's pools are priced by samples read from the chain at each block (`setPoolSamples`), which facts
   * cannot give.
   */
  readonly sampled: boolean;
  /**
   * The kind's pools are Curve NG pools' coin pairs, sampled by the pool's own `get_dy` (of this flavor's index types)
   * at each block the pool changed, not by a core pool's `estimateSwapBatch`.
   */
  readonly curve?: 'stableswap-ng' | 'twocrypto-ng';
  /**
   * The kind's pools keep a concentrated state (price, liquidity, initialized ticks), read whole from the chain for
   * a pool a store holds without it (`statelessConcentratedPools`, `setConcentratedState`).
   */
  readonly concentrated: boolean;
  /** The kind's pools keep two reserves, read from the chain for a pool a store holds without them. */
  readonly reserves: boolean;
  /**
   * What the kind keeps of the state a store restores (the indexer stores pools' reserves and launch curves, not
   * concentrated states).
   */
  restored(stored: StoredKindState): PoolKindState;
  /**
   * The kind's pools live inside a PoolManager, named by their PoolId (Uniswap V4): read whole through it when held
   * without their state, their fees read at each block while they can change without an event.
   */
  readonly managed?: ManagedKind;
  /** Why a pool the kind keeps is not routed (for the API to show); undefined when it is, or would be once it has state. */
  exclusion?(pool: PoolRecord, context: RoutingContext): string | undefined;
  /**
   * For a kind some of whose pools are priced by samples of a quoter contract, as their source's configuration says
   * (Uniswap V4 pools of a hook listed as sampled): the quoter and the inputs to sample it at, per direction, for a
   * pool so priced; undefined for any other (and for one that has nothing to trade yet).
   */
  sampling?(pool: PoolRecord, context: RoutingContext): QuoterSampling | undefined;
}

/** What the state asks of a kind whose pools live inside a PoolManager (`LiquidityKindModule.managed`). */
export interface ManagedKind {
  /** Whether the pool holds its key and state (else facts do not apply to it until a whole read gives them). */
  hasState(pool: PoolRecord): boolean;
  /** The pool's state from a whole read (`ChainLiquidityState.setManagedState`). */
  fromRead(read: ManagedPoolRead): PoolKindState;
  /**
   * Whether the pool's fees are read at each block: its LP fee changes without an event, or is not known yet (and the
   * pool is not left out of routes).
   */
  readsFees(pool: PoolRecord, context: RoutingContext): boolean;
  /** The pool's state with the fees of a slot0 read; undefined when they are those it holds already. */
  withFees(pool: PoolRecord, slot0: UniswapV4Slot0Read): PoolKindState | undefined;
}

/** Where and at which inputs a pool priced by a quoter contract's samples is sampled (`LiquidityKindModule.sampling`). */
export interface QuoterSampling {
  readonly quoter: string;
  /** The pool as the quoter names it (a V4 pool's key). */
  readonly key: UniswapV4KeyRead;
  /** Inputs token0 -> token1 and token1 -> token0, increasing. */
  readonly ladder0to1: readonly bigint[];
  readonly ladder1to0: readonly bigint[];
}

/** The state of a pool as a store holds it: its reserves and its launch curve, where it has them. */
export type StoredKindState = Pick<PoolRecord, 'reserves' | 'curve'>;
