import { databaseSettings, loadChainServiceSettings } from '@dex/chain-service';
import { ConfigError } from '@dex/service';
import { QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.indexer;

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const nonNegative = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

export const indexerSettings = {
  /** The per-chain sources file (the devnet manifest has its shape): factories, core router, launchpad, tokens, pools. */
  SOURCES_CONFIG: z.string().min(1),
  /** Most blocks per eth_getLogs range and per database transaction. */
  INDEXER_BATCH_SIZE: positive(500),
  /** Pause between looks at the head once caught up, in milliseconds. */
  INDEXER_POLL_INTERVAL_MS: positive(100),
  /** Blocks the indexer stays behind the head (0 on the devnet). */
  INDEXER_CONFIRMATIONS: nonNegative(0),
  /** Within this many blocks of the head every header is read and checked by parent hash. */
  INDEXER_REORG_WINDOW: positive(64),
  /** Block headers kept below the checkpoint for finding a common ancestor. */
  INDEXER_BLOCK_RETENTION: positive(10_000),
  /** Interval of the progress log lines, in milliseconds. */
  INDEXER_PROGRESS_INTERVAL_MS: positive(10_000),
  /** JetStream stream the chain facts go to (subjects `chain.>`). */
  INDEXER_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/).default('CHAIN_EVENTS'),
  /** Copies of the stream JetStream keeps: 1 on one NATS server, 3 on a cluster of three (survives losing a node). */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
};

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadChainServiceSettings(SERVICE, 3014, { ...databaseSettings, ...indexerSettings }, env);
  const chains = settings.chains;
  const problems: string[] = [];
  const startBlocks: Record<number, bigint> = {};
  /** Chains whose first start is at the head (`INDEXER_START_BLOCK_<id>=head`). */
  const startAtHead: Record<number, boolean> = {};
  for (const { chainId } of chains) {
    const name = `INDEXER_START_BLOCK_${chainId}`;
    const raw = env[name]?.trim();
    if (raw && raw !== 'head' && !/^\d+$/.test(raw)) problems.push(`invalid setting ${name}: must be a block number or head`);
    startBlocks[chainId] = raw && raw !== 'head' ? BigInt(raw) : 0n;
    startAtHead[chainId] = raw === 'head';
  }
  if (problems.length) throw new ConfigError(SERVICE, problems);
  return { ...settings, chains, startBlocks, startAtHead };
}

export type Config = ReturnType<typeof loadConfig>;
