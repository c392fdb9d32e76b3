import { z } from 'zod';
import { addressSchema, chainIdSchema, sourceKindSchema } from '../primitives';

/**
 * One liquidity source of a chain, as configured: adding a fork of a known kind is a config entry.
 * `addresses` holds the contracts the source is reached through (factory, registry, router...), by role.
 */
export const sourceConfigSchema = z.object({
  name: z.string().min(1),
  kind: sourceKindSchema,
  routerIndex: z.number().int().min(0).max(255),
  addresses: z.record(z.string().min(1), addressSchema),
  /** Pool fee of the source in basis points, where it is one number for every pool. */
  feeBps: z.number().int().min(0).max(10_000).optional(),
  /** The block its announcing contract (factory, router, launchpad) was deployed at: a start at the head scans from it. */
  deploymentBlock: z.number().int().min(0).optional(),
});
export type SourceConfig = z.infer<typeof sourceConfigSchema>;

/** Each source of a chain in its own registry slot. */
function uniqueRouterIndexes(sources: readonly { routerIndex: number }[], ctx: z.RefinementCtx): void {
  const seen = new Set<number>();
  for (const [i, source] of sources.entries()) {
    if (seen.has(source.routerIndex)) {
      ctx.addIssue({ code: 'custom', path: [i, 'routerIndex'], message: `duplicate routerIndex ${source.routerIndex}` });
    }
    seen.add(source.routerIndex);
  }
}

export const chainSourcesSchema = z.array(sourceConfigSchema).superRefine(uniqueRouterIndexes);

/** A sources file: `{ chains: { "<chainId>": { sources: [...] } } }` (the devnet manifest has this shape too). */
export const sourcesFileSchema = z.object({
  chains: z.record(
    z.string().regex(/^\d+$/),
    z.looseObject({ chainId: chainIdSchema.optional(), sources: chainSourcesSchema }),
  ),
});
export type SourcesFile = z.infer<typeof sourcesFileSchema>;
