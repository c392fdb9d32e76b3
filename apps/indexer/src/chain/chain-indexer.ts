// Follows one chain: backfills from the start block, then follows the head. Each batch of blocks is read
// with eth_getLogs, decoded, and written with its checkpoint in one transaction; a reorg is detected by
// parent hash, undone down to the common ancestor, and replayed. A restart resumes after the checkpoint.
import { readPairReserves, readTokenMetadata, type ChainPublicClient, type TokenMetadata } from '@dex/chain';
import {
  CheckpointConflictError,
  CheckpointRepository,
  DAY,
  type ActivityBackfillState,
  type BlockRow,
  type ChainBatch,
  type IndexerStore,
  type OutboxEvent,
  type PoolRow,
  type ReserveUpdate,
  type TokenRow,
} from '@dex/db';
import { CHAIN_FACTS, chainFactSubject, chainEventSchemas, curvePairId, type ChainIndexerStatus, type IndexerState } from '@dex/messages';
import type { LoggerService } from '@nestjs/common';
import { encodeAbiParameters, zeroHash, type Address, type Hex } from 'viem';
import {
  ALL_TOPICS,
  checksum,
  decodeFacts,
  discover,
  isPoolContract,
  outboxEvents,
  parseRpcLog,
  poolRef,
  rowsOf,
  sendersToRead,
  storeRows,
  stableSyncEvent,
  swapFact,
  transferFact,
  v2SyncEvent,
  V4_POOL_EVENTS,
  type ChainLog,
  type DecodeContext,
  type DecodedPoolRow,
  type RpcLogEntry,
} from '../facts';
import type { IndexerMetrics } from '../metrics';
import { curveFactoriesToRead, readCurveDeployments, readCurveFactories } from './curve-pools';
import { tokenRow } from './token-metadata';
import { LogRanges } from './log-ranges';
import type { ChainWatchList } from './watch-list';

export interface ChainIndexerOptions {
  /** First block to index when the chain has no checkpoint. */
  startBlock: bigint;
  /**
   * With no checkpoint, start at the head (`startAtHead`) instead of at `startBlock`: the pools found from their
   * announcers' logs and their reserves read at one block.
   */
  startAtHead?: boolean;
  /** Most blocks per eth_getLogs range and per transaction. */
  batchSize: number;
  /** Blocks the indexer stays behind the head. */
  confirmations: number;
  /** Within this many blocks of the head every header is read and checked by parent hash. */
  reorgWindow: number;
  /** Block headers kept below the checkpoint for finding a common ancestor. */
  blockRetention: number;
  pollIntervalMs: number;
  /** Most addresses per eth_getLogs filter. */
  addressesPerRequest?: number;
  /** Parallel RPC calls for transaction senders, headers and token metadata. */
  rpcConcurrency?: number;
}

export interface ChainIndexerDeps {
  chainId: number;
  client: ChainPublicClient;
  store: IndexerStore;
  checkpoints: CheckpointRepository;
  watch: ChainWatchList;
  options: ChainIndexerOptions;
  logger: LoggerService;
  metrics: IndexerMetrics;
  /** Called after a commit that wrote events, so they get published. */
  onEvents?: () => void;
}

interface Checkpoint {
  number: bigint;
  hash: Hex;
}

/** The chain changed under a batch (a reorg in progress): the batch is read again. */
class ChainMovedError extends Error {
  override readonly name = 'ChainMovedError';
}

/** No stored block is on the current chain any more. */
export class DeepReorgError extends Error {
  override readonly name = 'DeepReorgError';
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]);
      }
    }),
  );
  return results;
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

/** The events of V4 pools after their Initialize: a start at the head leaves their history out (the pools are read whole). */
const V4_POOL_TOPICS = new Set<string>(V4_POOL_EVENTS.map((e) => e.topic));

export class ChainIndexer {
  readonly chainId: number;
  private checkpoint: Checkpoint | null = null;
  private head = 0n;
  private tokens = new Set<Address>();
  /** The activity window before a start at the head, while some of it is still to read. */
  private backfill: ActivityBackfillState | null = null;
  /** The pools followed, by `poolRef`: a pool contract's address, a V4 pool's PoolId, a Curve pool's pair id. */
  private pools = new Map<Address, PoolRow>();
  /** The Curve factories looked at for pools from before the indexer followed them (curve-pools.ts), since the last load. */
  private curveFactoriesSeen = new Set<Address>();
  private running = false;
  private abort?: AbortController;
  private loop?: Promise<void>;
  private lastError?: string;
  private progress = { at: Date.now(), blocks: 0, logs: 0, blocksPerSecond: 0, logsPerSecond: 0 };
  private readonly context: { log: string };
  /** The chain's eth_getLogs policy: the providers' range limit as learned, waits where they rate-limit. */
  private readonly logRanges: LogRanges;

  constructor(private readonly deps: ChainIndexerDeps) {
    this.chainId = deps.chainId;
    this.context = { log: `indexer:${deps.chainId}` };
    this.logRanges = new LogRanges({
      onLimitLearned: (blocks) => this.log('warn', { msg: 'eth_getLogs range limit found: requests cut to it', maxBlocks: blocks.toString() }),
      onRateLimited: (waitMs) => this.log('warn', { msg: 'eth_getLogs rate-limited: waiting', waitMs }),
    });
  }

  private get opts(): Required<ChainIndexerOptions> {
    return { addressesPerRequest: 500, rpcConcurrency: 16, startAtHead: false, ...this.deps.options };
  }

  /** Loads the checkpoint and what is known, and records the configured tokens and pools. */
  async init(): Promise<void> {
    const { store, watch, chainId, client } = this.deps;
    const stored = await this.deps.checkpoints.get(chainId);
    this.checkpoint = stored ? { number: stored.lastProcessedBlock, hash: stored.lastProcessedHash as Hex } : null;
    const known = new Set(await store.knownTokens(chainId));
    const missing = watch.tokens.filter((t) => !known.has(t));
    const rows: TokenRow[] = await mapLimit(missing, this.opts.rpcConcurrency, async (address) => tokenRow(address, await readTokenMetadata(client, { token: address }), 'config', 0n));
    const pools: PoolRow[] = watch.pools.map((p) => ({
      address: p.address,
      kind: p.kind,
      routerIndex: p.routerIndex,
      source: p.name,
      discoveredBy: null,
      token0: p.token0,
      token1: p.token1,
      stable: p.kind === 'stable',
      feeBps: p.feeBps,
      createdBlock: 0n,
    }));
    await store.seed(chainId, rows, pools);
    await this.reloadKnown();
    this.log('log', { msg: 'chain ready', checkpoint: this.checkpoint?.number.toString() ?? null, tokens: this.tokens.size, pools: this.pools.size, announcers: watch.announcers.size });
  }

  private async reloadKnown(): Promise<void> {
    this.tokens = new Set((await this.deps.store.knownTokens(this.chainId)).map((a) => checksum(a)));
    this.pools = new Map((await this.deps.store.knownPools(this.chainId)).map((p) => [poolRef(p.address), p]));
    this.curveFactoriesSeen = new Set();
    this.backfill = await this.deps.store.activityBackfill(this.chainId);
  }

  /** Starts following the chain in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.loop = (async () => {
      let failures = 0;
      while (!signal.aborted) {
        try {
          const worked = await this.step();
          failures = 0;
          this.lastError = undefined;
          this.reportProgress();
          if (!worked) await sleep(this.opts.pollIntervalMs, signal);
        } catch (error) {
          failures += 1;
          this.lastError = (error as Error).message;
          this.deps.metrics.errors.inc({ chain: this.chainId });
          this.log(failures > 3 ? 'error' : 'warn', { msg: 'batch failed', error: this.lastError, failures });
          await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), signal);
        }
      }
    })();
  }

  /** Stops after the batch in flight and records the chain as stopped. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort?.abort();
    await this.loop;
    await this.deps.checkpoints.setStatus(this.chainId, 'stopped').catch(() => undefined);
  }

  /** Processes batches until the indexer has caught up with the head it saw at the start. */
  async catchUp(): Promise<void> {
    while (await this.step()) {
      this.reportProgress();
    }
  }

  status(): ChainIndexerStatus {
    const last = this.checkpoint?.number ?? 0n;
    const behind = this.head > last ? this.head - last : 0n;
    return {
      chainId: this.chainId,
      serviceStatus: this.state(behind),
      lastProcessedBlock: last.toString(),
      headBlock: this.head.toString(),
      blocksBehind: Number(behind),
      blocksPerSecond: this.progress.blocksPerSecond,
      logsPerSecond: this.progress.logsPerSecond,
      ...(this.lastError ? { error: this.lastError } : {}),
      updatedAt: new Date().toISOString(),
    };
  }

  private state(behind: bigint): IndexerState {
    if (this.lastError) return 'error';
    if (!this.running) return 'stopped';
    return behind > BigInt(this.opts.batchSize) + BigInt(this.opts.confirmations) ? 'backfilling' : 'running';
  }

  /** One batch (or one reorg undone). Returns false when there was nothing to do. */
  async step(): Promise<boolean> {
    const { client } = this.deps;
    this.head = await client.getBlockNumber({ cacheTime: 0 });
    const m = this.deps.metrics;
    const last = this.checkpoint?.number ?? 0n;
    m.head.set({ chain: this.chainId }, Number(this.head));
    m.lastProcessed.set({ chain: this.chainId }, Number(last));
    m.behind.set({ chain: this.chainId }, Number(this.head > last ? this.head - last : 0n));
    const target = this.head - BigInt(this.opts.confirmations);
    if (!this.checkpoint && this.opts.startAtHead && target >= 0n) {
      await this.startAtHead(target);
      return true;
    }
    const from = this.checkpoint ? this.checkpoint.number + 1n : this.opts.startBlock;
    if (from > target) {
      // Caught up: still make sure the newest stored block at or below the head is on the chain (a reorg
      // to a chain that is not longer). A head below the checkpoint with our block at that height is a
      // node that lags behind: wait for it.
      if (this.backfill) {
        await this.backfillActivity(this.backfill);
        return true;
      }
      if (this.checkpoint) {
        // The newest stored block at or below the head: the checkpoint itself (this poll, some ten a second, then
        // asks the node only), unless the node is behind it.
        const [stored] = this.checkpoint.number <= this.head ? [this.checkpoint] : await this.deps.store.recentBlocks(this.chainId, 1, this.head);
        if (stored) {
          const block = await client.getBlock({ blockNumber: stored.number }).catch(() => null);
          if (block && block.hash !== stored.hash) {
            await this.undoReorg();
            return true;
          }
        }
      }
      return false;
    }
    const to = from + BigInt(this.opts.batchSize) - 1n < target ? from + BigInt(this.opts.batchSize) - 1n : target;
    try {
      await this.processBatch(from, to);
    } catch (error) {
      if (error instanceof ChainMovedError) {
        this.log('debug', { msg: 'chain moved under the batch; reading it again', from: from.toString(), to: to.toString() });
        return true;
      }
      if (error instanceof CheckpointConflictError) {
        // Someone else moved the checkpoint: start again from what is stored.
        const stored = await this.deps.checkpoints.get(this.chainId);
        this.checkpoint = stored ? { number: stored.lastProcessedBlock, hash: stored.lastProcessedHash as Hex } : null;
        await this.reloadKnown();
      }
      throw error;
    }
    return true;
  }

  private async header(number: bigint): Promise<BlockRow> {
    const block = await this.deps.client.getBlock({ blockNumber: number });
    if (!block.hash) throw new ChainMovedError(`block ${number} is pending`);
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
  }

  private async processBatch(from: bigint, to: bigint): Promise<void> {
    const started = performance.now();
    this.log('debug', { msg: 'batch start', from: from.toString(), to: to.toString() });
    const tipMode = to + BigInt(this.opts.reorgWindow) > this.head;
    const numbers: bigint[] = [];
    if (tipMode) for (let n = from; n <= to; n++) numbers.push(n);
    else numbers.push(...(from === to ? [from] : [from, to]));
    const headers = await mapLimit(numbers, this.opts.rpcConcurrency, (n) => this.header(n));
    const byNumber = new Map(headers.map((h) => [h.number, h]));

    // A reorg below the batch: the first block no longer builds on the checkpoint.
    if (this.checkpoint && headers[0].parentHash !== this.checkpoint.hash) {
      await this.undoReorg();
      throw new ChainMovedError('reorg undone');
    }
    if (tipMode) {
      for (let i = 1; i < headers.length; i++) {
        if (headers[i].parentHash !== headers[i - 1].hash) throw new ChainMovedError('headers do not link');
      }
    }

    // Pass one: everything followed so far, plus the announcers (a V4 pool's PoolManager among them: it emits the
    // pool's logs, the pool has no address of its own; a Curve pair's pool is followed through its factory only).
    const announcers = [...this.deps.watch.announcers.keys()];
    let logs = await this.getLogs([...announcers, ...this.tokens, ...[...this.pools.keys()].filter(isPoolContract)], from, to);
    const timestampOf = (log: ChainLog): bigint => log.timestamp ?? byNumber.get(log.blockNumber)?.timestamp ?? 0n;
    await this.fillTimestamps(logs, byNumber);
    const curve = await this.curveReads(logs, from, to);
    const ctx: DecodeContext = { ...this.decodeContext(), curveDeployments: curve.deployments };
    const found = discover(logs, ctx, timestampOf, curve.pools);
    const newPools = found.pools.filter((p) => isPoolContract(p.address)).map((p) => checksum(p.address));
    const newAddresses = [...found.tokens.keys(), ...newPools].filter((a) => !ctx.tokens.has(a) && !ctx.pools.has(a));
    if (newAddresses.length) {
      const more = await this.getLogs(newAddresses, from, to);
      await this.fillTimestamps(more, byNumber);
      const seen = new Set(logs.map((l) => `${l.blockNumber}:${l.logIndex}`));
      logs = [...logs, ...more.filter((l) => !seen.has(`${l.blockNumber}:${l.logIndex}`))];
      logs.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
    }
    // Every log must be of the blocks whose headers were read (else the chain moved between the calls).
    for (const log of logs) {
      const header = byNumber.get(log.blockNumber);
      if (header && header.hash !== log.blockHash) throw new ChainMovedError(`log of block ${log.blockNumber} is of another branch`);
    }

    await this.commit(from, to, headers, byNumber, logs, ctx, found, started);
    for (const factory of curve.factories) this.curveFactoriesSeen.add(factory);
  }

  /**
   * What the Curve pools of a batch from `from` to `to` need read from the node (curve-pools.ts), at block `to`: the
   * pools of the StableswapNG factories' PlainPoolDeployed logs (by log), and the pools of the Curve factories followed
   * for the first time (`factories`, to be marked as seen once the batch is committed).
   */
  private async curveReads(logs: readonly ChainLog[], from: bigint, to: bigint): Promise<{ deployments: Map<string, Address>; pools: DecodedPoolRow[]; factories: Address[] }> {
    const { client, watch } = this.deps;
    const known = (pool: Address) => this.pools.has(poolRef(curvePairId(pool, 0, 1)));
    const deployments = await readCurveDeployments(client, { logs, announcers: watch.announcers, blockNumber: to, known });
    const factories = curveFactoriesToRead(watch.announcers, this.pools.values(), this.curveFactoriesSeen, from);
    const pools = await readCurveFactories(client, { factories, blockNumber: to });
    if (factories.some((f) => f.read)) this.log('log', { msg: 'Curve factories read', block: to.toString(), factories: factories.filter((f) => f.read).map((f) => f.address), pairs: pools.length });
    return { deployments, pools, factories: factories.map((f) => f.address) };
  }

  /**
   * Decodes a batch's logs into rows and facts and writes them with the checkpoint `to` in one transaction
   * (`applyBatch`); then what the indexer follows grows by what the batch found.
   */
  private async commit(
    from: bigint,
    to: bigint,
    headers: BlockRow[],
    byNumber: Map<bigint, BlockRow>,
    logs: ChainLog[],
    ctx: DecodeContext,
    found: ReturnType<typeof discover>,
    started: number,
    activityBackfill?: ChainBatch['activityBackfill'],
  ): Promise<void> {
    const timestampOf = (log: ChainLog): bigint => log.timestamp ?? byNumber.get(log.blockNumber)?.timestamp ?? 0n;
    const newTokens = await mapLimit([...found.tokens], this.opts.rpcConcurrency, async ([address, { source, block }]) =>
      tokenRow(address, await this.tokenMetadata(address, to), source, block),
    );
    const nextCtx: DecodeContext = {
      ...ctx,
      tokens: new Set([...ctx.tokens, ...found.tokens.keys()]),
      pools: new Map([...ctx.pools, ...found.pools.map((p): [Address, PoolRow] => [poolRef(p.address), p])]),
    };
    const facts = decodeFacts(logs, nextCtx, timestampOf);
    const senders = await this.senders(sendersToRead(facts.rows));
    const stored = storeRows(new Map([...found.rows, ...facts.rows]), { tokens: newTokens }, { senders });

    const last = byNumber.get(to)!;
    const behind = this.head - to;
    const status: IndexerState = behind > BigInt(this.opts.batchSize) + BigInt(this.opts.confirmations) ? 'backfilling' : 'running';
    const hashOf = (n: bigint) => byNumber.get(n)?.hash ?? logs.find((l) => l.blockNumber === n)?.blockHash ?? last.hash;
    const events: OutboxEvent[] = outboxEvents(stored.facts, { chainId: this.chainId, last, hashOf });
    // Concentrated pools' events are published only (their outbox events are written with the batch).
    const { concentrated: _published, ...rows } = stored.rows;
    const batch: ChainBatch = {
      chainId: this.chainId,
      after: this.checkpoint?.number ?? null,
      checkpoint: { block: to, hash: last.hash, timestamp: last.timestamp, status },
      blocks: headers,
      ...rows,
      events,
      pruneBlocksBelow: to - BigInt(this.opts.blockRetention),
      ...(activityBackfill ? { activityBackfill } : {}),
    };
    await this.deps.store.applyBatch(batch);

    this.checkpoint = { number: to, hash: last.hash as Hex };
    for (const t of newTokens) this.tokens.add(checksum(t.address));
    for (const p of found.pools) this.pools.set(poolRef(p.address), p);
    const blocks = Number(to - from + 1n);
    const m = this.deps.metrics;
    m.blocks.inc({ chain: this.chainId }, blocks);
    m.logs.inc({ chain: this.chainId }, logs.length);
    m.batches.inc({ chain: this.chainId });
    m.lastProcessed.set({ chain: this.chainId }, Number(to));
    m.behind.set({ chain: this.chainId }, Number(behind));
    this.progress.blocks += blocks;
    this.progress.logs += logs.length;
    this.log('debug', {
      msg: 'batch committed',
      from: from.toString(),
      to: to.toString(),
      logs: logs.length,
      transfers: rowsOf(facts.rows, transferFact).length,
      swaps: rowsOf(facts.rows, swapFact).length,
      newTokens: newTokens.length,
      newPools: found.pools.length,
      malformed: facts.malformed,
      ms: Math.round(performance.now() - started),
    });
    if (events.length) this.deps.onEvents?.();
  }

  /**
   * A first start at the chain's head (`startAtHead`) instead of a replay of its history: the logs of the contracts
   * that announce pools (factories, the core router, the launchpad) from the earliest of their deployment blocks to
   * block `at` find every pool and token; the reserves of the V2 and stable pools are read at `at` and enter as
   * their `Sync` at that block (so every fact the liquidity state needs holds at `at`; concentrated pools are read
   * whole by the services that keep their state, V4 pools too: their PoolManager's logs found them, its history of
   * their other events is left out); and all of it is written with the checkpoint `at`, the batches going on from the
   * next block. Transfers, swaps and the rolling activity figures count from there.
   */
  private async startAtHead(at: bigint): Promise<void> {
    const started = performance.now();
    const header = await this.header(at);
    const byNumber = new Map([[at, header]]);
    const refs = [...this.deps.watch.announcers.values()];
    const earliest = refs.reduce<bigint | undefined>((min, r) => (r.deploymentBlock === undefined ? 0n : min === undefined || BigInt(r.deploymentBlock) < min ? BigInt(r.deploymentBlock) : min), undefined) ?? 0n;
    this.log('log', { msg: 'starting at the head', block: at.toString(), announcersFrom: earliest.toString(), announcers: refs.length });
    const logs = await this.getLogs([...this.deps.watch.announcers.keys()], earliest, at);
    await this.fillTimestamps(logs, byNumber);
    const curve = await this.curveReads(logs, earliest, at);
    const ctx: DecodeContext = { ...this.decodeContext(), curveDeployments: curve.deployments };
    const timestampOf = (log: ChainLog): bigint => log.timestamp ?? byNumber.get(log.blockNumber)?.timestamp ?? 0n;
    const found = discover(logs, ctx, timestampOf, curve.pools);
    const reservePools = [...ctx.pools.values(), ...found.pools].filter((p): p is PoolRow & { kind: 'uniswap-v2' | 'stable' } => p.kind === 'uniswap-v2' || p.kind === 'stable');
    const reserves = await readPairReserves(this.deps.client, { pools: reservePools.map((p) => ({ address: checksum(p.address), kind: p.kind })), blockNumber: at });
    const synced: ChainLog[] = [];
    reservePools.forEach((pool, i) => {
      const r = reserves[i];
      if (!r) return;
      const event = pool.kind === 'stable' ? stableSyncEvent : v2SyncEvent;
      synced.push({
        address: checksum(pool.address),
        topics: [event.topic],
        data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [r.reserve0, r.reserve1]),
        blockNumber: at,
        blockHash: header.hash as Hex,
        txHash: zeroHash,
        // After every real log of the block.
        logIndex: 1_000_000 + i,
        timestamp: header.timestamp,
      });
    });
    const windowFrom = await this.firstBlockAfter(header.timestamp - DAY, at);
    const history = logs.filter((log) => !V4_POOL_TOPICS.has(log.topics[0]?.toLowerCase()));
    await this.commit(earliest, at, [header], byNumber, [...history, ...synced], ctx, found, started, { from: windowFrom, to: at });
    for (const factory of curve.factories) this.curveFactoriesSeen.add(factory);
    this.backfill = { from: windowFrom, to: at, next: windowFrom };
    this.log('log', { msg: 'started at the head', block: at.toString(), pools: this.pools.size, tokens: this.tokens.size, reservesRead: synced.length, activityFrom: windowFrom.toString(), ms: Math.round(performance.now() - started) });
  }

  /**
   * The first block with a timestamp above `time`, at most `at` (a binary search over headers: some 25 reads on a
   * chain of tens of millions of blocks).
   */
  private async firstBlockAfter(time: bigint, at: bigint): Promise<bigint> {
    let [lo, hi] = [0n, at];
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await this.deps.client.getBlock({ blockNumber: mid })).timestamp > time) hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  }

  /**
   * One range of the activity window before a start at the head, once the indexer has caught up with the chain:
   * the transfers of the tokens it knows and the swaps of the core pools, written with the window's cursor (exactly
   * once; nothing published: they are history). The state (pools, reserves, launches) is the head's already, so
   * nothing else of those blocks is read.
   */
  private async backfillActivity(window: ActivityBackfillState): Promise<void> {
    const from = window.next;
    const to = from + BigInt(this.opts.batchSize) - 1n < window.to ? from + BigInt(this.opts.batchSize) - 1n : window.to;
    const corePools = [...this.pools.values()].filter((p) => p.kind === 'core').map((p) => checksum(p.address));
    const logs = await this.getLogs([...this.tokens, ...corePools], from, to);
    const byNumber = new Map<bigint, BlockRow>();
    await this.fillTimestamps(logs, byNumber);
    const facts = decodeFacts(logs, this.decodeContext(), (log) => log.timestamp ?? byNumber.get(log.blockNumber)?.timestamp ?? 0n);
    const senders = await this.senders(sendersToRead(facts.rows));
    const { rows } = storeRows(facts.rows, {}, { senders });
    try {
      await this.deps.store.applyActivityBackfill({ chainId: this.chainId, from, to, transfers: rows.transfers, swaps: rows.swaps });
    } catch (error) {
      if (error instanceof CheckpointConflictError) this.backfill = await this.deps.store.activityBackfill(this.chainId);
      throw error;
    }
    this.backfill = to < window.to ? { ...window, next: to + 1n } : null;
    this.deps.metrics.activityBackfillLeft.set({ chain: this.chainId }, Number(window.to - to));
    this.log(this.backfill ? 'debug' : 'log', {
      msg: this.backfill ? 'activity window range read' : 'activity window read',
      from: from.toString(),
      to: to.toString(),
      windowFrom: window.from.toString(),
      transfers: rows.transfers.length,
      swaps: rows.swaps.length,
    });
  }

  private decodeContext(): DecodeContext {
    return { chainId: this.chainId, tokens: this.tokens, pools: this.pools, announcers: this.deps.watch.announcers, wrappedNative: this.deps.watch.wrappedNative };
  }

  /**
   * eth_getLogs over many addresses, as the providers allow (`LogRanges`): cut to the block range they were found to
   * take, a range they refuse split in two, a rate-limited request asked again after a wait.
   */
  private async getLogs(addresses: readonly Address[], from: bigint, to: bigint): Promise<ChainLog[]> {
    if (addresses.length === 0) return [];
    const chunks: Address[][] = [];
    for (let i = 0; i < addresses.length; i += this.opts.addressesPerRequest) chunks.push(addresses.slice(i, i + this.opts.addressesPerRequest));
    const fetchRange = (address: Address[], a: bigint, b: bigint): Promise<RpcLogEntry[]> =>
      this.deps.client.request({
        method: 'eth_getLogs',
        params: [{ address, topics: [ALL_TOPICS], fromBlock: hex(a), toBlock: hex(b) }],
      }) as unknown as Promise<RpcLogEntry[]>;
    const results = await Promise.all(chunks.map((c) => this.logRanges.fetch(from, to, (a, b) => fetchRange(c, a, b))));
    const logs: ChainLog[] = [];
    for (const raw of results.flat()) {
      const log = parseRpcLog(raw);
      if (log) logs.push(log);
    }
    logs.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
    return logs;
  }

  /**
   * A new token's metadata at the batch's last block. A node that no longer has that block's state (a pruned
   * node behind a deep backfill, a chain loaded from a state dump) refuses the read: metadata hardly ever
   * changes, so the newest block's answers then.
   */
  private async tokenMetadata(token: Address, blockNumber: bigint): Promise<TokenMetadata> {
    const meta = await readTokenMetadata(this.deps.client, { token, blockNumber });
    if (meta.isERC20Verified || !meta.verificationError?.startsWith('code:')) return meta;
    return readTokenMetadata(this.deps.client, { token });
  }

  /** Reads the headers of blocks whose logs came without a block time. */
  private async fillTimestamps(logs: readonly ChainLog[], byNumber: Map<bigint, BlockRow>): Promise<void> {
    const missing = [...new Set(logs.filter((l) => l.timestamp === undefined && !byNumber.has(l.blockNumber)).map((l) => l.blockNumber))];
    const headers = await mapLimit(missing, this.opts.rpcConcurrency, (n) => this.header(n));
    for (const h of headers) byNumber.set(h.number, h);
  }

  /** The sender of each transaction (the trader behind a router-mediated swap). */
  private async senders(hashes: readonly Hex[]): Promise<Map<string, Address>> {
    const unique = [...new Set(hashes)];
    const froms = await mapLimit(unique, this.opts.rpcConcurrency, async (hash) => checksum((await this.deps.client.getTransaction({ hash })).from));
    return new Map(unique.map((h, i) => [h, froms[i]]));
  }

  /** Walks stored headers back to the newest one still on the chain, undoes everything above it. */
  private async undoReorg(): Promise<void> {
    const previous = this.checkpoint?.number ?? 0n;
    let ancestor: BlockRow | undefined;
    let below: bigint | undefined;
    search: for (;;) {
      const candidates = await this.deps.store.recentBlocks(this.chainId, 256, below);
      if (candidates.length === 0) break;
      for (const candidate of candidates) {
        const onChain = await this.deps.client.getBlock({ blockNumber: candidate.number }).catch(() => null);
        if (onChain?.hash === candidate.hash) {
          ancestor = candidate;
          break search;
        }
      }
      below = candidates[candidates.length - 1].number - 1n;
    }
    if (!ancestor) throw new DeepReorgError(`chain ${this.chainId}: no stored block is on the chain any more; re-index from a new start block`);

    const reserves = await this.reservesAt(ancestor.number);
    const reorg = { chainId: this.chainId, ancestor: ancestor.number.toString(), ancestorHash: ancestor.hash, previousBlock: previous.toString() };
    chainEventSchemas[CHAIN_FACTS.reorg].parse(reorg);
    const undone = await this.deps.store.rewind({
      chainId: this.chainId,
      ancestor,
      reserves,
      status: 'running',
      events: [
        {
          blockNumber: ancestor.number,
          subject: chainFactSubject(this.chainId, CHAIN_FACTS.reorg),
          msgId: `${this.chainId}:reorg:${ancestor.number}:${previous}:${Date.now()}`,
          payload: reorg,
        },
      ],
    });
    this.checkpoint = { number: ancestor.number, hash: ancestor.hash as Hex };
    await this.reloadKnown();
    this.deps.metrics.reorgs.inc({ chain: this.chainId });
    this.log('warn', { msg: 'reorg undone', ancestor: ancestor.number.toString(), previous: previous.toString(), depth: Number(previous - ancestor.number), undone });
    this.deps.onEvents?.();
  }

  /** Reserves at `block` of pools whose stored reserves came from a Sync above it. */
  private async reservesAt(block: bigint): Promise<ReserveUpdate[]> {
    const pools = await this.deps.store.poolsWithReservesAbove(this.chainId, block);
    const updates = await mapLimit(pools, this.opts.rpcConcurrency, async (pool): Promise<ReserveUpdate | null> => {
      try {
        const data = await this.deps.client.call({ to: pool.address as Address, data: '0x0902f1ac', blockNumber: block });
        if (!data.data || data.data.length < 2 + 128) return null;
        return { pool: pool.address, reserve0: BigInt('0x' + data.data.slice(2, 66)), reserve1: BigInt('0x' + data.data.slice(66, 130)), blockNumber: block };
      } catch {
        return null;
      }
    });
    return updates.filter((u): u is ReserveUpdate => u !== null);
  }

  private reportProgress(): void {
    const now = Date.now();
    const elapsed = (now - this.progress.at) / 1000;
    if (elapsed * 1000 < this.progressIntervalMs) return;
    this.progress.blocksPerSecond = Math.round((this.progress.blocks / elapsed) * 10) / 10;
    this.progress.logsPerSecond = Math.round((this.progress.logs / elapsed) * 10) / 10;
    const m = this.deps.metrics;
    m.blocksPerSecond.set({ chain: this.chainId }, this.progress.blocksPerSecond);
    m.logsPerSecond.set({ chain: this.chainId }, this.progress.logsPerSecond);
    const status = this.status();
    this.log('log', {
      msg: 'progress',
      serviceStatus: status.serviceStatus,
      lastProcessedBlock: status.lastProcessedBlock,
      headBlock: status.headBlock,
      blocksBehind: status.blocksBehind,
      blocksPerSecond: status.blocksPerSecond,
      logsPerSecond: status.logsPerSecond,
    });
    this.progress = { ...this.progress, at: now, blocks: 0, logs: 0 };
  }

  progressIntervalMs = 10_000;

  private log(level: 'log' | 'warn' | 'error' | 'debug', message: Record<string, unknown>): void {
    const fn = this.deps.logger[level];
    fn?.call(this.deps.logger, { chainId: this.chainId, ...message }, this.context.log);
  }
}
