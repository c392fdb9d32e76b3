import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema, sourceKindSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/**
 * A source checked against the chain at the service's start: `active` (its contracts are what the config says;
 * routed through), `failed` (they are not: left out, `reason` says why), `unchecked` (the chain did not answer
 * the check yet: left out until it does).
 */
export const SOURCE_STATUSES = ['active', 'failed', 'unchecked'] as const;
export const sourceStatusSchema = z.enum(SOURCE_STATUSES);
export type SourceStatus = z.infer<typeof sourceStatusSchema>;

export const dexSchema = z.object({
  routerIndex: z.number().int().min(0),
  name: z.string(),
  kind: sourceKindSchema,
  addresses: z.record(z.string(), addressSchema),
  feeBps: z.number().int().optional(),
  status: sourceStatusSchema,
  /** Why a source is not `active`. */
  reason: z.string().optional(),
});
export type Dex = z.infer<typeof dexSchema>;

export const listDexesContract = defineContract({
  subject: SUBJECTS.aggregatorDexes,
  description: 'Liquidity sources of a chain with their routerIndex values',
  request: z.object({ chainId: chainIdSchema }),
  response: z.object({ chainId: chainIdSchema, dexes: z.array(dexSchema) }),
});
