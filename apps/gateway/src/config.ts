import { baseSettings, chainListSetting, databaseSettings, httpPortSetting, loadChainEndpoints, loadSettings } from '@dex/service';

export const SERVICE = 'gateway';

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadSettings(SERVICE, { ...baseSettings, ...databaseSettings, ...chainListSetting, ...httpPortSetting(3000) }, env);
  return { ...settings, chains: loadChainEndpoints(SERVICE, settings.CHAIN_IDS, env) };
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
