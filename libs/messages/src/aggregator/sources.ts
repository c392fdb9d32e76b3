import { z } from 'zod';
import { addressSchema, chainIdSchema, sourceKindSchema } from '../primitives';

/**
 * How the pools of a listed hook are quoted:
 * - `exact`: the hook leaves a swap's amounts to the PoolManager's own maths (it may refuse a swap, or record it):
 *   its pools are quoted tick-exact like hookless ones, and a swap the hook refuses, found when the route's swaps are
 *   quoted again by the source's V4Quoter at answer time (or, without one, when the answer's transaction is
 *   simulated), is routed around;
 * - `sampled`: the hook may change a swap's amounts (a fee through a return delta, a fee it sets per swap): its pools
 *   are quoted only by the source's V4Quoter, sampled at a ladder of sizes when they change and re-quoted exactly at
 *   answer time.
 */
export const HOOK_QUOTE_MODES = ['exact', 'sampled'] as const;
export type HookQuoteMode = (typeof HOOK_QUOTE_MODES)[number];

/**
 * A Uniswap V4 hook whose pools the source routes although its permissions let it change swaps (a hook without such
 * permissions needs no listing). RouterV2 must allow it too (`setHookAllowed`, which the deploy tool sends).
 */
export const listedHookSchema = z.object({
  address: addressSchema,
  /** What the hook is, for people: `/pools` and the logs name it. */
  name: z.string().min(1),
  quote: z.enum(HOOK_QUOTE_MODES),
});
export type ListedHook = z.infer<typeof listedHookSchema>;

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
  /**
   * Uniswap V4: the hooks routed although they may change swaps (`listedHookSchema`); a pool of any other such hook
   * is left out, and `/pools` says why. A `sampled` hook needs the source's `v4Quoter`.
   */
  hooks: z.array(listedHookSchema).optional(),
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

/** Hook lists only on V4 sources, each hook once, and a V4Quoter where a hook is sampled. */
function hookLists(sources: readonly SourceConfig[], ctx: z.RefinementCtx): void {
  for (const [i, source] of sources.entries()) {
    if (!source.hooks?.length) continue;
    if (source.kind !== 'uniswap-v4') ctx.addIssue({ code: 'custom', path: [i, 'hooks'], message: `only uniswap-v4 sources list hooks, not ${source.kind}` });
    const seen = new Set<string>();
    for (const [j, hook] of source.hooks.entries()) {
      if (seen.has(hook.address.toLowerCase())) ctx.addIssue({ code: 'custom', path: [i, 'hooks', j, 'address'], message: `hook ${hook.address} listed twice` });
      seen.add(hook.address.toLowerCase());
    }
    if (source.hooks.some((h) => h.quote === 'sampled') && !source.addresses.v4Quoter) {
      ctx.addIssue({ code: 'custom', path: [i, 'addresses', 'v4Quoter'], message: 'a source with sampled hooks needs its V4Quoter (addresses.v4Quoter)' });
    }
  }
}

export const chainSourcesSchema = z.array(sourceConfigSchema).superRefine(uniqueRouterIndexes).superRefine(hookLists);

/** A sources file: `{ chains: { "<chainId>": { sources: [...] } } }` (the devnet manifest has this shape too). */
export const sourcesFileSchema = z.object({
  chains: z.record(
    z.string().regex(/^\d+$/),
    z.looseObject({ chainId: chainIdSchema.optional(), sources: chainSourcesSchema }),
  ),
});
export type SourcesFile = z.infer<typeof sourcesFileSchema>;
