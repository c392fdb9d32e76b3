import { databaseSettings, loadChainServiceSettings } from '@dex/chain-service';
import { CHAIN_EVENTS_STREAM, QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.aggregatorRouter;

export function loadAggregatorConfig(env: Record<string, string | undefined> = process.env) {
  return loadChainServiceSettings(
    SERVICE,
    3011,
    {
      ...databaseSettings,
      /** Path of the per-chain liquidity-source config (the devnet manifest has the same shape). */
      SOURCES_CONFIG: z.string().min(1),
      /** Polling interval of the chain clients (receipts, watchers), milliseconds. */
      BLOCK_POLL_MS: z.coerce.number().int().min(50).default(500),
      /** Blocks of undo log the liquidity state keeps: deeper reorgs reload the state from Postgres. */
      LIQUIDITY_RETAIN_BLOCKS: z.coerce.number().int().min(1).default(128),
      /** The JetStream stream of the indexer's chain facts (the indexer's INDEXER_STREAM). */
      INDEXER_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/).default(CHAIN_EVENTS_STREAM),
      /** Worker threads the route searches run on, each search on the least busy (0: on the thread that answers requests). */
      ROUTE_SEARCH_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
      /**
       * `on`: every answered route's transaction is executed in an eth_call before it is answered, and what it delivers
       * is the answer; `off` answers the model's amounts (for token lists known to behave; one eth_call less a route).
       */
      ROUTE_SIMULATION: z.enum(['on', 'off']).default('on'),
    },
    env,
  );
}

export type AggregatorConfig = ReturnType<typeof loadAggregatorConfig>;
