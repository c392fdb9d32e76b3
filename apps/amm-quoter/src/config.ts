import { databaseSettings, loadChainServiceSettings } from '@dex/chain-service';
import { QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.ammQuoter;

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  return loadChainServiceSettings(
    SERVICE,
    3012,
    {
      ...databaseSettings,
      /** Path of the per-chain source file; the `core` source names the AMM router of each chain. */
      SOURCES_CONFIG: z.string().min(1),
      /** How often to look for a new block (live quote topics), milliseconds. */
      BLOCK_POLL_MS: z.coerce.number().int().min(50).default(500),
    },
    env,
  );
}

export type Config = ReturnType<typeof loadConfig>;
