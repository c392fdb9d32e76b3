import { getAddress, isAddress } from 'viem/utils';
import { z } from 'zod';

/** An address as viem types it: 0x-prefixed hex. */
type Address = ReturnType<typeof getAddress>;

/** Checksummed forms kept by `checksummed`; the memory starts afresh past this many. */
const CHECKSUMS_KEPT = 16_384;
const checksums = new Map<string, Address>();

/**
 * The checksummed form of an address (viem's `getAddress`, which throws on anything but a 0x-prefixed 20-byte hex
 * address), remembered by the exact string given: a service answers about the same few thousand pools and tokens
 * over and over, and viem's own cache (least recently used, re-inserting every address it finds) turned over a
 * large map on every call.
 */
export function checksummed(value: string): Address {
  const known = checksums.get(value);
  if (known !== undefined) return known;
  const address = getAddress(value);
  if (checksums.size >= CHECKSUMS_KEPT) checksums.clear();
  checksums.set(value, address);
  return address;
}

/** A 0x-prefixed 20-byte address, normalised to its checksummed form. */
export const addressSchema = z
  .string()
  .refine((value) => checksums.has(value) || isAddress(value, { strict: false }), { message: 'must be a 0x-prefixed 20-byte hex address' })
  .transform((value) => checksummed(value));

/** The chains the product serves: HyperEVM (999, native HYPE) and 4663 (native ETH). */
export const CHAIN_IDS = [999, 4663] as const;
export type ChainId = (typeof CHAIN_IDS)[number];

export const chainIdSchema = z.number().int().positive();

/**
 * Liquidity-source kinds the aggregator knows; each has a RouterV2 adapter branch. `uniswap-v3` (Uniswap V3 and
 * its forks) and `algebra` (Algebra Integral) are concentrated-liquidity kinds: their pools carry a fee tier and a
 * tick spacing. `uniswap-v4` is Uniswap V4: one PoolManager (the source's `poolManager` address) holds every pool of
 * the source, each named by its PoolId. `curve-stableswap-ng` and `curve-twocrypto-ng` are Curve's NG factories'
 * pools, priced only through their own `get_dy` (sampled at each block, quoted again at answer time): each coin pair
 * of a pool is a pool of its own to the engine, named by a pair id (`curvePairId`).
 */
export const SOURCE_KINDS = [
  'core',
  'uniswap-v2',
  'stable',
  'launchpad',
  'uniswap-v3',
  'algebra',
  'uniswap-v4',
  'curve-stableswap-ng',
  'curve-twocrypto-ng',
] as const;
export const sourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKindSchema>;

/** The kinds of Curve's NG pools: a pool of N coins is routed as its N(N-1)/2 coin pairs (`curvePairId`). */
export const CURVE_KINDS = ['curve-stableswap-ng', 'curve-twocrypto-ng'] as const;
export type CurveKind = (typeof CURVE_KINDS)[number];
export const isCurveKind = (kind: string): kind is CurveKind => (CURVE_KINDS as readonly string[]).includes(kind);

/**
 * The id of one coin pair of a Curve pool, as facts, the engine and routes name it: the pool's address in lower case,
 * then the coins' indexes i < j (`0x…:0:2`). The pair's token0 and token1 are the pool's coins i and j.
 */
export const curvePairId = (pool: string, i: number, j: number): string => `${pool.toLowerCase()}:${i}:${j}`;

const CURVE_PAIR_ID = /^(0x[0-9a-fA-F]{40}):([0-7]):([0-7])$/;

/** The pool and coin indexes a Curve pair id names; undefined for any other id. */
export function parseCurvePairId(id: string): { pool: string; i: number; j: number } | undefined {
  const m = CURVE_PAIR_ID.exec(id);
  if (!m) return undefined;
  const i = Number(m[2]);
  const j = Number(m[3]);
  return i < j ? { pool: m[1].toLowerCase(), i, j } : undefined;
}

/** The kind of the pools inside a PoolManager, named by PoolId. */
export const UNISWAP_V4_KIND = 'uniswap-v4';
