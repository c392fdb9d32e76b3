// Logs as the indexer reads them, and the helpers fact modules decode them with. Hot events (Transfer,
// Sync, Swap) are decoded by hand from their fixed layout with `word`, `wordAddress` and `topicAddress`;
// events with strings go through viem (`decodeArgs`).
import type { LogPosition } from '@dex/db';
import { isV4PoolId, parseCurvePairId } from '@dex/messages';
import { decodeEventLog, getAddress, type AbiEvent, type Address, type Hex } from 'viem';

/** An eth_getLogs entry with numbers parsed. */
export interface ChainLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  txHash: Hex;
  logIndex: number;
  /** Block time, when the node includes it in the log. */
  timestamp?: bigint;
}

export interface RpcLogEntry {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string | null;
  blockHash: string | null;
  transactionHash: string | null;
  logIndex: string | null;
  blockTimestamp?: string | null;
  removed?: boolean;
}

const checksums = new Map<string, Address>();
/** EIP-55 form of an address, memoised (checksumming hashes the address). */
export function checksum(address: string): Address {
  const lower = address.toLowerCase();
  let value = checksums.get(lower);
  if (!value) {
    value = getAddress(lower);
    if (checksums.size > 200_000) checksums.clear();
    checksums.set(lower, value);
  }
  return value;
}

/** Whether a pool's key names a contract of its own, whose logs are its events: not a V4 PoolId, not a Curve pair id. */
export const isPoolContract = (ref: string): boolean => !isV4PoolId(ref) && parseCurvePairId(ref) === undefined;

/**
 * A pool's key in what the indexer follows: a pool contract's EIP-55 address, a V4 pool's PoolId in lower case, or a
 * Curve pool's coin pair by its pair id (`curvePairId`: the pool in lower case, `:i:j`) as it is (typed as an address:
 * a PoolId emits no logs, its PoolManager does; a pair's pool is followed through its factory only).
 */
export const poolRef = (address: string): Address => (isPoolContract(address) ? checksum(address) : (address.toLowerCase() as Address));

export function parseRpcLog(raw: RpcLogEntry): ChainLog | undefined {
  if (raw.removed || raw.blockNumber === null || raw.blockHash === null || raw.transactionHash === null || raw.logIndex === null) return undefined;
  return {
    address: checksum(raw.address),
    topics: raw.topics as Hex[],
    data: raw.data as Hex,
    blockNumber: BigInt(raw.blockNumber),
    blockHash: raw.blockHash.toLowerCase() as Hex,
    txHash: raw.transactionHash.toLowerCase() as Hex,
    logIndex: Number(raw.logIndex),
    timestamp: raw.blockTimestamp ? BigInt(raw.blockTimestamp) : undefined,
  };
}

/** A signed int24 from a 32-byte word (sign-extended in the ABI encoding). */
export const int24 = (word: bigint): number => Number(BigInt.asIntN(24, word));

/** The `i`th 32-byte word of the log's data, as an unsigned integer. */
export const word = (data: Hex, i: number): bigint => {
  const chunk = data.slice(2 + 64 * i, 2 + 64 * (i + 1));
  if (chunk.length !== 64) throw new Error(`log data has no word ${i}`);
  return BigInt('0x' + chunk);
};

/** The address in the `i`th word of the log's data. */
export const wordAddress = (data: Hex, i: number): Address => checksum('0x' + data.slice(2 + 64 * i + 24, 2 + 64 * (i + 1)));

/** An indexed bytes32 (a V4 PoolId), in lower case. */
export const topicWord = (topic: Hex | undefined): Hex => {
  if (!topic || topic.length !== 66) throw new Error('missing indexed word');
  return topic.toLowerCase() as Hex;
};

/** The address in an indexed topic. */
export const topicAddress = (topic: Hex | undefined): Address => {
  if (!topic || topic.length !== 66) throw new Error('missing indexed address');
  return checksum('0x' + topic.slice(26));
};

/** The arguments of a log decoded by viem from the event's ABI item (for events with strings). */
export function decodeArgs(event: AbiEvent, log: ChainLog): Record<string, unknown> {
  const decoded = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
  return decoded.args as Record<string, unknown>;
}

/** Where a log is in the chain, with its block's time. */
export const positionOf = (log: ChainLog, timestamp: bigint): LogPosition => ({ blockNumber: log.blockNumber, logIndex: log.logIndex, txHash: log.txHash, timestamp });
