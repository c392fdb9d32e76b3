// Token list for the aggregator: tokens of a chain sorted by transfers in the rolling 24 hours.
import type { DbClient } from '../client';
import { rollingWindow, windowEnd, type RollingWindow } from './rolling-window';

export interface TokenRecord {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  isERC20Verified: boolean;
  transfers24h: number;
  totalTransfers: number;
}

export interface TokenListQuery {
  chainId: number;
  /** Matches an address exactly (any case) or a name or symbol by substring (any case). */
  search?: string;
  limit?: number;
  offset?: number;
  /** End of the 24 h window (Unix seconds); default: the chain's now (see `windowEnd`). */
  asOf?: bigint;
}

export interface TokenListPage {
  tokens: TokenRecord[];
  /** All tokens matching the search. */
  count: number;
  /** The window the counts are for. */
  window: RollingWindow;
}

interface TokenListRow {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  is_erc20_verified: boolean;
  transfers24h: bigint;
  total_transfers: bigint;
}

function searchClause(search: string | undefined, param: number): { sql: string; params: unknown[] } {
  const term = search?.trim();
  if (!term) return { sql: '', params: [] };
  if (/^0x[0-9a-fA-F]{40}$/.test(term)) return { sql: ` AND lower(t.address) = lower($${param})`, params: [term] };
  const like = '%' + term.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  return { sql: ` AND (t.name ILIKE $${param} OR t.symbol ILIKE $${param} OR t.address ILIKE $${param})`, params: [like] };
}

export class TokenRepository {
  constructor(private readonly db: DbClient) {}

  /** The end of the rolling window for a chain right now: the later of wall clock and last indexed block time. */
  async windowEnd(chainId: number, now: Date = new Date()): Promise<bigint> {
    const checkpoint = await this.db.chainCheckpoint.findUnique({ where: { chainId }, select: { lastProcessedTime: true } });
    return windowEnd(checkpoint?.lastProcessedTime, now);
  }

  /**
   * Tokens of a chain, highest transfers24h first (then all-time transfers, then address). transfers24h
   * counts transfers with block time in (asOf - 24 h, asOf]: whole hours from the hourly buckets, the two
   * edge hours exactly from the transfer rows.
   */
  async list(query: TokenListQuery): Promise<TokenListPage> {
    const asOf = query.asOf ?? (await this.windowEnd(query.chainId));
    const window = rollingWindow(asOf);
    const search = searchClause(query.search, 6);
    const limit = query.limit === undefined ? 'ALL' : String(Math.max(0, Math.floor(query.limit)));
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    const rows = await this.db.$queryRawUnsafe<TokenListRow[]>(
      `WITH w AS (
         SELECT token, sum(transfers)::bigint AS n FROM token_transfer_hour
          WHERE chain_id = $1 AND hour > $2::bigint AND hour < $3::bigint GROUP BY token
         UNION ALL
         SELECT token, count(*)::bigint FROM token_transfer
          WHERE chain_id = $1 AND timestamp > $4::bigint AND timestamp <= $5::bigint
            AND (timestamp < $2::bigint + 3600 OR timestamp >= $3::bigint) GROUP BY token)
       SELECT t.address, t.name, t.symbol, t.decimals, t.is_erc20_verified, t.total_transfers,
              COALESCE((SELECT sum(n) FROM w WHERE w.token = t.address), 0)::bigint AS transfers24h
         FROM token t WHERE t.chain_id = $1${search.sql}
        ORDER BY transfers24h DESC, t.total_transfers DESC, t.address ASC
        LIMIT ${limit} OFFSET ${offset}`,
      query.chainId,
      window.lowHour.toString(),
      window.highHour.toString(),
      window.start.toString(),
      window.end.toString(),
      ...search.params,
    );
    const countSearch = searchClause(query.search, 2);
    const [{ count }] = await this.db.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*)::bigint AS count FROM token t WHERE t.chain_id = $1${countSearch.sql}`,
      query.chainId,
      ...countSearch.params,
    );
    return {
      tokens: rows.map((r) => ({
        address: r.address,
        name: r.name,
        symbol: r.symbol,
        decimals: r.decimals,
        isERC20Verified: r.is_erc20_verified,
        transfers24h: Number(r.transfers24h),
        totalTransfers: Number(r.total_transfers),
      })),
      count: Number(count),
      window,
    };
  }

  /** One token with its counters, or null when the chain has no such token. */
  async get(chainId: number, address: string, asOf?: bigint): Promise<TokenRecord | null> {
    const page = await this.list({ chainId, search: address, asOf });
    return page.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase()) ?? null;
  }
}
