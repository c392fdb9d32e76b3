import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

const txHashSchema = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/**
 * What the keeper did about one launched token:
 * - `graduated`: its `graduate(token)` was mined (after the DEX pair was deployed, by the keeper or earlier);
 * - `already-graduated`: the token had graduated when the keeper got to it, someone else having been first;
 * - `not-sold-out`: its curve still trades, there is nothing to graduate (only for a token named in the request);
 * - `in-flight`: a keeper transaction was still pending on the chain, so none was sent; the next look retries;
 * - `failed`: a transaction reverted or could not be sent (`error` says why); retried later.
 */
export const GRADUATION_OUTCOMES = ['graduated', 'already-graduated', 'not-sold-out', 'in-flight', 'failed'] as const;
export const graduationOutcomeSchema = z.enum(GRADUATION_OUTCOMES);
export type GraduationOutcome = z.infer<typeof graduationOutcomeSchema>;

export const graduationResultSchema = z.object({
  token: addressSchema,
  /** The token's DEX pair (its address is fixed when the token is created). */
  pair: addressSchema,
  outcome: graduationOutcomeSchema,
  /** The DEX factory's `createPair`, when the keeper deployed the pair. */
  pairTxHash: txHashSchema.optional(),
  /** The launchpad's `graduate(token)`, when the keeper sent it (it reverted if the outcome is `already-graduated`). */
  graduateTxHash: txHashSchema.optional(),
  error: z.string().optional(),
});
export type GraduationResult = z.infer<typeof graduationResultSchema>;

export const graduationRunSchema = z.object({
  chainId: chainIdSchema,
  /** Tokens whose curve had sold out and that awaited `graduate` when the keeper looked (before it acted). */
  pending: z.number().int().min(0),
  graduations: z.array(graduationResultSchema),
});
export type GraduationRun = z.infer<typeof graduationRunSchema>;

/**
 * `keeper.graduate`: finish launchpad graduations now, on one chain or all, or for one token (which needs its
 * `chainId`): for each token whose curve sold out before its DEX pair was deployed, deploy the pair through the
 * token's DEX factory if it is still missing, then call the launchpad's `graduate(token)`.
 */
export const graduateContract = defineContract({
  subject: SUBJECTS.keeperGraduate,
  description: 'Graduates the launched tokens whose curve sold out: deploys each missing DEX pair, then calls graduate',
  request: z
    .object({ chainId: chainIdSchema.optional(), token: addressSchema.optional() })
    .refine((r) => r.token === undefined || r.chainId !== undefined, { message: 'a token needs its chainId', path: ['chainId'] }),
  response: z.object({ results: z.array(graduationRunSchema) }),
});
