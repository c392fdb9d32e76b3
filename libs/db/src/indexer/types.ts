// What the indexer writes: plain rows, independent of Prisma. Addresses are EIP-55 checksummed strings,
// hashes 0x-prefixed lowercase hex, amounts bigint base units, times Unix seconds of the block.

import type { VerifiedTokenMetadata } from '@dex/messages';

export interface BlockRow {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: bigint;
}

/** Where a fact came from in the chain. */
export interface LogPosition {
  blockNumber: bigint;
  logIndex: number;
  txHash: string;
  timestamp: bigint;
}

export type TokenSource = 'config' | 'pool' | 'launchpad';

export interface TokenRow extends VerifiedTokenMetadata {
  address: string;
  source: TokenSource;
  firstSeenBlock: bigint;
}

export interface PoolRow {
  address: string;
  kind: string;
  routerIndex: number;
  source: string;
  discoveredBy: string | null;
  token0: string;
  token1: string;
  stable: boolean;
  feeBps: number | null;
  createdBlock: bigint;
}

/** A pool's own columns out of a row that may carry more (reserves, counters). */
export function toPoolRow(r: PoolRow): PoolRow {
  const { address, kind, routerIndex, source, discoveredBy, token0, token1, stable, feeBps, createdBlock } = r;
  return { address, kind, routerIndex, source, discoveredBy, token0, token1, stable, feeBps, createdBlock };
}

/** A NUMERIC(78,0) value as bigint (Prisma's Decimal prints large values with an exponent unless asked not to). */
export const bigFromDecimal = (v: { toFixed?: () => string; toString(): string }): bigint => BigInt(v.toFixed ? v.toFixed() : v.toString());

export interface TransferRow extends LogPosition {
  token: string;
  from: string;
  to: string;
  value: bigint;
}

export interface AmmSwapRow extends LogPosition {
  pool: string;
  user: string;
  sender: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  fee: bigint;
  refCode: string | null;
  refFee: bigint | null;
}

export interface ReferralClaimRow extends LogPosition {
  pool: string;
  refCode: string;
  wallet: string;
  amount0: bigint;
  amount1: bigint;
  kind: 'claim' | 'distribution';
}

export interface LaunchpadMetadataFields {
  imageUri: string;
  description: string;
  website: string;
  twitter: string;
  telegram: string;
  discord: string;
}

export interface LaunchpadTokenRow extends LogPosition, LaunchpadMetadataFields {
  address: string;
  launchpad: string;
  creator: string;
  name: string;
  symbol: string;
  creationTimestamp: bigint;
  startingLiquidity: bigint;
  initialPurchaseAmount: bigint;
  nativeReserves: bigint;
  tokenReserves: bigint;
  totalSupply: bigint;
  price: bigint;
}

export interface LaunchpadTradeRow extends LogPosition {
  token: string;
  trader: string;
  side: 'buy' | 'sell';
  nativeAmount: bigint;
  tokenAmount: bigint;
  price: bigint;
  nativeReserves: bigint;
  tokenReserves: bigint;
  totalSupply: bigint;
}

export interface LaunchpadMetadataRow extends LogPosition, LaunchpadMetadataFields {
  token: string;
}

/** A token's graduation (TokenGraduated): its curve sold out and its DEX pair was seeded. */
export interface LaunchpadGraduationRow extends LogPosition {
  token: string;
  pair: string;
  /** Native coin raised on the curve, deposited wrapped into the pair. */
  nativeAmount: bigint;
  /** Reserved tokens deposited into the pair. */
  tokenAmount: bigint;
  /** LP tokens the pair minted to the launchpad. */
  liquidity: bigint;
}

export interface ReserveUpdate {
  pool: string;
  reserve0: bigint;
  reserve1: bigint;
  blockNumber: bigint;
}

/** A chain event to publish after the batch commits. */
export interface OutboxEvent {
  blockNumber: bigint;
  subject: string;
  /** JetStream de-duplication id (Nats-Msg-Id). */
  msgId: string;
  payload: unknown;
}

export interface StoredOutboxEvent extends OutboxEvent {
  id: bigint;
}

/** Everything one batch of blocks produced, written in one transaction together with the checkpoint. */
export interface ChainBatch {
  chainId: number;
  /** The checkpoint the batch follows (null: the chain has none yet); the write fails if it moved. */
  after: bigint | null;
  /** The new checkpoint: the batch's last block. */
  checkpoint: { block: bigint; hash: string; timestamp: bigint; status: string };
  blocks: BlockRow[];
  tokens: TokenRow[];
  pools: PoolRow[];
  transfers: TransferRow[];
  swaps: AmmSwapRow[];
  referralClaims: ReferralClaimRow[];
  launchpadTokens: LaunchpadTokenRow[];
  launchpadTrades: LaunchpadTradeRow[];
  launchpadMetadata: LaunchpadMetadataRow[];
  launchpadGraduations: LaunchpadGraduationRow[];
  /** Latest reserves per pool within the batch. */
  reserves: ReserveUpdate[];
  events: OutboxEvent[];
  /** Block headers below this number are pruned (they are too deep to matter for reorgs). */
  pruneBlocksBelow?: bigint;
  /** A start at the head: the activity window before it, to be read afterwards (`applyActivityBackfill`). */
  activityBackfill?: { from: bigint; to: bigint };
}

/** The activity window of a start at the head still to read: blocks `next`..`to` (done once `next` passes `to`). */
export interface ActivityBackfillState {
  from: bigint;
  to: bigint;
  next: bigint;
}

/** One range of the activity window: its transfers and core swaps, and where the window's cursor stood before it. */
export interface ActivityBackfillBatch {
  chainId: number;
  /** The cursor this range starts at; the write fails if it moved. */
  from: bigint;
  to: bigint;
  transfers: TransferRow[];
  swaps: AmmSwapRow[];
}

/** What undoing a reorg writes besides the deletions. */
export interface ChainRewind {
  chainId: number;
  /** The common ancestor: the last block both branches share; everything above it is undone. */
  ancestor: BlockRow;
  /** Reserves of pools whose last Sync was above the ancestor, as read from the chain at the ancestor. */
  reserves: ReserveUpdate[];
  events: OutboxEvent[];
  status: string;
}

export interface RewindResult {
  transfers: number;
  swaps: number;
  tokens: number;
  pools: number;
  launchpadTokens: number;
  launchpadTrades: number;
  launchpadGraduations: number;
}
