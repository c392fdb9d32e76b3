import { baseSettings, chainListSetting, databaseSettings, httpPortSetting, loadChainEndpoints, loadSettings } from '@dex/service';
import { QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.launchpadService;

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadSettings(
    SERVICE,
    {
      ...baseSettings,
      ...databaseSettings,
      ...chainListSetting,
      ...httpPortSetting(3013),
      /** Path of the per-chain source file; the `launchpad` source names the launchpad of each chain. */
      SOURCES_CONFIG: z.string().min(1),
    },
    env,
  );
  return { ...settings, chains: loadChainEndpoints(SERVICE, settings.CHAIN_IDS, env) };
}

export type Config = ReturnType<typeof loadConfig>;
