import { stableGetAmountIn, stableGetAmountOut, stableGetY, stableK, StableMathError, type StableSide } from './stable-math';
import { rng } from '../../../test/fixtures';

/**
 * Quotes read from the deployed contract (`StablePool.getAmountOut` on anvil, the forge build in libs/abis:
 * a 0.04% factory, USDC 6 decimals and DAI 18 decimals, 1M of each deposited, then 600k USDC swapped in).
 */
const CONTRACT_QUOTES: {
  label: string;
  reserveUsdc: bigint;
  reserveDai: bigint;
  quotes: ['USDC' | 'DAI', bigint, bigint][];
}[] = [
  { label: "balanced 1M/1M", reserveUsdc: 1000000000000n, reserveDai: 1000000000000000000000000n, quotes: [
    ["USDC", 1000000n, 999599999999999999n],
    ["USDC", 1000000000n, 999599999500799520626n],
    ["USDC", 100000000000n, 99910131607127585714307n],
    ["USDC", 900000000000n, 714682866726788534324206n],
    ["USDC", 12345678000n, 12340728132312446938997n],
    ["DAI", 1000000000000000000n, 999599n],
    ["DAI", 1000000000000000000000n, 999599999n],
    ["DAI", 100000000000000000000000n, 99910131607n],
    ["DAI", 900000000000000000000000n, 714682866726n],
    ["DAI", 12345678000000000000000n, 12340728132n],
    ["USDC", 1n, 999999999999n],
    ["USDC", 7n, 6999999999999n],
    ["USDC", 999n, 998999999999999n],
  ] },
  { label: "after 600k USDC in", reserveUsdc: 1600000000000n, reserveDai: 452337020015002573231530n, quotes: [
    ["USDC", 1000000n, 702045196726880837n],
    ["USDC", 1000000000n, 701537476694121584800n],
    ["USDC", 100000000000n, 65138258920832227362744n],
    ["USDC", 900000000000n, 324560794684612720901871n],
    ["USDC", 12345678000n, 8589732244642484099630n],
    ["DAI", 1000000000000000000n, 1423267n],
    ["DAI", 1000000000000000000000n, 1421805553n],
    ["DAI", 100000000000000000000000n, 130313947303n],
    ["DAI", 900000000000000000000000n, 944454325935n],
    ["DAI", 12345678000000000000000n, 17353406483n],
    ["USDC", 1n, 702326635582n],
    ["USDC", 7n, 4916286449055n],
    ["USDC", 999n, 701624308439789n],
  ] },
];

const side = (tokenIn: 'USDC' | 'DAI', reserveUsdc: bigint, reserveDai: bigint): StableSide =>
  tokenIn === 'USDC'
    ? { reserveIn: reserveUsdc, reserveOut: reserveDai, decimalsIn: 6, decimalsOut: 18, feeBps: 4n }
    : { reserveIn: reserveDai, reserveOut: reserveUsdc, decimalsIn: 18, decimalsOut: 6, feeBps: 4n };

/** The fixture's reference quote (StableFixture._referenceAmountOut): bisection on the same invariant. */
function referenceAmountOut(amountIn: bigint, s: StableSide): bigint {
  const unitIn = 10n ** BigInt(s.decimalsIn);
  const unitOut = 10n ** BigInt(s.decimalsOut);
  const e18 = 10n ** 18n;
  const reserveIn = (s.reserveIn * e18) / unitIn;
  const reserveOut = (s.reserveOut * e18) / unitOut;
  const net = amountIn - (amountIn * s.feeBps) / 10_000n;
  const x0 = reserveIn + (net * e18) / unitIn;
  const xy = stableK(reserveIn, reserveOut);
  let lo = 0n;
  let hi = reserveOut;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (stableK(x0, mid) >= xy) hi = mid;
    else lo = mid + 1n;
  }
  return ((reserveOut - lo) * unitOut) / e18;
}

describe('stable math (twin of StableMath.sol / StablePool.getAmountOut)', () => {
  it.each(CONTRACT_QUOTES)('matches the contract to the unit: $label', ({ reserveUsdc, reserveDai, quotes }) => {
    for (const [tokenIn, amountIn, expected] of quotes) {
      expect(stableGetAmountOut(amountIn, side(tokenIn, reserveUsdc, reserveDai))).toBe(expected);
    }
  });

  it('matches the fixture reference (bisection) on random pools and amounts', () => {
    let seed = 11n;
    const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    for (let i = 0; i < 300; i++) {
      const whole = (next() % 1_000_000_000n) + 1000n;
      const s: StableSide = {
        reserveIn: whole * 10n ** 6n + (next() % (whole * 10n ** 6n)),
        reserveOut: whole * 10n ** 18n,
        decimalsIn: 6,
        decimalsOut: 18,
        feeBps: next() % 30n,
      };
      const amountIn = (next() % s.reserveIn) + 1n;
      expect(stableGetAmountOut(amountIn, s)).toBe(referenceAmountOut(amountIn, s));
      const flipped: StableSide = { reserveIn: s.reserveOut, reserveOut: s.reserveIn, decimalsIn: 18, decimalsOut: 6, feeBps: s.feeBps };
      const back = (next() % s.reserveOut) + 1n;
      expect(stableGetAmountOut(back, flipped)).toBe(referenceAmountOut(back, flipped));
    }
  });

  it('getY returns the smallest y that keeps the invariant', () => {
    const e18 = 10n ** 18n;
    const x = 1_000_000n * e18;
    const y = 1_300_000n * e18;
    const xy = stableK(x, y);
    const x0 = x + 50_000n * e18;
    const got = stableGetY(x0, xy, y);
    expect(stableK(x0, got)).toBeGreaterThanOrEqual(xy);
    expect(stableK(x0, got - 1n)).toBeLessThan(xy);
  });

  it('is 0 for an empty pool and for no input', () => {
    expect(stableGetAmountOut(10n, { reserveIn: 0n, reserveOut: 5n, decimalsIn: 6, decimalsOut: 6, feeBps: 4n })).toBe(0n);
    expect(stableGetAmountOut(0n, side('USDC', 10n ** 12n, 10n ** 24n))).toBe(0n);
  });

  it('throws where the contract would revert on overflow', () => {
    const huge: StableSide = { reserveIn: 10n ** 40n, reserveOut: 10n ** 40n, decimalsIn: 18, decimalsOut: 18, feeBps: 4n };
    expect(() => stableGetAmountOut(10n ** 30n, huge)).toThrow(StableMathError);
  });

  it('exact-output inverse: the smallest input that pays at least the output', () => {
    const s = side('USDC', 1_600_000n * 10n ** 6n, 452_337_020_015_002_573_231_530n);
    const flipped = side('DAI', 1_600_000n * 10n ** 6n, 452_337_020_015_002_573_231_530n);
    for (const [sd, out] of [
      [s, 1n],
      [s, 10n ** 18n],
      [s, 123_456n * 10n ** 18n],
      [flipped, 1n],
      [flipped, 777_777n * 10n ** 6n],
    ] as const) {
      const amountIn = stableGetAmountIn(out, sd);
      expect(stableGetAmountOut(amountIn, sd)).toBeGreaterThanOrEqual(out);
      expect(stableGetAmountOut(amountIn - 1n, sd)).toBeLessThan(out);
    }
    expect(() => stableGetAmountIn(s.reserveOut, s)).toThrow(StableMathError);
  });

  it('exact-output inverse to the unit either way between 6 and 18 decimals, from dust to most of the reserve', () => {
    const r = rng(5n);
    const rand = () => r.float();
    for (let i = 0; i < 60; i++) {
      const usdc = BigInt(Math.floor(1e6 * 10 ** (2 + rand() * 6)));
      const dai = (usdc * 10n ** 12n * BigInt(Math.floor(500 + rand() * 1000))) / 1000n;
      const sd = side(i % 2 ? 'USDC' : 'DAI', usdc, dai);
      const out = (sd.reserveOut * BigInt(Math.floor(1 + rand() ** 4 * 900_000))) / 1_000_000n + 1n;
      const amountIn = stableGetAmountIn(out, sd);
      expect(stableGetAmountOut(amountIn, sd)).toBeGreaterThanOrEqual(out);
      expect(stableGetAmountOut(amountIn - 1n, sd)).toBeLessThan(out);
    }
  });
});
