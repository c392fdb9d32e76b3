import { baseSettings, httpPortSetting, loadSettings } from '@dex/service';
import { QUEUE_GROUPS, type ServiceName } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.gateway;

/**
 * The services the gateway's `GET /health` asks by default: those that answer the REST API, the indexer that feeds
 * them, and the keeper.
 */
export const HEALTH_SERVICES_DEFAULT: readonly ServiceName[] = [
  QUEUE_GROUPS.aggregatorRouter,
  QUEUE_GROUPS.ammQuoter,
  QUEUE_GROUPS.launchpadService,
  QUEUE_GROUPS.indexer,
  QUEUE_GROUPS.referralKeeper,
];

/** Every service but the gateway, by name. */
const OTHER_SERVICES: readonly string[] = Object.values(QUEUE_GROUPS).filter((name) => name !== SERVICE);

/** A comma-separated list of services, each a name of `QUEUE_GROUPS` other than the gateway's. */
const serviceList = (raw: string, ctx: z.core.$RefinementCtx<string>): ServiceName[] => {
  const names = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  const unknown = names.filter((name) => !OTHER_SERVICES.includes(name));
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'lists no service' });
  if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown service ${unknown.join(', ')} (services: ${OTHER_SERVICES.join(', ')})` });
  return names as ServiceName[];
};

export const gatewaySettings = {
  /** The services whose readiness `GET /health` reports, comma-separated; each is asked on `<service>.health`. */
  HEALTH_SERVICES: z.string().default(HEALTH_SERVICES_DEFAULT.join(',')).transform(serviceList),
  /** How long `GET /health` waits for each service's answer, milliseconds; one that does not answer in time is down. */
  HEALTH_SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
  /** Live route streams (`GET /v2/route/stream`) one client address may hold at once; past it, a 429. */
  ROUTE_STREAMS_PER_CLIENT: z.coerce.number().int().positive().default(10),
  /** Live route streams the gateway holds at once; past it, a 429. */
  ROUTE_STREAMS_MAX: z.coerce.number().int().positive().default(5_000),
  /** How long a live route stream lasts before the gateway ends it (`event: end`), seconds. */
  ROUTE_STREAM_MAX_SECONDS: z.coerce.number().int().positive().default(900),
  /** The longest silence on a live route stream: a heartbeat comment after this long without a view, milliseconds. */
  ROUTE_STREAM_HEARTBEAT_MS: z.coerce.number().int().positive().default(15_000),
  /**
   * Route searches the live streams have in flight at once (the others wait their turn): below aggregator-router's
   * admission of /v2/route (16 in flight), so that one view's searches are not refused as a burst.
   */
  ROUTE_STREAM_SEARCH_CONCURRENCY: z.coerce.number().int().positive().default(8),
};

/**
 * The gateway's settings: it asks the services over NATS and keeps no data, so it takes no DATABASE_URL, and it
 * reaches no chain, so it takes no CHAIN_IDS or RPC URLs (a service's readiness says how its chains stand).
 */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  return loadSettings(SERVICE, { ...baseSettings, ...httpPortSetting(3000), ...gatewaySettings }, env);
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
