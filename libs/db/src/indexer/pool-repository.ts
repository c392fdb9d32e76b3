// Pools of every source kind and the rolling 24 h swap statistics of core pools.
import type { DbClient } from '../client';
import { rollingWindow, windowEnd, type RollingWindow } from './rolling-window';
import { bigFromDecimal as big, toPoolRow, type PoolRow } from './types';

export interface PoolRecord extends PoolRow {
  reserve0: bigint | null;
  reserve1: bigint | null;
  reservesBlock: bigint | null;
  totalSwaps: number;
}

export interface PoolSwapStats {
  pool: string;
  /** Swaps with block time in the window. */
  swaps24h: number;
  /** Volume per side in base units: each swap adds its token0 amount to volume0 and token1 amount to volume1. */
  volume0: bigint;
  volume1: bigint;
  /** Fees per side in base units (a swap's fee is in its input token). */
  fees0: bigint;
  fees1: bigint;
  totalSwaps: number;
  /** Block time of the pool's latest swap, if any. */
  lastSwapAt: bigint | null;
}

interface PoolDbRow extends PoolRow {
  reserve0: { toString(): string } | null;
  reserve1: { toString(): string } | null;
  reservesBlock: bigint | null;
  totalSwaps: bigint;
}


function toRecord(r: PoolDbRow): PoolRecord {
  return {
    ...toPoolRow(r),
    reserve0: r.reserve0 === null ? null : big(r.reserve0),
    reserve1: r.reserve1 === null ? null : big(r.reserve1),
    reservesBlock: r.reservesBlock,
    totalSwaps: Number(r.totalSwaps),
  };
}

export class PoolRepository {
  constructor(private readonly db: DbClient) {}

  /** Pools of a chain, optionally of one kind, by routerIndex then address. */
  async list(chainId: number, filter: { kind?: string } = {}): Promise<PoolRecord[]> {
    const rows = await this.db.pool.findMany({
      where: { chainId, ...(filter.kind ? { kind: filter.kind } : {}) },
      orderBy: [{ routerIndex: 'asc' }, { address: 'asc' }],
    });
    return rows.map(toRecord);
  }

  /** Pools holding both tokens (either order), any source. */
  async forPair(chainId: number, tokenA: string, tokenB: string): Promise<PoolRecord[]> {
    const [a, b] = [tokenA.toLowerCase(), tokenB.toLowerCase()];
    const all = await this.db.pool.findMany({
      where: { chainId, OR: [{ token0: { equals: tokenA, mode: 'insensitive' } }, { token1: { equals: tokenA, mode: 'insensitive' } }] },
      orderBy: [{ routerIndex: 'asc' }, { address: 'asc' }],
    });
    return all
      .filter((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()].sort().join() === [a, b].sort().join())
      .map(toRecord);
  }

  async get(chainId: number, address: string): Promise<PoolRecord | null> {
    const row = await this.db.pool.findFirst({ where: { chainId, address: { equals: address, mode: 'insensitive' } } });
    return row === null ? null : toRecord(row);
  }

  /**
   * Rolling 24 h swaps, volume and fees of pools (all pools of the chain with swaps when `pools` is unset),
   * exact to the second: whole hours from the hourly buckets, the edge hours from the swap rows.
   */
  async swapStats(chainId: number, options: { pools?: readonly string[]; asOf?: bigint } = {}): Promise<{ window: RollingWindow; stats: PoolSwapStats[] }> {
    let asOf = options.asOf;
    if (asOf === undefined) {
      const checkpoint = await this.db.chainCheckpoint.findUnique({ where: { chainId }, select: { lastProcessedTime: true } });
      asOf = windowEnd(checkpoint?.lastProcessedTime);
    }
    const window = rollingWindow(asOf);
    const filter = options.pools ? ' AND lower(p.address) = ANY($6::text[])' : '';
    const rows = await this.db.$queryRawUnsafe<
      { pool: string; n: bigint; v0: string; v1: string; f0: string; f1: string; total: bigint; last: bigint | null }[]
    >(
      `WITH w AS (
         SELECT pool, swaps::bigint AS n, volume0 AS v0, volume1 AS v1, fees0 AS f0, fees1 AS f1 FROM pool_swap_hour
          WHERE chain_id = $1 AND hour > $2::bigint AND hour < $3::bigint
         UNION ALL
         SELECT s.pool, 1, CASE WHEN s.token_in = p.token0 THEN s.amount_in ELSE s.amount_out END,
                CASE WHEN s.token_in = p.token0 THEN s.amount_out ELSE s.amount_in END,
                CASE WHEN s.token_in = p.token0 THEN s.fee ELSE 0 END, CASE WHEN s.token_in = p.token0 THEN 0 ELSE s.fee END
           FROM amm_swap s JOIN pool p ON p.chain_id = s.chain_id AND p.address = s.pool
          WHERE s.chain_id = $1 AND s.timestamp > $4::bigint AND s.timestamp <= $5::bigint
            AND (s.timestamp < $2::bigint + 3600 OR s.timestamp >= $3::bigint))
       SELECT p.address AS pool, COALESCE(sum(w.n), 0)::bigint AS n, COALESCE(sum(w.v0), 0)::text AS v0,
              COALESCE(sum(w.v1), 0)::text AS v1, COALESCE(sum(w.f0), 0)::text AS f0, COALESCE(sum(w.f1), 0)::text AS f1,
              p.total_swaps AS total,
              (SELECT max(timestamp) FROM amm_swap x WHERE x.chain_id = p.chain_id AND x.pool = p.address) AS last
         FROM pool p LEFT JOIN w ON w.pool = p.address
        WHERE p.chain_id = $1${filter} ${options.pools ? '' : "AND (p.kind = 'core' OR p.total_swaps > 0)"}
        GROUP BY p.chain_id, p.address, p.total_swaps ORDER BY p.address`,
      chainId,
      window.lowHour.toString(),
      window.highHour.toString(),
      window.start.toString(),
      window.end.toString(),
      ...(options.pools ? [options.pools.map((p) => p.toLowerCase())] : []),
    );
    return {
      window,
      stats: rows.map((r) => ({
        pool: r.pool,
        swaps24h: Number(r.n),
        volume0: BigInt(r.v0),
        volume1: BigInt(r.v1),
        fees0: BigInt(r.f0),
        fees1: BigInt(r.f1),
        totalSwaps: Number(r.total),
        lastSwapAt: r.last === null ? null : BigInt(r.last),
      })),
    };
  }
}
