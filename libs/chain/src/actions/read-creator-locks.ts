// Reads launched tokens' creator sell locks: until when each token refuses every transfer out of its creator's
// address (LaunchpadToken's `creatorUnlockTime`), and whether the chain is still before that time.
import { launchpadTokenAbi } from '@dex/abis';
import { getAddress, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadCreatorLocksParameters {
  /** Launched tokens (LaunchpadToken proxies). */
  readonly tokens: readonly Address[];
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

/** A launched token's creator sell lock as the token reports it, at one block. */
export interface CreatorLock {
  readonly token: Address;
  /** The first block time (Unix seconds) at which the creator's tokens move: the creation time plus 1 hour. */
  readonly unlockTime: number;
  /** Whether the block's time is below `unlockTime`: the creator can neither sell nor transfer its tokens. */
  readonly locked: boolean;
  /** The block the lock was read at, and its time (Unix seconds). */
  readonly blockNumber: bigint;
  readonly blockTimestamp: number;
}

/** Per token, in the order given. */
export type ReadCreatorLocksReturnType = CreatorLock[];

/**
 * Reads the tokens' `creatorUnlockTime` in one multicall at one block, and compares each with that block's time,
 * as the token does (`block.timestamp < creatorUnlockTime` is locked).
 *
 * @example
 * const [lock] = await readCreatorLocks(client, { tokens: [token] });
 * if (lock.locked) console.log(`the creator's tokens move from ${new Date(lock.unlockTime * 1000).toISOString()}`);
 */
export async function readCreatorLocks(client: ChainPublicClient, params: ReadCreatorLocksParameters): Promise<ReadCreatorLocksReturnType> {
  if (params.tokens.length === 0) return [];
  const block = await client.getBlock(params.blockNumber === undefined ? { blockTag: 'latest' } : { blockNumber: params.blockNumber });
  const unlockTimes = await client.multicall({
    blockNumber: block.number,
    allowFailure: false,
    contracts: params.tokens.map((token) => ({ address: token, abi: launchpadTokenAbi, functionName: 'creatorUnlockTime' }) as const),
  });
  return unlockTimes.map((unlockTime, i) => ({
    token: getAddress(params.tokens[i]),
    unlockTime: Number(unlockTime),
    locked: block.timestamp < unlockTime,
    blockNumber: block.number,
    blockTimestamp: Number(block.timestamp),
  }));
}
