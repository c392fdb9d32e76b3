import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/** Largest number of amounts in one batch quote. */
export const MAX_QUOTE_BATCH = 100;

export const uint256StringSchema = z.string().regex(/^\d+$/, 'must be a base-unit integer').refine((v) => BigInt(v) < 2n ** 256n, 'exceeds uint256');
export const bytes32Schema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32-byte hex').transform((v) => v.toLowerCase() as `0x${string}`);

export const SWAP_SIGNATURE = 'swap(address,address,uint256,uint256)';
export const SWAP_WITH_REF_SIGNATURE = 'swap(address,address,uint256,uint256,bytes32)';

export const coreQuoteRequestSchema = z.object({
  chainId: chainIdSchema,
  tokenIn: addressSchema,
  tokenOut: addressSchema,
  amountsIn: z.array(uint256StringSchema).min(1).max(MAX_QUOTE_BATCH),
  includeCalldata: z.boolean(),
  /** Used for minAmountOut when includeCalldata is set; default 100. */
  slippageBps: z.number().int().min(0).max(9_999).optional(),
  /** Normalised referral code: the contracts' bytes32. */
  refCode: bytes32Schema.optional(),
});
export type CoreQuoteRequest = z.infer<typeof coreQuoteRequestSchema>;

export const coreQuoteSchema = z.object({
  amountIn: uint256StringSchema,
  amountOut: uint256StringSchema,
  minAmountOut: uint256StringSchema.optional(),
  calldata: z.string().regex(/^0x[0-9a-fA-F]*$/).optional(),
});

/** The /core/quote response data. */
export const coreQuoteResponseSchema = z.object({
  /**
   * This answer's id (a UUID): the service logs it with the request id, the inputs and the block, so a report
   * quoting it can be traced to what was quoted and when.
   */
  quoteId: z.uuid(),
  routerAddress: addressSchema,
  chainId: chainIdSchema,
  poolAddress: addressSchema,
  reserveOut: uint256StringSchema,
  blockNumber: z.string().regex(/^\d+$/),
  blockTimestamp: z.number().int(),
  functionSignature: z.enum([SWAP_SIGNATURE, SWAP_WITH_REF_SIGNATURE]),
  refCode: bytes32Schema.optional(),
  slippageBps: z.number().int().optional(),
  quotes: z.array(coreQuoteSchema),
});
export type CoreQuoteResponse = z.infer<typeof coreQuoteResponseSchema>;

export const coreQuoteContract = defineContract({
  subject: SUBJECTS.coreQuote,
  description: 'Quotes one or many input amounts on the AMM pool of a pair, optionally with router calldata',
  request: coreQuoteRequestSchema,
  response: coreQuoteResponseSchema,
});

/** Ask the quoter to publish live quotes of a pair on `quotes.<chainId>.<tokenIn>.<tokenOut>` each block. */
export const coreWatchRequestSchema = z.object({
  chainId: chainIdSchema,
  tokenIn: addressSchema,
  tokenOut: addressSchema,
  amountsIn: z.array(uint256StringSchema).min(1).max(MAX_QUOTE_BATCH),
  /** How long to keep publishing without a renewal, seconds (default 300, at most 3600). */
  ttlSeconds: z.number().int().min(1).max(3_600).optional(),
});

export const coreWatchContract = defineContract({
  subject: SUBJECTS.coreWatch,
  description: 'Starts (or renews) live quotes of a pair, published every block on its quote topic',
  request: coreWatchRequestSchema,
  response: z.object({ subject: z.string(), expiresAt: z.number().int() }),
});

/** Payload published on a quote topic for each new block. */
export const liveQuoteSchema = z.object({
  chainId: chainIdSchema,
  tokenIn: addressSchema,
  tokenOut: addressSchema,
  poolAddress: addressSchema,
  routerAddress: addressSchema,
  blockNumber: z.string().regex(/^\d+$/),
  blockTimestamp: z.number().int(),
  reserveOut: uint256StringSchema,
  quotes: z.array(z.object({ amountIn: uint256StringSchema, amountOut: uint256StringSchema })),
});
export type LiveQuote = z.infer<typeof liveQuoteSchema>;
