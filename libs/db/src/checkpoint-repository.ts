// Per-chain indexer checkpoint: the last block the indexer fully processed on a chain.
import type { DbClient } from './client';

export type CheckpointStatus = 'running' | 'stopped' | 'error' | (string & {});

export interface ChainCheckpoint {
  chainId: number;
  lastProcessedBlock: bigint;
  lastProcessedHash: string;
  status: CheckpointStatus;
  updatedAt: Date;
}

export interface ChainCheckpointInput {
  chainId: number;
  lastProcessedBlock: bigint;
  lastProcessedHash: string;
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
      status: input.status ?? 'running',
    };
    const row = await this.db.chainCheckpoint.upsert({
      where: { chainId: input.chainId },
      create: { chainId: input.chainId, ...data },
      update: data,
    });
    return toCheckpoint(row);
  }
}

function toCheckpoint(row: ChainCheckpoint): ChainCheckpoint {
  return {
    chainId: row.chainId,
    lastProcessedBlock: row.lastProcessedBlock,
    lastProcessedHash: row.lastProcessedHash,
    status: row.status,
    updatedAt: row.updatedAt,
  };
}
