// Per-chain indexer checkpoint: the last block the indexer fully processed on a chain.
import type { DbClient } from './client';

/** `backfilling` while far behind the chain head, `running` when following it, `stopped` after a shutdown, `error` while failing. */
export type CheckpointStatus = 'running' | 'backfilling' | 'stopped' | 'error' | (string & {});

export interface ChainCheckpoint {
  chainId: number;
  lastProcessedBlock: bigint;
  lastProcessedHash: string;
  /** Block timestamp of the last processed block (Unix seconds), when known. */
  lastProcessedTime: bigint | null;
  status: CheckpointStatus;
  updatedAt: Date;
}

export interface ChainCheckpointInput {
  chainId: number;
  lastProcessedBlock: bigint;
  lastProcessedHash: string;
  lastProcessedTime?: bigint | null;
  /** Default "running". */
  status?: CheckpointStatus;
}

export class CheckpointRepository {
  constructor(private readonly db: DbClient) {}

  async get(chainId: number): Promise<ChainCheckpoint | null> {
    const row = await this.db.chainCheckpoint.findUnique({ where: { chainId } });
    return row === null ? null : toCheckpoint(row);
  }

  async list(): Promise<ChainCheckpoint[]> {
    const rows = await this.db.chainCheckpoint.findMany({ orderBy: { chainId: 'asc' } });
    return rows.map(toCheckpoint);
  }

  /** Creates or moves the checkpoint of a chain. */
  async upsert(input: ChainCheckpointInput): Promise<ChainCheckpoint> {
    if (!Number.isSafeInteger(input.chainId) || input.chainId <= 0 || input.chainId > 0x7fffffff) {
      throw new RangeError(`chainId must be a positive 32-bit integer, got ${input.chainId}`);
    }
    if (input.lastProcessedBlock < 0n) {
      throw new RangeError(`lastProcessedBlock must not be negative, got ${input.lastProcessedBlock}`);
    }
    const data = {
      lastProcessedBlock: input.lastProcessedBlock,
      lastProcessedHash: input.lastProcessedHash,
      ...(input.lastProcessedTime === undefined ? {} : { lastProcessedTime: input.lastProcessedTime }),
      status: input.status ?? 'running',
    };
    const row = await this.db.chainCheckpoint.upsert({
      where: { chainId: input.chainId },
      create: { chainId: input.chainId, ...data },
      update: data,
    });
    return toCheckpoint(row);
  }

  /** Sets the status of a chain's checkpoint, if it has one; returns whether it had. */
  async setStatus(chainId: number, status: CheckpointStatus): Promise<boolean> {
    const { count } = await this.db.chainCheckpoint.updateMany({ where: { chainId }, data: { status } });
    return count > 0;
  }
}

function toCheckpoint(row: ChainCheckpoint): ChainCheckpoint {
  return {
    chainId: row.chainId,
    lastProcessedBlock: row.lastProcessedBlock,
    lastProcessedHash: row.lastProcessedHash,
    lastProcessedTime: row.lastProcessedTime,
    status: row.status,
    updatedAt: row.updatedAt,
  };
}
