import { z } from 'zod';
import { defineContract } from '../contract';
import { chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/** What the indexer is doing on a chain: `running` (following the head), `backfilling` (catching up), `stopped`, `error`. */
export const INDEXER_STATES = ['running', 'backfilling', 'stopped', 'error'] as const;
export const indexerStateSchema = z.enum(INDEXER_STATES);
export type IndexerState = z.infer<typeof indexerStateSchema>;

export const chainIndexerStatusSchema = z.object({
  chainId: chainIdSchema,
  serviceStatus: indexerStateSchema,
  /** Last block fully processed (decimal string), "0" before the first batch. */
  lastProcessedBlock: z.string().regex(/^\d+$/),
  /** Chain head as last seen (decimal string). */
  headBlock: z.string().regex(/^\d+$/),
  blocksBehind: z.number().int().nonnegative(),
  /** Throughput over the last progress interval. */
  blocksPerSecond: z.number().nonnegative(),
  logsPerSecond: z.number().nonnegative(),
  /** Last error while failing; absent otherwise. */
  error: z.string().optional(),
  updatedAt: z.string(),
});
export type ChainIndexerStatus = z.infer<typeof chainIndexerStatusSchema>;

export const indexerStatusContract = defineContract({
  subject: SUBJECTS.indexerStatus,
  description: 'Indexer progress per chain: serviceStatus, lastProcessedBlock, head and lag',
  request: z.object({ chainId: chainIdSchema.optional() }),
  response: z.object({ chains: z.array(chainIndexerStatusSchema) }),
});
