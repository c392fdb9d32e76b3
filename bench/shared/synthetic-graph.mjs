// The seeded synthetic liquidity graph of the routing benches: V2 and stable pools over 160 tokens (5 hubs),
// reserves of $1k to $10M a side, each pool priced up to 2% off its tokens' prices, and random queries of
// $10 to $100k. Same seed, same graph and queries, so the benches' figures compare.
//
//   syntheticGraph(1000, 20_251_121, 300) -> { snapshot, queries, tokenCount, pairs }

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

export function syntheticGraph(poolCount, seed, queries) {
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
  const pairCount = new Map();
  const add = (a, b, kind) => {
    const key = [a.address, b.address].sort().join();
    pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
    const [t0, t1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a];
    const tvlUsd = 10 ** (3 + rand() * 4); // $1k .. $10M a side
    // Each pool is priced off the token's "true" price by up to 2%, so pools of a pair disagree a little.
    const skew = 1 + (rand() - 0.5) * 0.04;
    const r0 = (tvlUsd / t0.usd) * skew;
    const r1 = tvlUsd / t1.usd;
    const fees = kind === 'stable' ? [1, 4, 5] : [5, 10, 25, 30, 100];
    pools.push({
      kind,
      address: address(0x100000 + pools.length),
      routerIndex: kind === 'stable' ? 3 : 1 + Math.floor(rand() * 2),
      feeBps: fees[Math.floor(rand() * fees.length)],
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
  return { snapshot: { chainId: 4663, pools }, queries: list, tokenCount: tokens.length, pairs: pairCount.size };
}
