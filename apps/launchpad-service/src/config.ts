import { baseSettings, chainListSetting, databaseSettings, httpPortSetting, loadChainEndpoints, loadSettings } from '@dex/service';

export const SERVICE = 'launchpad-service';

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadSettings(SERVICE, { ...baseSettings, ...databaseSettings, ...chainListSetting, ...httpPortSetting(3013) }, env);
  return { ...settings, chains: loadChainEndpoints(SERVICE, settings.CHAIN_IDS, env) };
}

export type Config = ReturnType<typeof loadConfig>;
