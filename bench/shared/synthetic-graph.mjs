// The seeded synthetic liquidity graph of the routing benches: V2 and stable pools over 160 tokens (5 hubs),
// reserves of $1k to $10M a side, each pool priced up to 2% off its tokens' prices, and random queries of
// $10 to $100k. Same seed, same graph and queries, so the benches' figures compare.
//
//   syntheticGraph(1000, 20_251_121, 300) -> { snapshot, queries, tokenCount, pairs, tokens }
//
// Options (bench/route-quality; without them the graph is the one bench/route times):
//   loopFree: true    each pool priced off its tokens' prices by less than its own fee (90% of it at most), so
//                     that no loop of pools pays at spot, as on a chain whose arbitrage keeps loops closed; the
//                     same random draws as without, so the pools, tokens and queries are otherwise the same
//   corePools: N      N more pools of the oracle-priced kind (`core`), known by samples of their quote: the
//                     input's value at the tokens' prices less a fee of 0.3% that grows with the share of the pool
//                     the swap moves (as the core pools' dynamic fee does on a balanced pool), up to the input
//                     that empties the output side
//   curves: N         N more tokens, each trading only on a launchpad bonding curve against WETH (virtual
//                     reserves of 300 WETH and 1.125e9 tokens of 6 decimals at creation, 1% fee), each part-way
//                     through its sale
//   concentrated: F   a share F of all the pools (at least F of them, counted after the extras) made concentrated-
//                     liquidity pools: V2 pools of the base graph, picked by their own seeded draw, become Uniswap V3
//                     pools (fee tiers 100 / 500 / 3000 / 10000 pips with tick spacings 1 / 10 / 60 / 200) or, one
//                     in four, Algebra pools (fee 100 to 10000 pips, tick spacing 10 or 60), on the same tokens, with
//                     the same depth ($1k to $10M a side, spread over 4 to 7 positions: narrow around the price,
//                     wide, one-sided above and below the price, sometimes full range), priced off the tokens' prices
//                     like the other pools (loopFree: by less than 90% of the pool's own fee)
//   uniswapV4: F      a share F of the concentrated pools (own seeded draw) made Uniswap V4 pools with the same state:
//                     named by a PoolId inside one PoolManager, one in four with a dynamic fee set by a hook that
//                     has no swap permission (afterInitialize only), so every one trades with the tick-exact maths
//   curvePools: N     N more StableswapNG-like pools (kind `curve-stableswap-ng`) of two or three of the stablecoin
//                     hubs (USDC, USDT, DAI), balanced at $100k to $10M a coin, A 100 to 2,000, base fee 1 or 4 bps
//                     with NG's off-peg fee multiplier (2x): each coin pair i < j a pool of its own to the engine (pair
//                     id `<pool>:i:j`, token0 coin i), known as the aggregator knows one: its get_dy (StableswapNG's
//                     integer-free maths in float: the invariant D, then y, the dynamic fee on the average balances)
//                     sampled both ways at `curveLadder(balance of the input coin)` (pass routing's curveSampleLadder);
//                     `reference` holds 512 more quotes geometric up to the ladder's top (and the ladder's own), for
//                     bench/route-quality's reference
// The extra pools and tokens come from their own seeded draws, after the base graph's.

import { createRequire } from 'node:module';

const v3sdk = createRequire(import.meta.url)('@uniswap/v3-sdk');

/** A seeded uniform generator on [0, 1) (mulberry32). */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const address = (n) => `0x${n.toString(16).padStart(40, '0')}`;
export const toUnits = (whole, decimals) => {
  const [i, f = ''] = String(whole).split('.');
  return BigInt(i) * 10n ** BigInt(decimals) + BigInt((f + '0'.repeat(decimals)).slice(0, decimals) || '0');
};

export function syntheticGraph(poolCount, seed, queries, options = {}) {
  const { loopFree = false, corePools = 0, curves = 0, concentrated = 0, uniswapV4 = 0, curvePools = 0, curveLadder } = options;
  const rand = rng(seed);
  const tokens = [];
  const hubs = [
    { symbol: 'WETH', usd: 3000, decimals: 18 },
    { symbol: 'USDC', usd: 1, decimals: 6, stable: true },
    { symbol: 'USDT', usd: 1, decimals: 6, stable: true },
    { symbol: 'DAI', usd: 1, decimals: 18, stable: true },
    { symbol: 'WBTC', usd: 60000, decimals: 8 },
  ];
  hubs.forEach((h, i) => tokens.push({ ...h, address: address(0x100 + i), hub: true }));
  for (let i = 0; tokens.length < 160; i++) {
    tokens.push({ symbol: `T${i}`, usd: 10 ** (rand() * 6 - 3), decimals: rand() < 0.7 ? 18 : 6, address: address(0x200 + i), hub: false });
  }
  const pools = [];
  const tvl = []; // the base pools' depth a side in USD, for the concentrated variant
  const pairCount = new Map();
  const add = (a, b, kind) => {
    const key = [a.address, b.address].sort().join();
    pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
    const [t0, t1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a];
    const tvlUsd = 10 ** (3 + rand() * 4); // $1k .. $10M a side
    tvl.push(tvlUsd);
    const skewDraw = rand();
    const fees = kind === 'stable' ? [1, 4, 5] : [5, 10, 25, 30, 100];
    const routerIndex = kind === 'stable' ? 3 : 1 + Math.floor(rand() * 2);
    const feeBps = fees[Math.floor(rand() * fees.length)];
    // Each pool is priced off the token's "true" price by up to 2% (loopFree: by up to 90% of its fee), so pools
    // of a pair disagree a little.
    const skew = 1 + (skewDraw - 0.5) * (loopFree ? 1.8 * (feeBps / 10_000) : 0.04);
    const r0 = (tvlUsd / t0.usd) * skew;
    const r1 = tvlUsd / t1.usd;
    pools.push({
      kind,
      address: address(0x100000 + pools.length),
      routerIndex,
      feeBps,
      token0: t0.address,
      token1: t1.address,
      decimals0: t0.decimals,
      decimals1: t1.decimals,
      reserve0: toUnits(r0.toFixed(6), t0.decimals),
      reserve1: toUnits(r1.toFixed(6), t1.decimals),
    });
  };
  const stables = tokens.filter((t) => t.stable);
  while (pools.length < poolCount) {
    const r = rand();
    if (r < 0.05) {
      // stable pools between the stablecoins
      const a = stables[Math.floor(rand() * stables.length)];
      const b = stables[Math.floor(rand() * stables.length)];
      if (a !== b) add(a, b, 'stable');
    } else if (r < 0.75) {
      // a token against a hub
      const a = tokens[5 + Math.floor(rand() * (tokens.length - 5))];
      const b = hubs.map((h, i) => tokens[i])[Math.floor(rand() * 5)];
      add(a, b, 'uniswap-v2');
    } else {
      // two random tokens (hubs included)
      const a = tokens[Math.floor(rand() * tokens.length)];
      const b = tokens[Math.floor(rand() * tokens.length)];
      if (a !== b) add(a, b, 'uniswap-v2');
    }
  }
  const list = [];
  for (let i = 0; list.length < queries; i++) {
    const a = tokens[Math.floor(rand() * tokens.length)];
    const b = tokens[Math.floor(rand() * tokens.length)];
    if (a === b) continue;
    const usd = 10 ** (1 + rand() * 4); // $10 .. $100k
    list.push({ label: `${a.symbol}->${b.symbol} $${usd.toFixed(0)}`, tokenIn: a.address, tokenOut: b.address, amountIn: toUnits((usd / a.usd).toFixed(Math.min(a.decimals, 9)), a.decimals) });
  }
  if (corePools > 0 || curves > 0) addExtras(rng(seed ^ 0x5eed), tokens, pools, pairCount, corePools, curves);
  if (concentrated > 0) makeConcentrated(rng(seed ^ 0xc0ca), tokens, pools, tvl, concentrated, loopFree);
  if (uniswapV4 > 0) makeUniswapV4(rng(seed ^ 0x4444), pools, uniswapV4);
  if (curvePools > 0) addCurvePools(rng(seed ^ 0xc5e6), tokens, pools, pairCount, curvePools, curveLadder);
  return {
    snapshot: { chainId: 4663, pools },
    queries: list,
    tokenCount: tokens.length,
    pairs: pairCount.size,
    tokens: tokens.map(({ symbol, address: a, usd, decimals }) => ({ symbol, address: a, usd, decimals })),
  };
}

/** The launchpad contract's address in the synthetic graph (every curve trades through it). */
const LAUNCHPAD = address(0x4c00);
const VIRTUAL_NATIVE = 300n * 10n ** 18n;
const INITIAL_TOKEN_RESERVE = 1_125_000_000n * 10n ** 6n;
const GRADUATION_TOKEN_RESERVE = 375_000_000n * 10n ** 6n;
/** Samples of a core-like pool's quote per direction, geometric from a millionth of the largest input to it. */
const CORE_SAMPLES = 64;

function addExtras(rand, tokens, pools, pairCount, corePools, curves) {
  const weth = tokens[0];
  const sorted = (a, b) => (BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a]);
  for (let n = 0; n < corePools; n++) {
    // Hub against hub or a token against a hub.
    const a = tokens[Math.floor(rand() * (rand() < 0.5 ? 5 : tokens.length))];
    const b = tokens[Math.floor(rand() * 5)];
    if (a === b) {
      n--;
      continue;
    }
    const [t0, t1] = sorted(a, b);
    pairCount.set([t0.address, t1.address].join(), (pairCount.get([t0.address, t1.address].join()) ?? 0) + 1);
    const sideUsd = 10 ** (4 + rand() * 2.7); // $10k .. $5M a side
    const ladder = (tin, tout) => {
      const unitIn = 10 ** tin.decimals;
      const unitOut = 10 ** tout.decimals;
      const top = (sideUsd / tin.usd) * unitIn; // the input worth the output side
      const samples = [];
      for (let i = 0; i < CORE_SAMPLES; i++) {
        const amountIn = Math.floor(top * 1e-6 ** (1 - i / (CORE_SAMPLES - 1)));
        if (amountIn <= (samples.at(-1)?.amountIn ?? 0)) continue;
        const valueIn = (amountIn / unitIn) * tin.usd;
        // 0.3% plus 2% of half the weight the swap moves (the pool's value is 2 * sideUsd).
        const fee = 0.003 + 0.02 * (valueIn / (2 * sideUsd) / 2);
        const out = (((amountIn * (1 - fee)) / unitIn) * tin.usd * unitOut) / tout.usd;
        samples.push({ amountIn, amountOut: Math.floor(out) });
      }
      return samples.map((x) => ({ amountIn: BigInt(x.amountIn), amountOut: BigInt(x.amountOut) }));
    };
    pools.push({
      kind: 'core',
      address: address(0x300000 + n),
      routerIndex: 0,
      token0: t0.address,
      token1: t1.address,
      decimals0: t0.decimals,
      decimals1: t1.decimals,
      samples0to1: ladder(t0, t1),
      samples1to0: ladder(t1, t0),
    });
  }
  for (let n = 0; n < curves; n++) {
    // Part-way through the sale: 1 to 500 WETH raised (net of fees).
    const raised = BigInt(Math.floor((1 + rand() * 499) * 1e6)) * 10n ** 12n;
    const nativeReserve = VIRTUAL_NATIVE + raised;
    const tokenReserve = (VIRTUAL_NATIVE * INITIAL_TOKEN_RESERVE + nativeReserve - 1n) / nativeReserve;
    const token = {
      symbol: `L${n}`,
      usd: ((Number(nativeReserve) / 1e18) / (Number(tokenReserve) / 1e6)) * weth.usd,
      decimals: 6,
      address: address(0x4d00 + n),
      hub: false,
    };
    tokens.push(token);
    const [t0, t1] = sorted(token, weth);
    pairCount.set([t0.address, t1.address].join(), (pairCount.get([t0.address, t1.address].join()) ?? 0) + 1);
    pools.push({
      kind: 'launchpad',
      address: LAUNCHPAD,
      routerIndex: 4,
      token0: t0.address,
      token1: t1.address,
      decimals0: t0.decimals,
      decimals1: t1.decimals,
      nativeToken: weth.address,
      curve: {
        nativeReserve,
        tokenReserve,
        tokensForSale: tokenReserve - GRADUATION_TOKEN_RESERVE,
        realNativeReserve: raised,
        feeBps: 100n,
      },
    });
  }
}

// ---------------------------------------------------------------- concentrated liquidity

const MIN_TICK = -887272;
const MAX_TICK = 887272;
const V3_TIERS = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
];
const ALGEBRA_FEES = [100, 500, 900, 2500, 3000, 5000, 10000];
const LOG_TICK = Math.log1p(1e-4); // 1.0001 itself is not a float

function makeConcentrated(rand, tokens, pools, tvl, share, loopFree) {
  const byAddress = new Map(tokens.map((t) => [t.address, t]));
  const v2 = pools.map((p, i) => i).filter((i) => pools[i].kind === 'uniswap-v2');
  // A seeded shuffle of the V2 pools; the first `count` become concentrated.
  for (let i = v2.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [v2[i], v2[j]] = [v2[j], v2[i]];
  }
  const count = Math.min(v2.length, Math.ceil(share * pools.length));
  for (const i of v2.slice(0, count).sort((a, b) => a - b)) {
    const p = pools[i];
    pools[i] = concentratedPool(rand, p, byAddress.get(p.token0), byAddress.get(p.token1), tvl[i], loopFree);
  }
}

/** The synthetic chain's PoolManager, and the hook of its dynamic-fee pools (afterInitialize only: 1 << 12). */
const POOL_MANAGER = '0x0000000000000000000000000000000000004444';
const DYNAMIC_FEE_HOOK = '0x0000000000000000000000000000000000001000';

/** Makes a share of the concentrated pools Uniswap V4 pools of the same state (see the `uniswapV4` option). */
function makeUniswapV4(rand, pools, share) {
  for (let i = 0; i < pools.length; i++) {
    const p = pools[i];
    if ((p.kind !== 'uniswap-v3' && p.kind !== 'algebra') || rand() >= share) continue;
    const dynamicFee = rand() < 0.25;
    pools[i] = {
      ...p,
      kind: 'uniswap-v4',
      // A PoolId of its own, derived from the pool's address (unique as the addresses are).
      address: `0x${p.address.slice(2).toLowerCase().padStart(64, '4')}`,
      routerIndex: 8,
      poolManager: POOL_MANAGER,
      currency0: p.token0,
      currency1: p.token1,
      dynamicFee,
      hooks: dynamicFee ? DYNAMIC_FEE_HOOK : '0x0000000000000000000000000000000000000000',
      protocolFee: 0,
    };
  }
}

/** sqrt(1.0001^tick) as a float. */
const sqrtAtTick = (tick) => Math.exp((tick * LOG_TICK) / 2);

function concentratedPool(rand, base, t0, t1, tvlUsd, loopFree) {
  const algebra = rand() < 0.25;
  let fee;
  let tickSpacing;
  if (algebra) {
    fee = ALGEBRA_FEES[Math.floor(rand() * ALGEBRA_FEES.length)];
    tickSpacing = rand() < 0.5 ? 10 : 60;
  } else {
    [fee, tickSpacing] = V3_TIERS[Math.floor(rand() * V3_TIERS.length)];
  }
  const skew = 1 + (rand() - 0.5) * (loopFree ? 1.8 * (fee / 1e6) : 0.04);
  // token1 base units per token0 base unit at the tokens' prices, off by the skew like the V2 pools (skew > 1: token0 cheaper).
  const u0 = t0.usd / 10 ** t0.decimals;
  const u1 = t1.usd / 10 ** t1.decimals;
  const price = u0 / u1 / skew;
  const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(price) * 2 ** 96));
  const tick = exactTick(sqrtPriceX96, Math.floor(Math.log(price) / LOG_TICK));
  const s = Number(sqrtPriceX96) / 2 ** 96;
  const lowest = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing;
  const highest = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
  const here = Math.floor(tick / tickSpacing) * tickSpacing;
  const clamp = (t) => Math.min(highest, Math.max(lowest, t));
  const steps = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  // Positions [lower, upper) and their share of the pool's value.
  const positions = [];
  // Narrow around the price: 1 to 10 spacings on each side.
  positions.push([here - steps(1, 10) * tickSpacing, here + steps(1, 10) * tickSpacing, 0.3 + rand() * 0.2]);
  // Wide: about +-20% to +-100% (2,000 to 7,000 ticks).
  const wide = Math.ceil(steps(2000, 7000) / tickSpacing);
  positions.push([here - wide * tickSpacing, here + wide * tickSpacing, 0.15 + rand() * 0.15]);
  // One-sided above (only token0) and below (only token1) the price.
  const gapUp = steps(1, 20);
  const lenUp = Math.max(1, Math.ceil(steps(50, 2000) / tickSpacing));
  positions.push([here + (gapUp + 1) * tickSpacing, here + (gapUp + 1 + lenUp) * tickSpacing, 0.05 + rand() * 0.1]);
  const gapDown = steps(1, 20);
  const lenDown = Math.max(1, Math.ceil(steps(50, 2000) / tickSpacing));
  positions.push([here - (gapDown + lenDown) * tickSpacing, here - gapDown * tickSpacing, 0.05 + rand() * 0.1]);
  // Sometimes full range, sometimes another narrow one just off the price.
  if (rand() < 0.4) positions.push([lowest, highest, 0.05 + rand() * 0.15]);
  if (rand() < 0.5) {
    const off = steps(-5, 5) * tickSpacing;
    positions.push([here + off - steps(1, 4) * tickSpacing, here + off + steps(1, 4) * tickSpacing, 0.05 + rand() * 0.1]);
  }
  if (rand() < 0.3) positions.push([here - steps(20, 200) * tickSpacing, here + steps(1, 50) * tickSpacing, 0.05 + rand() * 0.1]);
  const weight = positions.reduce((sum, q) => sum + q[2], 0);
  const net = new Map();
  let liquidity = 0n;
  for (const [lo, hi, w] of positions) {
    const [lower, upper] = [clamp(lo), clamp(hi)];
    if (!(lower < upper)) continue;
    const sa = sqrtAtTick(lower);
    const sb = sqrtAtTick(upper);
    // Value of one unit of liquidity in USD: amount0 = L (1/max(s, sa) - 1/sb) above, amount1 = L (min(s, sb) - sa) below.
    const a0 = s < sb ? 1 / Math.max(s, sa) - 1 / sb : 0;
    const a1 = s > sa ? Math.min(s, sb) - sa : 0;
    const L = BigInt(Math.floor(((2 * tvlUsd * w) / weight) / (a0 * u0 + a1 * u1)));
    if (L <= 0n) continue;
    net.set(lower, (net.get(lower) ?? 0n) + L);
    net.set(upper, (net.get(upper) ?? 0n) - L);
    if (lower <= tick && tick < upper) liquidity += L;
  }
  // Every tick that bounds a position is initialized (also where the nets cancel: the pool keeps it while gross > 0).
  const ticks = [...net].sort((a, b) => a[0] - b[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }));
  const { address: poolAddress, token0, token1, decimals0, decimals1 } = base;
  return {
    address: poolAddress,
    token0,
    token1,
    decimals0,
    decimals1,
    kind: algebra ? 'algebra' : 'uniswap-v3',
    routerIndex: algebra ? 6 : 5,
    sqrtPriceX96,
    tick,
    liquidity,
    fee,
    tickSpacing,
    ticks,
  };
}

/** The tick of a sqrt price (the largest tick whose sqrt ratio is at or below it), from a float guess. */
function exactTick(sqrtPriceX96, guess) {
  let t = guess;
  while (sqrtRatioAtTick(t) > sqrtPriceX96) t--;
  while (sqrtRatioAtTick(t + 1) <= sqrtPriceX96) t++;
  return t;
}

/** TickMath.getSqrtRatioAtTick as the V3 core contracts compute it (`@uniswap/v3-sdk`'s port). */
function sqrtRatioAtTick(tick) {
  return BigInt(v3sdk.TickMath.getSqrtRatioAtTick(tick).toString());
}

// ---------------------------------------------------------------- Curve StableswapNG-like pools

/** Quotes per direction of a Curve-like pool for the reference, geometric from a ten-millionth of the ladder's top. */
const CURVE_REFERENCE_QUOTES = 512;
/** NG's off-peg fee multiplier (1e10 = 1x). */
const CURVE_OFFPEG = 2e10;

/**
 * StableswapNG's get_dy in float on balances in whole coins (every coin worth $1 here, so its rate is its unit):
 * the invariant D of the balances (Newton, as get_D), the output coin's balance y after `dx` of coin i (Newton, as
 * get_y), and the fee on the output at NG's dynamic rate of the average balances before and after.
 */
function stableswapGetDy(balances, A, fee, i, j, dx) {
  const n = balances.length;
  const Ann = A * n;
  const S = balances.reduce((a, b) => a + b, 0);
  let D = S;
  for (let k = 0; k < 255; k++) {
    let DP = D;
    for (const x of balances) DP = (DP * D) / (x * n);
    const prev = D;
    D = ((Ann * S + DP * n) * D) / ((Ann - 1) * D + (n + 1) * DP);
    if (Math.abs(D - prev) <= D * 1e-15) break;
  }
  const x = balances[i] + dx;
  let c = D;
  let Sx = 0;
  for (let k = 0; k < n; k++) {
    if (k === j) continue;
    const xk = k === i ? x : balances[k];
    Sx += xk;
    c = (c * D) / (xk * n);
  }
  c = (c * D) / (Ann * n);
  const b = Sx + D / Ann;
  let y = D;
  for (let k = 0; k < 255; k++) {
    const prev = y;
    y = (y * y + c) / (2 * y + b - D);
    if (Math.abs(y - prev) <= y * 1e-15) break;
  }
  const dy = balances[j] - y;
  if (!(dy > 0)) return 0;
  const xi = (balances[i] + x) / 2;
  const xj = (balances[j] + y) / 2;
  const dynamic = (CURVE_OFFPEG * fee) / (((CURVE_OFFPEG - 1e10) * 4 * xi * xj) / (xi + xj) ** 2 + 1e10);
  return dy * (1 - dynamic / 1e10);
}

function addCurvePools(rand, tokens, pools, pairCount, count, curveLadder) {
  if (typeof curveLadder !== 'function') throw new Error('curvePools needs curveLadder (routing\'s curveSampleLadder)');
  const stables = tokens.filter((t) => t.stable);
  for (let n = 0; n < count; n++) {
    // Two or three of the stablecoins, in a random order (the pool's coin order).
    const coins = [...stables];
    for (let k = coins.length - 1; k > 0; k--) {
      const m = Math.floor(rand() * (k + 1));
      [coins[k], coins[m]] = [coins[m], coins[k]];
    }
    coins.length = rand() < 0.5 ? 2 : 3;
    const depthUsd = 10 ** (5 + rand() * 2); // $100k .. $10M a coin
    const A = [100, 200, 500, 1000, 2000][Math.floor(rand() * 5)];
    const fee = rand() < 0.5 ? 1e6 : 4e6; // 1e10 = 100%
    const units = coins.map((c) => 10 ** c.decimals);
    const raw = coins.map((c) => toUnits(depthUsd.toFixed(6), c.decimals));
    const balances = raw.map((r, k) => Number(r) / units[k]);
    const pool = address(0x500000 + n);
    // One direction's quotes at the inputs given, as the pool quotes them: ascending, up to the first that pays less
    // than the one before (libs/chain's sampleCurvePools).
    const quotes = (i, j, inputs) => {
      const out = [];
      for (const amountIn of inputs) {
        const amountOut = BigInt(Math.floor(stableswapGetDy(balances, A, fee, i, j, Number(amountIn) / units[i]) * units[j]));
        if (out.length && amountOut < out.at(-1).amountOut) break;
        out.push({ amountIn, amountOut });
      }
      return out;
    };
    const dense = (top) => {
      const out = [];
      for (let k = 0; k < CURVE_REFERENCE_QUOTES && top > 0n; k++) {
        let a = k === CURVE_REFERENCE_QUOTES - 1 ? top : BigInt(Math.floor(Number(top) * 1e-7 ** (1 - k / (CURVE_REFERENCE_QUOTES - 1))));
        if (out.length && a <= out.at(-1)) a = out.at(-1) + 1n;
        out.push(a);
      }
      return out;
    };
    const sampled = (i, j) => {
      const samples = quotes(i, j, curveLadder(raw[i]));
      const top = samples.at(-1)?.amountIn ?? 0n;
      const inputs = [...new Set([...dense(top), ...samples.map((q) => q.amountIn)])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return { samples, reference: quotes(i, j, inputs) };
    };
    for (let i = 0; i < coins.length; i++) {
      for (let j = i + 1; j < coins.length; j++) {
        const key = [coins[i].address, coins[j].address].sort().join();
        pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
        const forward = sampled(i, j);
        const backward = sampled(j, i);
        pools.push({
          kind: 'curve-stableswap-ng',
          address: `${pool}:${i}:${j}`,
          routerIndex: 9,
          token0: coins[i].address,
          token1: coins[j].address,
          decimals0: coins[i].decimals,
          decimals1: coins[j].decimals,
          pool,
          i,
          j,
          samples0to1: forward.samples,
          samples1to0: backward.samples,
          exchangeReceived: true,
          fee: BigInt(fee),
          A: BigInt(A),
          nCoins: coins.length,
          reference: { samples0to1: forward.reference, samples1to0: backward.reference },
        });
      }
    }
  }
}
