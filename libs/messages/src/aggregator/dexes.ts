import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema, sourceKindSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

export const dexSchema = z.object({
  routerIndex: z.number().int().min(0),
  name: z.string(),
  kind: sourceKindSchema,
  addresses: z.record(z.string(), addressSchema),
  feeBps: z.number().int().optional(),
});
export type Dex = z.infer<typeof dexSchema>;

export const listDexesContract = defineContract({
  subject: SUBJECTS.aggregatorDexes,
  description: 'Liquidity sources of a chain with their routerIndex values',
  request: z.object({ chainId: chainIdSchema }),
  response: z.object({ chainId: chainIdSchema, dexes: z.array(dexSchema) }),
});
