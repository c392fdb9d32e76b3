import { z } from 'zod';
import { defineContract } from '../contract';
import { chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

export const distributionResultSchema = z.object({
  chainId: chainIdSchema,
  /** `sent`: a distribution was mined; `skipped`: nothing (or less than the threshold) pending; `in-flight`: a
   * keeper transaction is still pending, so none was sent. */
  status: z.enum(['sent', 'skipped', 'in-flight']),
  /** USD value of the pending referral fees before the run, at the oracle prices. */
  pendingUsd: z.number(),
  txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/).optional(),
  /** Payments made by the distribution: one per (pool, code) with something to pay. */
  payouts: z.array(
    z.object({ pool: z.string(), refCode: z.string(), claimWallet: z.string(), amount0: z.string(), amount1: z.string() }),
  ),
});
export type DistributionResult = z.infer<typeof distributionResultSchema>;

/** `keeper.distribute`: run a referral-fee distribution now, on one chain or all; `force` ignores the threshold. */
export const distributeContract = defineContract({
  subject: SUBJECTS.keeperDistribute,
  description: 'Runs distributeRefFees on the AMM router now',
  request: z.object({ chainId: chainIdSchema.optional(), force: z.boolean().optional() }),
  response: z.object({ results: z.array(distributionResultSchema) }),
});
