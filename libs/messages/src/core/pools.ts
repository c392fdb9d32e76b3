import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/** Decimal numbers (prices, USD values, rates, human-readable amounts) travel as strings. */
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

const tokenInfo = z.object({ address: addressSchema, symbol: z.string(), name: z.string(), decimals: z.number().int() });
const pairOf = z.object({ token0: decimal, token1: decimal });
const pairUsd = z.object({ token0: decimal, token1: decimal, usd: decimal });

/** One AMM pool of `GET /core/pools`. */
export const corePoolEntrySchema = z.object({
  chainId: chainIdSchema,
  poolAddress: addressSchema,
  isPublic: z.boolean(),
  token0: tokenInfo,
  token1: tokenInfo,
  poolFees: z.object({ token0In: decimal, token1In: decimal }),
  exchangeRates: z.object({ token1PerToken0: decimal, token0PerToken1: decimal }),
  usdPrices: pairOf,
  reserves: pairOf,
  reservesUSD: pairOf,
  tvlUSD: decimal,
  fees24h: pairUsd,
  volume24h: pairUsd,
  apr: decimal,
});
export type CorePoolEntry = z.infer<typeof corePoolEntrySchema>;

export const corePoolsContract = defineContract({
  subject: SUBJECTS.corePools,
  description: 'Every AMM pool of a chain with prices, reserves, TVL and 24 h stats',
  request: z.object({ chainId: chainIdSchema }),
  response: z.object({
    pools: z.array(corePoolEntrySchema),
    totalTVL: decimal,
    totals24h: z.object({ fees: decimal, volume: decimal }),
  }),
});

const reserveSide = z.object({ address: addressSchema, symbol: z.string(), decimals: z.number().int(), amount: decimal, usd: decimal });

/** `GET /core/pool/:address`. */
export const corePoolDataSchema = z.object({
  chainId: chainIdSchema,
  poolAddress: addressSchema,
  isPublic: z.boolean(),
  reserves: z.object({ token0: reserveSide, token1: reserveSide, totalUSD: decimal }),
  volumeToday: pairUsd,
  feesToday: pairUsd,
  poolFees: z.object({ token0In: decimal, token1In: decimal }),
  price: z.object({ token1PerToken0: decimal, token0PerToken1: decimal, token0USD: decimal, token1USD: decimal }),
  apr: decimal,
  swapsToday: z.number().int(),
  totalSwaps: z.number().int(),
  lastUpdated: z.number().int(),
});
export type CorePoolData = z.infer<typeof corePoolDataSchema>;

export const corePoolContract = defineContract({
  subject: SUBJECTS.corePool,
  description: 'One AMM pool with reserves, prices, fees and 24 h stats',
  request: z.object({ chainId: chainIdSchema, pool: addressSchema }),
  response: corePoolDataSchema,
});
