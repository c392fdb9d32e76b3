import { loadChainServiceSettings } from '@dex/service';
import { QUEUE_GROUPS } from '@dex/messages';

export const SERVICE = QUEUE_GROUPS.gateway;

/** The gateway's settings: it asks the services over NATS and keeps no data, so it takes no DATABASE_URL. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  return loadChainServiceSettings(SERVICE, 3000, {}, env);
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
