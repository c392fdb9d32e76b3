import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';
import { launchMetadataShape } from './metadata';

const uintString = z.string().regex(/^\d+$/);

/** Where a launched token trades: on its curve, nowhere while it awaits `graduate` after its sell-out, on its DEX pool. */
export const LAUNCHED_TOKEN_STATUSES = ['trading', 'graduating', 'graduated'] as const;
export type LaunchedTokenStatus = (typeof LAUNCHED_TOKEN_STATUSES)[number];

/** The 400 of an estimate whose amount overflows the curve's arithmetic (near 2^256 base units). */
export const ESTIMATE_AMOUNT_TOO_LARGE = 'Invalid amount: too large for the curve';
/** The 409 of an estimate for a token that trades on its DEX pool. */
export const TOKEN_GRADUATED = 'Token has graduated: it trades on its DEX pool';
/** The 409 of an estimate for a token whose curve sold out and that awaits `graduate`. */
export const TOKEN_GRADUATING = 'Token is graduating: its curve has sold out and its DEX pool opens at graduation';

/** A token of the launchpad with its metadata and the state of its bonding curve. */
export const launchedTokenSchema = z.object({
  address: addressSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  ...launchMetadataShape,
  creator: addressSchema,
  creationTimestamp: z.number().int(),
  /**
   * The creator's sell lock (the `creator-locked` state): until `creatorUnlockTime` (Unix seconds: the creation
   * time plus 1 hour) the token refuses every transfer out of the creator's address, so the creator's tokens reach
   * no sale by any path. `creatorLocked` is whether the chain's latest block is still before that time.
   */
  creatorLocked: z.boolean().meta({ description: "Whether the creator's tokens are still locked (state creator-locked) at the chain's latest block" }),
  creatorUnlockTime: z.number().int().meta({ description: "Unix seconds from which the creator's tokens move and sell: the creation time plus 1 hour" }),
  startingLiquidity: uintString,
  dexIndex: z.number().int(),
  /**
   * Where the token trades: `trading` on its bonding curve; `graduating` once the curve has sold out (it is
   * frozen) while the launchpad's `graduate(token)` has not run yet, so the DEX pool is not open; `graduated`
   * on its DEX pool.
   */
  status: z.enum(LAUNCHED_TOKEN_STATUSES).meta({
    description: 'trading: on its bonding curve; graduating: the curve sold out and the DEX pool opens at graduation; graduated: on its DEX pool',
  }),
  /** Whether the token trades on its DEX pool (status `graduated`); false while it is `graduating`. */
  graduated: z.boolean(),
  /**
   * Block and block time (Unix seconds) of the graduation as the indexer recorded it (TokenGraduated); null
   * while the token has not graduated, or has and the indexer has not reached that block yet.
   */
  graduationBlock: uintString.nullable(),
  graduationTimestamp: z.number().int().nullable(),
  /** The DEX pair the token graduates into (holds its liquidity once graduated). */
  pair: addressSchema,
  /** Virtual native reserve (300 native + raised) and virtual token reserve of the curve, base units. */
  nativeReserve: uintString,
  tokenReserve: uintString,
  /** Native coin raised on the curve so far, base units (0 once graduated). */
  realNativeReserve: uintString,
  /** Tokens still for sale on the curve, base units. */
  tokensForSale: uintString,
  /** Share of the curve's sale allotment sold, 0 to 1. */
  curveProgress: z.number(),
  /** Spot price on the curve: native coin per whole token, as a decimal string. */
  price: z.string(),
});
export type LaunchedToken = z.infer<typeof launchedTokenSchema>;

export const MAX_LAUNCHPAD_PAGE = 100;

export const listLaunchedTokensContract = defineContract({
  subject: SUBJECTS.launchpadTokens,
  description: 'Launched tokens of a chain, newest first, paged',
  request: z.object({ chainId: chainIdSchema, offset: z.number().int().min(0), limit: z.number().int().min(1).max(MAX_LAUNCHPAD_PAGE) }),
  response: z.object({
    chainId: chainIdSchema,
    launchpad: addressSchema,
    count: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    nextOffset: z.number().int(),
    hasMore: z.boolean(),
    tokens: z.array(launchedTokenSchema),
  }),
});

export const getLaunchedTokenContract = defineContract({
  subject: SUBJECTS.launchpadToken,
  description: 'One launched token',
  request: z.object({ chainId: chainIdSchema, token: addressSchema }),
  response: launchedTokenSchema,
});

export const launchpadEstimateContract = defineContract({
  subject: SUBJECTS.launchpadEstimate,
  description: 'What a buy (native in) or a sell (tokens in) pays on the curve now, the 1% fee included',
  request: z.object({ chainId: chainIdSchema, token: addressSchema, side: z.enum(['buy', 'sell']), amount: uintString }),
  response: z.object({ chainId: chainIdSchema, token: addressSchema, side: z.enum(['buy', 'sell']), amountIn: uintString, amountOut: uintString }),
});

export const launchpadTradeSchema = z.object({
  txHash: z.string(),
  blockNumber: uintString,
  timestamp: z.number().int(),
  trader: addressSchema,
  side: z.enum(['buy', 'sell']),
  /** Native coin paid (buy) or received (sell), base units. */
  nativeAmount: uintString,
  /** Tokens received (buy) or sold (sell), base units. */
  tokenAmount: uintString,
  /** Native wei per whole token after the trade, as the event reports it. */
  price: uintString,
  nativeReserves: uintString,
  tokenReserves: uintString,
});

/** A curve trade's amounts as the messages carry them: decimal strings of base units. */
export function curveTradeAmounts(t: { nativeAmount: bigint; tokenAmount: bigint; price: bigint; nativeReserves: bigint; tokenReserves: bigint }) {
  return {
    nativeAmount: t.nativeAmount.toString(),
    tokenAmount: t.tokenAmount.toString(),
    price: t.price.toString(),
    nativeReserves: t.nativeReserves.toString(),
    tokenReserves: t.tokenReserves.toString(),
  };
}

export const launchpadTradesContract = defineContract({
  subject: SUBJECTS.launchpadTrades,
  description: 'Recent curve trades of a launched token, newest first (from the indexer)',
  request: z.object({ chainId: chainIdSchema, token: addressSchema, limit: z.number().int().min(1).max(MAX_LAUNCHPAD_PAGE) }),
  response: z.object({ chainId: chainIdSchema, token: addressSchema, trades: z.array(launchpadTradeSchema) }),
});
