// The liquidity a chain's indexer has recorded, read at one consistent point: the checkpoint, every pool with
// its last reserves, every launch curve and every token, in one repeatable-read transaction. A service that
// keeps liquidity in memory starts from this and follows the chain facts published after the checkpoint.
import type { DbClient } from '../client';

export interface StoredPool {
  address: string;
  kind: string;
  routerIndex: number;
  token0: string;
  token1: string;
  createdBlock: bigint;
  /** Last reserves from a Sync (V2 and stable pools); null when none was seen. */
  reserve0: bigint | null;
  reserve1: bigint | null;
  reservesBlock: bigint | null;
  /** Launch curves (kind `launchpad`, address = the token): reserves after the last trade and graduation. */
  curve: { nativeReserves: bigint; tokenReserves: bigint; graduated: boolean } | null;
}

export interface StoredToken {
  address: string;
  symbol: string;
  name: string;
  decimals: number;
}

export interface StoredChainLiquidity {
  /** The indexer's checkpoint: the state is as of the end of this block. */
  block: bigint;
  hash: string;
  pools: StoredPool[];
  tokens: StoredToken[];
}

interface PoolQueryRow {
  address: string;
  kind: string;
  router_index: number;
  token0: string;
  token1: string;
  created_block: bigint;
  reserve0: string | null;
  reserve1: string | null;
  reserves_block: bigint | null;
  native_reserves: string | null;
  token_reserves: string | null;
  graduated: boolean | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

export class LiquidityRepository {
  constructor(private readonly db: DbClient) {}

  /** The chain's recorded liquidity at the indexer's checkpoint; null before the indexer's first batch. */
  async load(chainId: number): Promise<StoredChainLiquidity | null> {
    return this.db.$transaction(
      async (tx) => {
        const checkpoint = await tx.chainCheckpoint.findUnique({ where: { chainId } });
        if (!checkpoint) return null;
        const pools = await tx.$queryRawUnsafe<PoolQueryRow[]>(
          `SELECT p.address, p.kind, p.router_index, p.token0, p.token1, p.created_block,
                  p.reserve0::text AS reserve0, p.reserve1::text AS reserve1, p.reserves_block,
                  l.native_reserves::text AS native_reserves, l.token_reserves::text AS token_reserves, l.graduated
             FROM pool p LEFT JOIN launchpad_token l ON p.kind = 'launchpad' AND l.chain_id = p.chain_id AND l.address = p.address
            WHERE p.chain_id = $1`,
          chainId,
        );
        const tokens = await tx.token.findMany({ where: { chainId }, select: { address: true, symbol: true, name: true, decimals: true } });
        return {
          block: checkpoint.lastProcessedBlock,
          hash: checkpoint.lastProcessedHash,
          pools: pools.map((r) => ({
            address: r.address,
            kind: r.kind,
            routerIndex: r.router_index,
            token0: r.token0,
            token1: r.token1,
            createdBlock: BigInt(r.created_block),
            reserve0: big(r.reserve0),
            reserve1: big(r.reserve1),
            reservesBlock: r.reserves_block === null ? null : BigInt(r.reserves_block),
            curve: r.native_reserves === null || r.token_reserves === null ? null : { nativeReserves: BigInt(r.native_reserves), tokenReserves: BigInt(r.token_reserves), graduated: r.graduated === true },
          })),
          tokens,
        };
      },
      { isolationLevel: 'RepeatableRead', maxWait: 10_000, timeout: 60_000 },
    );
  }
}
