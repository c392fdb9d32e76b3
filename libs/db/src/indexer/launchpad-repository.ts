// Launchpad tokens and trades, and referral accruals and claims, as the indexer recorded them.
import type { DbClient } from '../client';
import type { LaunchpadToken } from '../generated/prisma/client';
import { bigFromDecimal as big, type LaunchpadGraduationRow, type LaunchpadMetadataFields, type LaunchpadTokenRow, type LaunchpadTradeRow, type LogPosition } from './types';

/** A launched token as recorded: its creation (less the log position), its trades count and its graduation. */
export interface LaunchpadTokenRecord extends Omit<LaunchpadTokenRow, keyof LogPosition> {
  trades: number;
  createdBlock: bigint;
  /** Null until the indexer recorded the token's graduation. */
  graduation: LaunchpadGraduationRecord | null;
}

/** Where and how a token graduated (TokenGraduated), as the indexer recorded it. */
export type LaunchpadGraduationRecord = LaunchpadGraduationRow;

/** A curve trade as the indexer recorded it. */
export type LaunchpadTradeRecord = LaunchpadTradeRow;


export class LaunchpadRepository {
  constructor(private readonly db: DbClient) {}

  /** Launched tokens of a chain in creation order. */
  async listTokens(chainId: number, page: { offset?: number; limit?: number } = {}): Promise<{ tokens: LaunchpadTokenRecord[]; count: number }> {
    const [rows, count] = await Promise.all([
      this.db.launchpadToken.findMany({
        where: { chainId },
        orderBy: [{ createdBlock: 'asc' }, { address: 'asc' }],
        skip: page.offset ?? 0,
        ...(page.limit === undefined ? {} : { take: page.limit }),
      }),
      this.db.launchpadToken.count({ where: { chainId } }),
    ]);
    return { tokens: rows.map(toToken), count };
  }

  async getToken(chainId: number, address: string): Promise<LaunchpadTokenRecord | null> {
    const row = await this.db.launchpadToken.findFirst({ where: { chainId, address: { equals: address, mode: 'insensitive' } } });
    return row === null ? null : toToken(row);
  }

  /**
   * Graduations of the given tokens (any letter case) that the indexer recorded, by lower-case address; a
   * token that has not graduated (or is unknown) has no entry.
   */
  async graduations(chainId: number, tokens: readonly string[]): Promise<Map<string, LaunchpadGraduationRecord>> {
    if (tokens.length === 0) return new Map();
    const rows = await this.db.launchpadToken.findMany({
      where: { chainId, graduated: true, address: { in: [...tokens], mode: 'insensitive' } },
      select: GRADUATION_FIELDS,
    });
    const found = new Map<string, LaunchpadGraduationRecord>();
    for (const row of rows) {
      const graduation = toGraduation(row);
      if (graduation) found.set(row.address.toLowerCase(), graduation);
    }
    return found;
  }

  /** Trades of a token, newest first. */
  async trades(chainId: number, token: string, limit = 100): Promise<LaunchpadTradeRecord[]> {
    const rows = await this.db.launchpadTrade.findMany({
      where: { chainId, token: { equals: token, mode: 'insensitive' } },
      orderBy: [{ blockNumber: 'desc' }, { logIndex: 'desc' }],
      take: limit,
    });
    return rows.map((r) => ({
      blockNumber: r.blockNumber,
      logIndex: r.logIndex,
      txHash: r.txHash,
      timestamp: r.timestamp,
      token: r.token,
      trader: r.trader,
      side: r.side as 'buy' | 'sell',
      nativeAmount: big(r.nativeAmount),
      tokenAmount: big(r.tokenAmount),
      price: big(r.price),
      nativeReserves: big(r.nativeReserves),
      tokenReserves: big(r.tokenReserves),
      totalSupply: big(r.totalSupply),
    }));
  }
}

const GRADUATION_FIELDS = {
  address: true,
  graduated: true,
  graduatedBlock: true,
  graduatedTime: true,
  graduatedLogIndex: true,
  graduatedTxHash: true,
  pair: true,
  graduationNativeAmount: true,
  graduationTokenAmount: true,
  graduationLiquidity: true,
} as const;

type Amount = { toString(): string } | null;

function toGraduation(r: {
  address: string;
  graduated: boolean;
  graduatedBlock: bigint | null;
  graduatedTime: bigint | null;
  graduatedLogIndex: number | null;
  graduatedTxHash: string | null;
  pair: string | null;
  graduationNativeAmount: Amount;
  graduationTokenAmount: Amount;
  graduationLiquidity: Amount;
}): LaunchpadGraduationRecord | null {
  if (
    !r.graduated ||
    r.graduatedBlock === null ||
    r.graduatedTime === null ||
    r.graduatedLogIndex === null ||
    r.graduatedTxHash === null ||
    r.pair === null ||
    r.graduationNativeAmount === null ||
    r.graduationTokenAmount === null ||
    r.graduationLiquidity === null
  ) {
    return null;
  }
  return {
    token: r.address,
    blockNumber: r.graduatedBlock,
    logIndex: r.graduatedLogIndex,
    txHash: r.graduatedTxHash,
    timestamp: r.graduatedTime,
    pair: r.pair,
    nativeAmount: big(r.graduationNativeAmount),
    tokenAmount: big(r.graduationTokenAmount),
    liquidity: big(r.graduationLiquidity),
  };
}

function metadataOf(r: LaunchpadMetadataFields): LaunchpadMetadataFields {
  const { imageUri, description, website, twitter, telegram, discord } = r;
  return { imageUri, description, website, twitter, telegram, discord };
}

function toToken(r: LaunchpadToken & { trades: number }): LaunchpadTokenRecord {
  return {
    address: r.address,
    launchpad: r.launchpad,
    creator: r.creator,
    name: r.name,
    symbol: r.symbol,
    ...metadataOf(r),
    creationTimestamp: r.creationTimestamp,
    startingLiquidity: big(r.startingLiquidity),
    initialPurchaseAmount: big(r.initialPurchaseAmount),
    nativeReserves: big(r.nativeReserves),
    tokenReserves: big(r.tokenReserves),
    totalSupply: big(r.totalSupply),
    price: big(r.price),
    trades: r.trades,
    createdBlock: r.createdBlock,
    graduation: toGraduation(r),
  };
}

export interface ReferralBalance {
  pool: string;
  token: string;
  accrued: bigint;
}

export interface ReferralSummary {
  refCode: string;
  /** Referral fees accrued per pool and token (SwapWithRef). */
  accrued: ReferralBalance[];
  /** Payouts, newest first. */
  claims: { pool: string; wallet: string; amount0: bigint; amount1: bigint; kind: string; blockNumber: bigint; txHash: string; timestamp: bigint }[];
}

export class ReferralRepository {
  constructor(private readonly db: DbClient) {}

  async summary(chainId: number, refCode: string): Promise<ReferralSummary> {
    const code = refCode.toLowerCase();
    const [accrued, claims] = await Promise.all([
      this.db.$queryRawUnsafe<{ pool: string; token: string; amount: string }[]>(
        `SELECT pool, token, sum(amount)::text AS amount FROM referral_accrual
          WHERE chain_id = $1 AND ref_code = $2 GROUP BY pool, token ORDER BY pool, token`,
        chainId,
        code,
      ),
      this.db.referralClaim.findMany({ where: { chainId, refCode: code }, orderBy: [{ blockNumber: 'desc' }, { logIndex: 'desc' }] }),
    ]);
    return {
      refCode: code,
      accrued: accrued.map((a) => ({ pool: a.pool, token: a.token, accrued: BigInt(a.amount) })),
      claims: claims.map((c) => ({
        pool: c.pool,
        wallet: c.wallet,
        amount0: big(c.amount0),
        amount1: big(c.amount1),
        kind: c.kind,
        blockNumber: c.blockNumber,
        txHash: c.txHash,
        timestamp: c.timestamp,
      })),
    };
  }
}
