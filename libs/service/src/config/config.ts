import { isSupportedChainId, RPC_PROVIDER_DEFAULTS, splitRpcUrls, SUPPORTED_CHAIN_IDS, type RpcProviderOptions } from '@dex/chain';
import { z } from 'zod';

/** A setting is missing or malformed; the message names the setting. The service refuses to start. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: readonly string[],
  ) {
    super(`${service} cannot start: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

/** Settings every service has. */
export const baseSettings = {
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('log'),
  HTTP_HOST: z.string().min(1).default('0.0.0.0'),
  /** Per-request timeout of bus requests, in milliseconds. */
  BUS_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** Admission control of the subjects a service answers (each subject apart); unset: the service's own defaults. */
  BUS_MAX_IN_FLIGHT: z.coerce.number().int().positive().optional(),
  BUS_MAX_QUEUED: z.coerce.number().int().nonnegative().optional(),
  BUS_MAX_QUEUE_WAIT_MS: z.coerce.number().int().positive().optional(),
  /** At the gateway, HTTP requests arriving while the event loop lags more than this are refused (503), milliseconds. */
  HTTP_MAX_EVENT_LOOP_LAG_MS: z.coerce.number().int().positive().default(100),
};

export const httpPortSetting = (fallback: number) => ({ HTTP_PORT: port(fallback) });

export const databaseSettings = {
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/dex'),
};

export const chainListSetting = {
  /** Comma-separated chain ids the service serves; each needs `RPC_URL_<chainId>` (one URL or several, comma-separated). */
  CHAIN_IDS: z.string().default(SUPPORTED_CHAIN_IDS.join(',')),
  /** How often each RPC provider is asked for its head, milliseconds. */
  RPC_PROBE_INTERVAL_MS: z.coerce.number().int().min(50).default(RPC_PROVIDER_DEFAULTS.probeIntervalMs),
  /** A provider more than this many blocks below the highest recent head is passed over. */
  RPC_MAX_LAG_BLOCKS: z.coerce.number().int().nonnegative().default(RPC_PROVIDER_DEFAULTS.maxLagBlocks),
  /** After this long without a usable block from any provider of a chain, quotes on it answer 503, milliseconds. */
  RPC_STALE_AFTER_MS: z.coerce.number().int().positive().default(RPC_PROVIDER_DEFAULTS.staleAfterMs),
};

export interface ChainEndpoint {
  readonly chainId: number;
  /** The `RPC_URL_<chainId>` value: one URL, or several comma-separated (providers in order of preference). */
  readonly rpcUrl: string;
  /** How the providers are watched (`RPC_PROBE_INTERVAL_MS`, `RPC_MAX_LAG_BLOCKS`, `RPC_STALE_AFTER_MS`). */
  readonly providers?: RpcProviderOptions;
}

type Env = Record<string, string | undefined>;

function describe(issue: z.core.$ZodIssue, env: Env): string {
  const name = String(issue.path[0] ?? '');
  if (name && (env[name] === undefined || env[name] === '')) return `missing required setting ${name}`;
  return `invalid setting ${name}: ${issue.message}`;
}

/** Parses and validates the environment against a settings shape; throws ConfigError naming each bad setting. */
export function loadSettings<S extends z.ZodRawShape>(service: string, shape: S, env: Env = process.env) {
  const cleaned: Env = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    cleaned[key] = value === '' ? undefined : value;
  }
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      service,
      result.error.issues.map((issue) => describe(issue, env)),
    );
  }
  return result.data;
}

/** Resolves `CHAIN_IDS` into endpoints, requiring `RPC_URL_<chainId>` for each. */
export function loadChainEndpoints(service: string, chainIds: string, env: Env = process.env): ChainEndpoint[] {
  const problems: string[] = [];
  const endpoints: ChainEndpoint[] = [];
  const ids = chainIds
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) problems.push('invalid setting CHAIN_IDS: lists no chain');
  for (const raw of ids) {
    const chainId = Number(raw);
    if (!isSupportedChainId(chainId)) {
      problems.push(`invalid setting CHAIN_IDS: unsupported chain ${raw} (supported: ${SUPPORTED_CHAIN_IDS.join(', ')})`);
      continue;
    }
    const name = `RPC_URL_${chainId}`;
    const rpcUrl = env[name];
    const urls = rpcUrl ? splitRpcUrls(rpcUrl) : [];
    if (!rpcUrl || urls.length === 0) {
      problems.push(`missing required setting ${name}`);
      continue;
    }
    if (!urls.every((url) => /^https?:\/\//.test(url))) {
      problems.push(`invalid setting ${name}: must be an http(s) URL, or several comma-separated`);
      continue;
    }
    endpoints.push({ chainId, rpcUrl: urls.join(',') });
  }
  if (problems.length) throw new ConfigError(service, problems);
  return endpoints;
}

/**
 * The settings of a service that serves the chains of `CHAIN_IDS`, on its default HTTP port: the base settings,
 * the chain list and the service's own (`databaseSettings` among them for a service that reads Postgres; one
 * that does not opens no connection); `chains` holds each served chain's RPC endpoint.
 */
export function loadChainServiceSettings<S extends z.ZodRawShape>(service: string, httpPort: number, shape: S, env: Env = process.env) {
  const settings = loadSettings(service, { ...baseSettings, ...chainListSetting, ...httpPortSetting(httpPort), ...shape }, env);
  // The chain list settings are in every such shape (chainListSetting); the generic shape hides them from the type.
  const chainSettings = settings as unknown as z.output<z.ZodObject<typeof chainListSetting>>;
  const providers: RpcProviderOptions = {
    probeIntervalMs: chainSettings.RPC_PROBE_INTERVAL_MS,
    maxLagBlocks: chainSettings.RPC_MAX_LAG_BLOCKS,
    staleAfterMs: chainSettings.RPC_STALE_AFTER_MS,
  };
  return { ...settings, chains: loadChainEndpoints(service, chainSettings.CHAIN_IDS, env).map((e) => ({ ...e, providers })) };
}
