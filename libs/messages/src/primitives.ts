import { getAddress, isAddress } from 'viem';
import { z } from 'zod';

/** A 0x-prefixed 20-byte address, normalised to its checksummed form. */
export const addressSchema = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), { message: 'must be a 0x-prefixed 20-byte hex address' })
  .transform((value) => getAddress(value));

/** The chains the product serves: HyperEVM (999, native HYPE) and 4663 (native ETH). */
export const CHAIN_IDS = [999, 4663] as const;
export type ChainId = (typeof CHAIN_IDS)[number];

export const chainIdSchema = z.number().int().positive();

/**
 * Liquidity-source kinds the aggregator knows; each has a RouterV2 adapter branch. `uniswap-v3` (Uniswap V3 and
 * its forks) and `algebra` (Algebra Integral) are concentrated-liquidity kinds: their pools carry a fee tier and a
 * tick spacing.
 */
export const SOURCE_KINDS = ['core', 'uniswap-v2', 'stable', 'launchpad', 'uniswap-v3', 'algebra'] as const;
export const sourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKindSchema>;
