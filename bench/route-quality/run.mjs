#!/usr/bin/env node
// Route quality: the routing engine (libs/routing) against an independent optimum, on (a) the devnet's liquidity
// (the seeds of libs/devnet-kit/src/sources.ts, copied below) and (b) a seeded synthetic graph of 1,000 pools
// (bench/shared/synthetic-graph.mjs, the graph bench/route times the engine on).
//
// The optimum is computed here, independently of the engine: every simple path of up to 3 hops through every
// pool (no per-pair cap), and on each path the real-number optimum of RouterV2's shape (each hop's amount split
// across all of its parallel pools so that their marginal rates are equal, found by a fine bisection on the
// marginal price in float64, hop after hop); the best path is the reference. It ignores integer rounding, so it
// is an upper bound of what an exact route can pay. The ratio engine / optimum is printed as median and p5
// against the target (median >= 99.9%), with the engine's route-search latency (p50 / p99) for information.
// Exact output is checked against exact input (ask for what the exact-input route paid: no more input, about that
// output), on the devnet graphs with their core pools and on the synthetic graph.
// It exits 0 whether the target is met or missed; non-zero only when the bench itself fails.
//
//   node bench/route-quality/run.mjs            the table
//   node bench/route-quality/run.mjs --json     the figures as JSON
//   node bench/route-quality/run.mjs --queries 100   synthetic queries (default 300)

import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { compileEngine } from '../shared/routing-engine.mjs';
import { address, syntheticGraph, toUnits } from '../shared/synthetic-graph.mjs';

const TARGET_MEDIAN = 0.999;
/** Exact output: the input may exceed the exact-input route's by rounding only, and the output what was asked by a thousandth. */
const TARGET_EXACT_OUT_INPUT = 1.000001;
const TARGET_EXACT_OUT_EXCESS = 0.001;
const LATENCY_TARGET_P50_MS = 2; // bench/route's engine-only target, shown for information
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const queryCount = Number(args[args.indexOf('--queries') + 1]) || 300;

// ---------------------------------------------------------------- (a) the devnet graph

// Copied from libs/devnet-kit/src/sources.ts (DEVNET_SOURCES) and deploy.ts (token decimals); wrapped native 18.
const DEVNET = {
  999: {
    decimals: { WHYPE: 18, USDC: 6, USDT: 6, DAI: 18, PURR: 18 },
    sources: [
      { kind: 'uniswap-v2', routerIndex: 1, feeBps: 30, pools: [['WHYPE', 'USDC', '4000', '100000'], ['PURR', 'WHYPE', '100000', '1000']] },
      { kind: 'uniswap-v2', routerIndex: 2, feeBps: 10, pools: [['WHYPE', 'USDC', '1000', '25400'], ['USDT', 'WHYPE', '37350', '1500']] },
      {
        kind: 'stable',
        routerIndex: 3,
        feeBps: 4,
        pools: [
          ['USDC', 'USDT', '1000000', '1000000', ['USDT', '150000']],
          ['USDC', 'DAI', '500000', '500000', ['USDC', '100000']],
        ],
      },
    ],
  },
  4663: {
    decimals: { WETH: 18, USDC: 6, USDT: 6, DAI: 18, LINK: 18 },
    sources: [
      { kind: 'uniswap-v2', routerIndex: 1, feeBps: 30, pools: [['WETH', 'USDC', '100', '300000'], ['LINK', 'WETH', '20000', '100']] },
      { kind: 'uniswap-v2', routerIndex: 2, feeBps: 10, pools: [['WETH', 'USDC', '30', '91200'], ['USDT', 'WETH', '119200', '40']] },
      {
        kind: 'stable',
        routerIndex: 3,
        feeBps: 4,
        pools: [
          ['USDC', 'USDT', '1000000', '1000000', ['USDT', '150000']],
          ['USDC', 'DAI', '500000', '500000', ['USDC', '100000']],
        ],
      },
    ],
  },
};
// Rough USD prices to size the queries (HYPE ~$25, PURR ~$0.25, ETH ~$3,000, LINK ~$15).
const DEVNET_USD = { WHYPE: 25, PURR: 0.25, WETH: 3000, LINK: 15, USDC: 1, USDT: 1, DAI: 1 };
// Copied from libs/devnet-kit/src/amm.ts (DEVNET_CORE_POOLS): the core pools, priced at the oracle (DEVNET_USD).
const DEVNET_CORE = {
  999: [['WHYPE', 'USDC', '2000', '50000'], ['USDC', 'USDT', '200000', '200000'], ['PURR', 'USDC', '200000', '50000']],
  4663: [['WETH', 'USDC', '20', '60000'], ['USDC', 'USDT', '200000', '200000'], ['LINK', 'USDC', '4000', '60000']],
};
/** The core pools' fee in this model (their dynamic fee at rest), and their quote ladder, as aggregator-router samples it. */
const CORE_FEE_BPS = 30;
const CORE_LADDER_SIZE = 16;

function devnetGraph(engine, chainId) {
  const { decimals, sources } = DEVNET[chainId];
  const symbols = Object.keys(decimals);
  const tokenAddress = Object.fromEntries(symbols.map((s, i) => [s, address(0x1000 * chainId + i + 1)]));
  const pools = [];
  let n = 0;
  for (const source of sources) {
    for (const [a, b, amountA, amountB, tilt] of source.pools) {
      const [A, B] = [tokenAddress[a], tokenAddress[b]];
      const aFirst = BigInt(A) < BigInt(B);
      let r0 = toUnits(aFirst ? amountA : amountB, decimals[aFirst ? a : b]);
      let r1 = toUnits(aFirst ? amountB : amountA, decimals[aFirst ? b : a]);
      const [t0, t1] = aFirst ? [a, b] : [b, a];
      if (tilt) {
        // The devnet swaps `tilt` into the pool at its exact quote right after seeding.
        const [tokenIn, whole] = tilt;
        const amountIn = toUnits(whole, decimals[tokenIn]);
        const zeroForOne = tokenIn === t0;
        const side = zeroForOne
          ? { reserveIn: r0, reserveOut: r1, decimalsIn: decimals[t0], decimalsOut: decimals[t1], feeBps: BigInt(source.feeBps) }
          : { reserveIn: r1, reserveOut: r0, decimalsIn: decimals[t1], decimalsOut: decimals[t0], feeBps: BigInt(source.feeBps) };
        const out = source.kind === 'stable' ? engine.stableGetAmountOut(amountIn, side) : engine.getAmountOut(amountIn, side.reserveIn, side.reserveOut, side.feeBps);
        if (zeroForOne) [r0, r1] = [r0 + amountIn, r1 - out];
        else [r0, r1] = [r0 - out, r1 + amountIn];
      }
      pools.push({
        kind: source.kind,
        address: address(0xd000 + chainId * 16 + ++n),
        routerIndex: source.routerIndex,
        feeBps: source.feeBps,
        token0: tokenAddress[t0],
        token1: tokenAddress[t1],
        decimals0: decimals[t0],
        decimals1: decimals[t1],
        reserve0: r0,
        reserve1: r1,
      });
    }
  }
  // Queries: every ordered pair of tokens, at $10, $1k, $10k and $100k.
  const queries = [];
  for (const a of symbols)
    for (const b of symbols) {
      if (a === b) continue;
      for (const usd of [10, 1_000, 10_000, 100_000]) {
        queries.push({ label: `${a}->${b} $${usd}`, tokenIn: tokenAddress[a], tokenOut: tokenAddress[b], amountIn: toUnits((usd / DEVNET_USD[a]).toFixed(decimals[a] > 6 ? 9 : 6), decimals[a]) });
      }
    }
  return { snapshot: { chainId, pools }, queries, tokenAddress };
}

/**
 * The devnet graph with its core pools: each side quoted at the oracle price less a flat fee, on the ladder
 * aggregator-router reads (16 inputs, geometric from a millionth of the input reserve to half of it). Used for the
 * exact-output check only (the independent optimum does not model sampled pools).
 */
function devnetGraphWithCore(engine, chainId) {
  const base = devnetGraph(engine, chainId);
  const { decimals } = DEVNET[chainId];
  const pools = [...base.snapshot.pools];
  let n = 0;
  for (const [a, b, amountA, amountB] of DEVNET_CORE[chainId]) {
    const [A, B] = [base.tokenAddress[a], base.tokenAddress[b]];
    const aFirst = BigInt(A) < BigInt(B);
    const [t0, t1] = aFirst ? [a, b] : [b, a];
    const reserve = { [a]: toUnits(amountA, decimals[a]), [b]: toUnits(amountB, decimals[b]) };
    const ladder = (tin, tout) => {
      const low = Number(reserve[tin] / 1_000_000n);
      const high = Number(reserve[tin] / 2n);
      // Output at the oracle price: in whole tokens times the price ratio, less the fee, floored to base units.
      const rate = (DEVNET_USD[tin] / DEVNET_USD[tout]) * 10 ** (decimals[tout] - decimals[tin]) * (1 - CORE_FEE_BPS / 10_000);
      return Array.from({ length: CORE_LADDER_SIZE }, (_, i) => {
        const amountIn = BigInt(Math.floor(low * (high / low) ** (i / (CORE_LADDER_SIZE - 1))));
        return { amountIn, amountOut: BigInt(Math.floor(Number(amountIn) * rate)) };
      });
    };
    pools.push({
      kind: 'core',
      address: address(0xc000 + chainId * 16 + ++n),
      routerIndex: 0,
      token0: base.tokenAddress[t0],
      token1: base.tokenAddress[t1],
      decimals0: decimals[t0],
      decimals1: decimals[t1],
      samples0to1: ladder(t0, t1),
      samples1to0: ladder(t1, t0),
    });
  }
  return { snapshot: { chainId, pools }, queries: base.queries };
}

/**
 * Exact output against exact input: for each query, ask for what the exact-input route paid. The exact-output
 * route needs at most the same input (that input pays it) and pays about what was asked: the figures are the
 * worst input ratio (exact output / exact input) and the worst excess output (paid / asked - 1).
 */
function exactOutConsistency(engine, graph, queries) {
  let worstInput = 0;
  let worstExcess = 0;
  let worstLabel = '';
  let count = 0;
  for (const q of queries) {
    let route;
    try {
      route = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true });
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
      continue;
    }
    if (route.amountOut < 1_000n) continue; // dust: rounding dominates
    const out = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountOut: route.amountOut, multiHop: true });
    const inputRatio = Number(out.amountIn) / Number(q.amountIn);
    const excess = Number(out.amountOut) / Number(route.amountOut) - 1;
    if (inputRatio > worstInput) [worstInput, worstLabel] = [inputRatio, q.label];
    worstExcess = Math.max(worstExcess, excess);
    count++;
  }
  return { count, worstInput, worstExcess, worstLabel };
}

// ---------------------------------------------------------------- the independent optimum (float64)

/** A pool side as a real-number curve: out(x), marginal(x), and the input at which the marginal falls to λ. */
function curveOf(pool, zeroForOne) {
  const rin = Number(zeroForOne ? pool.reserve0 : pool.reserve1);
  const rout = Number(zeroForOne ? pool.reserve1 : pool.reserve0);
  const g = 1 - pool.feeBps / 10_000;
  if (pool.kind === 'uniswap-v2') {
    return {
      out: (x) => (g * x * rout) / (rin + g * x),
      marginal: (x) => (g * rin * rout) / (rin + g * x) ** 2,
      at: (lambda) => Math.max(0, (Math.sqrt((g * rin * rout) / lambda) - rin) / g),
    };
  }
  // Stable: x^3 y + x y^3 = k on whole-token amounts.
  const uin = 10 ** (zeroForOne ? pool.decimals0 : pool.decimals1);
  const uout = 10 ** (zeroForOne ? pool.decimals1 : pool.decimals0);
  const X = rin / uin;
  const Y = rout / uout;
  const K = X * X * X * Y + X * Y * Y * Y;
  // The output reserve after the input reserve becomes x0: Newton from y = Y (above the root; convex in y).
  const yAfter = (x0) => {
    let y = Y;
    for (let i = 0; i < 100; i++) {
      const f = x0 * x0 * x0 * y + x0 * y * y * y - K;
      const step = f / (x0 * x0 * x0 + 3 * x0 * y * y);
      y -= step;
      if (Math.abs(step) <= y * 1e-15) break;
    }
    return y;
  };
  const marginal = (x) => {
    const x0 = X + (g * x) / uin;
    const y = yAfter(x0);
    return ((g * uout) / uin) * ((3 * x0 * x0 * y + y * y * y) / (x0 * x0 * x0 + 3 * x0 * y * y));
  };
  return {
    out: (x) => (Y - yAfter(X + (g * x) / uin)) * uout,
    marginal,
    at: (lambda, limit) => {
      if (marginal(0) <= lambda) return 0;
      let lo = 0;
      let hi = limit;
      if (marginal(hi) >= lambda) return hi;
      for (let i = 0; i < 80; i++) {
        const mid = (lo + hi) / 2;
        if (marginal(mid) >= lambda) lo = mid;
        else hi = mid;
      }
      return lo;
    },
  };
}

/** The best real-number split of `amount` across curves (equal marginal rates), and its output. */
function optimalHop(curves, amount) {
  if (curves.length === 1) return curves[0].out(amount);
  const inputs = (lambda) => curves.map((c) => Math.min(amount, c.at(lambda, amount)));
  const total = (xs) => xs.reduce((a, b) => a + b, 0);
  let hi = Math.max(...curves.map((c) => c.marginal(0)));
  let lo = hi;
  while (total(inputs(lo)) < amount) lo /= 2;
  for (let i = 0; i < 200 && hi / lo - 1 > 1e-15; i++) {
    const mid = Math.sqrt(lo * hi);
    if (total(inputs(mid)) >= amount) lo = mid;
    else hi = mid;
  }
  const a = inputs(hi);
  const b = inputs(lo);
  const sa = total(a);
  const sb = total(b);
  const t = sb > sa ? (amount - sa) / (sb - sa) : 0;
  return curves.reduce((sum, c, j) => sum + c.out(a[j] + t * (b[j] - a[j])), 0);
}

function referenceOptimum(snapshot, tokenIn, tokenOut, amountIn, maxHops) {
  const edges = new Map(); // token -> Map(token -> curves)
  for (const pool of snapshot.pools) {
    for (const zeroForOne of [true, false]) {
      const from = zeroForOne ? pool.token0 : pool.token1;
      const to = zeroForOne ? pool.token1 : pool.token0;
      if (!edges.has(from)) edges.set(from, new Map());
      const m = edges.get(from);
      if (!m.has(to)) m.set(to, []);
      m.get(to).push(curveOf(pool, zeroForOne));
    }
  }
  let best = 0;
  let bestPath = null;
  const walk = (path, amount) => {
    const here = path[path.length - 1];
    const next = edges.get(here) ?? new Map();
    // Ending here: the hop into tokenOut.
    if (next.has(tokenOut)) {
      const out = optimalHop(next.get(tokenOut), amount);
      if (out > best) {
        best = out;
        bestPath = [...path, tokenOut];
      }
    }
    if (path.length >= maxHops) return;
    for (const [mid, curves] of next) {
      if (mid === tokenOut || path.includes(mid)) continue;
      // Only tokens that can still reach tokenOut within the hops left are worth the hop's optimum.
      if (path.length === maxHops - 1 && !edges.get(mid)?.has(tokenOut)) continue;
      walk([...path, mid], optimalHop(curves, amount));
    }
  };
  walk([tokenIn], Number(amountIn));
  return { amountOut: best, path: bestPath };
}

// ---------------------------------------------------------------- measuring

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
};

function evaluate(engine, graph, snapshot, queries) {
  const ratios = [];
  const latencies = [];
  const worst = [];
  let noRoute = 0;
  let referenceOnly = 0;
  for (const q of queries) {
    const ref = referenceOptimum(snapshot, q.tokenIn, q.tokenOut, q.amountIn, 3);
    let route;
    const started = performance.now();
    try {
      route = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true });
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
    }
    latencies.push(performance.now() - started);
    if (!(ref.amountOut >= 1)) {
      if (route) referenceOnly++;
      else noRoute++;
      continue;
    }
    const ratio = route ? Number(route.amountOut) / ref.amountOut : 0;
    ratios.push(ratio);
    worst.push({ label: q.label, ratio, hops: route ? route.tokens.length - 1 : 0, refHops: ref.path.length - 1 });
  }
  worst.sort((a, b) => a.ratio - b.ratio);
  return { ratios, latencies, worst: worst.slice(0, 3), noRoute, referenceOnly };
}

function timeOnly(engine, graph, queries, exactOut) {
  const latencies = [];
  for (const q of queries) {
    const started = performance.now();
    try {
      if (exactOut) engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountOut: q.amountOut, multiHop: true });
      else engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true });
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function main() {
  const { engine, cleanup } = await compileEngine('route-quality-');
  try {
    const results = {};
    for (const chainId of [999, 4663]) {
      const { snapshot, queries } = devnetGraph(engine, chainId);
      const graph = engine.buildGraph(snapshot);
      results[`devnet ${chainId}`] = { pools: snapshot.pools.length, queries: queries.length, ...evaluate(engine, graph, snapshot, queries) };
    }
    const exactOut = {};
    for (const chainId of [999, 4663]) {
      const { snapshot, queries } = devnetGraphWithCore(engine, chainId);
      exactOut[`devnet ${chainId} + core`] = exactOutConsistency(engine, engine.buildGraph(snapshot), queries);
    }
    const synth = syntheticGraph(1000, 20_251_121, queryCount);
    const buildStarted = performance.now();
    const graph = engine.buildGraph(synth.snapshot);
    const buildMs = performance.now() - buildStarted;
    const syn = evaluate(engine, graph, synth.snapshot, synth.queries);
    // A running service is warm: two more passes (JIT, inline caches) before the timed one.
    timeOnly(engine, graph, synth.queries, false);
    timeOnly(engine, graph, synth.queries, false);
    const latencyIn = timeOnly(engine, graph, synth.queries, false);
    // Exact output: ask for what the exact-input route paid.
    const outQueries = [];
    for (const q of synth.queries.slice(0, 100)) {
      try {
        const r = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true });
        outQueries.push({ ...q, amountOut: r.amountOut });
      } catch (e) {
        if (e.name !== 'NoRouteError') throw e;
      }
    }
    timeOnly(engine, graph, outQueries, true);
    const latencyOut = timeOnly(engine, graph, outQueries, true);
    exactOut['synthetic 1,000 pools'] = exactOutConsistency(engine, graph, synth.queries.slice(0, 100));
    results['synthetic 1,000 pools'] = { pools: synth.snapshot.pools.length, tokens: synth.tokenCount, pairs: synth.pairs, queries: synth.queries.length, buildMs, ...syn, latencyIn, latencyOut };

    const rows = Object.entries(results).map(([name, r]) => ({
      graph: name,
      pools: r.pools,
      queries: r.ratios.length,
      median: quantile(r.ratios, 0.5),
      p5: quantile(r.ratios, 0.05),
      min: quantile(r.ratios, 0),
      pass: quantile(r.ratios, 0.5) >= TARGET_MEDIAN,
      latencyP50: quantile(r.latencyIn ?? r.latencies, 0.5),
      latencyP99: quantile(r.latencyIn ?? r.latencies, 0.99),
      worst: r.worst,
      noRoute: r.noRoute,
    }));
    const synthetic = results['synthetic 1,000 pools'];
    const exactOutRows = Object.entries(exactOut).map(([name, r]) => ({
      graph: name,
      ...r,
      pass: r.worstInput <= TARGET_EXACT_OUT_INPUT && r.worstExcess <= TARGET_EXACT_OUT_EXCESS,
    }));
    const summary = {
      target: { median: TARGET_MEDIAN, latencyP50Ms: LATENCY_TARGET_P50_MS, exactOutInput: TARGET_EXACT_OUT_INPUT, exactOutExcess: TARGET_EXACT_OUT_EXCESS },
      rows,
      exactOut: exactOutRows,
      synthetic: {
        tokens: synthetic.tokens,
        pairs: synthetic.pairs,
        buildMs: synthetic.buildMs,
        exactInP50Ms: quantile(synthetic.latencyIn, 0.5),
        exactInP99Ms: quantile(synthetic.latencyIn, 0.99),
        exactOutP50Ms: quantile(synthetic.latencyOut, 0.5),
        exactOutP99Ms: quantile(synthetic.latencyOut, 0.99),
        exactOutQueries: synthetic.latencyOut.length,
      },
    };
    if (asJson) {
      console.log(JSON.stringify(summary, null, 2));
      return;
    }
    const pct = (x) => `${(x * 100).toFixed(3)}%`;
    console.log('route quality: engine amountOut / independent optimum (3 hops, every pool, real-number split)');
    console.log('');
    console.log(`${'graph'.padEnd(24)}${'pools'.padStart(7)}${'queries'.padStart(9)}${'median'.padStart(11)}${'p5'.padStart(11)}${'min'.padStart(11)}   target median >= ${pct(TARGET_MEDIAN)}`);
    for (const r of rows) {
      console.log(`${r.graph.padEnd(24)}${String(r.pools).padStart(7)}${String(r.queries).padStart(9)}${pct(r.median).padStart(11)}${pct(r.p5).padStart(11)}${pct(r.min).padStart(11)}   ${r.pass ? 'PASS' : 'MISS'}`);
    }
    console.log('');
    for (const r of rows) for (const w of r.worst) console.log(`  lowest on ${r.graph}: ${w.label} ${pct(w.ratio)} (engine ${w.hops} hops, optimum ${w.refHops})`);
    console.log('');
    console.log('exact output vs exact input: ask for what the exact-input route paid');
    console.log('');
    console.log(`${'graph'.padEnd(24)}${'queries'.padStart(9)}${'worst input'.padStart(14)}${'worst excess'.padStart(14)}   target input <= ${TARGET_EXACT_OUT_INPUT}x, excess <= ${pct(TARGET_EXACT_OUT_EXCESS)}`);
    for (const r of exactOutRows) {
      console.log(`${r.graph.padEnd(24)}${String(r.count).padStart(9)}${`${r.worstInput.toFixed(6)}x`.padStart(14)}${pct(r.worstExcess).padStart(14)}   ${r.pass ? 'PASS' : 'MISS'}${r.pass ? '' : ` (worst input: ${r.worstLabel})`}`);
    }
    console.log('');
    const s = summary.synthetic;
    console.log(`route-search latency on the synthetic graph (${s.tokens} tokens, ${s.pairs} pairs; graph built in ${s.buildMs.toFixed(1)} ms), multiHop, for information:`);
    console.log(`  exact input   p50 ${s.exactInP50Ms.toFixed(3)} ms   p99 ${s.exactInP99Ms.toFixed(3)} ms   (bench/route target p50 <= ${LATENCY_TARGET_P50_MS} ms: ${s.exactInP50Ms <= LATENCY_TARGET_P50_MS ? 'PASS' : 'MISS'})`);
    console.log(`  exact output  p50 ${s.exactOutP50Ms.toFixed(3)} ms   p99 ${s.exactOutP99Ms.toFixed(3)} ms   (${s.exactOutQueries} queries)`);
  } finally {
    cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`route-quality bench failed: ${error?.stack ?? error}`);
    process.exit(1);
  });
}

export { devnetGraph, syntheticGraph, referenceOptimum };
