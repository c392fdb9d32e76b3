import { addressSchema, chainSourcesSchema, describeIssues, sourceKindSchema } from '@dex/messages';
import { ConfigError, readSourcesFile } from '@dex/service';
import { z } from 'zod';

/**
 * What the route search needs from the sources file of a chain, beyond its sources: the pools of each source,
 * the known tokens, the wrapped native token, RouterV2 (and its Permit2 entry) and the launchpad's tokens. The
 * devnet manifest has this shape; a production sources file lists the same keys.
 */
const tokenSchema = z.object({ address: addressSchema, symbol: z.string(), name: z.string(), decimals: z.number().int().min(0).max(255) });

const chainEntrySchema = z.looseObject({
  sources: chainSourcesSchema,
  nativeSymbol: z.string().default('ETH'),
  multicall3: addressSchema.optional(),
  wrappedNative: tokenSchema,
  tokens: z.array(tokenSchema).default([]),
  pools: z
    .array(
      z.object({
        name: z.string().optional(),
        routerIndex: z.number().int().min(0),
        kind: sourceKindSchema,
        address: addressSchema,
        token0: addressSchema,
        token1: addressSchema,
        /** Concentrated pools: fee tier in hundredths of a basis point, and tick spacing. */
        fee: z.number().int().min(0).optional(),
        tickSpacing: z.number().int().min(1).optional(),
      }),
    )
    .default([]),
  routerV2: addressSchema,
  /**
   * The chain's Permit2 (Uniswap's; on the devnet compiled from @uniswap/v4-periphery's copy of its source) and
   * RouterV2Permit2 (RouterV2's entry for routes signed through Permit2). Optional: a chain where they are not
   * deployed, or a sources file written before they were, has neither.
   */
  permit2: addressSchema.optional(),
  routerV2Permit2: addressSchema.optional(),
  treasury: addressSchema.optional(),
  launchpad: z
    .object({ address: addressSchema, tokens: z.array(z.looseObject({ address: addressSchema, stage: z.string().optional() })).default([]) })
    .optional(),
});
export type ChainEntry = z.infer<typeof chainEntrySchema>;

const fileSchema = z.object({ chains: z.record(z.string().regex(/^\d+$/), z.unknown()) });

/** Reads the chain entries of the served chains; a missing key stops the service, naming SOURCES_CONFIG. */
export function loadChainEntries(service: string, path: string, chainIds: readonly number[]): Map<number, ChainEntry> {
  const file = fileSchema.safeParse(readSourcesFile(service, path));
  if (!file.success) throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path}: ${describeIssues(file.error)}`]);
  const entries = new Map<number, ChainEntry>();
  for (const chainId of chainIds) {
    const parsed = chainEntrySchema.safeParse(file.data.chains[String(chainId)]);
    if (!parsed.success) {
      throw new ConfigError(service, [`invalid setting SOURCES_CONFIG: ${path}: chain ${chainId}: ${describeIssues(parsed.error)}`]);
    }
    entries.set(chainId, parsed.data);
  }
  return entries;
}
