// What each app needs from a deployment (apps/*/src/config.ts, README "Configuration"): its HTTP port, and the
// settings that must be given there, i.e. the required ones and those whose built-in default only suits a
// developer machine (NATS_URL and DATABASE_URL default to 127.0.0.1). Every app that follows chains also needs
// RPC_URL_<chainId> for each chain of CHAIN_IDS (default 999,4663); the gateway follows none (it asks the services).
export interface AppSettings {
  readonly port: number;
  readonly required: readonly string[];
  /** Reads CHAIN_IDS and needs RPC_URL_<chainId> for each. */
  readonly chains: boolean;
}

export const APPS: Readonly<Record<string, AppSettings>> = {
  gateway: { port: 3000, required: ['NATS_URL'], chains: false },
  'aggregator-router': { port: 3011, required: ['NATS_URL', 'DATABASE_URL', 'SOURCES_CONFIG'], chains: true },
  'amm-quoter': { port: 3012, required: ['NATS_URL', 'DATABASE_URL', 'SOURCES_CONFIG'], chains: true },
  'launchpad-service': { port: 3013, required: ['NATS_URL', 'DATABASE_URL', 'SOURCES_CONFIG'], chains: true },
  indexer: { port: 3014, required: ['NATS_URL', 'DATABASE_URL', 'SOURCES_CONFIG'], chains: true },
  'referral-keeper': { port: 3015, required: ['NATS_URL', 'SOURCES_CONFIG', 'KEEPER_PRIVATE_KEY'], chains: true },
  devnet: { port: 3016, required: ['NATS_URL'], chains: false },
};

/** The migrate step (`node dist/libs/db/src/migrate-cli.js`) needs only the database. */
export const MIGRATE_COMMAND = ['node', 'dist/libs/db/src/migrate-cli.js'];
export const MIGRATE_REQUIRED = ['DATABASE_URL'];

export const DEFAULT_CHAIN_IDS = '999,4663';

/** The settings an app needs, given the CHAIN_IDS it will see (unset: the default). */
export function requiredSettings(app: AppSettings, chainIds: string | undefined): string[] {
  const chains = app.chains
    ? (chainIds ?? DEFAULT_CHAIN_IDS)
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
        .map((c) => `RPC_URL_${c}`)
    : [];
  return [...app.required, ...chains];
}
