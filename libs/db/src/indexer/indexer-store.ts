// The indexer's writes. A batch of blocks and its checkpoint commit in one transaction (exactly once: the
// checkpoint guard refuses a batch that does not follow the stored checkpoint); a rewind undoes everything
// above a common ancestor in one transaction, reversing the counters from the very fact rows it deletes.
//
// Counters (token totals, hourly buckets, pool totals, launchpad state) are always derived in SQL from the
// fact rows of the block range being added or removed, so adding and undoing are exact inverses. A
// graduation happens once per token and is kept on the token's row with its block, so undoing it is
// clearing the row's graduation when that block is above the ancestor.
import type { DbClient } from '../client';
import type { Prisma } from '../generated/prisma/client';
import {
  toPoolRow,
  type BlockRow,
  type ActivityBackfillBatch,
  type ActivityBackfillState,
  type AmmSwapRow,
  type ChainBatch,
  type ChainRewind,
  type LaunchpadGraduationRow,
  type LaunchpadMetadataFields,
  type OutboxEvent,
  type PoolRow,
  type ReserveUpdate,
  type RewindResult,
  type StoredOutboxEvent,
  type TokenRow,
  type TransferRow,
} from './types';

type Tx = Prisma.TransactionClient;

/** The stored checkpoint moved under the batch: another writer, or a rewind, got there first. */
export class CheckpointConflictError extends Error {
  override readonly name = 'CheckpointConflictError';
  constructor(
    readonly chainId: number,
    readonly expected: bigint | null,
    readonly found: bigint | null,
  ) {
    super(`chain ${chainId}: checkpoint is ${found ?? 'absent'}, the batch expected ${expected ?? 'absent'}`);
  }
}

const TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 } as const;

const str = (v: bigint | number) => v.toString();
const nullable = (v: bigint | null) => (v === null ? null : v.toString());

/** Runs `INSERT INTO table (columns) SELECT $1, * FROM unnest(arrays...)` for rows of one chain. */
async function insertRows<R>(
  tx: Tx,
  table: string,
  chainId: number,
  rows: readonly R[],
  columns: readonly (readonly [column: string, sqlType: string, value: (row: R) => unknown])[],
  conflict = '',
): Promise<number> {
  if (rows.length === 0) return 0;
  const names = ['chain_id', ...columns.map(([c]) => `"${c}"`)].join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ');
  const values = columns.map(([, , value]) => rows.map(value));
  return tx.$executeRawUnsafe(`INSERT INTO "${table}" (${names}) SELECT $1, * FROM unnest(${arrays}) ${conflict}`, chainId, ...values);
}

const LOG_COLUMNS = [
  ['block_number', 'bigint', (r: { blockNumber: bigint }) => str(r.blockNumber)],
  ['log_index', 'int', (r: { logIndex: number }) => r.logIndex],
  ['tx_hash', 'text', (r: { txHash: string }) => r.txHash],
  ['timestamp', 'bigint', (r: { timestamp: bigint }) => str(r.timestamp)],
] as const;

/** A launch's updatable metadata: its creation and each later update write the same columns. */
const METADATA_COLUMNS = [
  ['image_uri', 'text', (r: LaunchpadMetadataFields) => r.imageUri],
  ['description', 'text', (r: LaunchpadMetadataFields) => r.description],
  ['website', 'text', (r: LaunchpadMetadataFields) => r.website],
  ['twitter', 'text', (r: LaunchpadMetadataFields) => r.twitter],
  ['telegram', 'text', (r: LaunchpadMetadataFields) => r.telegram],
  ['discord', 'text', (r: LaunchpadMetadataFields) => r.discord],
] as const;

const BUCKETS_FROM_TRANSFERS = (range: string) => `
  SELECT token, (timestamp / 3600) * 3600 AS hour, count(*)::int AS n
    FROM token_transfer WHERE chain_id = $1 AND ${range} GROUP BY token, hour`;

const BUCKETS_FROM_SWAPS = (range: string) => `
  SELECT s.pool, (s.timestamp / 3600) * 3600 AS hour, count(*)::int AS n,
         sum(CASE WHEN s.token_in = p.token0 THEN s.amount_in ELSE s.amount_out END) AS v0,
         sum(CASE WHEN s.token_in = p.token0 THEN s.amount_out ELSE s.amount_in END) AS v1,
         sum(CASE WHEN s.token_in = p.token0 THEN s.fee ELSE 0 END) AS f0,
         sum(CASE WHEN s.token_in = p.token0 THEN 0 ELSE s.fee END) AS f1
    FROM amm_swap s JOIN pool p ON p.chain_id = s.chain_id AND p.address = s.pool
   WHERE s.chain_id = $1 AND ${range} GROUP BY s.pool, hour`;

/**
 * Transfers and core swaps of the blocks in `range` (a SQL condition on block_number), then the counters derived
 * from exactly those rows: hourly buckets and all-time totals. Returns the number of swaps written.
 */
async function insertActivity(tx: Tx, chainId: number, range: string, transfers: readonly TransferRow[], swaps: readonly AmmSwapRow[]): Promise<number> {
  const transferred = await insertRows(tx, 'token_transfer', chainId, transfers, [
    ...LOG_COLUMNS,
    ['token', 'text', (r) => r.token],
    ['from', 'text', (r) => r.from],
    ['to', 'text', (r) => r.to],
    ['value', 'numeric', (r) => str(r.value)],
  ]);
  if (transferred > 0) {
    await tx.$executeRawUnsafe(
      `INSERT INTO token_transfer_hour (chain_id, token, hour, transfers)
       SELECT $1, token, hour, n FROM (${BUCKETS_FROM_TRANSFERS(range)}) d
       ON CONFLICT (chain_id, token, hour) DO UPDATE SET transfers = token_transfer_hour.transfers + EXCLUDED.transfers`,
      chainId,
    );
    await tx.$executeRawUnsafe(
      `UPDATE token t SET total_transfers = t.total_transfers + d.n
         FROM (SELECT token, count(*) AS n FROM token_transfer WHERE chain_id = $1 AND ${range} GROUP BY token) d
        WHERE t.chain_id = $1 AND t.address = d.token`,
      chainId,
    );
  }

  const swapped = await insertRows(tx, 'amm_swap', chainId, swaps, [
    ...LOG_COLUMNS,
    ['pool', 'text', (r) => r.pool],
    ['user', 'text', (r) => r.user],
    ['sender', 'text', (r) => r.sender],
    ['token_in', 'text', (r) => r.tokenIn],
    ['token_out', 'text', (r) => r.tokenOut],
    ['amount_in', 'numeric', (r) => str(r.amountIn)],
    ['amount_out', 'numeric', (r) => str(r.amountOut)],
    ['fee', 'numeric', (r) => str(r.fee)],
    ['ref_code', 'text', (r) => r.refCode],
    ['ref_fee', 'numeric', (r) => nullable(r.refFee)],
  ]);
  if (swapped > 0) {
    await tx.$executeRawUnsafe(
      `INSERT INTO pool_swap_hour (chain_id, pool, hour, swaps, volume0, volume1, fees0, fees1)
       SELECT $1, pool, hour, n, v0, v1, f0, f1 FROM (${BUCKETS_FROM_SWAPS(range.replace(/block_number/g, 's.block_number'))}) d
       ON CONFLICT (chain_id, pool, hour) DO UPDATE SET swaps = pool_swap_hour.swaps + EXCLUDED.swaps,
         volume0 = pool_swap_hour.volume0 + EXCLUDED.volume0, volume1 = pool_swap_hour.volume1 + EXCLUDED.volume1,
         fees0 = pool_swap_hour.fees0 + EXCLUDED.fees0, fees1 = pool_swap_hour.fees1 + EXCLUDED.fees1`,
      chainId,
    );
    await tx.$executeRawUnsafe(
      `UPDATE pool p SET total_swaps = p.total_swaps + d.n
         FROM (SELECT pool, count(*) AS n FROM amm_swap WHERE chain_id = $1 AND ${range} GROUP BY pool) d
        WHERE p.chain_id = $1 AND p.address = d.pool`,
      chainId,
    );
  }
  return swapped;
}

/** Recomputes the current curve state and metadata of launchpad tokens from their remaining facts. */
async function refreshLaunchpadTokens(tx: Tx, chainId: number, tokens: readonly string[]): Promise<void> {
  if (tokens.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE launchpad_token t SET
        native_reserves = COALESCE(l.native_reserves, t.initial_native_reserves),
        token_reserves = COALESCE(l.token_reserves, t.initial_token_reserves),
        price = COALESCE(l.price, t.initial_price),
        total_supply = COALESCE(l.total_supply, t.total_supply),
        trades = (SELECT count(*) FROM launchpad_trade c WHERE c.chain_id = t.chain_id AND c.token = t.address),
        image_uri = m.image_uri, description = m.description, website = m.website,
        twitter = m.twitter, telegram = m.telegram, discord = m.discord
       FROM launchpad_token t2
       LEFT JOIN LATERAL (SELECT * FROM launchpad_trade x WHERE x.chain_id = t2.chain_id AND x.token = t2.address
                           ORDER BY x.block_number DESC, x.log_index DESC LIMIT 1) l ON true
       JOIN LATERAL (SELECT * FROM launchpad_metadata y WHERE y.chain_id = t2.chain_id AND y.token = t2.address
                      ORDER BY y.block_number DESC, y.log_index DESC LIMIT 1) m ON true
      WHERE t.chain_id = $1 AND t.address = ANY($2::text[]) AND t2.chain_id = t.chain_id AND t2.address = t.address`,
    chainId,
    tokens,
  );
}

export class IndexerStore {
  constructor(private readonly db: DbClient) {}

  /** Writes a batch and moves the checkpoint, all or nothing. */
  async applyBatch(batch: ChainBatch): Promise<void> {
    const { chainId } = batch;
    await this.db.$transaction(async (tx) => {
      // Exactly once: lock the checkpoint row and make sure the batch follows it.
      const current = await tx.$queryRawUnsafe<{ block: bigint }[]>(
        'SELECT last_processed_block AS block FROM chain_checkpoint WHERE chain_id = $1 FOR UPDATE',
        chainId,
      );
      const found = current.length ? BigInt(current[0].block) : null;
      if (found !== batch.after) throw new CheckpointConflictError(chainId, batch.after, found);
      const range = `block_number > ${batch.after ?? -1n} AND block_number <= ${batch.checkpoint.block}`;

      await insertRows(tx, 'block', chainId, batch.blocks, [
        ['number', 'bigint', (b) => str(b.number)],
        ['hash', 'text', (b) => b.hash],
        ['parent_hash', 'text', (b) => b.parentHash],
        ['timestamp', 'bigint', (b) => str(b.timestamp)],
      ], 'ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, timestamp = EXCLUDED.timestamp');
      await insertTokens(tx, chainId, batch.tokens);
      await insertPools(tx, chainId, batch.pools);

      const swaps = await insertActivity(tx, chainId, range, batch.transfers, batch.swaps);
      if (swaps > 0) {
        const accruals = batch.swaps.filter((s) => s.refCode !== null && (s.refFee ?? 0n) > 0n);
        await insertRows(tx, 'referral_accrual', chainId, accruals, [
          ...LOG_COLUMNS,
          ['pool', 'text', (r) => r.pool],
          ['ref_code', 'text', (r) => r.refCode],
          ['token', 'text', (r) => r.tokenIn],
          ['amount', 'numeric', (r) => nullable(r.refFee)],
        ]);
      }
      await insertRows(tx, 'referral_claim', chainId, batch.referralClaims, [
        ...LOG_COLUMNS,
        ['pool', 'text', (r) => r.pool],
        ['ref_code', 'text', (r) => r.refCode],
        ['wallet', 'text', (r) => r.wallet],
        ['amount0', 'numeric', (r) => str(r.amount0)],
        ['amount1', 'numeric', (r) => str(r.amount1)],
        ['kind', 'text', (r) => r.kind],
      ]);

      // Launchpad: creations (their metadata is the first metadata row), trades, metadata updates.
      await insertRows(tx, 'launchpad_token', chainId, batch.launchpadTokens, [
        ['address', 'text', (r) => r.address],
        ['launchpad', 'text', (r) => r.launchpad],
        ['creator', 'text', (r) => r.creator],
        ['name', 'text', (r) => r.name],
        ['symbol', 'text', (r) => r.symbol],
        ...METADATA_COLUMNS,
        ['creation_timestamp', 'bigint', (r) => str(r.creationTimestamp)],
        ['starting_liquidity', 'numeric', (r) => str(r.startingLiquidity)],
        ['initial_purchase_amount', 'numeric', (r) => str(r.initialPurchaseAmount)],
        ['initial_native_reserves', 'numeric', (r) => str(r.nativeReserves)],
        ['initial_token_reserves', 'numeric', (r) => str(r.tokenReserves)],
        ['initial_price', 'numeric', (r) => str(r.price)],
        ['native_reserves', 'numeric', (r) => str(r.nativeReserves)],
        ['token_reserves', 'numeric', (r) => str(r.tokenReserves)],
        ['total_supply', 'numeric', (r) => str(r.totalSupply)],
        ['price', 'numeric', (r) => str(r.price)],
        ['created_block', 'bigint', (r) => str(r.blockNumber)],
        ['created_tx_hash', 'text', (r) => r.txHash],
      ]);
      const metadata = [...batch.launchpadTokens.map((t) => ({ ...t, token: t.address })), ...batch.launchpadMetadata];
      await insertRows(tx, 'launchpad_metadata', chainId, metadata, [
        ...LOG_COLUMNS,
        ['token', 'text', (r) => r.token],
        ...METADATA_COLUMNS,
      ]);
      await insertRows(tx, 'launchpad_trade', chainId, batch.launchpadTrades, [
        ...LOG_COLUMNS,
        ['token', 'text', (r) => r.token],
        ['trader', 'text', (r) => r.trader],
        ['side', 'text', (r) => r.side],
        ['native_amount', 'numeric', (r) => str(r.nativeAmount)],
        ['token_amount', 'numeric', (r) => str(r.tokenAmount)],
        ['price', 'numeric', (r) => str(r.price)],
        ['native_reserves', 'numeric', (r) => str(r.nativeReserves)],
        ['token_reserves', 'numeric', (r) => str(r.tokenReserves)],
        ['total_supply', 'numeric', (r) => str(r.totalSupply)],
      ]);
      const touched = new Set([...batch.launchpadTrades.map((t) => t.token), ...batch.launchpadMetadata.map((m) => m.token)]);
      await refreshLaunchpadTokens(tx, chainId, [...touched]);
      await recordGraduations(tx, chainId, batch.launchpadGraduations);

      await updateReserves(tx, chainId, batch.reserves);
      await insertEvents(tx, chainId, batch.events);
      await writeCheckpoint(tx, chainId, batch.checkpoint.block, batch.checkpoint.hash, batch.checkpoint.timestamp, batch.checkpoint.status);
      if (batch.activityBackfill) {
        const { from, to } = batch.activityBackfill;
        await tx.$executeRawUnsafe(
          `INSERT INTO activity_backfill (chain_id, from_block, to_block, next_block, updated_at) VALUES ($1, $2::bigint, $3::bigint, $2::bigint, now())
           ON CONFLICT (chain_id) DO UPDATE SET from_block = EXCLUDED.from_block, to_block = EXCLUDED.to_block, next_block = EXCLUDED.next_block, updated_at = now()`,
          chainId,
          str(from),
          str(to),
        );
      }
      if (batch.pruneBlocksBelow !== undefined) {
        await tx.$executeRawUnsafe('DELETE FROM block WHERE chain_id = $1 AND number < $2::bigint', chainId, str(batch.pruneBlocksBelow));
      }
    }, TX_OPTIONS);
  }

  /** The activity window still to read after a start at the head, or null (none, or read to its end). */
  async activityBackfill(chainId: number): Promise<ActivityBackfillState | null> {
    const rows = await this.db.$queryRawUnsafe<{ from: bigint; to: bigint; next: bigint }[]>(
      'SELECT from_block AS "from", to_block AS "to", next_block AS "next" FROM activity_backfill WHERE chain_id = $1 AND next_block <= to_block',
      chainId,
    );
    return rows.length ? { from: BigInt(rows[0].from), to: BigInt(rows[0].to), next: BigInt(rows[0].next) } : null;
  }

  /**
   * Writes one range of the activity window (its transfers and core swaps, with the hourly buckets and totals they
   * feed) and moves the window's cursor past it, all or nothing. Fails with `CheckpointConflictError` when the cursor
   * is not at the range's first block (another writer, or a rewind, moved it).
   */
  async applyActivityBackfill(batch: ActivityBackfillBatch): Promise<void> {
    const { chainId, from, to } = batch;
    await this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ next: bigint; to: bigint }[]>('SELECT next_block AS next, to_block AS "to" FROM activity_backfill WHERE chain_id = $1 FOR UPDATE', chainId);
      const found = rows.length ? BigInt(rows[0].next) : null;
      if (found !== from || to > BigInt(rows[0].to)) throw new CheckpointConflictError(chainId, from, found);
      await insertActivity(tx, chainId, `block_number >= ${from} AND block_number <= ${to}`, batch.transfers, batch.swaps);
      await tx.$executeRawUnsafe('UPDATE activity_backfill SET next_block = $2::bigint, updated_at = now() WHERE chain_id = $1', chainId, str(to + 1n));
    }, TX_OPTIONS);
  }

  /**
   * Undoes everything above the common ancestor: fact rows are deleted and the counters they fed are
   * reduced by exactly what they had added; tokens and pools first seen above it are forgotten; the
   * checkpoint moves back to the ancestor.
   */
  async rewind(rewind: ChainRewind): Promise<RewindResult> {
    const { chainId, ancestor } = rewind;
    const above = `block_number > ${ancestor.number}`;
    return this.db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT 1 FROM chain_checkpoint WHERE chain_id = $1 FOR UPDATE', chainId);
      // Transfers of tokens that are forgotten go too, wherever they are.
      const dropTokens = `token IN (SELECT address FROM token WHERE chain_id = $1 AND first_seen_block > ${ancestor.number})`;
      const transferRange = `(${above} OR ${dropTokens})`;
      await tx.$executeRawUnsafe(
        `UPDATE token_transfer_hour h SET transfers = h.transfers - d.n FROM (${BUCKETS_FROM_TRANSFERS(transferRange)}) d
          WHERE h.chain_id = $1 AND h.token = d.token AND h.hour = d.hour`,
        chainId,
      );
      await tx.$executeRawUnsafe(
        `UPDATE token t SET total_transfers = t.total_transfers - d.n
           FROM (SELECT token, count(*) AS n FROM token_transfer WHERE chain_id = $1 AND ${transferRange} GROUP BY token) d
          WHERE t.chain_id = $1 AND t.address = d.token`,
        chainId,
      );
      const transfers = await tx.$executeRawUnsafe(`DELETE FROM token_transfer WHERE chain_id = $1 AND ${transferRange}`, chainId);
      await tx.$executeRawUnsafe('DELETE FROM token_transfer_hour WHERE chain_id = $1 AND transfers <= 0', chainId);

      await tx.$executeRawUnsafe(
        `UPDATE pool_swap_hour h SET swaps = h.swaps - d.n, volume0 = h.volume0 - d.v0, volume1 = h.volume1 - d.v1,
                fees0 = h.fees0 - d.f0, fees1 = h.fees1 - d.f1
           FROM (${BUCKETS_FROM_SWAPS(`s.${above}`)}) d
          WHERE h.chain_id = $1 AND h.pool = d.pool AND h.hour = d.hour`,
        chainId,
      );
      await tx.$executeRawUnsafe(
        `UPDATE pool p SET total_swaps = p.total_swaps - d.n
           FROM (SELECT pool, count(*) AS n FROM amm_swap WHERE chain_id = $1 AND ${above} GROUP BY pool) d
          WHERE p.chain_id = $1 AND p.address = d.pool`,
        chainId,
      );
      const swaps = await tx.$executeRawUnsafe(`DELETE FROM amm_swap WHERE chain_id = $1 AND ${above}`, chainId);
      await tx.$executeRawUnsafe('DELETE FROM pool_swap_hour WHERE chain_id = $1 AND swaps <= 0', chainId);
      await tx.$executeRawUnsafe(`DELETE FROM referral_accrual WHERE chain_id = $1 AND ${above}`, chainId);
      await tx.$executeRawUnsafe(`DELETE FROM referral_claim WHERE chain_id = $1 AND ${above}`, chainId);

      const touched = await tx.$queryRawUnsafe<{ token: string }[]>(
        `SELECT token FROM launchpad_trade WHERE chain_id = $1 AND ${above}
          UNION SELECT token FROM launchpad_metadata WHERE chain_id = $1 AND ${above}`,
        chainId,
      );
      const launchpadTrades = await tx.$executeRawUnsafe(`DELETE FROM launchpad_trade WHERE chain_id = $1 AND ${above}`, chainId);
      await tx.$executeRawUnsafe(`DELETE FROM launchpad_metadata WHERE chain_id = $1 AND ${above}`, chainId);
      const launchpadTokens = await tx.$executeRawUnsafe(
        `DELETE FROM launchpad_token WHERE chain_id = $1 AND created_block > ${ancestor.number}`,
        chainId,
      );
      // A graduation above the ancestor did not happen on the new branch (it may happen again there).
      const launchpadGraduations = await tx.$executeRawUnsafe(
        `UPDATE launchpad_token SET graduated = false, graduated_block = NULL, graduated_time = NULL, graduated_log_index = NULL,
                graduated_tx_hash = NULL, pair = NULL, graduation_native_amount = NULL, graduation_token_amount = NULL,
                graduation_liquidity = NULL
          WHERE chain_id = $1 AND graduated_block > ${ancestor.number}`,
        chainId,
      );
      await refreshLaunchpadTokens(tx, chainId, touched.map((t) => t.token));

      const tokens = await tx.$executeRawUnsafe(`DELETE FROM token WHERE chain_id = $1 AND first_seen_block > ${ancestor.number}`, chainId);
      const pools = await tx.$executeRawUnsafe(`DELETE FROM pool WHERE chain_id = $1 AND created_block > ${ancestor.number}`, chainId);
      await tx.$executeRawUnsafe(
        `UPDATE pool SET reserve0 = NULL, reserve1 = NULL, reserves_block = NULL WHERE chain_id = $1 AND reserves_block > ${ancestor.number}`,
        chainId,
      );
      await updateReserves(tx, chainId, rewind.reserves);

      // An activity window reaching above the ancestor ends at it: the blocks above are read again going forward.
      await tx.$executeRawUnsafe(
        `UPDATE activity_backfill SET to_block = LEAST(to_block, ${ancestor.number}), next_block = LEAST(next_block, ${ancestor.number + 1n}), updated_at = now()
          WHERE chain_id = $1 AND to_block > ${ancestor.number}`,
        chainId,
      );
      await tx.$executeRawUnsafe(`DELETE FROM block WHERE chain_id = $1 AND number > ${ancestor.number}`, chainId);
      await tx.$executeRawUnsafe(`DELETE FROM chain_event_outbox WHERE chain_id = $1 AND ${above}`, chainId);
      await insertRows(tx, 'block', chainId, [ancestor], [
        ['number', 'bigint', (b: BlockRow) => str(b.number)],
        ['hash', 'text', (b: BlockRow) => b.hash],
        ['parent_hash', 'text', (b: BlockRow) => b.parentHash],
        ['timestamp', 'bigint', (b: BlockRow) => str(b.timestamp)],
      ], 'ON CONFLICT (chain_id, number) DO NOTHING');
      await insertEvents(tx, chainId, rewind.events);
      await writeCheckpoint(tx, chainId, ancestor.number, ancestor.hash, ancestor.timestamp, rewind.status);
      return { transfers, swaps, tokens, pools, launchpadTokens, launchpadTrades, launchpadGraduations };
    }, TX_OPTIONS);
  }

  /** Stored block headers of a chain, newest first (the candidates for a common ancestor). */
  async recentBlocks(chainId: number, limit: number, below?: bigint): Promise<BlockRow[]> {
    const rows = await this.db.block.findMany({
      where: { chainId, ...(below === undefined ? {} : { number: { lte: below } }) },
      orderBy: { number: 'desc' },
      take: limit,
    });
    return rows.map((r) => ({ number: r.number, hash: r.hash, parentHash: r.parentHash, timestamp: r.timestamp }));
  }

  async knownTokens(chainId: number): Promise<string[]> {
    const rows = await this.db.token.findMany({ where: { chainId }, select: { address: true } });
    return rows.map((r) => r.address);
  }

  async knownPools(chainId: number): Promise<PoolRow[]> {
    const rows = await this.db.pool.findMany({ where: { chainId } });
    return rows.map(toPoolRow);
  }

  /** Pools whose stored reserves come from a Sync above `block`. */
  async poolsWithReservesAbove(chainId: number, block: bigint): Promise<PoolRow[]> {
    const pools = await this.knownPools(chainId);
    const rows = await this.db.pool.findMany({ where: { chainId, reservesBlock: { gt: block }, createdBlock: { lte: block } }, select: { address: true } });
    const wanted = new Set(rows.map((r) => r.address));
    return pools.filter((p) => wanted.has(p.address));
  }

  /** Configured tokens and pools (known before any block): inserted once, never undone by a reorg. */
  async seed(chainId: number, tokens: readonly TokenRow[], pools: readonly PoolRow[]): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await insertTokens(tx, chainId, tokens);
      await insertPools(tx, chainId, pools);
    }, TX_OPTIONS);
  }

  /** Events committed but not yet acknowledged by JetStream, oldest first. */
  async pendingEvents(limit = 500): Promise<StoredOutboxEvent[]> {
    const rows = await this.db.chainEventOutbox.findMany({ orderBy: { id: 'asc' }, take: limit });
    return rows.map((r) => ({ id: r.id, blockNumber: r.blockNumber, subject: r.subject, msgId: r.msgId, payload: r.payload }));
  }

  async deleteEvents(ids: readonly bigint[]): Promise<void> {
    if (ids.length) await this.db.chainEventOutbox.deleteMany({ where: { id: { in: [...ids] } } });
  }
}

async function insertTokens(tx: Tx, chainId: number, tokens: readonly TokenRow[]): Promise<void> {
  await insertRows(tx, 'token', chainId, tokens, [
    ['address', 'text', (r) => r.address],
    ['name', 'text', (r) => r.name],
    ['symbol', 'text', (r) => r.symbol],
    ['decimals', 'int', (r) => r.decimals],
    ['total_supply', 'numeric', (r) => nullable(r.totalSupply)],
    ['is_erc20_verified', 'boolean', (r) => r.isERC20Verified],
    ['verification_error', 'text', (r) => r.verificationError],
    ['source', 'text', (r) => r.source],
    ['first_seen_block', 'bigint', (r) => str(r.firstSeenBlock)],
  ], 'ON CONFLICT (chain_id, address) DO NOTHING');
}

async function insertPools(tx: Tx, chainId: number, pools: readonly PoolRow[]): Promise<void> {
  await insertRows(tx, 'pool', chainId, pools, [
    ['address', 'text', (r) => r.address],
    ['kind', 'text', (r) => r.kind],
    ['router_index', 'int', (r) => r.routerIndex],
    ['source', 'text', (r) => r.source],
    ['discovered_by', 'text', (r) => r.discoveredBy],
    ['token0', 'text', (r) => r.token0],
    ['token1', 'text', (r) => r.token1],
    ['stable', 'boolean', (r) => r.stable],
    ['fee_bps', 'int', (r) => r.feeBps],
    ['created_block', 'bigint', (r) => str(r.createdBlock)],
  ], 'ON CONFLICT (chain_id, address) DO NOTHING');
}

/** Marks launched tokens as graduated, with where it happened and what seeded their DEX pair. */
async function recordGraduations(tx: Tx, chainId: number, graduations: readonly LaunchpadGraduationRow[]): Promise<void> {
  if (graduations.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE launchpad_token t SET graduated = true, graduated_block = d.b, graduated_time = d.ts, graduated_log_index = d.li,
            graduated_tx_hash = d.tx, pair = d.pair, graduation_native_amount = d.native, graduation_token_amount = d.tokens,
            graduation_liquidity = d.liquidity
       FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::int[], $6::text[], $7::text[], $8::numeric[], $9::numeric[], $10::numeric[])
            AS d(token, b, ts, li, tx, pair, native, tokens, liquidity)
      WHERE t.chain_id = $1 AND t.address = d.token`,
    chainId,
    graduations.map((g) => g.token),
    graduations.map((g) => str(g.blockNumber)),
    graduations.map((g) => str(g.timestamp)),
    graduations.map((g) => g.logIndex),
    graduations.map((g) => g.txHash),
    graduations.map((g) => g.pair),
    graduations.map((g) => str(g.nativeAmount)),
    graduations.map((g) => str(g.tokenAmount)),
    graduations.map((g) => str(g.liquidity)),
  );
}

async function updateReserves(tx: Tx, chainId: number, reserves: readonly ReserveUpdate[]): Promise<void> {
  if (reserves.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE pool p SET reserve0 = d.r0, reserve1 = d.r1, reserves_block = d.b
       FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::bigint[]) AS d(pool, r0, r1, b)
      WHERE p.chain_id = $1 AND p.address = d.pool`,
    chainId,
    reserves.map((r) => r.pool),
    reserves.map((r) => str(r.reserve0)),
    reserves.map((r) => str(r.reserve1)),
    reserves.map((r) => str(r.blockNumber)),
  );
}

async function insertEvents(tx: Tx, chainId: number, events: readonly OutboxEvent[]): Promise<void> {
  await insertRows(tx, 'chain_event_outbox', chainId, events, [
    ['block_number', 'bigint', (e) => str(e.blockNumber)],
    ['subject', 'text', (e) => e.subject],
    ['msg_id', 'text', (e) => e.msgId],
    ['payload', 'jsonb', (e) => JSON.stringify(e.payload)],
  ]);
}

async function writeCheckpoint(tx: Tx, chainId: number, block: bigint, hash: string, timestamp: bigint, status: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO chain_checkpoint (chain_id, last_processed_block, last_processed_hash, last_processed_time, status, updated_at)
     VALUES ($1, $2::bigint, $3, $4::bigint, $5, now())
     ON CONFLICT (chain_id) DO UPDATE SET last_processed_block = EXCLUDED.last_processed_block,
       last_processed_hash = EXCLUDED.last_processed_hash, last_processed_time = EXCLUDED.last_processed_time,
       status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
    chainId,
    str(block),
    hash,
    str(timestamp),
    status,
  );
}
