// What a fact module declares. One module per indexed fact: the events it decodes (ABI item and topic0), a
// pure decode from a log to its row, the batch list its rows are written to, and how a row becomes the
// payload published on `chain.<chainId>.<fact>` (validated by the fact's schema in @dex/messages). The
// registry (./registry.ts) walks the modules for decoding, assembling the batch and publishing.
import type { BlockRow, ChainBatch, LogPosition, PoolRow, TokenSource } from '@dex/db';
import type { ChainFact } from '@dex/messages';
import { toEventSelector, type AbiEvent, type Address, type Hex } from 'viem';
import type { SourceRef } from '../chain/watch-list';
import type { ChainLog } from './log';
import type { ConcentratedEventRow } from './pool-concentrated';

/**
 * The lists of a batch that hold fact rows: those IndexerStore.applyBatch writes, and `concentrated`, the
 * concentrated pools' events, which are only published (through the outbox, in the batch's transaction).
 */
export type FactRows = Pick<
  ChainBatch,
  'pools' | 'tokens' | 'transfers' | 'swaps' | 'referralClaims' | 'launchpadTokens' | 'launchpadTrades' | 'launchpadMetadata' | 'launchpadGraduations' | 'reserves'
> & { concentrated: ConcentratedEventRow[] };
export type FactList = keyof FactRows;
export type StoredRow<L extends FactList> = FactRows[L][number];

/** An event the indexer asks eth_getLogs for. */
export interface FactEvent {
  /** Unique among the events of every module. */
  name: string;
  abi: AbiEvent;
  /** topic0: the event's selector. */
  topic: Hex;
}

export const factEvent = (name: string, abi: AbiEvent): FactEvent => ({ name, abi, topic: toEventSelector(abi) });

/** What the addresses of a chain are to the indexer. */
export interface DecodeContext {
  chainId: number;
  tokens: ReadonlySet<Address>;
  pools: ReadonlyMap<Address, PoolRow>;
  announcers: ReadonlyMap<Address, SourceRef>;
  wrappedNative: Address | null;
  /**
   * The pools a batch's StableswapNG `PlainPoolDeployed` logs deployed (the event names none: read from the factory's
   * `pool_list`, apps/indexer/src/chain/curve-pools.ts), by the log's `blockNumber:logIndex` (`logKey`).
   */
  curveDeployments?: ReadonlyMap<string, Address>;
}

/** A log's key in maps by log: its block and log index. */
export const logKey = (log: { blockNumber: bigint; logIndex: number }): string => `${log.blockNumber}:${log.logIndex}`;

/** Contracts a discovered row makes the indexer follow (besides a pool row itself). */
export interface Announcement {
  tokens?: { address: Address; source: TokenSource }[];
  pools?: PoolRow[];
}

/** What the batch reads from the node for its rows once they are decoded. */
export interface NodeReads {
  /** Transaction hash -> the transaction's sender. */
  senders: ReadonlyMap<string, Address>;
}

export interface PublishContext {
  /** The batch's last block. */
  last: BlockRow;
}

/** One published fact, before the common fields (chainId, blockNumber, blockHash) are added. */
export interface FactMessage {
  blockNumber: bigint;
  /** The part of the JetStream msg id that tells the fact apart within its block (log index, or a key). */
  id: string;
  payload: Record<string, unknown>;
}

/**
 * One indexed fact.
 *
 * - `stage`: `discovery` modules decode the logs of announcers in pass one (their rows may announce
 *   contracts to follow from this batch on); `facts` modules decode every followed contract's logs in pass
 *   two, in chain order; `node` modules have no log: their rows are read from the node (token metadata).
 * - `list`: where the rows go in the batch. The `pools` list holds the pools the batch starts following:
 *   a pool already known or already found in the batch is dropped, a new one brings its tokens.
 * - `key`: rows with the same key keep only the last one, at the place of the first.
 * - `store`: the row as written (default: the row itself), given what was read from the node for it.
 * - `fact` / `message`: what is published for each stored row (omitted for facts that are not published).
 */
export interface FactModule<L extends FactList = FactList, Row = StoredRow<L>, Scan = undefined> {
  name: string;
  stage: 'discovery' | 'facts' | 'node';
  /** The events decoded into rows. */
  events: readonly FactEvent[];
  /** Events read only to decode the others (see `scan`). */
  context?: readonly FactEvent[];
  list: L;
  /** A log of one of `events` to its row; undefined when the log is not this fact's (another emitter); throws when malformed. */
  decode?(log: ChainLog, ctx: DecodeContext, at: LogPosition, scan: Scan): Row | undefined;
  /** What the module needs to know of the whole batch's logs before decoding any (facts stage). */
  scan?(logs: readonly ChainLog[], ctx: DecodeContext): Scan;
  key?(row: Row): string;
  announces?(row: Row, ctx: DecodeContext): Announcement;
  /** The transaction whose sender the stored row needs. */
  senderOf?(row: Row): Hex;
  store?(row: Row, reads: NodeReads): StoredRow<L>;
  fact?: ChainFact;
  message?(stored: StoredRow<L>, row: Row, ctx: PublishContext): FactMessage;
}

/** Any module, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFact = FactModule<FactList, any, any>;

export const defineFact = <L extends FactList, Row = StoredRow<L>, Scan = undefined>(module: FactModule<L, Row, Scan>): FactModule<L, Row, Scan> => module;

/** The log position fields every log fact's payload carries. */
export const logFields = (p: { logIndex: number; txHash: string; timestamp: bigint }) => ({ logIndex: p.logIndex, txHash: p.txHash, timestamp: Number(p.timestamp) });

/** The message of a fact that one log makes: its block, its log index as the id, the log fields and `fields`. */
export const logMessage = (at: { blockNumber: bigint; logIndex: number; txHash: string; timestamp: bigint }, fields: Record<string, unknown>): FactMessage => ({
  blockNumber: at.blockNumber,
  id: String(at.logIndex),
  payload: { ...logFields(at), ...fields },
});
