import { stageArcs, type FlowArc } from './flow-route';
import { legsOf } from '../pools/legs';
import type { UniswapV2PoolSnapshot } from '../pools/pool-snapshot';

const [A, B] = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b2'];
const pool = (n: number, reserve0: bigint, reserve1: bigint): UniswapV2PoolSnapshot => ({
  kind: 'uniswap-v2',
  address: `0x${n.toString(16).padStart(40, '0')}`,
  routerIndex: 1,
  token0: A,
  token1: B,
  decimals0: 18,
  decimals1: 18,
  reserve0,
  reserve1,
  feeBps: 30,
});
/** The pool's leg from A to B. */
const legAB = (p: UniswapV2PoolSnapshot) => legsOf(p).find((l) => l.tokenIn === A)!;

describe('stageArcs', () => {
  const legs = [legAB(pool(1, 10n ** 27n, 2n * 10n ** 27n)), legAB(pool(2, 4n * 10n ** 26n, 7n * 10n ** 26n))];
  const arcs = (w0: number, w1: number): FlowArc[] => [
    { index: 0, leg: legs[0], from: 0, to: 1, weight: w0 },
    { index: 1, leg: legs[1], from: 0, to: 1, weight: w1 },
  ];
  const shares = (w0: number, w1: number) => stageArcs(arcs(w0, w1), 2, 123_456_789_012_345_678_901_234n)!.stages.flat().map((s) => s.amountIn);

  it('shares an amount by the flows, exactly what it was given', () => {
    const [x, y] = shares(0.7, 0.3);
    expect(x + y).toBe(123_456_789_012_345_678_901_234n);
    expect(Number(x) / Number(x + y)).toBeCloseTo(0.7, 9);
  });

  it('gives the same integer shares for flows that differ only by float noise (sums taken in another order)', () => {
    // Weights as the same solve gives them on graphs built in other orders: equal within a few 1e-15.
    let differing = 0;
    for (let i = 1; i <= 200; i++) {
      const w = 0.05 + (0.9 * ((i * 0.6180339887498949) % 1));
      const noisy = [w * (1 + 3e-15), (1 - w) * (1 - 2e-15)];
      if (shares(w, 1 - w).join() !== shares(noisy[0], noisy[1]).join()) differing++;
    }
    expect(differing).toBe(0);
  });
});
