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
 *
 * A pool whose hook may change a swap's amounts (a fee through a return delta) is routed only where its source lists
 * the hook as sampled: its legs are then those of samples of the source's V4Quoter (`samples`, interpolated
 * conservatively like core pools'), and a route's swaps through it are quoted again by the V4Quoter at the route's
 * block (`quotedOnChain`).
 */
import { concentratedCrossings, concentratedLegs, type ConcentratedPoolFields } from '../concentrated/concentrated-leg';
import { sampledLegs } from '../core/core';
import type { QuoteSample } from '../core/core-samples';
import type { PoolLeg, PoolModule, PoolSnapshotBase, RouterSwapTarget } from '../pool-module';
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
  /**
   * For a pool whose hook its source lists as sampled: the source's V4Quoter and its quotes at a ladder of inputs per
   * direction, which the legs are then made of (the concentrated state only lays the ladders).
   */
  readonly sampled?: UniswapV4Samples;
  /**
   * For a pool whose hook is called on swaps and its source lists as exact (tick maths): the source's V4Quoter, which
   * quotes the route's swaps through the pool again at its block, so a swap the hook refuses is found before the
   * answer (whether or not the answer's transaction is simulated).
   */
  readonly quoter?: string;
}

/** A sampled V4 pool's quotes (`UniswapV4PoolSnapshot.sampled`). */
export interface UniswapV4Samples {
  /** The V4Quoter that gave them, which quotes the route's swaps again at its block. */
  readonly quoter: string;
  readonly samples0to1: readonly QuoteSample[];
  readonly samples1to0: readonly QuoteSample[];
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

/**
 * The pool's legs by the PoolManager's tick-exact maths, whatever its hook (a sampled pool's ladders are laid on
 * them); none for an LP fee that takes the whole input: the pool pays nothing (and refuses exact outputs).
 */
export function uniswapV4TickLegs(pool: UniswapV4PoolSnapshot): ReturnType<typeof concentratedLegs> {
  if (pool.fee >= MAX_LP_FEE) return [];
  return concentratedLegs(
    pool,
    (state, zeroForOne, amount, ladder) => swapUniswapV4(state, zeroForOne, amount, undefined, ladder),
    (zeroForOne) => uniswapV4SwapFee(pool.fee, pool.protocolFee, zeroForOne),
  );
}

/** The most inputs a sampled pool is quoted at per direction (`uniswapV4SampleLadder`). */
export const UNISWAP_V4_LADDER_SIZE = 40;
/** The share of a direction's output liquidity (by the tick maths) its ladder reaches. */
const LADDER_REACH = 0.98;
/** The ladder's first input, as a share of its top. */
const LADDER_FLOOR = 1e-6;
/**
 * How far below the tick-exact curve a chord between two neighbouring inputs may lie, relative to the curve (the
 * conservative interpolation between samples pays that much less than the pool at worst), for trades whose price
 * impact is at most LADDER_IMPACT; beyond, in proportion to the impact (a hundredth of it: a trade losing 30% to the
 * pool's depth is not worse off for 0.3% more of chord).
 */
const LADDER_CHORD_ERROR = 2e-5;
const LADDER_IMPACT = 0.01;

/** The tolerance of a chord ending at `b` (see LADDER_CHORD_ERROR): `base` times the impact past LADDER_IMPACT. */
function chordTolerance(leg: PoolLeg, base: number, b: number, yb: number): number {
  const impact = leg.spotRate > 0 ? 1 - yb / (b * leg.spotRate) : 0;
  return base * Math.max(1, impact / LADDER_IMPACT);
}

/**
 * The chord's largest shortfall under the leg's float curve between `a` and `b`, relative to the curve: the curve is
 * concave, so the shortfall is largest where its marginal rate is the chord's slope (`inputAtMarginal`); a point on
 * either side of it too, for a relative shortfall that peaks a little before.
 */
function chordError(leg: PoolLeg, a: number, ya: number, b: number, yb: number): number {
  const slope = (yb - ya) / (b - a);
  const peak = Math.min(b, Math.max(a, leg.inputAtMarginal(slope, b)));
  let worst = 0;
  for (const x of [peak, (a + peak) / 2, (peak + b) / 2]) {
    if (!(x > a && x < b)) continue;
    const y = leg.approxOut(x);
    if (y > 0) worst = Math.max(worst, (y - (ya + slope * (x - a))) / y);
  }
  return worst;
}

/**
 * A direction's inputs from `floor` to `top`, each next the farthest whose chord from the last stays within `tolerance`
 * of the leg's curve (bisection on the step's ratio: a chord's error grows with its length); undefined when more than
 * `n` inputs would be needed.
 */
function chordLadder(leg: PoolLeg, floor: number, top: number, tolerance: number, n: number): number[] | undefined {
  const inputs = [floor];
  for (;;) {
    const a = inputs[inputs.length - 1];
    const ya = leg.approxOut(a);
    const fits = (b: number) => {
      const yb = leg.approxOut(b);
      return chordError(leg, a, ya, b, yb) <= chordTolerance(leg, tolerance, b, yb);
    };
    if (fits(top)) break;
    if (inputs.length >= n - 1) return undefined;
    let [lo, hi] = [1, top / a];
    for (let i = 0; i < 20 && hi / lo > 1.001; i++) {
      const mid = Math.sqrt(lo * hi);
      if (fits(a * mid)) lo = mid;
      else hi = mid;
    }
    inputs.push(a * Math.max(lo, 1.001));
  }
  inputs.push(top);
  return inputs;
}

/**
 * The inputs a sampled pool's direction is quoted at by its V4Quoter, laid on the direction's tick-exact leg
 * (`uniswapV4TickLegs`: the hook's share aside, the sampled curve's shape): from a millionth of the top up to the top,
 * the input that takes LADDER_REACH of the output side's liquidity (a full-range position would quote any input for
 * next to nothing more), each next the farthest whose chord from the last stays within a tolerance of the tick curve:
 * dense where the curve bends (a trade's size against the pool's depth, a thin range), sparse where it is straight.
 * The tolerance is LADDER_CHORD_ERROR (more past LADDER_IMPACT of price impact) where UNISWAP_V4_LADDER_SIZE inputs
 * reach the top with it, else the least that does (a pool whose thin ranges bend hard). Empty for a side too thin to
 * sample.
 */
export function uniswapV4SampleLadder(leg: PoolLeg): bigint[] {
  const whole = leg.approxOut(leg.maxInApprox);
  const top = Math.min(leg.maxInApprox, leg.approxIn(whole * LADDER_REACH));
  if (!(top >= 1e3) || !Number.isFinite(top)) return [];
  const floor = Math.max(1, top * LADDER_FLOOR);
  const n = UNISWAP_V4_LADDER_SIZE;
  let inputs = chordLadder(leg, floor, top, LADDER_CHORD_ERROR, n);
  if (!inputs) {
    // The least tolerance n inputs reach the top with, by bisection on its logarithm.
    let [lo, hi] = [Math.log(LADDER_CHORD_ERROR), Math.log(0.5)];
    let found = chordLadder(leg, floor, top, Math.exp(hi), n);
    for (let i = 0; i < 10 && found; i++) {
      const mid = (lo + hi) / 2;
      const tried = chordLadder(leg, floor, top, Math.exp(mid), n);
      if (tried) [hi, found] = [mid, tried];
      else lo = mid;
    }
    inputs = found ?? [floor, top];
  }
  const ladder = inputs.map((x) => BigInt(Math.floor(x)));
  return ladder.filter((x, i) => x > 0n && (i === 0 || x > ladder[i - 1]));
}

/** The gas kind of a swap through a pool whose hook is called on swaps (it costs the hook's own work besides). */
const HOOKED = 'uniswap-v4-hooked';

export const uniswapV4Module: PoolModule<UniswapV4PoolSnapshot> = {
  kind: 'uniswap-v4',
  legsOf: (pool) => (pool.sampled ? sampledLegs(pool, pool.sampled.samples0to1, pool.sampled.samples1to0) : uniswapV4TickLegs(pool)),
  /** The LP fee in basis points (pips / 100) for a static fee; none for a dynamic one (the hook changes it). */
  feeBps: (pool) => (pool.dynamicFee ? undefined : pool.fee / 100),
  /** The LP fee in pips, as the snapshot holds it. */
  fee: (pool) => pool.fee,
  tickSpacing: (pool) => pool.tickSpacing,
  stable: false,
  // A sampled pool's legs are conservative chords through its samples, as a core pool's.
  refineSplits: (pool) => pool.sampled !== undefined,
  quotedOnChain: (pool) => pool.sampled !== undefined || pool.quoter !== undefined,
  tradesWhatArrives: false,
  // The tokens move between the router and the PoolManager (settle and take): their transfers are checked from it
  // (the swap's `routerPool`), a PoolId holding no balance of its own.
  transfersTokens: true,
  // Fitted by bench/gas-model on executed RouterV2 transactions through v4-core's PoolManager (the unlock, the swap,
  // sync + settle and take; a crossed tick is cheaper than V3's: a V4 tick keeps no oracle values to write).
  // A pool whose hook is called on swaps costs the hook's work besides: fitted on the devnet's listed hooks (an
  // input-fee hook settling its fee through a return delta, a swap-limit check), 440 executed routes.
  gas: {
    swaps: { 'uniswap-v4': 74_015, [HOOKED]: 85_209 },
    swapKind: (pool) => (swapHookPermissions(pool.hooks).length > 0 ? HOOKED : 'uniswap-v4'),
    perTick: 16_436,
    // A sampled pool's legs are its samples': the ticks a swap crosses are those of its tick-exact leg.
    crossings: (leg, tokenIn, amountIn) => {
      const pool = leg.pool as UniswapV4PoolSnapshot;
      const tick = pool.sampled ? uniswapV4TickLegs(pool).find((l) => l.tokenIn === leg.tokenIn) : leg;
      return tick ? concentratedCrossings(tick, tokenIn, amountIn) : undefined;
    },
  },
  routerSwap,
};
