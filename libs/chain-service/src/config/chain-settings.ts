import { isSupportedChainId, RPC_PROVIDER_DEFAULTS, splitRpcUrls, SUPPORTED_CHAIN_IDS, type RpcProviderOptions } from '@dex/chain';
import { baseSettings, ConfigError, httpPortSetting, loadSettings, type Env } from '@dex/service';
import { z } from 'zod';

/** `DATABASE_URL`, for a service that reads or writes Postgres; a service without it opens no connection. */
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
