import {
  createChainClient,
  readConcentratedPools,
  readPairReserves,
  readUniswapV4PoolKeys,
  readUniswapV4Pools,
  readCurvePools,
  readUniswapV4Slot0s,
  sampleCorePools,
  sampleCurvePools,
  sampleUniswapV4Pools,
  type ChainPublicClient,
  type CorePoolSample,
  type CurvePoolFlavor,
  type CurvePoolState,
} from '@dex/chain';
import { LiquidityRepository, type DbClient } from '@dex/db';
import {
  ChainLiquidityState,
  concentratedStateOf,
  isConcentratedKind,
  isManagedKind,
  isReservesKind,
  kindModule,
  RoutingViewBuilder,
  type ConcentratedKind,
  type PoolRecord,
  type QuoterSampling,
  type ReservesKind,
  type RoutingContext,
  type RoutingView,
  type StoredLiquidity,
} from '@dex/liquidity';
import { parseCurvePairId, type SourceConfig, type TokenMeta } from '@dex/messages';
import { CURVE_LADDER_REFINE, curveSampleLadder } from '@dex/routing';
import { chainFreshness, staleChainDetails, type ChainEndpoint } from '@dex/chain-service';
import { BusError, ChainFactsSubscription, type ChainFactMessage, type Counter, type Gauge, type Histogram, type NatsBus } from '@dex/service';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { getAddress, type Address, type Hex } from 'viem';
import type { ChainEntry } from './chain-config';
import { LIQUIDITY_FACTS, liquidityFact, storedLiquidity } from './facts';

/** The routable pools of a chain at a block and their graph. */
export type LiquiditySnapshot = RoutingView;

export interface ChainLiquidityOptions {
  /** Blocks of undo log the state keeps: the deepest reorg it undoes without reloading from Postgres. */
  retainBlocks?: number;
  /** Counts the loads from Postgres by chain and reason (`start`, `reorg`). */
  loads?: Counter;
  /** The block the liquidity state is at, by chain. */
  stateBlock?: Gauge;
  /**
   * Time of each block's work, by chain and step: sampling the core pools (`core-samples`), reading concentrated pools
   * whole at load (`concentrated-read`), reading Uniswap V4 pools whole (`v4-read`) and their dynamic fees
   * (`v4-fees`), reading Curve pools' state (`curve-read`) and sampling those that changed (`curve-samples`), building
   * the route view (`view`).
   */
  blockWork?: Histogram;
}

/** A view this many blocks behind its state is served without waiting for the core samples of the state's block. */
const VIEW_LAG_BLOCKS = 2n;
/** Nor one built longer ago than this, milliseconds. */
const VIEW_WAIT_MS = 1_500;

/** The PoolManager of a configured source whose pools live inside one (Uniswap V4): its `poolManager`, else `factory`, as the indexer reads it. */
function poolManagerOf(source: SourceConfig): Address | undefined {
  if (!isManagedKind(source.kind)) return undefined;
  const manager = source.addresses.poolManager ?? source.addresses.factory;
  return manager ? getAddress(manager) : undefined;
}

/**
 * One served chain's liquidity, kept from the indexer's chain facts: loaded from Postgres as of the indexer's
 * checkpoint, then moved fact by fact through the liquidity state's reducer. The chain itself is read only for
 * what facts cannot give: the core pools' prices (one multicall per block), the reserves of a pool whose
 * last Sync the indexer never saw, the concentrated pools' ticks at the load's block, Uniswap V4 pools' keys and
 * state when held without them (the indexer stores neither) and their dynamic LP fees at each block (the hook changes
 * them without an event). Facts, loads and samples run one at a time, in stream order.
 */
export class ChainLiquidity {
  snapshot?: LiquiditySnapshot;
  private state?: ChainLiquidityState;
  private queue: Promise<unknown> = Promise.resolve();
  /** Each core pool's last sample: the next block's ladders are laid on its reserves and rates. */
  private readonly coreLast = new Map<string, CorePoolSample>();
  /**
   * The record each quoter-sampled pool (a V4 pool of a sampled hook) was last sampled as: records are immutable, so
   * a pool whose record is another has changed since (a swap, liquidity, a fee) and is sampled again.
   */
  private readonly quotedLast = new Map<string, PoolRecord>();
  /**
   * What `sampling` said of a pool record (its ladders, laid on its tick legs; null: not sampled): a block asks twice,
   * whether its view waits for samples and then what to sample, and records are immutable.
   */
  private readonly samplings = new WeakMap<PoolRecord, QuoterSampling | null>();
  /** Each Curve pool's state (`CurvePoolState.fingerprint`) when its pairs were last sampled: sampled again once it moves. */
  private readonly curveLast = new Map<string, string>();
  /** The factory of each configured Curve source, by routerIndex: it vouches for the pools, and tells their coins' asset types. */
  private readonly curveFactories: ReadonlyMap<number, Address>;
  /** Blocks whose Curve pools were read (`sampleCurve`), the pools read and those sampled again, since the start. */
  readonly curveWork = { blocks: 0, poolsRead: 0, poolsSampled: 0 };
  private readonly configured = new Map<string, TokenMeta>();
  private readonly sourceNames: ReadonlyMap<number, string>;
  /** The routerIndexes of the configured sources whose pools are sampled at each block (core). */
  private readonly sampledSources: ReadonlySet<number>;
  /** The PoolManager of each configured Uniswap V4 source, by routerIndex: where its pools are read. */
  private readonly poolManagers: ReadonlyMap<number, Address>;
  private readonly context: RoutingContext;
  private readonly views: RoutingViewBuilder;
  /** Told of each new snapshot (the route searches' worker builds the same graph from it). */
  private readonly viewListeners: ((view: LiquiditySnapshot) => void)[] = [];
  /** The core pools' sampling under way (at most one), and whether a newer block wants another. */
  private sampling?: Promise<void>;
  private sampleAgain = false;
  /** When the view served was built (`performance.now()`). */
  private builtAt = 0;
  private readonly logger: Logger;

  constructor(
    readonly chainId: number,
    readonly entry: ChainEntry,
    readonly sources: readonly SourceConfig[],
    readonly client: ChainPublicClient,
    private readonly repository: Pick<LiquidityRepository, 'load'>,
    private readonly options: ChainLiquidityOptions = {},
  ) {
    this.sourceNames = new Map(sources.map((s) => [s.routerIndex, s.name]));
    this.sampledSources = new Set(sources.filter((s) => kindModule(s.kind)?.sampled).map((s) => s.routerIndex));
    this.logger = new Logger(`Liquidity:${chainId}`);
    for (const t of [entry.wrappedNative, ...entry.tokens]) this.configured.set(t.address.toLowerCase(), { ...t, address: getAddress(t.address) });
    this.poolManagers = new Map(
      sources.flatMap((s) => {
        const manager = poolManagerOf(s);
        return manager ? [[s.routerIndex, manager] as const] : [];
      }),
    );
    this.curveFactories = new Map(sources.flatMap((s) => (kindModule(s.kind)?.curve && s.addresses.factory ? [[s.routerIndex, getAddress(s.addresses.factory)] as const] : [])));
    this.context = {
      sources: sources.map((s) => ({ routerIndex: s.routerIndex, kind: s.kind, name: s.name, feeBps: s.feeBps, hooks: s.hooks, v4Quoter: s.addresses.v4Quoter })),
      wrappedNative: entry.wrappedNative.address,
      launchpad: entry.launchpad?.address,
    };
    this.views = new RoutingViewBuilder(this.context);
  }

  get wrappedNative(): Address {
    return this.entry.wrappedNative.address as Address;
  }

  /** The block the liquidity state has applied every fact of (undefined before the first load). */
  get block(): bigint | undefined {
    return this.state?.block;
  }

  /** The liquidity state (undefined before the first load). */
  get liquidityState(): ChainLiquidityState | undefined {
    return this.state;
  }

  sourceName(routerIndex: number): string {
    return this.sourceNames.get(routerIndex) ?? `source ${routerIndex}`;
  }

  /** The pools of the pair `a`/`b` the state keeps but does not route, each with why (`exclusion`). */
  excludedPools(a: string, b: string): { pool: PoolRecord; reason: string }[] {
    const pair = [a.toLowerCase(), b.toLowerCase()].sort().join();
    const out: { pool: PoolRecord; reason: string }[] = [];
    for (const pool of this.state?.committedPools() ?? []) {
      if ([pool.token0.toLowerCase(), pool.token1.toLowerCase()].sort().join() !== pair) continue;
      const reason = this.exclusion(pool);
      if (reason !== undefined) out.push({ pool, reason });
    }
    return out;
  }

  /** Why the state keeps a pool but does not route it, as its kind says (a V4 pool whose hook may change swaps); undefined otherwise. */
  exclusion(pool: PoolRecord): string | undefined {
    return kindModule(pool.kind)?.exclusion?.(pool, this.context);
  }

  /** A token's metadata as the indexer read it, or as the sources file gives it. */
  token(address: string): TokenMeta | undefined {
    const known = this.state?.token(address);
    // Tokens reach the state checksummed (from the indexer's rows and its token.created facts).
    if (known) return known as TokenMeta;
    return this.configured.get(address.toLowerCase());
  }

  /** Every token the chain's pools trade, with metadata. */
  tokenList(): TokenMeta[] {
    const out = new Map(this.configured);
    for (const t of this.state?.allTokens() ?? []) out.set(t.address.toLowerCase(), t as TokenMeta);
    return [...out.values()];
  }

  /** The newest snapshot; loads the state first when it has none (503 while the indexer has not recorded the chain). */
  async current(): Promise<LiquiditySnapshot> {
    if (!this.snapshot) await this.load();
    if (!this.snapshot) throw new BusError(503, 'Liquidity not loaded yet', `chain ${this.chainId}`);
    return this.snapshot;
  }

  /** Loads the state from Postgres unless it has one (after the load, facts carry it on). */
  load(): Promise<void> {
    return this.serial(async () => {
      if (!this.state) await this.bootstrap('start');
    });
  }

  /** Applies one chain fact, after the facts and loads before it. */
  onFact(message: ChainFactMessage): Promise<void> {
    return this.serial(() => this.apply(message));
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(message: ChainFactMessage): Promise<void> {
    const fact = liquidityFact(message);
    if (!fact) return;
    if (!this.state) {
      // What the indexer stored when it published this fact covers it (it publishes after committing).
      await this.bootstrap('start');
    }
    const state = this.state!;
    const outcome = state.apply(fact);
    if (outcome === 'incomplete') {
      this.logger.warn({ msg: 'reorg deeper than the undo log; reloading from the indexer', chainId: this.chainId, fact: message.fact, seq: message.seq });
      await this.bootstrap('reorg');
      return;
    }
    if (outcome !== 'applied') return;
    // A block's facts are published before the block itself. Its view is served once its core pools' samples at
    // that block are in: a block's routes are then a function of the block alone, the same on every replica and
    // for every request at it. A chain without core pools moves at once; so does one whose view has fallen behind
    // (sampling slower than the blocks: see `viewBehind`), with its core pools' last samples (a route re-quotes
    // core legs at its block).
    if (fact.type === 'blockProcessed' || fact.type === 'reorg') {
      await this.readStateless(state);
      await this.readManaged(state);
      if ((this.sampledCorePools(state).length === 0 && this.dueQuoterSamples(state).length === 0 && this.curvePools(state).size === 0) || this.viewBehind(state)) this.rebuild(state);
      this.resample(state);
    }
  }

  /** The state's core pools of a configured core source: those sampled at each block. */
  private sampledCorePools(state: ChainLiquidityState) {
    return state.corePools().filter((p) => this.sampledSources.has(p.routerIndex));
  }

  /**
   * Whether the view served is more than VIEW_LAG_BLOCKS behind the state, or was built more than VIEW_WAIT_MS ago:
   * then the state's view is served without waiting for its samples (a failing or slow node must not freeze it).
   */
  private viewBehind(state: ChainLiquidityState): boolean {
    return !this.snapshot || state.block - this.snapshot.blockNumber > VIEW_LAG_BLOCKS || performance.now() - this.builtAt > VIEW_WAIT_MS;
  }

  /** Samples the core pools at the state's block, then rebuilds the view; one sampling at a time, the newest block wins. */
  private resample(state: ChainLiquidityState): void {
    if (this.sampling) {
      this.sampleAgain = true;
      return;
    }
    this.sampling = (async () => {
      do {
        this.sampleAgain = false;
        const block = state.block;
        await Promise.all([this.sampleCores(state), this.sampleQuoted(state), this.sampleCurve(state)]);
        // The state moved on (a newer block, a reload) while sampling: its own view is built already.
        if (this.state === state && state.block === block) this.rebuild(state);
      } while (this.sampleAgain && this.state === state);
    })().finally(() => {
      this.sampling = undefined;
    });
  }

  /**
   * The state at the indexer's checkpoint; pools whose reserves it never saw, and the concentrated and V4 pools (whose
   * state it does not store), are read at that block.
   */
  private async bootstrap(reason: 'start' | 'reorg'): Promise<void> {
    const stored = await this.repository.load(this.chainId);
    if (!stored) throw new BusError(503, 'Liquidity not loaded yet', `the indexer has not processed chain ${this.chainId} yet`);
    const start = storedLiquidity(stored);
    const state = new ChainLiquidityState(this.chainId, { retainBlocks: this.options.retainBlocks }, await this.withConcentratedState(await this.withUnknownReserves(start)));
    await this.readManaged(state);
    this.coreLast.clear();
    this.quotedLast.clear();
    this.curveLast.clear();
    await Promise.all([this.sampleCores(state), this.sampleQuoted(state), this.sampleCurve(state)]);
    this.state = state;
    this.rebuild(state);
    this.options.loads?.inc({ chain: this.chainId, reason });
    this.logger.log({ msg: 'liquidity loaded', reason, chainId: this.chainId, block: stored.block.toString(), pools: state.poolCount, routable: this.snapshot?.pools.length });
  }

  private async withUnknownReserves(start: StoredLiquidity): Promise<StoredLiquidity> {
    const unknown = start.pools.filter((p) => isReservesKind(p.kind) && !p.reserves);
    if (unknown.length === 0) return start;
    const reserves = await readPairReserves(this.client, {
      blockNumber: start.block,
      pools: unknown.map((p) => ({ address: getAddress(p.address), kind: p.kind as ReservesKind })),
    });
    const read = new Map(unknown.map((p, i) => [p.address, reserves[i]]));
    return { ...start, pools: start.pools.map((p) => (read.get(p.address) ? { ...p, reserves: read.get(p.address) } : p)) };
  }

  /**
   * Reads the concentrated pools whole at the load's block (price, tick, liquidity, fee, tick spacing, every
   * initialized tick); their later events carry them on. A pool that does not answer stays without state (its
   * events are then unknown to the state, and it is not routed) until the next load.
   */
  private async withConcentratedState(start: StoredLiquidity): Promise<StoredLiquidity> {
    const pools = start.pools.filter((p) => isConcentratedKind(p.kind) && !p.concentrated);
    if (pools.length === 0) return start;
    const started = performance.now();
    const reads = await readConcentratedPools(this.client, {
      blockNumber: start.block,
      pools: pools.map((p) => ({ address: getAddress(p.address), kind: p.kind as ConcentratedKind })),
    });
    const read = new Map(pools.map((p, i) => [p.address, reads[i]]));
    const missing = reads.filter((r) => !r).length;
    if (missing) this.logger.warn({ msg: 'concentrated pools not read', chainId: this.chainId, block: start.block.toString(), missing });
    this.options.blockWork?.observe({ chain: this.chainId, step: 'concentrated-read' }, (performance.now() - started) / 1000);
    return {
      ...start,
      pools: start.pools.map((p) => {
        const r = read.get(p.address);
        return r ? { ...p, concentrated: concentratedStateOf(r) } : p;
      }),
    };
  }

  /**
   * Concentrated pools the state holds without their ticks (their read at load failed, or they had no code yet at
   * the loaded block) are read at the block just processed, before any fact of the next block is applied.
   */
  private async readStateless(state: ChainLiquidityState): Promise<void> {
    const pools = state.statelessConcentratedPools();
    if (pools.length === 0) return;
    const block = state.block;
    const reads = await readConcentratedPools(this.client, {
      blockNumber: block,
      pools: pools.map((p) => ({ address: getAddress(p.address), kind: p.kind as ConcentratedKind })),
    });
    reads.forEach((read, i) => {
      // A pool without code at the block (created later) or that did not answer stays without state: read again
      // at the next block. One not initialized yet reads as price 0; its Initialize fact follows.
      if (read) state.setConcentratedState(pools[i].address, concentratedStateOf(read), block);
    });
  }

  /**
   * The Uniswap V4 pools at the state's block: those held without their key and state are read whole, then the fees of
   * those whose LP fee changes without an event (a dynamic fee) are read from slot0, before the block's view is built.
   * Only pools of a configured V4 source are read (no other is routed).
   */
  private async readManaged(state: ChainLiquidityState): Promise<void> {
    const read = await this.readManagedStates(state);
    await this.readManagedFees(state, read);
  }

  /** Pools of a configured V4 source by the PoolManager `managerOf` names for each. */
  private byPoolManager(pools: readonly PoolRecord[], managerOf: (pool: PoolRecord) => Address | undefined): Map<Address, PoolRecord[]> {
    const out = new Map<Address, PoolRecord[]>();
    for (const pool of pools) {
      const manager = this.poolManagers.has(pool.routerIndex) ? managerOf(pool) : undefined;
      if (manager) out.set(manager, [...(out.get(manager) ?? []), pool]);
    }
    return out;
  }

  /**
   * Reads whole, at the state's block, the V4 pools it holds without their key and state (loaded from the store,
   * which keeps neither): each pool's key from its PoolManager's Initialize in the pool's creation block, then its
   * slot0, liquidity and initialized ticks through the PoolManager's extsload. A pool whose read fails stays as it
   * was (its facts unknown to the state, not routed) and is read again at the next block. The pools read.
   */
  private async readManagedStates(state: ChainLiquidityState): Promise<Set<string>> {
    const done = new Set<string>();
    const groups = this.byPoolManager(state.statelessManagedPools(), (p) => this.poolManagers.get(p.routerIndex));
    if (groups.size === 0) return done;
    const block = state.block;
    const started = performance.now();
    for (const [poolManager, pools] of groups) {
      try {
        const keys = await readUniswapV4PoolKeys(this.client, { poolManager, pools: pools.map((p) => ({ id: p.address as Hex, block: p.createdBlock })) });
        const keyed = pools.flatMap((pool, i) => (keys[i] ? [{ pool, key: keys[i] }] : []));
        const reads = await readUniswapV4Pools(this.client, { poolManager, blockNumber: block, pools: keyed.map(({ pool, key }) => ({ id: pool.address as Hex, tickSpacing: key.tickSpacing })) });
        keyed.forEach(({ pool, key }, i) => {
          const read = reads[i];
          if (read && state.setManagedState(pool.address, { poolManager, key, state: read }, block)) done.add(pool.address);
        });
        const missing = pools.filter((p) => !done.has(p.address));
        if (missing.length) this.logger.warn({ msg: 'Uniswap V4 pools not read; again at the next block', chainId: this.chainId, block: block.toString(), poolManager, missing: missing.length, keyless: pools.length - keyed.length });
      } catch (err) {
        this.logger.warn({ msg: 'Uniswap V4 pools not read; again at the next block', chainId: this.chainId, block: block.toString(), poolManager, missing: pools.length, err: String(err) });
      }
    }
    this.options.blockWork?.observe({ chain: this.chainId, step: 'v4-read' }, (performance.now() - started) / 1000);
    return done;
  }

  /**
   * Reads at the state's block the slot0 of the V4 pools whose fees are read at each block (`managedFeeReads`: a
   * dynamic LP fee, set by the hook without an event), one round per PoolManager, and sets the fees that moved. Pools
   * in `fresh` were just read whole at the block. A read that fails leaves the fees as they were, read again at the
   * next block.
   */
  private async readManagedFees(state: ChainLiquidityState, fresh: ReadonlySet<string>): Promise<void> {
    const due = state.managedFeeReads(this.context).filter((p) => !fresh.has(p.address));
    const groups = this.byPoolManager(due, (p) => (p.uniswapV4 ? getAddress(p.uniswapV4.poolManager) : undefined));
    if (groups.size === 0) return;
    const block = state.block;
    const started = performance.now();
    for (const [poolManager, pools] of groups) {
      const reads = await readUniswapV4Slot0s(this.client, { poolManager, ids: pools.map((p) => p.address as Hex), blockNumber: block });
      pools.forEach((pool, i) => {
        const slot0 = reads[i];
        if (slot0) state.setManagedFees(pool.address, slot0, block);
      });
      const missing = reads.filter((r) => !r).length;
      if (missing) this.logger.warn({ msg: 'Uniswap V4 fees not read; again at the next block', chainId: this.chainId, block: block.toString(), poolManager, missing });
    }
    this.options.blockWork?.observe({ chain: this.chainId, step: 'v4-fees' }, (performance.now() - started) / 1000);
  }

  /** Samples every core pool of a configured core source at the state's block, in one multicall. */
  private async sampleCores(state: ChainLiquidityState): Promise<void> {
    const pools = this.sampledCorePools(state);
    if (pools.length === 0) return;
    const block = state.block;
    const started = performance.now();
    try {
      const samples = await sampleCorePools(this.client, {
        blockNumber: block,
        pools: pools.map((p) => ({ address: getAddress(p.address), token0: getAddress(p.token0), token1: getAddress(p.token1), previous: this.coreLast.get(p.address) })),
      });
      samples.forEach((s, i) => {
        if (!s) return;
        this.coreLast.set(pools[i].address, s);
        state.setPoolSamples(pools[i].address, { block, samples0to1: s.samples0to1, samples1to0: s.samples1to0 });
      });
      this.options.blockWork?.observe({ chain: this.chainId, step: 'core-samples' }, (performance.now() - started) / 1000);
    } catch (err) {
      // Routes keep the last samples (core legs are re-quoted at the route's block before they are answered).
      this.logger.warn({ msg: 'core pool sampling failed', chainId: this.chainId, block: block.toString(), err: String(err) });
    }
  }

  /**
   * The pools of a configured source priced by samples of a quoter (V4 pools of a hook the source lists as sampled,
   * `LiquidityKindModule.sampling`) that changed since they were last sampled, or never were, with where and at which
   * inputs to sample them.
   */
  private dueQuoterSamples(state: ChainLiquidityState): { pool: PoolRecord; sampling: QuoterSampling }[] {
    const due: { pool: PoolRecord; sampling: QuoterSampling }[] = [];
    for (const pool of state.committedPools()) {
      const module = kindModule(pool.kind);
      if (!module?.sampling || !this.poolManagers.has(pool.routerIndex) || this.quotedLast.get(pool.address) === pool) continue;
      let sampling = this.samplings.get(pool);
      if (sampling === undefined) this.samplings.set(pool, (sampling = module.sampling(pool, this.context) ?? null));
      if (sampling) due.push({ pool, sampling });
    }
    return due;
  }

  /**
   * Samples, at the state's block, the quoter-sampled pools that changed (`dueQuoterSamples`): every input of every
   * such pool in one multicall of their V4Quoters; RPC work per block follows the pools that changed, not the pools.
   * A failed read leaves the pools as they were, sampled again at the next block.
   */
  private async sampleQuoted(state: ChainLiquidityState): Promise<void> {
    const due = this.dueQuoterSamples(state);
    if (due.length === 0) return;
    const block = state.block;
    const started = performance.now();
    try {
      const samples = await sampleUniswapV4Pools(this.client, {
        blockNumber: block,
        pools: due.map(({ sampling }) => ({ quoter: getAddress(sampling.quoter), key: sampling.key, ladder0to1: sampling.ladder0to1, ladder1to0: sampling.ladder1to0 })),
      });
      samples.forEach((s, i) => {
        const { pool } = due[i];
        if (state.setPoolSamples(pool.address, { block, samples0to1: s.samples0to1, samples1to0: s.samples1to0 })) this.quotedLast.set(pool.address, pool);
      });
      this.options.blockWork?.observe({ chain: this.chainId, step: 'quoter-samples' }, (performance.now() - started) / 1000);
    } catch (err) {
      // Routes keep the last samples (their swaps are quoted again by the quoter before they are answered).
      this.logger.warn({ msg: 'quoter sampling failed; again at the next block', chainId: this.chainId, block: block.toString(), pools: due.length, err: String(err) });
    }
  }

  /** The state's Curve pairs of a configured Curve source, by pool: the pool's flavor, factory and pairs. */
  private curvePools(state: ChainLiquidityState): Map<string, { flavor: CurvePoolFlavor; factory: Address; pairs: { record: PoolRecord; i: number; j: number }[] }> {
    const pools = new Map<string, { flavor: CurvePoolFlavor; factory: Address; pairs: { record: PoolRecord; i: number; j: number }[] }>();
    for (const record of state.curvePairs()) {
      const factory = this.curveFactories.get(record.routerIndex);
      const flavor = kindModule(record.kind)?.curve;
      const pair = parseCurvePairId(record.address);
      if (!factory || !flavor || !pair) continue;
      const pool = pools.get(pair.pool) ?? { flavor, factory, pairs: [] };
      pool.pairs.push({ record, i: pair.i, j: pair.j });
      pools.set(pair.pool, pool);
    }
    return pools;
  }

  /**
   * Samples, at the state's block, the Curve pools that changed: every pool's state is read in one multicall
   * (`readCurvePools`: balances, A, fees, rates, price scale; no quote is run), and the pools whose state moved since
   * their pairs were last sampled, or with a pair never sampled, have every pair sampled both ways by their own
   * `get_dy` at ladders laid on their balances (`curveSampleLadder`), then again at CURVE_LADDER_REFINE inputs a
   * direction where the first samples' chords fall furthest under the curve (`refineSampleLadder`), each round an
   * `eth_call` per 200 quotes. RPC work per block: one call, plus the changed pools' quotes. A failed read leaves the
   * pools as they were, read again at the next block.
   */
  private async sampleCurve(state: ChainLiquidityState): Promise<void> {
    const pools = [...this.curvePools(state)];
    if (pools.length === 0) return;
    const block = state.block;
    const started = performance.now();
    try {
      const reads = await readCurvePools(this.client, { blockNumber: block, pools: pools.map(([pool, p]) => ({ pool: getAddress(pool), flavor: p.flavor, factory: p.factory })) });
      this.curveWork.blocks += 1;
      this.curveWork.poolsRead += pools.length;
      this.options.blockWork?.observe({ chain: this.chainId, step: 'curve-read' }, (performance.now() - started) / 1000);
      const due = pools.flatMap(([pool, p], k): { pool: string; read: CurvePoolState; pairs: typeof p.pairs; flavor: CurvePoolFlavor }[] => {
        const read = reads[k];
        if (!read) return [];
        const unsampled = p.pairs.some(({ record }) => !state.poolSamples(record.address)?.curve);
        return unsampled || this.curveLast.get(pool) !== read.fingerprint ? [{ pool, read, pairs: p.pairs, flavor: p.flavor }] : [];
      });
      const missing = reads.filter((r) => !r).length;
      if (missing) this.logger.warn({ msg: 'Curve pools not read; again at the next block', chainId: this.chainId, block: block.toString(), missing });
      if (due.length === 0) return;
      const sampledAt = performance.now();
      const ladders = due.map(({ read, pairs }) => pairs.flatMap(({ i, j }) => [{ i, j, ladder: curveSampleLadder(read.balances[i] ?? 0n) }, { i: j, j: i, ladder: curveSampleLadder(read.balances[j] ?? 0n) }]));
      const samples = await sampleCurvePools(this.client, {
        blockNumber: block,
        pools: due.map(({ pool, flavor }, k) => ({ pool: getAddress(pool), flavor, directions: ladders[k] })),
        refine: CURVE_LADDER_REFINE,
      });
      this.curveWork.poolsSampled += due.length;
      due.forEach(({ pool, read, pairs }, k) => {
        const curve = { exchangeReceived: read.exchangeReceived, fee: read.fee, A: read.A, nCoins: read.nCoins };
        let set = true;
        pairs.forEach(({ record }, m) => {
          set = state.setPoolSamples(record.address, { block, samples0to1: samples[k][2 * m].samples, samples1to0: samples[k][2 * m + 1].samples, curve }) && set;
        });
        if (set) this.curveLast.set(pool, read.fingerprint);
      });
      this.options.blockWork?.observe({ chain: this.chainId, step: 'curve-samples' }, (performance.now() - sampledAt) / 1000);
    } catch (err) {
      // Routes keep the last samples (their swaps are quoted again by the pools before they are answered).
      this.logger.warn({ msg: 'Curve pool sampling failed; again at the next block', chainId: this.chainId, block: block.toString(), pools: pools.length, err: String(err) });
    }
  }

  /** Calls `listener` with the current snapshot, if any, then with each new one. */
  onView(listener: (view: LiquiditySnapshot) => void): void {
    this.viewListeners.push(listener);
    if (this.snapshot) listener(this.snapshot);
  }

  private rebuild(state: ChainLiquidityState): void {
    const started = performance.now();
    this.builtAt = started;
    this.snapshot = this.views.build(state);
    for (const listener of this.viewListeners) listener(this.snapshot);
    const seconds = (performance.now() - started) / 1000;
    this.options.blockWork?.observe({ chain: this.chainId, step: 'view' }, seconds);
    this.options.stateBlock?.set({ chain: this.chainId }, Number(state.block));
    this.logger.debug?.({ msg: 'liquidity view', chainId: this.chainId, block: state.block.toString(), pools: this.snapshot.pools.length, ms: Math.round(seconds * 1000) });
  }
}

/**
 * Every served chain's liquidity, from the indexer's chain facts on JetStream: each chain is loaded from
 * Postgres at the indexer's checkpoint and follows the facts published after it (the subscription starts a
 * little before the load, and facts the load already covers are duplicates to the state).
 */
@Injectable()
export class LiquidityService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Liquidity');
  private readonly facts?: ChainFactsSubscription;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly chains: ReadonlyMap<number, ChainLiquidity>,
    facts?: { bus: NatsBus; stream?: string },
    private readonly retryMs = 1_000,
    /** The chains' RPC settings, whose providers' freshness `assertFresh` checks. */
    private readonly endpoints?: ReadonlyMap<number, ChainEndpoint>,
  ) {
    if (facts) {
      this.facts = new ChainFactsSubscription({
        ...facts,
        logger: this.logger,
        context: 'Liquidity',
        chainIds: [...chains.keys()],
        facts: LIQUIDITY_FACTS,
        // The load that follows reads Postgres at some checkpoint: every fact published after that commit
        // must be delivered, whatever the clocks of this host and the NATS server say.
        startMarginMs: 10_000,
        onFact: (fact) => this.onFact(fact),
      });
    }
  }

  static create(
    entries: ReadonlyMap<number, ChainEntry>,
    sources: ReadonlyMap<number, readonly SourceConfig[]>,
    endpoints: readonly ChainEndpoint[],
    db: DbClient,
    options: { pollMs: number; retainBlocks?: number; facts?: { bus: NatsBus; stream?: string } },
  ): LiquidityService {
    const chains = new Map<number, ChainLiquidity>();
    const repository = new LiquidityRepository(db);
    const metrics = options.facts?.bus.metrics;
    const loads = metrics?.counter('liquidity_loads_total', 'Loads of the liquidity state from Postgres, by chain and reason (start, reorg deeper than the undo log)');
    const stateBlock = metrics?.gauge('liquidity_state_block', 'The block the liquidity state is at, by chain');
    const blockWork = metrics?.histogram('liquidity_block_work_seconds', 'Work done for each block of a chain: sampling the core pools, reading concentrated and Uniswap V4 pools, building the route view', [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]);
    for (const e of endpoints) {
      const entry = entries.get(e.chainId)!;
      const client = createChainClient({ chainId: e.chainId, rpcUrl: e.rpcUrl, providers: e.providers, multicall3: entry.multicall3 as Address | undefined, timeoutMs: 5_000, pollingIntervalMs: options.pollMs });
      chains.set(e.chainId, new ChainLiquidity(e.chainId, entry, sources.get(e.chainId) ?? [], client, repository, { retainBlocks: options.retainBlocks, loads, stateBlock, blockWork }));
    }
    return new LiquidityService(chains, options.facts, undefined, new Map(endpoints.map((e) => [e.chainId, e])));
  }

  /** 503 naming the chain when none of its RPC providers has given a block within the staleness bound. */
  assertFresh(chainId: number): void {
    const endpoint = this.endpoints?.get(chainId);
    if (!endpoint) return;
    const freshness = chainFreshness(endpoint);
    if (freshness.stale) throw new BusError(503, `Chain ${chainId} unavailable: no RPC provider is giving blocks`, staleChainDetails(freshness));
  }

  chain(chainId: number): ChainLiquidity {
    const chain = this.chains.get(chainId);
    if (!chain) throw new BusError(400, `Unsupported chainId: ${chainId}`, `supported chains: ${[...this.chains.keys()].join(', ')}`);
    return chain;
  }

  async onFact(message: ChainFactMessage): Promise<void> {
    const chain = this.chains.get(message.chainId);
    if (!chain) return;
    await chain.onFact(message).catch((err: unknown) => {
      this.logger.warn({ msg: 'chain fact not applied', chainId: chain.chainId, fact: message.fact, seq: message.seq, err: String(err) });
    });
  }

  onApplicationBootstrap(): void {
    this.facts?.start();
    for (const chain of this.chains.values()) this.loadUntilLoaded(chain, true);
  }

  /** Loads a chain, again every `retryMs` while the indexer has not recorded it or Postgres does not answer. */
  private loadUntilLoaded(chain: ChainLiquidity, first: boolean): void {
    if (this.closed) return;
    chain.load().catch((err: unknown) => {
      if (first) this.logger.warn({ msg: 'liquidity not loaded yet; retrying', chainId: chain.chainId, err: String(err) });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.loadUntilLoaded(chain, false);
      }, this.retryMs);
      timer.unref();
      this.timers.add(timer);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    await this.facts?.stop();
  }
}
