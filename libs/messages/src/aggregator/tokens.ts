import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/** Largest page of `GET /tokens`. */
export const MAX_TOKEN_LIMIT = 1_000;

/** A `search` with a control character: refused by the gateway and by aggregator-router (Postgres rejects NUL). */
export const INVALID_SEARCH_CONTROL = 'Invalid search: must not contain control characters';

/** Whether `text` holds a control character (U+0000 to U+001F, or U+007F). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A token's ERC-20 metadata as read from the token itself, and whether it behaved as an ERC-20 (its code, then
 * name(), symbol(), decimals(), totalSupply() and balanceOf() all answered with well-formed values): what the
 * chain reads find and the indexer stores.
 */
export interface VerifiedTokenMetadata {
  /** '' when unreadable or malformed. */
  name: string;
  /** '' when unreadable or malformed. */
  symbol: string;
  /** 0 when unreadable or out of range. */
  decimals: number;
  totalSupply: bigint | null;
  isERC20Verified: boolean;
  /** What failed, when not verified. */
  verificationError: string | null;
}

export const tokenRecordSchema = z.object({
  address: addressSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  isERC20Verified: z.boolean(),
  transfers24h: z.number().int(),
  totalTransfers: z.number().int(),
  /**
   * How the token's transfers behave, as the service measured them from a pool that holds it (absent when no pool
   * holds it or the chain did not answer): the part of each transfer that does not arrive, in basis points.
   */
  transferFeeBps: z.number().int().min(0).max(10_000).optional(),
  /** Set when the token's transfers fail (revert, answer false, paused or blocked): why. Routes refuse it. */
  transferFailure: z.string().optional(),
});

export const listTokensContract = defineContract({
  subject: SUBJECTS.aggregatorTokens,
  description: 'Tokens of a chain sorted by transfers in the last 24 hours, with search and paging',
  request: z.object({
    chainId: chainIdSchema,
    search: z.string().min(1).max(100).optional(),
    limit: z.number().int().min(1).max(MAX_TOKEN_LIMIT).optional(),
    offset: z.number().int().min(0),
    metadata: z.boolean(),
  }),
  response: z.object({
    chainId: chainIdSchema,
    tokens: z.array(tokenRecordSchema).optional(),
    addresses: z.array(addressSchema).optional(),
    count: z.number().int(),
    limitedCount: z.number().int(),
    offset: z.number().int(),
    nextOffset: z.number().int(),
    hasMore: z.boolean(),
    searchApplied: z.boolean(),
    limitApplied: z.boolean(),
    serviceStatus: z.string(),
    lastProcessedBlock: z.string(),
  }),
});
