/** Uniswap V3's TickMath (the same in Algebra Integral): ticks to Q64.96 sqrt ratios and back, to the wei. */
import { fail, MAX_UINT256 } from './full-math';

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

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
