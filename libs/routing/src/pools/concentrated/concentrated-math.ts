/**
 * Concentrated-liquidity swap maths in bigint, as the deployed contracts compute it, to the wei: Uniswap V3
 * (TickMath, FullMath, SqrtPriceMath, SwapMath.computeSwapStep and the pool's swap loop, which steps through the
 * tick bitmap one 256-tick word at a time) and Algebra Integral 1.2 (PriceMovementMath.movePriceTowardsTarget and
 * SwapCalculation._calculateSwap, which steps through a linked list of initialized ticks).
 *
 * Every overflow check and revert of the contracts is reproduced as a thrown `ConcentratedMathError`: an amount
 * the contract would revert on throws here too.
 *
 * Prices are Q64.96 square roots of token1 per token0 in base units; fees are in hundredths of a bip (pips:
 * 3000 = 0.3%).
 */

export class ConcentratedMathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConcentratedMathError';
  }
}

const fail = (message: string): never => {
  throw new ConcentratedMathError(message);
};

export const Q96 = 1n << 96n;
export const Q128 = 1n << 128n;
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
const MAX_UINT128 = (1n << 128n) - 1n;
const FEE_DENOMINATOR = 1_000_000n;

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

// ---------------------------------------------------------------------------------------------------------------
// FullMath

/** floor(a * b / d); reverts when d is 0 or the result does not fit 256 bits. */
export function mulDiv(a: bigint, b: bigint, d: bigint): bigint {
  if (d === 0n) fail('mulDiv: division by zero');
  const r = (a * b) / d;
  if (r > MAX_UINT256) fail('mulDiv: overflow');
  return r;
}

/** ceil(a * b / d); reverts when d is 0 or the result does not fit 256 bits. */
export function mulDivRoundingUp(a: bigint, b: bigint, d: bigint): bigint {
  if (d === 0n) fail('mulDiv: division by zero');
  const p = a * b;
  let r = p / d;
  if (r > MAX_UINT256) fail('mulDiv: overflow');
  if (p % d > 0n) {
    if (r === MAX_UINT256) fail('mulDiv: overflow');
    r += 1n;
  }
  return r;
}

/** ceil(x / y) for y > 0 (UnsafeMath.divRoundingUp). */
const divRoundingUp = (x: bigint, y: bigint): bigint => x / y + (x % y > 0n ? 1n : 0n);

const toUint160 = (x: bigint): bigint => (x > MAX_UINT160 ? fail('SafeCast: uint160 overflow') : x);

// ---------------------------------------------------------------------------------------------------------------
// TickMath

const TICK_FACTORS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/** sqrt(1.0001^tick) * 2^96, rounded up as TickMath.getSqrtRatioAtTick. */
export function getSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) fail(`tick ${tick} out of range`);
  const absTick = Math.abs(tick);
  let ratio = absTick & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  for (let bit = 1; bit < 20; bit++) if (absTick & (1 << bit)) ratio = (ratio * TICK_FACTORS[bit - 1]) >> 128n;
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio & 0xffffffffn ? 1n : 0n);
}

const LN_SQRT_1_0001 = Math.log(1.0001) / 2;
const LN_Q96 = 96 * Math.LN2;

/**
 * The greatest tick whose sqrt ratio is at most `sqrtPriceX96` (TickMath.getTickAtSqrtRatio; the contract's
 * binary logarithm yields exactly this tick): a float estimate, then settled on the exact ratios.
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) fail('sqrt price out of range');
  let tick = Math.floor((Math.log(Number(sqrtPriceX96)) - LN_Q96) / LN_SQRT_1_0001);
  if (tick < MIN_TICK) tick = MIN_TICK;
  if (tick > MAX_TICK - 1) tick = MAX_TICK - 1;
  while (tick > MIN_TICK && getSqrtRatioAtTick(tick) > sqrtPriceX96) tick--;
  while (tick < MAX_TICK - 1 && getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}

// ---------------------------------------------------------------------------------------------------------------
// SqrtPriceMath (Uniswap V3) = TokenDeltaMath and PriceMovementMath.getNewPrice (Algebra): the same formulas.

/** Token0 between two sqrt prices for a liquidity (SqrtPriceMath.getAmount0Delta). */
export function getAmount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (a > b) [a, b] = [b, a];
  if (a <= 0n) fail('getAmount0Delta: zero price');
  const numerator1 = liquidity << 96n;
  const numerator2 = b - a;
  return roundUp ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a) : mulDiv(numerator1, numerator2, b) / a;
}

/** Token1 between two sqrt prices for a liquidity (SqrtPriceMath.getAmount1Delta). */
export function getAmount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (a > b) [a, b] = [b, a];
  return roundUp ? mulDivRoundingUp(liquidity, b - a, Q96) : mulDiv(liquidity, b - a, Q96);
}

function nextSqrtPriceFromAmount0RoundingUp(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return price;
  const numerator1 = liquidity << 96n;
  const product = amount * price;
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product;
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, price, denominator);
    }
    const sum = numerator1 / price + amount;
    if (sum > MAX_UINT256) fail('addition overflow');
    return divRoundingUp(numerator1, sum);
  }
  if (product > MAX_UINT256 || numerator1 <= product) fail('next price from output: out of range');
  return toUint160(mulDivRoundingUp(numerator1, price, numerator1 - product));
}

function nextSqrtPriceFromAmount1RoundingDown(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
    return toUint160(price + quotient);
  }
  const quotient = amount <= MAX_UINT160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity);
  if (price <= quotient) fail('next price from output: out of range');
  return price - quotient;
}

/** The sqrt price after `amountIn` (net of fee) goes in (SqrtPriceMath.getNextSqrtPriceFromInput). */
export function getNextSqrtPriceFromInput(price: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (price <= 0n || liquidity <= 0n) fail('zero price or liquidity');
  return zeroForOne ? nextSqrtPriceFromAmount0RoundingUp(price, liquidity, amountIn, true) : nextSqrtPriceFromAmount1RoundingDown(price, liquidity, amountIn, true);
}

/** The sqrt price after `amountOut` leaves (SqrtPriceMath.getNextSqrtPriceFromOutput). */
export function getNextSqrtPriceFromOutput(price: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean): bigint {
  if (price <= 0n || liquidity <= 0n) fail('zero price or liquidity');
  return zeroForOne ? nextSqrtPriceFromAmount1RoundingDown(price, liquidity, amountOut, false) : nextSqrtPriceFromAmount0RoundingUp(price, liquidity, amountOut, false);
}

// ---------------------------------------------------------------------------------------------------------------
// One step within a price range

export interface SwapStep {
  readonly sqrtPriceNextX96: bigint;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly feeAmount: bigint;
}

/**
 * Uniswap V3 SwapMath.computeSwapStep: from `current` towards `target` with `liquidity`, `amountRemaining`
 * (positive: exact input left, fee included; negative: exact output left), `feePips` taken from the input.
 */
export function computeSwapStep(current: bigint, target: bigint, liquidity: bigint, amountRemaining: bigint, feePips: number): SwapStep {
  const fee = BigInt(feePips);
  const zeroForOne = current >= target;
  const exactIn = amountRemaining >= 0n;
  let next: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const remainingLessFee = mulDiv(amountRemaining, FEE_DENOMINATOR - fee, FEE_DENOMINATOR);
    amountIn = zeroForOne ? getAmount0Delta(target, current, liquidity, true) : getAmount1Delta(current, target, liquidity, true);
    next = remainingLessFee >= amountIn ? target : getNextSqrtPriceFromInput(current, liquidity, remainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne ? getAmount1Delta(target, current, liquidity, false) : getAmount0Delta(current, target, liquidity, false);
    next = -amountRemaining >= amountOut ? target : getNextSqrtPriceFromOutput(current, liquidity, -amountRemaining, zeroForOne);
  }
  const max = target === next;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(next, current, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(next, current, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(current, next, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(current, next, liquidity, false);
  }
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  const feeAmount = exactIn && next !== target ? amountRemaining - amountIn : mulDivRoundingUp(amountIn, fee, FEE_DENOMINATOR - fee);
  return { sqrtPriceNextX96: next, amountIn, amountOut, feeAmount };
}

/**
 * Algebra Integral PriceMovementMath.movePriceTowardsTarget: as V3's step but for an exact input that stops short
 * of the target, the contract asserts that the new price is not the target (a panic where V3 would treat it as
 * reached) and always recomputes the input from the new price.
 */
export function movePriceTowardsTarget(
  zeroToOne: boolean,
  current: bigint,
  target: bigint,
  liquidity: bigint,
  amountAvailable: bigint,
  feePips: number,
): SwapStep {
  const fee = BigInt(feePips);
  const inputDelta = (to: bigint): bigint => (zeroToOne ? getAmount0Delta(to, current, liquidity, true) : getAmount1Delta(current, to, liquidity, true));
  const outputDelta = (to: bigint): bigint => (zeroToOne ? getAmount1Delta(to, current, liquidity, false) : getAmount0Delta(current, to, liquidity, false));
  if (amountAvailable >= 0n) {
    const afterFee = mulDiv(amountAvailable, FEE_DENOMINATOR - fee, FEE_DENOMINATOR);
    let input = inputDelta(target);
    let next: bigint;
    let feeAmount: bigint;
    if (afterFee >= input) {
      next = target;
      feeAmount = mulDivRoundingUp(input, fee, FEE_DENOMINATOR - fee);
    } else {
      next = getNextSqrtPriceFromInput(current, liquidity, afterFee, zeroToOne);
      if (next === target) fail('movePriceTowardsTarget: assertion (target reached short of the input)');
      input = inputDelta(next);
      feeAmount = amountAvailable - input;
    }
    return { sqrtPriceNextX96: next, amountIn: input, amountOut: outputDelta(next), feeAmount };
  }
  let output = outputDelta(target);
  const wanted = -amountAvailable;
  let next: bigint;
  if (wanted >= output) next = target;
  else {
    next = getNextSqrtPriceFromOutput(current, liquidity, wanted, zeroToOne);
    if (target !== next) output = outputDelta(next);
    if (output > wanted) output = wanted;
  }
  const input = inputDelta(next);
  return { sqrtPriceNextX96: next, amountIn: input, amountOut: output, feeAmount: mulDivRoundingUp(input, fee, FEE_DENOMINATOR - fee) };
}

// ---------------------------------------------------------------------------------------------------------------
// Pool state and the swap loops

/** An initialized tick and the liquidity added when the price crosses it upwards. */
export interface TickLiquidity {
  readonly index: number;
  readonly liquidityNet: bigint;
}

/**
 * What a swap reads from a pool: its price, tick, active liquidity, fee (pips), tick spacing and initialized
 * ticks. `ticks` is the pool's tick list as sorted arrays (`tickTable`), built once per pool.
 */
export interface ConcentratedPoolState {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly ticks: TickTable;
}

/** Word edges whose sqrt ratios a tick table keeps at most (a wide position on spacing 1 has thousands). */
const EDGES_KEPT = 1024;

/** Initialized ticks as sorted arrays, with their sqrt ratios computed on first use. */
export class TickTable {
  readonly index: Int32Array;
  readonly liquidityNet: readonly bigint[];
  private readonly ratios: (bigint | undefined)[];

  constructor(ticks: readonly TickLiquidity[]) {
    const sorted = [...ticks].sort((a, b) => a.index - b.index);
    for (let i = 1; i < sorted.length; i++) if (sorted[i].index === sorted[i - 1].index) throw new RangeError(`tick ${sorted[i].index} listed twice`);
    this.index = Int32Array.from(sorted, (t) => t.index);
    this.liquidityNet = sorted.map((t) => t.liquidityNet);
    this.ratios = new Array<bigint | undefined>(sorted.length);
  }

  get length(): number {
    return this.index.length;
  }

  /** The position of the greatest initialized tick <= `tick` (-1 when none). */
  atOrBelow(tick: number): number {
    let lo = 0;
    let hi = this.index.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.index[mid] <= tick) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The sqrt ratio at the tick at position `i`. */
  ratio(i: number): bigint {
    let r = this.ratios[i];
    if (r === undefined) r = this.ratios[i] = getSqrtRatioAtTick(this.index[i]);
    return r;
  }

  /** The sqrt ratios of ticks that are not initialized (bitmap words' edges) that swaps stepped to, up to EDGES_KEPT. */
  private readonly edges = new Map<number, bigint>();

  /** The sqrt ratio at any tick, kept for the ticks swaps step to (an edge is computed once, not once a swap). */
  edgeRatio(tick: number): bigint {
    let r = this.edges.get(tick);
    if (r === undefined) {
      r = getSqrtRatioAtTick(tick);
      if (this.edges.size < EDGES_KEPT) this.edges.set(tick, r);
    }
    return r;
  }
}

export interface SwapResult {
  /** What the pool receives (fee included) and pays: both positive. */
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The state after the swap. */
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
}

/**
 * A swap's result; the tick after it is computed on first read (a quote needs only the amounts, and the tick of a
 * price inside a range costs a few sqrt ratios).
 */
class SwapOutcome implements SwapResult {
  private known: number | undefined;
  constructor(
    readonly amountIn: bigint,
    readonly amountOut: bigint,
    readonly sqrtPriceX96: bigint,
    readonly liquidity: bigint,
    tick: number | undefined,
  ) {
    this.known = tick;
  }
  get tick(): number {
    return (this.known ??= getTickAtSqrtRatio(this.sqrtPriceX96));
  }
}

/** The price limit RouterV2 and the quoters pass: just inside the pool's price range. */
export const priceLimit = (zeroForOne: boolean): bigint => (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);

function addDelta(liquidity: bigint, delta: bigint): bigint {
  const r = liquidity + delta;
  if (r < 0n) fail('LiquidityMath: underflow');
  if (r > MAX_UINT128) fail('LiquidityMath: overflow');
  return r;
}

function checkLimit(state: ConcentratedPoolState, zeroForOne: boolean, amountSpecified: bigint, limit: bigint): void {
  if (amountSpecified === 0n) fail('amountSpecified is zero');
  if (zeroForOne ? !(limit < state.sqrtPriceX96 && limit > MIN_SQRT_RATIO) : !(limit > state.sqrtPriceX96 && limit < MAX_SQRT_RATIO)) fail('price limit');
}

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
    let lo = 0;
    let hi = this.gate.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.gate[mid] <= amountIn) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The ladder a swap uses: `ladder` for an exact input (`amount` > 0) in its direction to the default price limit,
   * else none.
   */
  static of(ladder: SwapLadder | undefined, zeroForOne: boolean, amount: bigint, limit: bigint): SwapLadder | undefined {
    return amount > 0n && ladder?.zeroForOne === zeroForOne && limit === priceLimit(zeroForOne) ? ladder : undefined;
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

const wordOf = (compressed: number): number => Math.floor(compressed / 256);

/**
 * UniswapV3Pool.swap's loop: `amountSpecified` > 0 is an exact input (fee included), < 0 an exact output. Each
 * step goes to the next initialized tick within the current 256-tick word of the bitmap (or the word's edge),
 * or to the price limit; a swap that runs out of initialized ticks goes on with zero liquidity to the limit.
 */
export function swapUniswapV3(state: ConcentratedPoolState, zeroForOne: boolean, amountSpecified: bigint, limit = priceLimit(zeroForOne), ladder?: SwapLadder): SwapResult {
  checkLimit(state, zeroForOne, amountSpecified, limit);
  const exactInput = amountSpecified > 0n;
  const { ticks, tickSpacing, fee } = state;
  let remaining = amountSpecified;
  let calculated = 0n;
  let price = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  let limitTick: number | undefined;
  // The tick of a price a step left inside a range, computed only if another step needs it.
  let tickStale = false;
  // The recorded steps the input takes (a ladder is kept for exact inputs to the default limit only).
  const steps = SwapLadder.of(ladder, zeroForOne, amountSpecified, limit);
  const taken = steps ? steps.taken(amountSpecified) : 0;
  if (steps && taken > 0) {
    const k = taken - 1;
    remaining = amountSpecified - steps.used[k];
    calculated = -steps.paid[k];
    price = steps.price[k];
    tick = steps.tick[k];
    liquidity = steps.liquidity[k];
  }
  // Steps are recorded from the ladder's end on, while each ends on its tick.
  let recording = steps?.recordsAfter(taken) ?? false;
  while (remaining !== 0n && price !== limit) {
    if (tickStale) {
      tick = getTickAtSqrtRatio(price);
      tickStale = false;
    }
    const start = price;
    let tickNext: number;
    let position = -1;
    if (liquidity === 0n) {
      // Without liquidity every step reaches its target with nothing in or out: straight to the next
      // initialized tick, or to the limit when none lies before it (unless the limit is itself a tick's price,
      // where the steps would end on a word's edge: then step by step).
      const i = zeroForOne ? ticks.atOrBelow(tick) : ticks.atOrBelow(tick) + 1;
      const ratio = i >= 0 && i < ticks.length ? ticks.ratio(i) : undefined;
      if (ratio === undefined || (zeroForOne ? ratio < limit : ratio > limit)) {
        limitTick ??= getTickAtSqrtRatio(limit);
        if (getSqrtRatioAtTick(limitTick) !== limit) {
          price = limit;
          tick = limitTick;
          break;
        }
      } else if (ratio !== price && ratio !== limit) {
        // On the tick's price, not yet crossed: the next step crosses it.
        price = ratio;
        tick = ticks.index[i] + (zeroForOne ? 0 : -1);
        if (recording) recording = steps!.recordJump(amountSpecified, remaining, calculated, price, tick, liquidity);
        continue;
      }
    }
    // TickBitmap.nextInitializedTickWithinOneWord
    const compressed = Math.floor(tick / tickSpacing);
    if (zeroForOne) {
      const minimum = wordOf(compressed) * 256 * tickSpacing;
      const i = ticks.atOrBelow(tick);
      if (i >= 0 && ticks.index[i] >= minimum) {
        tickNext = ticks.index[i];
        position = i;
      } else tickNext = minimum;
    } else {
      const maximum = (wordOf(compressed + 1) * 256 + 255) * tickSpacing;
      const i = ticks.atOrBelow(tick) + 1;
      if (i < ticks.length && ticks.index[i] <= maximum) {
        tickNext = ticks.index[i];
        position = i;
      } else tickNext = maximum;
    }
    if (tickNext < MIN_TICK) tickNext = MIN_TICK;
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK;
    const priceNext = position >= 0 ? ticks.ratio(position) : ticks.edgeRatio(tickNext);
    const target = (zeroForOne ? priceNext < limit : priceNext > limit) ? limit : priceNext;
    const step = computeSwapStep(price, target, liquidity, remaining, fee);
    const left = remaining;
    price = step.sqrtPriceNextX96;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (price === priceNext) {
      if (position >= 0) liquidity = addDelta(liquidity, zeroForOne ? -ticks.liquidityNet[position] : ticks.liquidityNet[position]);
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (price !== start) tickStale = true;
    // Only a step that ends on its tick with the input left covering it fully is the same for every larger input.
    if (recording) recording = price === priceNext && steps!.recordStep(amountSpecified, left, remaining, step.amountIn, fee, calculated, price, tick, liquidity);
  }
  return exactInput
    ? new SwapOutcome(amountSpecified - remaining, -calculated, price, liquidity, tickStale ? undefined : tick)
    : new SwapOutcome(calculated, remaining - amountSpecified, price, liquidity, tickStale ? undefined : tick);
}

/**
 * AlgebraPool's swap (SwapCalculation._calculateSwap) at a fixed fee: each step goes to the previous or next
 * initialized tick of the linked list (MIN_TICK and MAX_TICK close it, so past the last initialized tick the
 * price goes on with zero liquidity to the limit), or to the price limit; a step that stops short of its target
 * ends the swap. `fee` is the fee the swap pays (the pool's current fee, plus a plugin's fee if it adds one).
 */
export function swapAlgebra(state: ConcentratedPoolState, zeroToOne: boolean, amountRequired: bigint, limit = priceLimit(zeroToOne), ladder?: SwapLadder): SwapResult {
  checkLimit(state, zeroToOne, amountRequired, limit);
  if (state.fee >= 1_000_000) fail('fee');
  const exactInput = amountRequired > 0n;
  const { ticks, fee } = state;
  let remaining = amountRequired;
  let calculated = 0n;
  let price = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  // prevInitializedTick <= tick < nextInitializedTick, as positions in the sorted ticks (-1 / length: MIN_TICK / MAX_TICK).
  let prev = ticks.atOrBelow(tick);
  let next = prev + 1;
  let tickStale = false;
  // The recorded steps the input takes (see `SwapLadder`; exact inputs to the default limit only).
  const steps = SwapLadder.of(ladder, zeroToOne, amountRequired, limit);
  const taken = steps ? steps.taken(amountRequired) : 0;
  if (steps && taken > 0) {
    const k = taken - 1;
    remaining = amountRequired - steps.used[k];
    calculated = -steps.paid[k];
    price = steps.price[k];
    tick = steps.tick[k];
    liquidity = steps.liquidity[k];
    prev = steps.below[k];
    next = steps.above[k];
  }
  let recording = steps?.recordsAfter(taken) ?? false;
  // The pool's loop is a do-while: its first step is taken whatever the input left (a swap resumed after recorded
  // steps goes on only while input is left and the limit is not reached, as the pool's loop would).
  let first = taken === 0;
  while (first || (remaining !== 0n && price !== limit)) {
    first = false;
    const position = zeroToOne ? prev : next;
    const sentinel = position < 0 || position >= ticks.length;
    const nextTick = sentinel ? (zeroToOne ? MIN_TICK : MAX_TICK) : ticks.index[position];
    const start = price;
    const nextTickPrice = sentinel ? getSqrtRatioAtTick(nextTick) : ticks.ratio(position);
    const target = zeroToOne === nextTickPrice < limit ? limit : nextTickPrice;
    const step = movePriceTowardsTarget(zeroToOne, price, target, liquidity, remaining, fee);
    const left = remaining;
    price = step.sqrtPriceNextX96;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (price === nextTickPrice) {
      // MIN_TICK and MAX_TICK are never crossed: the price limit lies inside them.
      const delta = ticks.liquidityNet[position];
      if (zeroToOne) {
        liquidity = addDelta(liquidity, -delta);
        tick = nextTick - 1;
        next = position;
        prev = position - 1;
      } else {
        liquidity = addDelta(liquidity, delta);
        tick = nextTick;
        prev = position;
        next = position + 1;
      }
      if (recording) recording = steps!.recordStep(amountRequired, left, remaining, step.amountIn, fee, calculated, price, tick, liquidity, prev, next);
    } else if (price !== start) {
      // Short of the target: the swap ends here (its tick is the price's).
      tickStale = true;
      break;
    } else recording = false;
  }
  return exactInput
    ? new SwapOutcome(amountRequired - remaining, -calculated, price, liquidity, tickStale ? undefined : tick)
    : new SwapOutcome(calculated, remaining - amountRequired, price, liquidity, tickStale ? undefined : tick);
}
