/**
 * What the concentrated-liquidity kinds (`uniswap-v3`, `algebra`, `uniswap-v4`) share: their snapshot fields, the
 * tick table of a snapshot, and the leg.
 *
 * Exact view: the pool's own swap loop (`concentrated-math.ts`) at RouterV2's price limits. RouterV2 gives a pool
 * its whole share as an exact input; a pool that runs out of liquidity before using it all takes only what it
 * used and the rest would stay behind, so `quote` is 0 for any input the pool does not take whole, and `maxIn` is
 * the input that takes the price to the last initialized tick (or the price limit).
 *
 * Float view: within a range between initialized ticks the pool is a constant-product curve on virtual reserves
 * (x = L / sqrtP, y = L * sqrtP). The ranges the price can pass through in the leg's direction are laid out once per
 * leg as segments of the input axis (ranges without liquidity take no input and drop out: the marginal rate jumps
 * across them), each with its virtual reserves at its start.
 */
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './tick-math';
import { TickTable, type ConcentratedPoolState, type TickLiquidity } from './tick-table';
import { priceLimit, SwapLadder } from './swap-ladder';
import { type SwapResult } from './concentrated-math';
import type { PoolLeg as Leg, LegShape, TickCrossings } from '../pool-module';
import type { PoolSnapshotBase } from '../pool-module';
import { bisectInput } from '../leg-helpers';

/** A concentrated-liquidity pool's state as the chain gives it. */
export interface ConcentratedPoolFields {
  /** sqrt(token1 per token0, base units) as Q64.96 (slot0.sqrtPriceX96 / globalState.price). */
  readonly sqrtPriceX96: bigint;
  /** The current tick (slot0.tick / globalState.tick). */
  readonly tick: number;
  /** The active liquidity (`liquidity()`). */
  readonly liquidity: bigint;
  /** The fee the next swap pays, in hundredths of a bip (pips): 3000 = 0.3%. */
  readonly fee: number;
  readonly tickSpacing: number;
  /**
   * Every initialized tick (liquidityGross / liquidityTotal > 0, also those whose net is 0: the pool's swap steps
   * stop at them, which moves its rounding), with the liquidity added when the price crosses it upwards
   * (V3 `liquidityNet`, Algebra `liquidityDelta`). Any order; each tick once.
   */
  readonly ticks: readonly TickLiquidity[];
}

/** The snapshots of the concentrated kinds. */
export type ConcentratedPoolSnapshot = PoolSnapshotBase & ConcentratedPoolFields & { readonly kind: 'uniswap-v3' | 'algebra' | 'uniswap-v4' };

const tables = new WeakMap<readonly TickLiquidity[], TickTable>();

/** The sorted tick table of a snapshot's ticks, built once per tick list. */
export function tickTableOf(ticks: readonly TickLiquidity[]): TickTable {
  let table = tables.get(ticks);
  if (!table) {
    table = new TickTable(ticks);
    tables.set(ticks, table);
  }
  return table;
}

/** The swap state of a snapshot for the maths. */
export const stateOf = (pool: ConcentratedPoolFields): ConcentratedPoolState => ({
  sqrtPriceX96: pool.sqrtPriceX96,
  tick: pool.tick,
  liquidity: pool.liquidity,
  fee: pool.fee,
  tickSpacing: pool.tickSpacing,
  ticks: tickTableOf(pool.ticks),
});

/**
 * The pool's swap function: exact input for `amount` > 0, exact output for `amount` < 0, at RouterV2's limit; an
 * exact input takes the steps `ladder` recorded and records those it walks past them.
 */
export type ConcentratedSwap = (state: ConcentratedPoolState, zeroForOne: boolean, amount: bigint, ladder?: SwapLadder) => SwapResult;

const LN_SQRT_1_0001 = Math.log(1.0001) / 2;
const Q96_FLOAT = 2 ** 96;
/** Exact input large enough to reach the price limit of any pool. */
const UNBOUNDED_INPUT = 1n << 250n;

/**
 * The fall of the marginal rate (a factor) over which `liquidity` measures a leg's depth: 10%, about the price
 * move of a large trade. A constant-product pool of reserve R takes R * (sqrt(1.1) - 1) before its rate falls so.
 */
const DEPTH_RATE_DROP = 1.1;

/** The float sqrt price at a tick. */
const sqrtAt = (tick: number): number => Math.exp(tick * LN_SQRT_1_0001);

export class ConcentratedLeg implements Leg {
  readonly liquidity: number;
  readonly spotRate: number;
  readonly maxInApprox: number;
  private exactMaxIn: bigint | undefined | null = null;
  /** The steps of this leg's exact-input swaps from the snapshot's state, recorded as quotes walk them. */
  private ladder: SwapLadder | undefined;
  /** Fee factor; per segment: its start on the input axis (gross), its output there, its virtual reserves. */
  private readonly gamma: number;
  private readonly startIn: Float64Array;
  private readonly startOut: Float64Array;
  private readonly ri: Float64Array;
  private readonly ro: Float64Array;
  /** The marginal rate at each segment's start. */
  private readonly startRate: Float64Array;
  private readonly totalOut: number;

  constructor(
    readonly pool: ConcentratedPoolSnapshot,
    readonly tokenIn: string,
    readonly tokenOut: string,
    private readonly zeroForOne: boolean,
    private readonly state: ConcentratedPoolState,
    private readonly swap: ConcentratedSwap,
  ) {
    // The fee the leg's swaps pay (the pool's; a V4 pool's own each way when a protocol fee is on).
    this.gamma = 1 - state.fee / 1e6;
    const ticks = state.ticks;
    const starts: number[] = [];
    const outs: number[] = [];
    const ris: number[] = [];
    const ros: number[] = [];
    let s = Number(state.sqrtPriceX96) / Q96_FLOAT;
    let liquidity = state.liquidity;
    let x = 0;
    let y = 0;
    const add = (end: number): void => {
      const L = Number(liquidity);
      if (L > 0 && end !== s) {
        const [rIn, rOut, netIn, out] = zeroForOne ? [L / s, L * s, L * (1 / end - 1 / s), L * (s - end)] : [L * s, L / s, L * (end - s), L * (1 / s - 1 / end)];
        if (netIn > 0 && out > 0) {
          starts.push(x);
          outs.push(y);
          ris.push(rIn);
          ros.push(rOut);
          x += netIn / this.gamma;
          y += out;
        }
      }
      s = end;
    };
    if (zeroForOne) {
      for (let i = ticks.atOrBelow(state.tick); i >= 0; i--) {
        add(sqrtAt(ticks.index[i]));
        liquidity -= ticks.liquidityNet[i];
      }
      add(Number(MIN_SQRT_RATIO + 1n) / Q96_FLOAT);
    } else {
      for (let i = ticks.atOrBelow(state.tick) + 1; i < ticks.length; i++) {
        add(sqrtAt(ticks.index[i]));
        liquidity += ticks.liquidityNet[i];
      }
      add(Number(MAX_SQRT_RATIO - 1n) / Q96_FLOAT);
    }
    starts.push(x);
    outs.push(y);
    this.startIn = Float64Array.from(starts);
    this.startOut = Float64Array.from(outs);
    this.ri = Float64Array.from(ris);
    this.ro = Float64Array.from(ros);
    this.startRate = Float64Array.from(ris, (r, k) => (this.gamma * ros[k]) / r);
    this.maxInApprox = x;
    this.totalOut = y;
    this.spotRate = ris.length > 0 ? this.startRate[0] : 0;
    // Depth for ranking the pools of a pair: the reserve of the constant-product pool that takes as much input as
    // this one before its marginal rate falls by DEPTH_RATE_DROP. The current range's virtual reserve alone would
    // rank a narrow position that is gone after a few ticks as deep as a wide one.
    this.liquidity = ris.length > 0 ? (this.gamma * this.inputAtMarginal(this.spotRate / DEPTH_RATE_DROP, Infinity)) / (Math.sqrt(DEPTH_RATE_DROP) - 1) : 0;
  }

  /** Whether the float view has any range with liquidity (a leg without one trades nothing). */
  get tradable(): boolean {
    return this.ri.length > 0;
  }

  /** The most the pool takes in this direction: what a swap to the price limit uses. */
  get maxIn(): bigint | undefined {
    if (this.exactMaxIn === null) {
      try {
        this.exactMaxIn = this.swap(this.state, this.zeroForOne, UNBOUNDED_INPUT).amountIn;
      } catch {
        this.exactMaxIn = 0n;
      }
    }
    return this.exactMaxIn;
  }

  /** The pool's exact-input swap (what it takes and pays), or undefined where the pool would revert. */
  swapExactIn(amountIn: bigint): SwapResult | undefined {
    try {
      return this.swap(this.state, this.zeroForOne, amountIn, (this.ladder ??= new SwapLadder(this.zeroForOne)));
    } catch {
      return undefined;
    }
  }

  /** The pool's exact-output swap, or undefined where the pool would revert. */
  swapExactOut(amountOut: bigint): SwapResult | undefined {
    try {
      return this.swap(this.state, this.zeroForOne, -amountOut);
    } catch {
      return undefined;
    }
  }

  quote(amountIn: bigint): bigint {
    if (amountIn <= 0n) return 0n;
    const r = this.swapExactIn(amountIn);
    return r && r.amountIn === amountIn ? r.amountOut : 0n;
  }

  quoteIn(amountOut: bigint): bigint | undefined {
    if (amountOut <= 0n) return 0n;
    const r = this.swapExactOut(amountOut);
    if (!r || r.amountOut < amountOut) return undefined;
    // The pool's exact-output input; the least exact input paying as much lies at or just under it.
    let hi = r.amountIn;
    if (this.quote(hi) < amountOut) return bisectInput(this, amountOut, Number(hi));
    let step = 1n;
    let lo = hi - step;
    while (lo > 0n && this.quote(lo) >= amountOut) {
      hi = lo;
      step *= 2n;
      lo = hi > step ? hi - step : 0n;
    }
    while (hi - lo > 1n) {
      const mid = lo + (hi - lo) / 2n;
      if (this.quote(mid) >= amountOut) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** The segment last found by `segmentAt`: a solver's next look is most often in it or the next one. */
  private lastSegment = 0;

  /** The segment holding gross input x (x in [0, maxInApprox)). */
  private segmentAt(x: number): number {
    const last = this.lastSegment;
    const count = this.ri.length;
    if (last < count && this.startIn[last] <= x) {
      if (last + 1 >= count || x < this.startIn[last + 1]) return last;
      if (last + 2 >= count || x < this.startIn[last + 2]) return (this.lastSegment = last + 1);
    }
    this.lastSegment = this.searchSegment(x);
    return this.lastSegment;
  }

  private searchSegment(x: number): number {
    let lo = 0;
    let hi = this.ri.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.startIn[mid] <= x) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  approxOut(amountIn: number): number {
    if (!(amountIn > 0) || this.ri.length === 0) return 0;
    if (amountIn >= this.maxInApprox) return this.totalOut;
    const k = this.segmentAt(amountIn);
    const u = this.gamma * (amountIn - this.startIn[k]);
    return this.startOut[k] + (this.ro[k] * u) / (this.ri[k] + u);
  }

  approxIn(amountOut: number): number {
    if (amountOut <= 0) return 0;
    if (amountOut >= this.totalOut) return Infinity;
    let lo = 0;
    let hi = this.ri.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.startOut[mid] <= amountOut) lo = mid;
      else hi = mid - 1;
    }
    const v = amountOut - this.startOut[lo];
    const u = (this.ri[lo] * v) / (this.ro[lo] - v);
    return this.startIn[lo] + u / this.gamma;
  }

  marginal(amountIn: number): number {
    if (this.ri.length === 0 || amountIn >= this.maxInApprox) return 0;
    const x = Math.max(0, amountIn);
    const k = this.segmentAt(x);
    const d = this.ri[k] + this.gamma * (x - this.startIn[k]);
    return (this.gamma * this.ri[k] * this.ro[k]) / (d * d);
  }

  inputAtMarginal(lambda: number, limit: number): number {
    const top = Math.min(limit, this.maxInApprox);
    if (this.ri.length === 0 || lambda >= this.spotRate) return 0;
    if (lambda <= 0) return top;
    // The last segment whose starting rate is above lambda: the rate falls to lambda inside it or in the jump after it.
    let lo = 0;
    let hi = this.ri.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.startRate[mid] > lambda) lo = mid;
      else hi = mid - 1;
    }
    const u = Math.sqrt((this.gamma * this.ri[lo] * this.ro[lo]) / lambda) - this.ri[lo];
    const x = Math.min(this.startIn[lo] + u / this.gamma, this.startIn[lo + 1]);
    return x < 0 ? 0 : x > top ? top : x;
  }

  shape(amountIn: number, out: LegShape): void {
    if (this.ri.length === 0 || amountIn >= this.maxInApprox) {
      out.y = this.totalOut;
      out.slope = out.curvature = 0;
      return;
    }
    const x = Math.max(0, amountIn);
    const k = this.segmentAt(x);
    const u = this.gamma * (x - this.startIn[k]);
    const d = this.ri[k] + u;
    out.y = this.startOut[k] + (this.ro[k] * u) / d;
    out.slope = (this.gamma * this.ri[k] * this.ro[k]) / (d * d);
    out.curvature = (-2 * this.gamma * out.slope) / d;
  }
}

/**
 * The legs of a concentrated pool: token0 -> token1 while the price can fall through liquidity, token1 -> token0
 * while it can rise through liquidity, in the pool's own token order (the direction is the pool's zeroForOne, not
 * an order of the addresses). Each leg's swaps pay `swapFee` of its direction (default: the pool's fee).
 */
export function concentratedLegs(pool: ConcentratedPoolSnapshot, swap: ConcentratedSwap, swapFee: (zeroForOne: boolean) => number = () => pool.fee): Leg[] {
  if (pool.sqrtPriceX96 <= 0n || pool.ticks === undefined) return [];
  const state = stateOf(pool);
  const stateFor = (zeroForOne: boolean): ConcentratedPoolState => {
    const fee = swapFee(zeroForOne);
    return fee === state.fee ? state : { ...state, fee };
  };
  const legs: Leg[] = [];
  if (pool.sqrtPriceX96 > priceLimit(true)) {
    const leg = new ConcentratedLeg(pool, pool.token0, pool.token1, true, stateFor(true), swap);
    if (leg.tradable) legs.push(leg);
  }
  if (pool.sqrtPriceX96 < priceLimit(false)) {
    const leg = new ConcentratedLeg(pool, pool.token1, pool.token0, false, stateFor(false), swap);
    if (leg.tradable) legs.push(leg);
  }
  return legs;
}

/**
 * The initialized ticks a swap of `amountIn` spending `tokenIn` through a concentrated leg crosses and the 256-tick
 * bitmap words its price moves across, from the leg's exact swap; undefined when unknown (not a concentrated leg,
 * nothing swapped, or beyond the pool's ticks).
 */
export function concentratedCrossings(leg: Leg, tokenIn: string, amountIn: bigint): TickCrossings | undefined {
  if (!(leg instanceof ConcentratedLeg) || amountIn <= 0n) return undefined;
  const pool = leg.pool;
  const end = leg.swapExactIn(amountIn);
  if (!end) return undefined;
  const table = tickTableOf(pool.ticks);
  const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase();
  // Down: the ticks in (end, start]; up: those in (start, end].
  const ticks = Math.abs(zeroForOne ? table.atOrBelow(pool.tick) - table.atOrBelow(end.tick) : table.atOrBelow(end.tick) - table.atOrBelow(pool.tick));
  const word = (tick: number): number => Math.floor(Math.floor(tick / pool.tickSpacing) / 256);
  return { ticks, words: Math.abs(word(end.tick) - word(pool.tick)) };
}
