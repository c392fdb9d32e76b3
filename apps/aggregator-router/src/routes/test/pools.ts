// Pools of the route tests: three tokens, V2 pools between them and a core USDC/PURR pool.
import type { CorePoolSnapshot, UniswapV2PoolSnapshot } from '@dex/routing';

export const WHYPE = '0x1000000000000000000000000000000000000001' as const;
export const USDC = '0x2000000000000000000000000000000000000002' as const;
export const PURR = '0x4000000000000000000000000000000000000004' as const;
export const E18 = 10n ** 18n;
export const E6 = 10n ** 6n;
export const meta = { [WHYPE]: { symbol: 'WHYPE', decimals: 18 }, [USDC]: { symbol: 'USDC', decimals: 6 }, [PURR]: { symbol: 'PURR', decimals: 18 } } as const;

export const pool = (n: number) => `0x${(0xa000 + n).toString(16).padStart(40, '0')}`;
export const v2 = (n: number, token0: string, token1: string, reserve0: bigint, reserve1: bigint, routerIndex = 1): UniswapV2PoolSnapshot => ({
  kind: 'uniswap-v2',
  address: pool(n),
  routerIndex,
  token0,
  token1,
  decimals0: meta[token0 as keyof typeof meta].decimals,
  decimals1: meta[token1 as keyof typeof meta].decimals,
  reserve0,
  reserve1,
  feeBps: 30,
});
// A core USDC -> PURR pool at 4 PURR per USDC less 0.3%, sampled up to 50,000 USDC (both ways).
const ladder = (top: bigint, rate: (x: bigint) => bigint) => [1n, 10n, 100n, 1_000n, 10_000n, 100_000n].map((f) => ({ amountIn: (top * f) / 100_000n, amountOut: rate((top * f) / 100_000n) }));
export const corePurr: CorePoolSnapshot = {
  kind: 'core',
  address: pool(9),
  routerIndex: 0,
  token0: USDC,
  token1: PURR,
  decimals0: 6,
  decimals1: 18,
  samples0to1: ladder(50_000n * E6, (x) => (x * 4n * 10n ** 12n * 997n) / 1000n),
  samples1to0: ladder(200_000n * E18, (x) => (x * 997n) / (4n * 10n ** 12n * 1000n)),
};
