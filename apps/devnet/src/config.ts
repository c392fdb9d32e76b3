import { baseSettings, httpPortSetting, loadSettings } from '@dex/service';
import { QUEUE_GROUPS } from '@dex/messages';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.devnet;

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadSettings(
    SERVICE,
    {
      ...baseSettings,
      ...httpPortSetting(3016),
      DEVNET_HOST: z.string().default('127.0.0.1'),
      /** RPC port of the chain 999 node (0 picks a free one). */
      DEVNET_PORT_999: port(8545),
      /** RPC port of the chain 4663 node (0 picks a free one). */
      DEVNET_PORT_4663: port(8546),
      /** Seconds between blocks; unset mines a block per transaction. */
      DEVNET_BLOCK_TIME: z.coerce.number().positive().optional(),
      MANIFEST_PATH: z.string().default('.devnet/manifest.json'),
      DEVNET_LOG_DIR: z.string().default('.devnet/logs'),
      /** Written into the manifest for clients. */
      GATEWAY_URL: z.string().url().default('http://127.0.0.1:3000'),
      /** Runs the activity simulator: swaps, transfers, launchpad trades and oracle moves on every chain. */
      DEVNET_SIMULATE: z.stringbool().default(false),
      /** Milliseconds between two simulator ticks (one action per chain each). */
      DEVNET_SIMULATE_INTERVAL_MS: z.coerce.number().int().min(50).default(2_000),
      /** Seed of the simulator's random choices; unset picks one (logged at start). */
      DEVNET_SIMULATE_SEED: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
      /** The scale profile: pools added across the V2, stable, core, V3, Algebra and V4 sources on every chain (0: off). */
      DEVNET_SCALE_POOLS: z.coerce.number().int().min(0).default(0),
      /** Test tokens the scale profile creates on every chain. */
      DEVNET_SCALE_TOKENS: z.coerce.number().int().min(2).default(200),
      /** Swaps the scale trader sends for every block (one transaction each). */
      DEVNET_SCALE_SWAPS_PER_BLOCK: z.coerce.number().int().min(0).default(25),
      /** Seconds between blocks once the scale profile is seeded (anvil interval mining). */
      DEVNET_SCALE_BLOCK_TIME: z.coerce.number().int().min(1).default(1),
      /** Where seeded scale chains are kept for the next start (empty: seed every time). */
      DEVNET_SCALE_CACHE_DIR: z.string().default('.devnet/cache'),
    },
    env,
  );
  return settings;
}

export type Config = ReturnType<typeof loadConfig>;
