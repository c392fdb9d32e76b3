/**
 * Uniswap V4 pools: every pool lives inside one singleton PoolManager and is named by its PoolId
 * (keccak256(abi.encode(PoolKey))), not by an address. The kind routes the pools whose swaps are the PoolManager's
 * own tick-exact swap (`uniswap-v4-swap.ts`): no hook that can change a swap (the liquidity state keeps the others
 * out, with the reason). The concentrated maths and legs are those of Uniswap V3 (`concentrated/`), at each
 * direction's swap fee: the LP fee, and the protocol fee on top where the protocol has switched one on.
 *
 * The pool's currencies are the key's: address(0) is the native coin. The engine trades the chain's wrapped native
 * token in its place (RouterV2 wraps and unwraps around the PoolManager), so `token0` and `token1` are the
 * currencies with address(0) replaced and kept in the pool's order: for a native pool token0 may sort above token1.
 * Nothing of the engine orders a pool's tokens; a leg's direction is the pool's zeroForOne (tokenIn === token0).
 */
import { concentratedCrossings, concentratedLegs, type ConcentratedPoolFields } from '../concentrated/concentrated-leg';
import type { PoolModule, PoolSnapshotBase, RouterSwapTarget } from '../pool-module';
import { MAX_LP_FEE, swapUniswapV4 } from './uniswap-v4-swap';

/** A key's fee that marks a dynamic LP fee (v4-core's `LPFeeLibrary.DYNAMIC_FEE_FLAG`): the hook sets the LP fee. */
export const DYNAMIC_FEE_FLAG = 0x800000;
/** The hook permissions that can change a swap (v4-core's `Hooks` flags, in the low 14 bits of a hook's address). */
export const SWAP_HOOK_PERMISSIONS = {
  beforeSwap: 1 << 7,
  afterSwap: 1 << 6,
  beforeSwapReturnDelta: 1 << 3,
  afterSwapReturnDelta: 1 << 2,
} as const;
export type SwapHookPermission = keyof typeof SWAP_HOOK_PERMISSIONS;

/**
 * The permissions of a hook that can change a swap, by name; none for a hook without them or no hook (address(0)):
 * a pool of such a hook swaps as the PoolManager's tick-exact maths says, the only V4 pools this kind routes.
 */
export function swapHookPermissions(hooks: string): SwapHookPermission[] {
  const flags = Number(BigInt(hooks) & 0x3fffn);
  return (Object.keys(SWAP_HOOK_PERMISSIONS) as SwapHookPermission[]).filter((name) => (flags & SWAP_HOOK_PERMISSIONS[name]) !== 0);
}

/** The largest protocol fee each way, pips (v4-core's `ProtocolFeeLibrary.MAX_PROTOCOL_FEE`: 0.1%). */
export const MAX_PROTOCOL_FEE = 1000;
const PIPS = 1_000_000;

/**
 * A Uniswap V4 pool: `address` is its PoolId (lowercase `0x` and 64 hex digits, the pool's identity everywhere in
 * the product); `fee` is its LP fee in pips now (a dynamic-fee pool's as slot0 last held it); the concentrated state
 * as Uniswap V3's (slot0's sqrtPriceX96 and tick, the active liquidity, the initialized ticks with their
 * liquidityNet). RouterV2 swaps it through `poolManager` with the pool's key (`uniswapV4PoolKey`).
 */
export interface UniswapV4PoolSnapshot extends PoolSnapshotBase, ConcentratedPoolFields {
  readonly kind: 'uniswap-v4';
  /** The PoolManager holding the pool: the address RouterV2 calls for its swaps. */
  readonly poolManager: string;
  /** The key's currencies, address(0) for the native coin (`token0` and `token1` trade the wrapped token for it). */
  readonly currency0: string;
  readonly currency1: string;
  /** The key's fee is `DYNAMIC_FEE_FLAG`: the hook sets the LP fee, which changes without an event. */
  readonly dynamicFee: boolean;
  /** The key's hook contract (address(0): none). */
  readonly hooks: string;
  /** slot0's protocol fee, pips: 12 bits each way, the low ones zeroForOne's, the high ones oneForZero's. */
  readonly protocolFee: number;
}

/** A V4 pool's key as the PoolManager (and RouterV2's swap `data`) takes it. */
export interface UniswapV4PoolKey {
  readonly currency0: string;
  readonly currency1: string;
  /** A static LP fee in pips, or `DYNAMIC_FEE_FLAG`. */
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: string;
}

/** The pool's key: its currencies, its fee as the key has it (the dynamic flag, not the LP fee of now), spacing, hook. */
export function uniswapV4PoolKey(pool: UniswapV4PoolSnapshot): UniswapV4PoolKey {
  return { currency0: pool.currency0, currency1: pool.currency1, fee: pool.dynamicFee ? DYNAMIC_FEE_FLAG : pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks };
}

/** A 256-bit ABI word of an integer (two's complement for a negative one). */
const word = (value: bigint): string => BigInt.asUintN(256, value).toString(16).padStart(64, '0');

/** `abi.encode(PoolKey)`: the 160 bytes RouterV2 takes as a V4 swap's `data` (five static words). */
export function encodeUniswapV4PoolKey(key: UniswapV4PoolKey): `0x${string}` {
  const words = [BigInt(key.currency0), BigInt(key.currency1), BigInt(key.fee), BigInt(key.tickSpacing), BigInt(key.hooks)];
  return `0x${words.map(word).join('')}`;
}

/** RouterV2's swap through the pool: the PoolManager, with the pool's key as data. */
function routerSwap(pool: UniswapV4PoolSnapshot): RouterSwapTarget {
  return { pool: pool.poolManager, data: encodeUniswapV4PoolKey(uniswapV4PoolKey(pool)), poolId: pool.address, hooks: pool.hooks };
}

/**
 * The fee a swap pays, pips (v4-core's `Pool.swap`): the LP fee, or with a protocol fee on in the swap's direction
 * `protocolFee + lpFee - protocolFee * lpFee / 1e6` (`ProtocolFeeLibrary.calculateSwapFee`). The swap's amounts are
 * those of this one fee; the protocol's share of it is only carved out of what the LPs earn.
 */
export function uniswapV4SwapFee(lpFee: number, protocolFee: number, zeroForOne: boolean): number {
  const protocol = zeroForOne ? protocolFee & 0xfff : (protocolFee >> 12) & 0xfff;
  return protocol === 0 ? lpFee : protocol + lpFee - Math.floor((protocol * lpFee) / PIPS);
}

export const uniswapV4Module: PoolModule<UniswapV4PoolSnapshot> = {
  kind: 'uniswap-v4',
  // None for an LP fee that takes the whole input: the pool pays nothing (and refuses exact outputs).
  legsOf: (pool) =>
    pool.fee >= MAX_LP_FEE
      ? []
      : concentratedLegs(
          pool,
          (state, zeroForOne, amount, ladder) => swapUniswapV4(state, zeroForOne, amount, undefined, ladder),
          (zeroForOne) => uniswapV4SwapFee(pool.fee, pool.protocolFee, zeroForOne),
        ),
  /** The LP fee in basis points (pips / 100) for a static fee; none for a dynamic one (the hook changes it). */
  feeBps: (pool) => (pool.dynamicFee ? undefined : pool.fee / 100),
  /** The LP fee in pips, as the snapshot holds it. */
  fee: (pool) => pool.fee,
  tickSpacing: (pool) => pool.tickSpacing,
  stable: false,
  refineSplits: false,
  quotedOnChain: false,
  tradesWhatArrives: false,
  // The tokens move between the router and the PoolManager (settle and take), not to and from the pool's address:
  // a PoolId holds no balance the transfer checks could read.
  transfersTokens: false,
  // Fitted by bench/gas-model on executed RouterV2 transactions through v4-core's PoolManager (the unlock, the swap,
  // sync + settle and take; a crossed tick is cheaper than V3's: a V4 tick keeps no oracle values to write).
  gas: { swaps: { 'uniswap-v4': 72_689 }, swapKind: () => 'uniswap-v4', perTick: 19_620, crossings: concentratedCrossings },
  routerSwap,
};
