import type { HopSwap } from '@dex/routing';
import { routeTransfers } from './route-transfers';

const WRAPPED = '0x1000000000000000000000000000000000000001';
const USDC = '0x2000000000000000000000000000000000000002';
const MEME = '0x3000000000000000000000000000000000000003';
const MANAGER = '0x4000000000000000000000000000000000000004';
const PAIR = '0x5000000000000000000000000000000000000005';
const LAUNCHPAD = '0x6000000000000000000000000000000000000006';
const POOL_ID = `0x${'ab'.repeat(32)}`;

/** A hop swap with what routeTransfers reads of it. */
const swap = (kind: HopSwap['kind'], tokenIn: string, tokenOut: string, poolAddress: string, routerPool: string) => ({ kind, tokenIn, tokenOut, poolAddress, routerPool }) as HopSwap;

describe('routeTransfers', () => {
  it("checks a V4 pool's tokens where they are held, its PoolManager, and names the pool by its PoolId; not the wrapped token nor curves", () => {
    const stages = [
      [{ swap: swap('uniswap-v4', MEME, USDC, POOL_ID, MANAGER), amountIn: 5n, amountOut: 7n }],
      [
        { swap: swap('uniswap-v2', USDC, WRAPPED, PAIR, PAIR), amountIn: 3n, amountOut: 2n },
        { swap: swap('uniswap-v4', USDC, WRAPPED, POOL_ID, MANAGER), amountIn: 4n, amountOut: 1n },
      ],
      [{ swap: swap('launchpad', WRAPPED, MEME, LAUNCHPAD, LAUNCHPAD), amountIn: 3n, amountOut: 9n }],
    ];
    expect(routeTransfers(stages, WRAPPED)).toEqual([
      { token: MEME, pool: MANAGER, poolId: POOL_ID, amount: 5n },
      { token: USDC, pool: MANAGER, poolId: POOL_ID, amount: 7n },
      { token: USDC, pool: PAIR, poolId: PAIR, amount: 3n },
      { token: USDC, pool: MANAGER, poolId: POOL_ID, amount: 4n },
    ]);
  });
});
