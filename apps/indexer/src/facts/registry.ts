// The registry of fact modules, and the indexer's decode, store and publish steps walking it. Adding a fact
// is adding a module to FACTS. Their order is the order facts of a batch are published in (the `block`
// fact comes after all of them).
import type { BlockRow, OutboxEvent, PoolRow, TokenSource } from '@dex/db';
import { chainEventSchemas, chainFactSubject, type ChainFact } from '@dex/messages';
import type { AbiEvent, Address, Hex } from 'viem';
import { blockFact } from './block';
import type { AnyFact, DecodeContext, FactEvent, FactModule, FactRows, NodeReads, StoredRow } from './fact';
import { launchpadGraduatedFact } from './launchpad-graduated';
import { launchpadMetadataFact } from './launchpad-metadata';
import { launchpadTokenCreatedFact } from './launchpad-token-created';
import { launchpadTradeFact } from './launchpad-trade';
import { checksum, poolRef, positionOf, type ChainLog } from './log';
import { poolConcentratedFact } from './pool-concentrated';
import { poolCreatedFact } from './pool-created';
import { poolUpdatedFact } from './pool-updated';
import { referralClaimFact } from './referral-claim';
import { swapFact } from './swap';
import { tokenCreatedFact } from './token-created';
import { transferFact } from './transfer';

/** Every indexed fact, in the order a batch publishes them. */
export const FACTS: readonly AnyFact[] = [
  poolCreatedFact,
  tokenCreatedFact,
  poolUpdatedFact,
  poolConcentratedFact,
  swapFact,
  referralClaimFact,
  launchpadTokenCreatedFact,
  launchpadTradeFact,
  launchpadMetadataFact,
  launchpadGraduatedFact,
  transferFact,
];

const eventsOf = (m: AnyFact): readonly FactEvent[] => [...m.events, ...(m.context ?? [])];

/** Every event the indexer follows, by name. */
export const EVENTS: Readonly<Record<string, AbiEvent>> = Object.fromEntries(FACTS.flatMap(eventsOf).map((e) => [e.name, e.abi]));
/** topic0 of every event the indexer follows, by name. */
export const TOPICS: Readonly<Record<string, Hex>> = Object.fromEntries(FACTS.flatMap(eventsOf).map((e) => [e.name, e.topic]));
/** Every topic0 the indexer asks eth_getLogs for. */
export const ALL_TOPICS: Hex[] = [...new Set(FACTS.flatMap(eventsOf).map((e) => e.topic))];

const byTopic = (stage: AnyFact['stage']) => new Map(FACTS.filter((m) => m.stage === stage).flatMap((m) => m.events.map((e) => [e.topic, m] as const)));
/** topic0 -> the module decoding it, per pass. */
const DISCOVERY_BY_TOPIC = byTopic('discovery');
const FACTS_BY_TOPIC = byTopic('facts');
const topicOf = (log: ChainLog) => log.topics[0]?.toLowerCase();

/** The decoded rows of each module in a batch, in chain order. */
export type DecodedRows = Map<AnyFact, unknown[]>;

/** The rows of one module. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const rowsOf = <Row>(rows: DecodedRows, module: FactModule<any, Row, any>): Row[] => (rows.get(module as AnyFact) ?? []) as Row[];

export interface Discoveries {
  rows: DecodedRows;
  /** Pools the batch starts following (the rows of the `pools` list). */
  pools: PoolRow[];
  /** Tokens first seen in these logs, with how they were found. */
  tokens: Map<Address, { source: TokenSource; block: bigint }>;
}

/**
 * Pass one: pools and launches announced in the logs that the context does not know yet; then `read`, pools read from
 * the node rather than announced by a log of the batch (a Curve factory's pools from before the start), those the
 * logs did not announce already.
 */
export function discover(logs: readonly ChainLog[], ctx: DecodeContext, timestampOf: (log: ChainLog) => bigint, read: readonly PoolRow[] = []): Discoveries {
  const rows: DecodedRows = new Map(FACTS.filter((m) => m.stage === 'discovery').map((m) => [m, []]));
  const pools: PoolRow[] = [];
  const tokens: Discoveries['tokens'] = new Map();
  const seenPools = new Set<Address>();
  const addToken = (address: Address, source: TokenSource, block: bigint) => {
    const found = tokens.get(address);
    // A launched token is the launchpad's even when a new pool of the batch found it first.
    if (found) found.source = source === 'launchpad' ? source : found.source;
    else if (!ctx.tokens.has(address)) tokens.set(address, { source, block });
  };
  const addPool = (pool: PoolRow, block: bigint) => {
    const address = poolRef(pool.address);
    if (ctx.pools.has(address) || seenPools.has(address)) return;
    seenPools.add(address);
    pools.push(pool);
    if (pool.kind !== 'launchpad') {
      // A V4 pool's native coin on a chain without a wrapped native token is no token to follow.
      for (const token of [pool.token0, pool.token1]) if (BigInt(token) !== 0n) addToken(checksum(token), 'pool', block);
    }
  };
  for (const log of logs) {
    if (!ctx.announcers.has(log.address)) continue;
    const module = DISCOVERY_BY_TOPIC.get(topicOf(log) as Hex);
    if (!module?.decode) continue;
    try {
      const row = module.decode(log, ctx, positionOf(log, timestampOf(log)), undefined);
      if (row === undefined) continue;
      if (module.list === 'pools') addPool(row as PoolRow, log.blockNumber);
      else rows.get(module)!.push(row);
      const announced = module.announces?.(row, ctx);
      for (const token of announced?.tokens ?? []) addToken(token.address, token.source, log.blockNumber);
      for (const pool of announced?.pools ?? []) addPool(pool, log.blockNumber);
    } catch {
      // A malformed announcement from a followed contract is skipped, never fatal.
    }
  }
  for (const pool of read) addPool(pool, pool.createdBlock);
  for (const module of rows.keys()) if (module.list === 'pools') rows.set(module, pools);
  return { rows, pools, tokens };
}

export interface Facts {
  rows: DecodedRows;
  /** Logs that could not be decoded (skipped). */
  malformed: number;
}

/** Pass two: the facts of every followed contract. `logs` must be in chain order. */
export function decodeFacts(logs: readonly ChainLog[], ctx: DecodeContext, timestampOf: (log: ChainLog) => bigint): Facts {
  const modules = FACTS.filter((m) => m.stage === 'facts');
  const scans = new Map(modules.map((m) => [m, m.scan?.(logs, ctx)]));
  const lists = new Map<AnyFact, unknown[]>(modules.map((m) => [m, []]));
  const keyed = new Map<AnyFact, Map<string, unknown>>(modules.filter((m) => m.key).map((m) => [m, new Map()]));
  let malformed = 0;
  for (const log of logs) {
    const module = FACTS_BY_TOPIC.get(topicOf(log) as Hex);
    if (!module?.decode) continue;
    try {
      const row = module.decode(log, ctx, positionOf(log, timestampOf(log)), scans.get(module));
      if (row === undefined) continue;
      if (module.key) keyed.get(module)!.set(module.key(row), row);
      else lists.get(module)!.push(row);
    } catch {
      malformed += 1;
    }
  }
  for (const [module, rows] of keyed) lists.set(module, [...rows.values()]);
  return { rows: lists, malformed };
}

/** Transactions whose sender the batch's rows need. */
export function sendersToRead(rows: DecodedRows): Hex[] {
  return FACTS.flatMap((m) => (m.senderOf ? (rows.get(m) ?? []).map((row) => m.senderOf!(row)) : []));
}

/** Each module's rows as decoded and as stored. */
export type StoredFacts = Map<AnyFact, { row: unknown; stored: unknown }[]>;

/**
 * The rows of the batch: each module's rows (decoded, or read from the node for `node` modules) as they
 * are stored, in the list the module writes.
 */
export function storeRows(decoded: DecodedRows, fromNode: Partial<FactRows>, reads: NodeReads): { rows: FactRows; facts: StoredFacts } {
  const rows = {} as Record<keyof FactRows, unknown[]>;
  const facts: StoredFacts = new Map();
  for (const module of FACTS) {
    const source = module.stage === 'node' ? (fromNode[module.list] ?? []) : (decoded.get(module) ?? []);
    const entries = source.map((row) => ({ row, stored: module.store ? module.store(row, reads) : row }));
    facts.set(module, entries);
    rows[module.list] = entries.map((e) => e.stored);
  }
  return { rows: rows as FactRows, facts };
}

/** The outbox events of a batch: every module's facts in registry order, then the `block` fact. */
export function outboxEvents(facts: StoredFacts, input: { chainId: number; last: BlockRow; hashOf: (n: bigint) => string }): OutboxEvent[] {
  const { chainId, last, hashOf } = input;
  const events: OutboxEvent[] = [];
  const add = (fact: ChainFact, { blockNumber, id, payload }: { blockNumber: bigint; id: string; payload: Record<string, unknown> }) => {
    const message = { chainId, blockNumber: blockNumber.toString(), blockHash: hashOf(blockNumber), ...payload };
    chainEventSchemas[fact].parse(message);
    events.push({ blockNumber, subject: chainFactSubject(chainId, fact), msgId: `${chainId}:${blockNumber}:${id}:${hashOf(blockNumber)}`, payload: message });
  };
  for (const module of FACTS) {
    if (!module.fact || !module.message) continue;
    for (const { row, stored } of facts.get(module) ?? []) add(module.fact, module.message(stored as StoredRow<typeof module.list>, row, { last }));
  }
  add(blockFact.fact, blockFact.message(last));
  return events;
}
