/** The recorded steps of a pool's exact-input swaps (`SwapLadder`), which later swaps from the same state take whole. */
import { countAtOrBelow } from '../../math/sorted';
import { FEE_DENOMINATOR } from './full-math';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './tick-math';

/** The price limit RouterV2 and the quoters pass: just inside the pool's price range. */
export const priceLimit = (zeroForOne: boolean): bigint => (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);

/**
 * The steps of a pool's exact-input swaps from one state, in one direction, that end on their step's tick (an
 * initialized tick, a bitmap word's edge, or, for a pool without liquidity there, the next initialized tick),
 * recorded as swaps walk them. A step that reaches its tick uses and pays amounts that do not depend on the input
 * left, and reaches it for any input left of at least its `need`: so a later swap whose input is at least the
 * `gate` of the first k steps (the most any of them needs, over what the steps before it used) takes those k steps
 * exactly as recorded, and starts after them with the very state the pool's loop has there. A quote then walks the
 * steps past the recorded ones (most often one, the step that stops short) instead of every step from the pool's
 * price: the same amounts to the wei, for a fraction of the bigint maths.
 */
export class SwapLadder {
  /** Steps recorded at most per ladder (a swap past them walks on step by step, as without one). */
  static readonly MAX_STEPS = 256;
  /** gate[k]: the least input for which the steps 0..k all end on their ticks. */
  readonly gate: bigint[] = [];
  /** After step k: the input used (fees included) and the output paid so far, the price, tick and liquidity. */
  readonly used: bigint[] = [];
  readonly paid: bigint[] = [];
  readonly price: bigint[] = [];
  readonly tick: number[] = [];
  readonly liquidity: bigint[] = [];
  /** Algebra's positions of the initialized ticks below and above the price after step k. */
  readonly below: number[] = [];
  readonly above: number[] = [];

  constructor(readonly zeroForOne: boolean) {}

  get length(): number {
    return this.gate.length;
  }

  /** The steps `amountIn` takes as recorded: the number of gates at or below it. */
  taken(amountIn: bigint): number {
    return countAtOrBelow(this.gate, amountIn);
  }

  /**
   * The ladder a swap uses: `ladder` for an exact input (`amount` > 0) in its direction to the default price limit,
   * else none.
   */
  static of(ladder: SwapLadder | undefined, zeroForOne: boolean, amount: bigint, limit: bigint): SwapLadder | undefined {
    return amount > 0n && ladder?.zeroForOne === zeroForOne && limit === priceLimit(zeroForOne) ? ladder : undefined;
  }

  /**
   * Where a swap of `amount` that takes the first `taken` (> 0) recorded steps goes on: the amount left, what those
   * steps paid (negative, as the swap loops count it), the price, tick and liquidity after them, and Algebra's
   * positions of the initialized ticks below and above.
   */
  resume(taken: number, amount: bigint): { remaining: bigint; calculated: bigint; price: bigint; tick: number; liquidity: bigint; below: number; above: number } {
    const k = taken - 1;
    return { remaining: amount - this.used[k], calculated: -this.paid[k], price: this.price[k], tick: this.tick[k], liquidity: this.liquidity[k], below: this.below[k], above: this.above[k] };
  }

  /** Whether a swap that took `taken` recorded steps records the steps it walks next (it is at the ladder's end). */
  recordsAfter(taken: number): boolean {
    return taken === this.gate.length && taken < SwapLadder.MAX_STEPS;
  }

  /**
   * Records a step that reached its tick with `left` of `amount` left before it and `remaining` after, its amount
   * to the tick `stepIn` (fee excluded) at `fee` pips; whether the steps after it are recorded too: not when the
   * input left only just reached the tick (a smaller input would stop short) nor past MAX_STEPS.
   */
  recordStep(amount: bigint, left: bigint, remaining: bigint, stepIn: bigint, fee: number, calculated: bigint, price: bigint, tick: number, liquidity: bigint, below = -1, above = -1): boolean {
    const need = stepNeed(stepIn, BigInt(fee));
    if (left < need) return false;
    return this.push(amount - left, need, amount - remaining, -calculated, price, tick, liquidity, below, above);
  }

  /** Records a move across a range without liquidity (no input used: any input left takes it); as `recordStep`. */
  recordJump(amount: bigint, remaining: bigint, calculated: bigint, price: bigint, tick: number, liquidity: bigint): boolean {
    const used = amount - remaining;
    return this.push(used, 1n, used, -calculated, price, tick, liquidity, -1, -1);
  }

  private push(usedBefore: bigint, need: bigint, used: bigint, paid: bigint, price: bigint, tick: number, liquidity: bigint, below: number, above: number): boolean {
    const n = this.gate.length;
    const gate = usedBefore + (need > 0n ? need : 1n);
    this.gate.push(n > 0 && this.gate[n - 1] > gate ? this.gate[n - 1] : gate);
    this.used.push(used);
    this.paid.push(paid);
    this.price.push(price);
    this.tick.push(tick);
    this.liquidity.push(liquidity);
    this.below.push(below);
    this.above.push(above);
    return this.gate.length < SwapLadder.MAX_STEPS;
  }
}

/**
 * The least input left with which an exact-input step whose amount to its target is `amountIn` (fee excluded)
 * reaches it: the pool reaches the target when the input left, less its fee (rounded down), covers that amount.
 */
function stepNeed(amountIn: bigint, fee: bigint): bigint {
  const kept = FEE_DENOMINATOR - fee;
  return (amountIn * FEE_DENOMINATOR + kept - 1n) / kept;
}
