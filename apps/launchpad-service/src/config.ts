import { databaseSettings, loadChainServiceSettings } from '@dex/chain-service';
import { QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.launchpadService;

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  return loadChainServiceSettings(
    SERVICE,
    3013,
    {
      ...databaseSettings,
      /** Path of the per-chain source file; the `launchpad` source names the launchpad of each chain. */
      SOURCES_CONFIG: z.string().min(1),
    },
    env,
  );
}

export type Config = ReturnType<typeof loadConfig>;
