import { loadChainServiceSettings } from '@dex/chain-service';
import { QUEUE_GROUPS } from '@dex/messages';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';

export const SERVICE = QUEUE_GROUPS.referralKeeper;

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const settings = loadChainServiceSettings(
    SERVICE,
    3015,
    {
      /** Key of the account that sends `distributeRefFees` and `graduate`; the keeper refuses to start without it. */
      KEEPER_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key'),
      /**
       * Path of the per-chain source file; the `core` source names the AMM router, registry and oracle, the
       * `launchpad` source (optional) the launchpad whose graduations the keeper finishes.
       */
      SOURCES_CONFIG: z.string().min(1),
      /** How often to look at pending referral fees, milliseconds (0 = only on command). */
      KEEPER_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
      /** Distribute only when the pending fees of a chain are worth at least this much, in USD. */
      KEEPER_MIN_PENDING_USD: z.coerce.number().min(0).default(10),
      /**
       * How often to look for launched tokens whose curve sold out and that await `graduate`, milliseconds
       * (0 = only on command).
       */
      KEEPER_GRADUATION_INTERVAL_MS: z.coerce.number().int().min(0).default(1_000),
      /**
       * Curve progress (the sold share of a token's sale supply, 0 to 1) from which the keeper deploys the token's
       * DEX pair ahead of the sell-out, on the graduation schedule, so that the buy selling the curve out graduates
       * the token at once instead of freezing it until `graduate`. 1 = only after the sell-out.
       */
      KEEPER_PAIR_AHEAD_PROGRESS: z.coerce.number().min(0).max(1).default(0.8),
    },
    env,
  );
  const { KEEPER_PRIVATE_KEY, ...rest } = settings;
  return { ...rest, keeper: privateKeyToAccount(KEEPER_PRIVATE_KEY as `0x${string}`) };
}

export type Config = ReturnType<typeof loadConfig>;
