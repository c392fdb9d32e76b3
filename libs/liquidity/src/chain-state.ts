/**
 * The liquidity state of one chain, built from chain facts alone: every pool with its state at a block, and
 * an undo log of the recent blocks so a reorg rolls the state back exactly. No I/O: a service feeds it facts
 * (and core pool samples, which are read from the chain because the pools price at an oracle) and builds its
 * routing graph from it.
 *
 * Facts are idempotent: a fact of a block the state already covers, or older than a pool's last change, is a
 * duplicate and changes nothing. Records are immutable, so the undo log keeps the record a block replaced.
 */
import type { UniswapV4Slot0Read } from '@dex/messages';
import type { ConcentratedState } from './concentrated-state';
import type { ApplyOutcome, FactPosition, LiquidityFact, ManagedPoolRead, PoolCreatedFact, PoolFact } from './facts';
import { kindModule } from './kinds/registry';
import type { PoolSamples, PoolRecord, TokenRecord } from './pool-record';
import type { RoutingContext } from './routing-context';

export type { PoolSamples, PoolRecord, TokenRecord } from './pool-record';

/** The state as a store holds it at a block (what `restore` starts from). */
export interface StoredLiquidity {
  readonly block: bigint;
  readonly pools: readonly PoolRecord[];
  readonly tokens: readonly TokenRecord[];
}

export interface ChainStateOptions {
  /** Blocks of undo log kept below the newest processed block: the deepest reorg undone without a reload. */
  readonly retainBlocks?: number;
}

const DEFAULT_RETAIN_BLOCKS = 128;

/** Where a read of the chain at a block stands: after every log of the block. */
const endOf = (block: bigint): FactPosition => ({ block, logIndex: Number.MAX_SAFE_INTEGER });

const after = (a: FactPosition, b: FactPosition): boolean => a.block > b.block || (a.block === b.block && a.logIndex > b.logIndex);

/** The pool a fact moves (for a launch curve's facts: the launched token). */
const poolOf = (fact: PoolFact): string => (fact.type === 'curveTraded' || fact.type === 'tokenGraduated' ? fact.token : fact.pool);

export class ChainLiquidityState {
  /** Every fact of blocks up to here has been applied (facts of later blocks may be, too). */
  private processed: bigint;
  /** The oldest block the undo log can restore the state to. */
  private floor: bigint;
  private readonly pools = new Map<string, PoolRecord>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly samples = new Map<string, PoolSamples>();
  /**
   * Per block above `floor`: the record of each pool the block changed, as the block found it (undefined: the
   * block created the pool), in the order of the block's first change to each.
   */
  private readonly undo = new Map<bigint, Map<string, PoolRecord | undefined>>();
  private readonly retain: bigint;
  /** Bumped by every change, so a consumer rebuilds derived data (the graph) only when it moved. */
  private version = 0;

  constructor(
    readonly chainId: number,
    options: ChainStateOptions = {},
    start: StoredLiquidity = { block: 0n, pools: [], tokens: [] },
  ) {
    this.retain = BigInt(options.retainBlocks ?? DEFAULT_RETAIN_BLOCKS);
    this.processed = start.block;
    this.floor = start.block;
    for (const p of start.pools) this.pools.set(p.address.toLowerCase(), { ...p, address: p.address.toLowerCase() });
    for (const t of start.tokens) this.tokens.set(t.address.toLowerCase(), t);
  }

  /** The block every fact up to which has been applied. */
  get block(): bigint {
    return this.processed;
  }

  get changes(): number {
    return this.version;
  }

  pool(address: string): PoolRecord | undefined {
    return this.pools.get(address.toLowerCase());
  }

  allPools(): IterableIterator<PoolRecord> {
    return this.pools.values();
  }

  /**
   * Every pool as of the end of `block` (the processed block): changes from facts of later blocks, applied
   * before their block is complete, are left out.
   */
  committedPools(): PoolRecord[] {
    const before = new Map<string, PoolRecord | undefined>();
    for (const block of [...this.undo.keys()].filter((b) => b > this.processed).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      for (const [address, previous] of this.undo.get(block)!) if (!before.has(address)) before.set(address, previous);
    }
    const out: PoolRecord[] = [];
    for (const [address, pool] of this.pools) {
      if (!before.has(address)) out.push(pool);
      else if (before.get(address)) out.push(before.get(address)!);
    }
    return out;
  }

  get poolCount(): number {
    return this.pools.size;
  }

  token(address: string): TokenRecord | undefined {
    return this.tokens.get(address.toLowerCase());
  }

  allTokens(): IterableIterator<TokenRecord> {
    return this.tokens.values();
  }

  poolSamples(address: string): PoolSamples | undefined {
    return this.samples.get(address.toLowerCase());
  }

  /** The core pools, whose prices are sampled from the chain (one batch per block): the pools of the sampled kinds but Curve's. */
  corePools(): PoolRecord[] {
    return [...this.pools.values()].filter((p) => {
      const module = kindModule(p.kind);
      return module?.sampled && !module.curve;
    });
  }

  /** Curve NG pools' coin pairs, sampled by their pools' `get_dy` at each block their pool changed. */
  curvePairs(): PoolRecord[] {
    return [...this.pools.values()].filter((p) => kindModule(p.kind)?.curve !== undefined);
  }

  /**
   * Records a sampled pool's samples (a core pool's; a V4 pool's of a hook its source samples); samples of an unknown
   * pool, of a kind never sampled, or older than those held, are ignored.
   */
  setPoolSamples(address: string, samples: PoolSamples): boolean {
    const key = address.toLowerCase();
    const pool = this.pools.get(key);
    const module = pool && kindModule(pool.kind);
    if (!module || !(module.sampled || module.sampling)) return false;
    const held = this.samples.get(key);
    if (held && held.block > samples.block) return false;
    this.samples.set(key, samples);
    this.version += 1;
    return true;
  }

  /**
   * Concentrated pools held without their state: loaded from a store that keeps no ticks and not read from the
   * chain yet (the read failed, or the pool had no code at the loaded block). Their facts are `unknown` until
   * `setConcentratedState` gives them a state read at the processed block.
   */
  statelessConcentratedPools(): PoolRecord[] {
    return [...this.pools.values()].filter((p) => kindModule(p.kind)?.concentrated && !p.concentrated);
  }

  /**
   * Sets the state of a concentrated pool held without one, as read from the chain at `block`, which must be the
   * processed block (every fact up to it applied, none after it): the facts after it carry it on. Undone by a
   * reorg below `block` like any change of that block.
   */
  setConcentratedState(address: string, concentrated: ConcentratedState, block: bigint): boolean {
    const key = address.toLowerCase();
    const pool = this.pools.get(key);
    if (block !== this.processed || !pool || !kindModule(pool.kind)?.concentrated || pool.concentrated) return false;
    this.record(block, key, pool);
    this.pools.set(key, { ...pool, concentrated, at: endOf(block) });
    this.version += 1;
    return true;
  }

  /**
   * Pools inside a PoolManager (Uniswap V4) held without their key and state: loaded from a store that keeps neither,
   * or announced without the key. Their facts are `unknown` until `setManagedState` gives them a whole read (their
   * key from their Initialize, their storage read through the PoolManager) at the processed block.
   */
  statelessManagedPools(): PoolRecord[] {
    return [...this.pools.values()].filter((p) => {
      const managed = kindModule(p.kind)?.managed;
      return managed !== undefined && !managed.hasState(p);
    });
  }

  /**
   * Sets the key and state of a pool inside a PoolManager held without them, as read at `block`, which must be the
   * processed block (as `setConcentratedState`); undone by a reorg below `block` like any change of that block.
   */
  setManagedState(address: string, read: ManagedPoolRead, block: bigint): boolean {
    const key = address.toLowerCase();
    const pool = this.pools.get(key);
    const managed = pool && kindModule(pool.kind)?.managed;
    if (block !== this.processed || !pool || !managed || managed.hasState(pool)) return false;
    this.record(block, key, pool);
    this.pools.set(key, { ...pool, ...managed.fromRead(read), at: endOf(block) });
    this.version += 1;
    return true;
  }

  /**
   * The pools inside a PoolManager whose fees are read from their slot0 at each block (`setManagedFees`): a dynamic
   * LP fee (the hook changes it without an event), or one not known yet. Pools left out of routes (`context`) are left out.
   */
  managedFeeReads(context: RoutingContext): PoolRecord[] {
    return [...this.pools.values()].filter((p) => kindModule(p.kind)?.managed?.readsFees(p, context) ?? false);
  }

  /**
   * Sets a pool's LP and protocol fees as its slot0 read at `block` says, `block` being the processed block; undone
   * by a reorg below it like any change of that block. False, changing nothing, for fees the pool holds already, or a
   * read older than the pool's last change (a fact of a later block applied before its block was complete).
   */
  setManagedFees(address: string, slot0: UniswapV4Slot0Read, block: bigint): boolean {
    const key = address.toLowerCase();
    const pool = this.pools.get(key);
    const managed = pool && kindModule(pool.kind)?.managed;
    if (block !== this.processed || !pool || !managed || after(pool.at, endOf(block))) return false;
    const update = managed.withFees(pool, slot0);
    if (!update) return false;
    this.record(block, key, pool);
    this.pools.set(key, { ...pool, ...update, at: endOf(block) });
    this.version += 1;
    return true;
  }

  apply(fact: LiquidityFact): ApplyOutcome {
    switch (fact.type) {
      case 'tokenListed': {
        const key = fact.address.toLowerCase();
        if (this.tokens.has(key)) return 'duplicate';
        this.tokens.set(key, { address: fact.address, symbol: fact.symbol, name: fact.name, decimals: fact.decimals });
        this.version += 1;
        return 'applied';
      }
      case 'poolCreated':
        return this.create(fact);
      case 'blockProcessed':
        return this.advance(fact.block);
      case 'reorg':
        return this.rollback(fact.ancestor);
      default:
        // A fact of one pool: its kind's module says whether and how it applies.
        return this.change(poolOf(fact), fact, (p) => kindModule(p.kind)?.apply(p, fact));
    }
  }

  private create(fact: PoolCreatedFact): ApplyOutcome {
    const key = fact.address.toLowerCase();
    if (fact.block <= this.processed || this.pools.has(key)) return 'duplicate';
    const record: PoolRecord = {
      kind: fact.kind,
      address: key,
      routerIndex: fact.routerIndex,
      token0: fact.token0,
      token1: fact.token1,
      createdBlock: fact.block,
      at: { block: fact.block, logIndex: -1 },
      ...kindModule(fact.kind)?.created(fact),
    };
    this.record(fact.block, key, undefined);
    this.pools.set(key, record);
    this.version += 1;
    return 'applied';
  }

  /** Sets what `next` returns on the pool (undefined: the fact does not apply to the pool's kind). */
  private change(address: string, fact: FactPosition, next: (pool: PoolRecord) => Partial<PoolRecord> | undefined): ApplyOutcome {
    if (fact.block <= this.processed) return 'duplicate';
    const key = address.toLowerCase();
    const pool = this.pools.get(key);
    if (!pool) return 'unknown';
    if (!after(fact, pool.at)) return 'duplicate';
    const update = next(pool);
    if (!update) return 'unknown';
    this.record(fact.block, key, pool);
    this.pools.set(key, { ...pool, ...update, at: { block: fact.block, logIndex: fact.logIndex } });
    this.version += 1;
    return 'applied';
  }

  private record(block: bigint, address: string, previous: PoolRecord | undefined): void {
    let changed = this.undo.get(block);
    if (!changed) this.undo.set(block, (changed = new Map()));
    if (!changed.has(address)) changed.set(address, previous);
  }

  private advance(block: bigint): ApplyOutcome {
    if (block <= this.processed) return 'duplicate';
    this.processed = block;
    const horizon = block - this.retain;
    if (horizon > this.floor) {
      for (const b of [...this.undo.keys()]) {
        if (b <= horizon) this.undo.delete(b);
      }
      this.floor = horizon;
    }
    this.version += 1;
    return 'applied';
  }

  /**
   * Undoes every block above `ancestor`, newest first. A reorg below what the undo log reaches (deeper than
   * `retainBlocks`, or below the block the state was restored at) cannot be undone here: `incomplete`.
   */
  private rollback(ancestor: bigint): ApplyOutcome {
    const above = [...this.undo.keys()].filter((b) => b > ancestor).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    if (ancestor < this.floor) {
      return 'incomplete';
    }
    for (const block of above) {
      for (const [address, previous] of [...this.undo.get(block)!].reverse()) {
        if (previous) this.pools.set(address, previous);
        else {
          this.pools.delete(address);
          this.samples.delete(address);
        }
      }
      this.undo.delete(block);
    }
    // Samples of replaced blocks are void too (and would hold off the new branch's samples of lower blocks).
    for (const [address, held] of this.samples) if (held.block > ancestor) this.samples.delete(address);
    if (this.processed > ancestor) this.processed = ancestor;
    this.version += 1;
    return 'applied';
  }
}
