#!/usr/bin/env node
// Route quality: what the routing engine's exact-input routes pay against the best that splitting the trade in
// any way could pay, on (a) the devnet's own liquidity, read from fresh devnet chains 999 and 4663 with every
// pool they have (two V2 sources, the tilted stable pools, the core pools, the Uniswap V3 and Algebra pools, the
// V4 pools, the launchpad curves, the Curve NG pools: StableswapNG USDC/USDT, USDC/USDT/DAI and USDC/USDT/DAI/crvUSD,
// TwocryptoNG USDC/wrapped native), and (b) a seeded synthetic graph of 1,000 V2, stable and concentrated-liquidity
// pools (a third and more Uniswap V3 and Algebra) plus 40 core-like pools, 12 launchpad curves and 8 StableswapNG-like
// pools of two or three of its stablecoins (synthetic-graph.mjs's `curvePools`).
//
// The engine (libs/routing, compiled alone by bench/shared/routing-engine.mjs) is asked as aggregator-router
// asks it: findRoute(graph, { tokenIn, tokenOut, amountIn, multiHop: true, maxSwaps }) on buildGraph of the pools'
// snapshots (V2 and stable reserves and fees, core pools' quote samples, concentrated pools' price, tick,
// liquidity, fee and initialized ticks, launch curves' reserves, allotment and native raised, Curve coin pairs'
// get_dy samples with the pool's exchange_received, fee, A and coin count, as aggregator-router builds them from the
// same reads). Its answer is route.amountOut; the route may be of any shape: its stages
// (`Route.stages`) may hold swaps of different token pairs. maxSwaps is what the chain's route gas budget holds
// (libs/chain's routeGasBudget: 24 swaps on chain 999, whose small blocks hold 2M gas; 186 on chain 4663, the
// synthetic graph's chain); the synthetic graph's routes within chain 999's 24 swaps are printed too, for
// information (a $1M trade on its thin pools spreads over a hundred pools and more).
//
// The reference (bench/shared/route-optimum.mjs) is computed apart from the engine, from the protocols' own
// formulas (x*y = k, the stable x^3*y + x*y^3 invariant, the bonding curve; nothing from libs/routing):
//   - The optimum: the real-number best of splitting the trade across any set of loop-free paths through every
//     pool, a linear programme (HiGHS) over the pools' concave output functions: each pool side's output bounded
//     by lines lying on or above its function, more lines added where the solution needs them (cutting planes,
//     until no side's output is overstated by more than 1e-9 of what the trade pays). Its optimum U is an upper
//     bound; the programme's flow carried token by token through the true functions is a real route L <= the
//     optimum. The ratio is route / U (never flattering the engine); the largest U / L - 1 is printed (about
//     1e-7 here: the reference is tight to well under the targets' 1e-3).
//   - Loops: the devnet holds free loops (the tilted stable pools against the core pools at the oracle price,
//     the wrapped native on two V2 pools at different prices) through which an unconstrained optimum would pump
//     profit into tokenOut. The optimum is over loop-free routes: no flow into tokenIn or out of tokenOut, and
//     the flow's token graph (a -> b where some pool trades a for b) acyclic, held exactly by branch and bound:
//     a flow holding a cycle branches into one child per arc of the cycle with that arc forbidden (every
//     loop-free flow lacks one of them; child k forbids the k-th arc and requires the ones before it, forbidding
//     what would close a cycle with its required arcs, so the children share no flow), best bound first, until the
//     best open node's flow is loop-free. The Curve pools at peg join the devnet's stablecoins pair by pair, so the
//     tilted stable pools' free loops are reachable on longer paths too: an optimum of 4 or 5 hops may beat the
//     engine, whose paths have at most 3 (candidatePaths), and the one-path alike. The
//     synthetic graph prices each pool off its tokens' prices by less than its fee, so no loop pays at spot (as
//     on a chain whose arbitrage keeps loops closed; the bench checks it), and its optimum is loop-free anyway.
//   - V4 pools whose hook may change a swap are rated where their source lists the hook, as the aggregator routes
//     them: an `exact` hook's (it may only refuse a swap) on the tick maths; a `sampled` hook's (the devnet's input-
//     fee hook, which takes a share of the input through a return delta) by its V4Quoter: the engine gets the quotes
//     at the aggregator's ladder (18 inputs per direction), the reference the hull of 512 quotes up to the same top.
//   - Curve NG pools are rated as the aggregator routes them (its LiquidityService.sampleCurve): each coin pair i < j
//     of a pool is a pool of its own (pair id '<pool>:i:j', token0 coin i), priced only by the pool's own get_dy
//     (StableswapNG's get_dy(int128,int128,uint256), TwocryptoNG's get_dy(uint256,uint256,uint256)). The pools' state
//     is read with libs/chain's readCurvePools (balances, A, fee, exchange_received), and the engine gets each
//     direction's get_dy at routing's curveSampleLadder laid on the pool's balance of the input coin (56 inputs up to
//     3x it; sampleCurvePools, ending where the pool refuses or stops paying more) and 24 more where those samples'
//     chords fall furthest under the curve (CURVE_LADDER_REFINE, as the aggregator); the reference the upper concave
//     hull of 512 get_dy quotes geometric up to the top of that ladder (and the ladder's own). The devnet's USDC/REBASE
//     pool is left out: REBASE (a rebasing test token) is not among the bench's tokens, which are the manifest's
//     `tokens` priced by the core oracle (crvUSD, the Curve stage's stablecoin, among them at $1). The reference
//     trades a pool's pairs independently, though a route's later swap through another pair of the same pool meets
//     the pool as the earlier one left it: an overestimate of what any route can get, so conservative for the
//     engine's ratio. A route trading one Curve pool through two of its pairs is refused by the aggregator at answer
//     time (searched again without the later pair); here it is rated as it is, and such routes are counted apart.
//     The synthetic graph's Curve-like pools are priced the same way, their get_dy StableswapNG's maths in float.
//   - Core pools are priced as their estimateSwap prices them: each is sampled on the chain in both directions,
//     512 inputs geometric up to the largest input it quotes (found by bisection); the engine gets those samples
//     as the pool's snapshot, the reference their upper concave hull, linear between samples.
//   - The best one-path route: every token path of up to 3 hops, each hop split across its parallel pools at
//     equal marginal rates (RouterV2's one-path shape, real numbers).
// Queries: every ordered pair of the devnet's tokens at $10, $1k, $10k, $100k and $1M (by the oracle's prices; the
// launched tokens at their curve's or pool's price), and --queries N synthetic queries (N / 5 seeded random pairs
// at the same sizes). A query whose input the pools cannot carry whole to tokenOut (a curve's allotment or raised
// coin, a core pool's largest quote) has no exact-input route: counted apart, not rated.
// The table, per graph and size: route / optimum as median, p5 and min beside the targets (median >= 99.9%,
// p5 >= 99.5%; a query the engine finds no route for counts 0), the share of routes that split across paths (a
// stage holding swaps of different token pairs, or stages that do not chain into one token path), the share of
// optima that do, and the routes paying less than the best one-path route (target: none; within a millionth of
// it, or within a base unit of each of the route's swaps' tokens, counts as equal; so does a route that, valued by the
// reference's own pool functions like the one-path, pays at least as much: its exact amounts then fall short only by
// its pools' integer rounding, which the real-number reference leaves out, and both figures are printed). Each route is also checked
// against the reference's pool maths: no swap paying more than its pool would for its input (one unit of input
// of slack: the stable pools round their fee down), no stage spending more of a token than the route holds.
// For information: exact output against exact input, the engine's search latency on the synthetic graph, how close
// the aggregator's sample ladder of a sampled V4 pool comes to the pool's own quotes, and the same of each devnet
// Curve pool (per direction, printed per pool: the worst shortfall of the engine's interpolation between its 80
// samples against the pool's 512 get_dy quotes, past 1% of price impact in hundredths of it as the V4 figure, and
// unscaled); per graph, the rated routes trading a Curve pool (a column, and their median, p5, min and routes below
// the one-path) and those trading one Curve pool through two of its coin pairs.
// It exits 0 whether the targets are met or missed; non-zero only when the bench itself fails. Five to ten minutes on
// a 2-core machine.
//
//   node bench/route-quality/run.mjs                 the table
//   node bench/route-quality/run.mjs --json          the figures as JSON
//   node bench/route-quality/run.mjs --queries 100   synthetic queries (default 300)

import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compileEngine } from '../shared/routing-engine.mjs';
import { checkConcentratedSides } from '../shared/concentrated-check.mjs';
import { bestOnePath, concentratedSide, convexOptimum, curveBuySide, curveSellSide, loadSolver, sampledSide, stableSide, v2Side } from '../shared/route-optimum.mjs';
import { rng, syntheticGraph } from '../shared/synthetic-graph.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

const SIZES_USD = [10, 1_000, 10_000, 100_000, 1_000_000];
const TARGET_MEDIAN = 0.999;
const TARGET_P5 = 0.995;
/**
 * A route within this fraction of the best one-path route, or within a base unit of each of its swaps' tokens
 * (integer rounding, which the real-number reference does not have), counts as paying as much.
 */
const ONE_PATH_TOLERANCE = 1e-6;
const ONE_PATH_HOPS = 3;
/** Inputs sampled per direction of each devnet core pool. */
const CORE_SAMPLES = 512;
/**
 * Exact output: the input may exceed the exact-input route's by rounding only (a millionth, beyond a base unit per
 * swap of the route), the output what was asked by a thousandth.
 */
const TARGET_EXACT_OUT_INPUT = 1.000001;
const TARGET_EXACT_OUT_EXCESS = 0.001;
const LATENCY_TARGET_P50_MS = 5; // bench/route's engine-only target (on its own query mix), shown for information
const SYNTHETIC_SEED = 20_251_121;
/** What a unit of gas costs in USD for the net-of-gas figures: 1 gwei at $2,500 a native coin. */
const GAS_USD = 2.5e-6;
/** The source kinds whose cheapest swap bounds the gas of any route. */
const GAS_KINDS = ['uniswap-v2', 'stable', 'core', 'uniswap-v3', 'algebra', 'uniswap-v4', 'launchpad', 'curve-stableswap-ng', 'curve-twocrypto-ng'];
const SYNTHETIC_OPTIONS = { loopFree: true, corePools: 40, curves: 12, concentrated: 0.34, uniswapV4: 0.3, curvePools: 8 };

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const queryCount = Number(args[args.indexOf('--queries') + 1]) || 300;
const progress = (message) => process.stderr.write(`route-quality: ${message}\n`);

const lower = (a) => a.toLowerCase();

/** The Curve NG kinds: each coin pair of a pool is a pool of its own to the engine, named by its pair id. */
const CURVE_KINDS = ['curve-stableswap-ng', 'curve-twocrypto-ng'];
const isCurve = (kind) => CURVE_KINDS.includes(kind);
/** A Curve pair id's pool (`0x<pool>:i:j`). */
const curvePoolOf = (pairId) => pairId.split(':')[0];

/** CORE_SAMPLES inputs geometric from a ten-millionth of `top` up to it (none for 0): a sampled pool's dense quotes. */
function denseLadder(top) {
  const out = [];
  for (let i = 0; i < CORE_SAMPLES && top > 0n; i++) {
    let a = i === CORE_SAMPLES - 1 ? top : BigInt(Math.floor(Number(top) * 1e-7 ** (1 - i / (CORE_SAMPLES - 1))));
    if (out.length && a <= out.at(-1)) a = out.at(-1) + 1n;
    out.push(a);
  }
  return out;
}

const plainSamples = (samples) => samples.map(({ amountIn, amountOut }) => ({ amountIn, amountOut }));
/** Two sets of quotes of one direction as one, by input ascending (one quote per input). */
const bothSamples = (a, b) => [...new Map([...plainSamples(a), ...plainSamples(b)].map((q) => [q.amountIn, q])).values()].sort((p, q) => (p.amountIn < q.amountIn ? -1 : 1));

/**
 * How close a sampled leg (the engine's interpolation between the aggregator's samples) comes to the pool's dense
 * quotes: its worst shortfall relative to what the pool pays, past 1% of price impact (against the first quote's
 * rate) in hundredths of it, as the V4 ladder is laid (uniswapV4SampleLadder); and, for information, unscaled.
 */
function ladderShortfall(leg, dense) {
  let [worst, worstAt, worstImpact] = [0, 0n, 0];
  let [raw, rawAt, rawImpact] = [0, 0n, 0];
  const spot = dense.length ? Number(dense[0].amountOut) / Number(dense[0].amountIn) : 0;
  for (const q of dense) {
    if (!leg || q.amountOut <= 10n ** 6n || q.amountIn > leg.maxIn) continue;
    const impact = Math.max(0, 1 - Number(q.amountOut) / Number(q.amountIn) / spot);
    const short = Number(q.amountOut - leg.quote(q.amountIn)) / Number(q.amountOut);
    const shortfall = short / Math.max(1, impact / 0.01);
    if (shortfall > worst) [worst, worstAt, worstImpact] = [shortfall, q.amountIn, impact];
    if (short > raw) [raw, rawAt, rawImpact] = [short, q.amountIn, impact];
  }
  return { worst, worstAt, worstImpact, raw, rawAt, rawImpact };
}

// ---------------------------------------------------------------- the devnet's liquidity, read from the chains

/**
 * Every pool of one devnet chain as the engine's snapshot (the shape aggregator-router builds from the same
 * reads) and the tokens with their USD prices: the oracle's for the tokens it prices, the curve's or the
 * graduated pool's for the launched tokens.
 */
async function readDevnetChain(chain, abis, viem, chainLib, routing) {
  const client = viem.createPublicClient({ transport: viem.http(chain.rpcUrl) });
  const read = (address, abi, functionName, args = []) => client.readContract({ address, abi, functionName, args });
  const tokens = new Map();
  for (const t of [chain.wrappedNative, ...chain.tokens]) {
    const [price] = await read(chain.core.oracle, abis.settablePriceOracleAbi, 'getPriceUsd', [t.address]);
    tokens.set(lower(t.address), { symbol: t.symbol, decimals: t.decimals, usd: Number(price) / 1e18 });
  }
  for (const t of chain.launchpad?.tokens ?? []) tokens.set(lower(t.address), { symbol: t.symbol, decimals: t.decimals, usd: undefined });
  const native = lower(chain.wrappedNative.address);
  const sources = new Map(chain.sources.map((s) => [s.routerIndex, s]));
  const decimals = (a) => tokens.get(lower(a)).decimals;
  const pools = [];
  const coreStats = [];
  const ladderStats = [];
  const curveLadderStats = [];
  const curveSkipped = [];
  /** A manifest pool's address, source and tokens, as every snapshot kind carries them. */
  const identityOf = (p) => ({
    address: lower(p.address),
    routerIndex: p.routerIndex,
    routerName: sources.get(p.routerIndex)?.name,
    token0: lower(p.token0),
    token1: lower(p.token1),
    decimals0: decimals(p.token0),
    decimals1: decimals(p.token1),
  });
  for (const p of chain.pools) {
    // The pools of the test tokens (the misbehaving ERC20s of the manifest's `testTokens`) are left out: they are
    // there to be refused or fee-accounted end to end, and have no oracle price to value a route by.
    if (!tokens.has(lower(p.token0)) || !tokens.has(lower(p.token1))) continue;
    const identity = identityOf(p);
    if (p.kind === 'uniswap-v2' || p.kind === 'stable') {
      const abi = p.kind === 'stable' ? abis.stablePoolAbi : abis.uniswapV2PairAbi;
      // Uniswap's own V2 pair has no fee getter (its fee is fixed): the source's fee from the manifest.
      const sourceFee = sources.get(p.routerIndex)?.feeBps;
      const [[reserve0, reserve1], feeBps] = await Promise.all([read(p.address, abi, 'getReserves'), p.kind === 'uniswap-v2' && sourceFee !== undefined ? sourceFee : read(p.address, abi, 'swapFeeBps')]);
      if (reserve0 > 0n && reserve1 > 0n) pools.push({ kind: p.kind, ...identity, reserve0, reserve1, feeBps: Number(feeBps) });
    } else if (p.kind === 'core') {
      const [samples0to1, samples1to0] = await Promise.all([
        sampleCore(read, abis.ammPoolAbi, p.address, p.token0, p.token1),
        sampleCore(read, abis.ammPoolAbi, p.address, p.token1, p.token0),
      ]);
      pools.push({ kind: 'core', ...identity, samples0to1, samples1to0 });
      coreStats.push({ pool: p.name, top0to1: samples0to1.at(-1)?.amountIn, top1to0: samples1to0.at(-1)?.amountIn });
    }
  }
  // The concentrated and V4 pools below are read at one block.
  const chainClient = chainLib.createChainClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 });
  const blockNumber = await chainClient.getBlockNumber();
  // Concentrated-liquidity pools (Uniswap V3 and Algebra), read whole as aggregator-router reads them at load: price,
  // tick, active liquidity, fee, tick spacing and every initialized tick (libs/chain's readConcentratedPools).
  const concentrated = chain.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra');
  if (concentrated.length) {
    const reads = await chainLib.readConcentratedPools(chainClient, { blockNumber, pools: concentrated.map((p) => ({ address: p.address, kind: p.kind })) });
    concentrated.forEach((p, i) => {
      const r = reads[i];
      if (!r) throw new Error(`chain ${chain.chainId}: the ${p.kind} pool ${p.name} did not answer`);
      if (r.sqrtPriceX96 === 0n || r.ticks.length === 0) return; // not initialized, or no position: nothing to trade
      pools.push({
        kind: p.kind,
        ...identityOf(p),
        sqrtPriceX96: r.sqrtPriceX96,
        tick: r.tick,
        liquidity: r.liquidity,
        fee: r.fee,
        tickSpacing: r.tickSpacing,
        ticks: r.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet })),
      });
    });
  }
  // Uniswap V4 pools (inside the PoolManager), read whole through its extsload as aggregator-router reads them; the
  // ones whose hook may change a swap only where their source lists the hook, as the aggregator routes them.
  const listing = (p) => sources.get(p.routerIndex)?.hooks?.find((h) => lower(h.address) === lower(p.hooks));
  const v4 = (chain.uniswapV4Pools ?? []).filter((p) => tokens.has(lower(p.token0)) && tokens.has(lower(p.token1)) && (routing.swapHookPermissions(p.hooks).length === 0 || listing(p)));
  if (v4.length) {
    // One PoolManager per source (the devnet has one V4 source).
    const reads = [];
    for (const manager of new Set(v4.map((p) => p.poolManager))) {
      const mine = v4.filter((p) => p.poolManager === manager);
      const read = await chainLib.readUniswapV4Pools(chainClient, { poolManager: manager, blockNumber, pools: mine.map((p) => ({ id: p.poolId, tickSpacing: p.tickSpacing })) });
      mine.forEach((p, i) => (reads[v4.indexOf(p)] = read[i]));
    }
    const sampledPools = [];
    v4.forEach((p, i) => {
      const r = reads[i];
      if (!r) throw new Error(`chain ${chain.chainId}: the V4 pool ${p.name} did not answer`);
      if (r.sqrtPriceX96 === 0n || r.ticks.length === 0) return;
      const pool = {
        kind: 'uniswap-v4',
        ...identityOf({ ...p, address: p.poolId }),
        poolManager: lower(p.poolManager),
        currency0: lower(p.currency0),
        currency1: lower(p.currency1),
        dynamicFee: p.fee === 0x800000,
        hooks: lower(p.hooks),
        protocolFee: r.protocolFee,
        sqrtPriceX96: r.sqrtPriceX96,
        tick: r.tick,
        liquidity: r.liquidity,
        fee: r.lpFee,
        tickSpacing: p.tickSpacing,
        ticks: r.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet })),
      };
      if (listing(p)?.quote === 'sampled') sampledPools.push({ manifest: p, pool });
      else pools.push(pool);
    });
    // A sampled hook's pools (its hook takes a share through a return delta), priced as core pools are: the V4Quoter's
    // quotes at CORE_SAMPLES inputs geometric up to the top of the aggregator's ladder (routing's uniswapV4SampleLadder,
    // laid on the tick legs) and at the ladder's own inputs; the engine gets them as the pool's samples, the reference
    // their upper concave hull. How close the aggregator's own ladder comes to them is printed apart.
    for (const { manifest, pool } of sampledPools) {
      const quoter = sources.get(manifest.routerIndex).addresses.v4Quoter;
      const key = { currency0: manifest.currency0, currency1: manifest.currency1, fee: manifest.fee, tickSpacing: manifest.tickSpacing, hooks: manifest.hooks };
      const legs = routing.uniswapV4TickLegs(pool);
      const ladder = (tokenIn) => routing.uniswapV4SampleLadder(legs.find((l) => l.tokenIn === tokenIn));
      const [ladder0to1, ladder1to0] = [ladder(pool.token0), ladder(pool.token1)];
      const dense = (l) => denseLadder(l.at(-1) ?? 0n);
      const [routed, reference] = await chainLib.sampleUniswapV4Pools(chainClient, {
        blockNumber,
        pools: [
          { quoter, key, ladder0to1, ladder1to0 },
          { quoter, key, ladder0to1: dense(ladder0to1), ladder1to0: dense(ladder1to0) },
        ],
      });
      const dense0to1 = bothSamples(reference.samples0to1, routed.samples0to1);
      const dense1to0 = bothSamples(reference.samples1to0, routed.samples1to0);
      pools.push({ ...pool, sampled: { quoter: lower(quoter), samples0to1: dense0to1, samples1to0: dense1to0 } });
      // The aggregator's ladder against the pool's own quotes: its legs' worst shortfall at the dense inputs.
      const ladderLegs = routing.legsOf({ ...pool, sampled: { quoter: lower(quoter), samples0to1: plainSamples(routed.samples0to1), samples1to0: plainSamples(routed.samples1to0) } });
      for (const [tokenIn, dense, inputs] of [[pool.token0, dense0to1, ladder0to1.length], [pool.token1, dense1to0, ladder1to0.length]]) {
        const { worst, worstAt, worstImpact } = ladderShortfall(ladderLegs.find((l) => l.tokenIn === tokenIn), dense);
        ladderStats.push({ pool: manifest.name, tokenIn, inputs, quotes: dense.length, worst, worstAt: String(worstAt), worstImpact });
      }
    }
  }
  // Curve NG pools (StableswapNG, TwocryptoNG), as aggregator-router routes them (its LiquidityService.sampleCurve): the
  // pools' state read in one multicall (libs/chain's readCurvePools: balances, A, fee, whether the pool takes
  // exchange_received), then each coin pair i < j sampled both ways by the pool's own get_dy (sampleCurvePools) at
  // routing's curveSampleLadder laid on the pool's balance of the input coin; one snapshot per pair, named by its pair id.
  // The reference gets each direction's CORE_SAMPLES get_dy quotes geometric up to the top of the ladder that quotes (with
  // the ladder's own), as the sampled V4 pools'. A pair with a coin the bench does not price (the rebasing pool's REBASE,
  // a test token) is left out.
  const curvePools = chain.curvePools ?? [];
  if (curvePools.length) {
    const flavorOf = (kind) => (kind === 'curve-stableswap-ng' ? 'stableswap-ng' : 'twocrypto-ng');
    const reads = await chainLib.readCurvePools(chainClient, {
      blockNumber,
      pools: curvePools.map((p) => ({ pool: p.address, flavor: flavorOf(p.kind), factory: sources.get(p.routerIndex).addresses.factory })),
    });
    const due = [];
    curvePools.forEach((p, k) => {
      const read = reads[k];
      if (!read) throw new Error(`chain ${chain.chainId}: the Curve pool ${p.name} did not answer`);
      const pairs = [];
      for (let i = 0; i < p.coins.length; i++) for (let j = i + 1; j < p.coins.length; j++) if (tokens.has(lower(p.coins[i])) && tokens.has(lower(p.coins[j]))) pairs.push([i, j]);
      const left = p.coins.length * (p.coins.length - 1) / 2 - pairs.length;
      if (left) curveSkipped.push({ pool: p.name, pairs: left, coins: p.coins.filter((c) => !tokens.has(lower(c))).map((c) => (chain.testTokens ?? []).find((t) => lower(t.address) === lower(c))?.symbol ?? c) });
      if (pairs.length) due.push({ p, read, pairs, flavor: flavorOf(p.kind) });
    });
    const ladders = due.map(({ read, pairs }) => pairs.flatMap(([i, j]) => [{ i, j, ladder: routing.curveSampleLadder(read.balances[i] ?? 0n) }, { i: j, j: i, ladder: routing.curveSampleLadder(read.balances[j] ?? 0n) }]));
    const routed = await chainLib.sampleCurvePools(chainClient, { blockNumber, pools: due.map(({ p, flavor }, k) => ({ pool: p.address, flavor, directions: ladders[k] })), refine: routing.CURVE_LADDER_REFINE });
    const dense = await chainLib.sampleCurvePools(chainClient, {
      blockNumber,
      pools: due.map(({ p, flavor }, k) => ({ pool: p.address, flavor, directions: routed[k].map((d) => ({ i: d.i, j: d.j, ladder: denseLadder(d.samples.at(-1)?.amountIn ?? 0n) })) })),
    });
    due.forEach(({ p, read, pairs }, k) => {
      pairs.forEach(([i, j], m) => {
        const [forward, backward] = [routed[k][2 * m], routed[k][2 * m + 1]];
        const pool = {
          kind: p.kind,
          ...identityOf({ address: `${lower(p.address)}:${i}:${j}`, routerIndex: p.routerIndex, token0: p.coins[i], token1: p.coins[j] }),
          pool: lower(p.address),
          i,
          j,
          samples0to1: plainSamples(forward.samples),
          samples1to0: plainSamples(backward.samples),
          exchangeReceived: read.exchangeReceived,
          fee: read.fee,
          A: read.A,
          nCoins: read.nCoins,
        };
        if (!pool.samples0to1.length && !pool.samples1to0.length) return; // the pool quotes nothing: not routed
        // The reference's quotes (bench only; the engine reads none of it): the dense quotes and the ladder's own.
        const reference = { samples0to1: bothSamples(dense[k][2 * m].samples, forward.samples), samples1to0: bothSamples(dense[k][2 * m + 1].samples, backward.samples) };
        pools.push({ ...pool, reference });
        // The aggregator's ladder against the pool's own quotes, per direction.
        const legs = routing.legsOf(pool);
        for (const [tokenIn, tokenOut, quotes, samples] of [[pool.token0, pool.token1, reference.samples0to1, forward.samples], [pool.token1, pool.token0, reference.samples1to0, backward.samples]]) {
          const s = ladderShortfall(legs.find((l) => l.tokenIn === tokenIn), quotes);
          curveLadderStats.push({
            pool: p.name,
            direction: `${tokens.get(tokenIn).symbol}->${tokens.get(tokenOut).symbol}`,
            inputs: samples.length,
            quotes: quotes.length,
            top: String(samples.at(-1)?.amountIn ?? 0n),
            ...s,
            worstAt: String(s.worstAt),
            rawAt: String(s.rawAt),
          });
        }
      });
    });
  }
  // Launchpad curves still selling (not graduated, allotment not sold out), through the launchpad contract.
  const launchpad = chain.launchpad;
  if (launchpad) {
    const feeBps = await read(launchpad.address, abis.launchpadAbi, 'FEE_BPS');
    for (const t of launchpad.tokens) {
      const token = lower(t.address);
      const state = await read(launchpad.address, abis.launchpadAbi, 'getTokenState', [t.address]);
      if (state.graduated) continue;
      const [tokensForSale, realNativeReserve] = await Promise.all([
        read(launchpad.address, abis.launchpadAbi, 'getTokensForSale', [t.address]),
        read(launchpad.address, abis.launchpadAbi, 'getRealHypeReserve', [t.address]),
      ]);
      if (tokensForSale === 0n) continue;
      const [token0, token1] = BigInt(token) < BigInt(native) ? [token, native] : [native, token];
      pools.push({
        kind: 'launchpad',
        address: lower(launchpad.address),
        routerIndex: sources.get(4)?.routerIndex ?? 4,
        routerName: sources.get(4)?.name,
        token0,
        token1,
        decimals0: decimals(token0),
        decimals1: decimals(token1),
        nativeToken: native,
        curve: { nativeReserve: state.hypeReserve, tokenReserve: state.tokenReserve, tokensForSale, realNativeReserve, feeBps: BigInt(feeBps) },
      });
      // Priced at the curve's spot (native per token).
      tokens.get(token).usd = ((Number(state.hypeReserve) / 10 ** decimals(native)) / (Number(state.tokenReserve) / 10 ** t.decimals)) * tokens.get(native).usd;
    }
  }
  // Graduated tokens: at their pool's spot against the wrapped native.
  for (const [address, t] of tokens) {
    if (t.usd !== undefined) continue;
    const pool = pools.find((p) => p.kind === 'uniswap-v2' && [p.token0, p.token1].includes(address) && [p.token0, p.token1].includes(native));
    if (!pool) throw new Error(`chain ${chain.chainId}: no price for ${t.symbol}`);
    const [rt, rn] = pool.token0 === address ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
    t.usd = ((Number(rn) / 10 ** decimals(native)) / (Number(rt) / 10 ** t.decimals)) * tokens.get(native).usd;
  }
  return { chainId: chain.chainId, tokens, pools, coreStats, ladderStats, curveLadderStats, curveSkipped };
}

/**
 * A core pool's quote in one direction: the largest input its estimateSwap quotes (doubling, then bisection to
 * a billionth), then CORE_SAMPLES inputs geometric from a ten-millionth of it up to it, quoted by estimateSwapBatch.
 */
async function sampleCore(read, abi, pool, tokenIn, tokenOut) {
  const quotes = async (amount) => {
    try {
      return (await read(pool, abi, 'estimateSwap', [tokenIn, tokenOut, amount])) > 0n;
    } catch {
      return false;
    }
  };
  let lo = 10n ** 6n;
  if (!(await quotes(lo))) return [];
  let hi = lo * 2n;
  while (await quotes(hi)) [lo, hi] = [hi, hi * 2n];
  while (hi - lo > lo / 1_000_000_000n + 1n) {
    const mid = (lo + hi) / 2n;
    if (await quotes(mid)) lo = mid;
    else hi = mid;
  }
  const top = Number(lo);
  const amounts = [];
  for (let i = 0; i < CORE_SAMPLES; i++) {
    let a = i === CORE_SAMPLES - 1 ? lo : BigInt(Math.floor(top * 1e-7 ** (1 - i / (CORE_SAMPLES - 1))));
    if (amounts.length && a <= amounts.at(-1)) a = amounts.at(-1) + 1n;
    amounts.push(a);
  }
  const samples = [];
  for (let i = 0; i < amounts.length; i += 128) {
    const chunk = amounts.slice(i, i + 128);
    const outs = await read(pool, abi, 'estimateSwapBatch', [tokenIn, tokenOut, chunk]);
    chunk.forEach((amountIn, k) => samples.push({ amountIn, amountOut: outs[k] }));
  }
  return samples;
}

// ---------------------------------------------------------------- the reference's view of the pools

/** Every pool side of a snapshot as the reference's own function (bench/shared/route-optimum.mjs). */
function sidesOf(pools) {
  const edges = [];
  const sides = new Map(); // `${pool}:${tokenIn}>${tokenOut}` -> side, to check the engine's swaps
  const add = (pool, from, to, side) => {
    edges.push({ from, to, side });
    sides.set(`${pool.address}:${from}>${to}`, side);
  };
  for (const p of pools) {
    const [t0, t1] = [lower(p.token0), lower(p.token1)];
    switch (p.kind) {
      case 'uniswap-v2':
        add(p, t0, t1, v2Side(p.reserve0, p.reserve1, p.feeBps));
        add(p, t1, t0, v2Side(p.reserve1, p.reserve0, p.feeBps));
        break;
      case 'stable':
        add(p, t0, t1, stableSide(p.reserve0, p.reserve1, p.decimals0, p.decimals1, p.feeBps));
        add(p, t1, t0, stableSide(p.reserve1, p.reserve0, p.decimals1, p.decimals0, p.feeBps));
        break;
      case 'uniswap-v4':
        // A sampled hook's pool: its V4Quoter's own quotes (the hook's share in them), densely, as core pools'.
        if (p.sampled) {
          if (p.sampled.samples0to1.length) add(p, t0, t1, sampledSide(p.sampled.samples0to1));
          if (p.sampled.samples1to0.length) add(p, t1, t0, sampledSide(p.sampled.samples1to0));
          break;
        }
      // falls through: the tick maths
      case 'uniswap-v3':
      case 'algebra': {
        const down = concentratedSide(p, true);
        const up = concentratedSide(p, false);
        if (down.cap > 0) add(p, t0, t1, down);
        if (up.cap > 0) add(p, t1, t0, up);
        break;
      }
      case 'core':
        if (p.samples0to1.length) add(p, t0, t1, sampledSide(p.samples0to1));
        if (p.samples1to0.length) add(p, t1, t0, sampledSide(p.samples1to0));
        break;
      case 'curve-stableswap-ng':
      case 'curve-twocrypto-ng': {
        // A Curve pair: the hull of its pool's own get_dy quotes (`reference`: dense up to the ladder's top), each
        // pair a pool of its own (two pairs of one pool trade independently here: an overestimate of what a route can get).
        const q = p.reference ?? p;
        if (q.samples0to1.length) add(p, t0, t1, sampledSide(q.samples0to1));
        if (q.samples1to0.length) add(p, t1, t0, sampledSide(q.samples1to0));
        break;
      }
      case 'launchpad': {
        const native = lower(p.nativeToken);
        const token = native === t0 ? t1 : t0;
        const c = p.curve;
        const fee = Number(c.feeBps ?? 100n);
        if (c.tokensForSale > 0n) add(p, native, token, curveBuySide(c.nativeReserve, c.tokenReserve, c.tokensForSale, fee));
        if (c.realNativeReserve > 0n) add(p, token, native, curveSellSide(c.nativeReserve, c.tokenReserve, c.realNativeReserve, fee));
        break;
      }
      default:
        throw new Error(`no reference model for pool kind ${p.kind}`);
    }
  }
  return { edges, sides };
}

/** Pool sides that pay more than the tokens' prices at spot (in USD: rate * price out / price in > 1): loops may pay. */
function sidesAboveSpot(edges, usdPerUnit) {
  return edges.filter((e) => e.side.slope(0) * (usdPerUnit.get(e.to) / usdPerUnit.get(e.from)) > 1 + 1e-12).length;
}

// ---------------------------------------------------------------- the engine's routes

/**
 * What the bench reads of a route, whatever its shape: its output, whether it splits across paths (a stage
 * holding swaps of different token pairs, or stages that do not chain into one token path from tokenIn to
 * tokenOut), and whether its amounts hold up against the reference's pool maths (no swap paying more than its
 * pool would for its input, and token by token no more going out than came in).
 */
function readRoute(route, tokenIn, tokenOut, amountIn, sides) {
  const stages = route.stages.map((stage) => stage.map((s) => ({ ...s, tokenIn: lower(s.tokenIn), tokenOut: lower(s.tokenOut), poolAddress: lower(s.poolAddress) })));
  let splits = false;
  let at = tokenIn;
  for (const stage of stages) {
    const pairs = new Set(stage.map((s) => `${s.tokenIn}>${s.tokenOut}`));
    if (pairs.size !== 1 || stage[0].tokenIn !== at) splits = true;
    at = stage[0].tokenOut;
  }
  if (at !== tokenOut) splits = true;
  const problems = [];
  const balance = new Map([[tokenIn, amountIn]]);
  for (const stage of stages) {
    for (const s of stage) {
      const side = sides.get(`${s.poolAddress}:${s.tokenIn}>${s.tokenOut}`);
      if (!side) problems.push(`swap through an unknown pool side ${s.poolAddress}`);
      // One unit of input of slack: a pool that rounds its fee down (the stable pools) pays the unit's worth more.
      else if (Number(s.amountOut) > side.out(Math.min(Number(s.amountIn) + 1, side.cap)) * (1 + 1e-9) + 1) {
        problems.push(`${s.kind} swap ${s.poolAddress} pays ${s.amountOut} for ${s.amountIn}, its pool ${side.out(Number(s.amountIn)).toPrecision(12)}`);
      }
      balance.set(s.tokenIn, (balance.get(s.tokenIn) ?? 0n) - s.amountIn);
    }
    for (const s of stage) balance.set(s.tokenOut, (balance.get(s.tokenOut) ?? 0n) + s.amountOut);
    for (const [token, amount] of balance) if (amount < 0n) problems.push(`stage spends ${-amount} more of ${token} than the route holds`);
  }
  if ((balance.get(tokenOut) ?? 0n) < route.amountOut) problems.push(`amountOut ${route.amountOut} above what reaches tokenOut (${balance.get(tokenOut) ?? 0n})`);
  // The route valued by the reference's own pool functions: each stage's swaps take the shares of what the router
  // holds that the route gives them, replayed through the sides (real numbers, as the one-path and the optimum are).
  const held = new Map([[tokenIn, Number(amountIn)]]);
  const engineHeld = new Map([[tokenIn, Number(amountIn)]]);
  for (const stage of stages) {
    const outs = [];
    const spent = new Map();
    // Shares of what the router holds as the stage starts.
    const atStart = new Map(engineHeld);
    for (const s of stage) {
      const side = sides.get(`${s.poolAddress}:${s.tokenIn}>${s.tokenOut}`);
      const share = Number(s.amountIn) / (atStart.get(s.tokenIn) || 1);
      const input = share * (held.get(s.tokenIn) ?? 0);
      spent.set(s.tokenIn, (spent.get(s.tokenIn) ?? 0) + input);
      outs.push([s.tokenOut, side ? side.out(Math.min(input, side.cap)) : 0]);
      engineHeld.set(s.tokenIn, (engineHeld.get(s.tokenIn) ?? 0) - Number(s.amountIn));
    }
    for (const [t, v] of spent) held.set(t, (held.get(t) ?? 0) - v);
    for (const [t, v] of outs) held.set(t, (held.get(t) ?? 0) + v);
    for (const s of stage) engineHeld.set(s.tokenOut, (engineHeld.get(s.tokenOut) ?? 0) + Number(s.amountOut));
  }
  // Curve: whether the route trades a Curve pool, and one of them through two of its coin pairs (the aggregator refuses
  // such a route at answer time and searches again without the later pair; rated here as it is).
  const curvePairs = new Map(); // pool -> [pair id, stage]
  let curveReuse;
  stages.forEach((stage, h) => {
    for (const s of stage) {
      if (!isCurve(s.kind)) continue;
      const pool = curvePoolOf(s.poolAddress);
      const first = curvePairs.get(pool);
      if (!first) curvePairs.set(pool, [s.poolAddress, h]);
      else if (first[0] !== s.poolAddress) curveReuse ??= first[1] === h ? 'one stage' : 'stages';
    }
  });
  return { amountOut: route.amountOut, splits, stages: stages.length, swaps: stages.flat(), problems, byReference: held.get(tokenOut) ?? 0, curve: curvePairs.size > 0, curveReuse };
}

/** The swaps a route may hold on a chain, as aggregator-router gives the engine: what the chain's route gas budget holds. */
let chainMaxSwaps = () => undefined;

function askEngine(engine, graph, q, maxSwaps = chainMaxSwaps(graph.chainId), gasValue = 0) {
  try {
    return engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true, maxSwaps, gasValue });
  } catch (e) {
    if (e.name !== 'NoRouteError') throw e;
    return undefined;
  }
}

// ---------------------------------------------------------------- measuring

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};

/** Queries: each ordered pair at each size, the amount worth `usd` at the token's price. */
function queriesFor(pairs, tokens) {
  const out = [];
  for (const [a, b] of pairs) {
    for (const usd of SIZES_USD) {
      const t = tokens.get(a);
      out.push({ label: `${t.symbol}->${tokens.get(b).symbol} $${usd.toLocaleString('en-US')}`, usd, tokenIn: a, tokenOut: b, amountIn: BigInt(Math.round((usd / t.usd) * 10 ** t.decimals)) });
    }
  }
  return out;
}

async function evaluate(name, engine, snapshot, tokens, queries, alsoMaxSwaps) {
  const graph = engine.buildGraph(snapshot);
  const { edges, sides } = sidesOf(snapshot.pools);
  const usdPerUnit = new Map([...tokens].map(([a, t]) => [a, t.usd / 10 ** t.decimals]));
  const results = [];
  const started = performance.now();
  for (const q of queries) {
    const scale = new Map([...usdPerUnit].map(([a, u]) => [a, u / q.usd]));
    let optimum;
    try {
      optimum = await convexOptimum({ edges, scale, tokenIn: q.tokenIn, tokenOut: q.tokenOut, amount: Number(q.amountIn) });
    } catch (error) {
      // The solver failed on this query: reported, not rated.
      optimum = { status: 'failed', error: String(error?.message ?? error) };
    }
    const route = askEngine(engine, graph, q);
    const read = route ? readRoute(route, q.tokenIn, q.tokenOut, q.amountIn, sides) : undefined;
    const r = { label: q.label, usd: q.usd, optimum: optimum.status, error: optimum.error, engine: read ? Number(read.amountOut) : 0, routed: !!route, swapCount: read ? read.swaps.length : 0 };
    // For information: the route within another swap budget.
    const other = alsoMaxSwaps !== undefined && (optimum.status === 'optimal' || optimum.status === 'unfinished') ? askEngine(engine, graph, q, alsoMaxSwaps) : undefined;
    if (other) r.otherBudgetRatio = Number(other.amountOut) / optimum.upper;
    // Net of gas, for information: the route chosen net of gas (gasValue: GAS_USD a gas unit in tokenOut) against
    // the optimum less the gas of the cheapest transaction any route needs (one swap): a bound above the best net.
    if (optimum.status === 'optimal' || optimum.status === 'unfinished') {
      const gasValue = GAS_USD / usdPerUnit.get(q.tokenOut);
      const bound = optimum.upper - (engine.routeBaseGas() + Math.min(...GAS_KINDS.map((k) => engine.swapGas(k)))) * gasValue;
      const aware = askEngine(engine, graph, q, chainMaxSwaps(graph.chainId), gasValue);
      const net = (route) => (route ? Number(route.amountOut) - engine.routeGas(route) * gasValue : 0);
      if (bound > 0) {
        r.netRatio = Math.max(0, net(aware)) / bound;
        r.netRatioGasAside = Math.max(0, net(route)) / bound;
        r.awareSwaps = aware ? aware.stages.flat().length : 0;
      }
    }
    if (read) Object.assign(r, { splits: read.splits, stages: read.stages, swaps: read.swaps.length, problems: read.problems, curve: read.curve, curveReuse: read.curveReuse });
    // Integer rounding: a base unit of each swap's tokens in and out, in tokenOut base units.
    const rounding = read ? read.swaps.reduce((sum, s) => sum + (usdPerUnit.get(s.tokenIn) + usdPerUnit.get(s.tokenOut)) / usdPerUnit.get(q.tokenOut), 0) : 0;
    if (optimum.status === 'optimal' || optimum.status === 'unfinished') {
      const onePath = bestOnePath(edges, q.tokenIn, q.tokenOut, Number(q.amountIn), ONE_PATH_HOPS);
      if (process.env.ROUTE_QUALITY_DEBUG === q.label && onePath.hops) {
        const poolOf = new Map([...sides].map(([key, side]) => [side, key]));
        progress(`debug ${name} ${q.label}: engine ${r.engine}, one-path ${onePath.out}`);
        for (const stage of read?.swaps ?? []) progress(`  engine swap ${stage.poolAddress} ${stage.tokenIn}>${stage.tokenOut} in ${stage.amountIn} out ${stage.amountOut}`);
        for (const hop of onePath.hops) hop.sides.forEach((side, j) => progress(`  one-path ${poolOf.get(side)} in ${hop.inputs?.[j] ?? hop.inputs} out ${side.out(Math.min(hop.inputs?.[j] ?? 0, side.cap))}`));
      }
      Object.assign(r, {
        upper: optimum.upper,
        lower: optimum.lower,
        gap: optimum.gap,
        nodes: optimum.nodes,
        certified: optimum.status === 'optimal' && optimum.certified,
        optimumSplits: optimum.splits,
        optimumArcs: optimum.arcs?.length,
        onePath: onePath.out,
        onePathHops: onePath.path ? onePath.path.length - 1 : 0,
        ratio: r.engine / optimum.upper,
        // Below it by the route's exact amounts, and by the reference's own valuation of the route (its pools'
        // integer rounding aside, which the float reference does not have: up to about 1e-5 of a $1M concentrated swap).
        belowOnePathExact: onePath.out > 0 && r.engine < onePath.out * (1 - ONE_PATH_TOLERANCE) - rounding,
        belowOnePath: onePath.out > 0 && r.engine < onePath.out * (1 - ONE_PATH_TOLERANCE) - rounding && (read?.byReference ?? 0) < onePath.out * (1 - ONE_PATH_TOLERANCE) - rounding,
        ofOnePathByReference: onePath.out > 0 && read ? read.byReference / onePath.out : undefined,
        // A route above the upper bound beyond rounding would be the reference's error, not the engine's merit.
        aboveOptimum: r.engine > optimum.upper * (1 + ONE_PATH_TOLERANCE) + rounding,
      });
    }
    results.push(r);
  }
  return { name, pools: snapshot.pools.length, curvePairs: snapshot.pools.filter((p) => isCurve(p.kind)).length, curvePools: new Set(snapshot.pools.filter((p) => isCurve(p.kind)).map((p) => p.pool)).size, concentrated: snapshot.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra' || p.kind === 'uniswap-v4').length, uniswapV4: snapshot.pools.filter((p) => p.kind === 'uniswap-v4').length, uniswapV4Hooked: snapshot.pools.filter((p) => p.kind === 'uniswap-v4' && engine.swapHookPermissions(p.hooks).length > 0).length, tokens: tokens.size, aboveSpot: sidesAboveSpot(edges, usdPerUnit), seconds: (performance.now() - started) / 1000, results, graph, queries, maxSwaps: chainMaxSwaps(snapshot.chainId), alsoMaxSwaps };
}

function summarize(rows) {
  const rated = rows.filter((r) => r.ratio !== undefined);
  const ratios = rated.map((r) => r.ratio);
  const routed = rated.filter((r) => r.routed);
  const median = quantile(ratios, 0.5);
  const p5 = quantile(ratios, 0.05);
  const belowOnePath = rated.filter((r) => r.belowOnePath).length;
  return {
    queries: rows.length,
    rated: rated.length,
    noExactRoute: rows.filter((r) => r.optimum === 'capped' || r.optimum === 'infeasible').length,
    routedWithoutOptimum: rows.filter((r) => (r.optimum === 'capped' || r.optimum === 'infeasible') && r.routed).length,
    engineNoRoute: rated.filter((r) => !r.routed).length,
    median,
    p5,
    min: quantile(ratios, 0),
    splitShare: routed.length ? routed.filter((r) => r.splits).length / routed.length : NaN,
    optimumSplitShare: rated.length ? rated.filter((r) => r.optimumSplits).length / rated.length : NaN,
    belowOnePath,
    curveRoutes: rated.filter((r) => r.curve).length,
    curveReuse: rated.filter((r) => r.curveReuse).length,
    checkProblems: rows.filter((r) => r.problems?.length).length,
    maxSwapCount: Math.max(0, ...rows.map((r) => r.swapCount ?? 0)),
    net: rated.some((r) => r.netRatio !== undefined)
      ? { median: quantile(rated.map((r) => r.netRatio ?? 0), 0.5), p5: quantile(rated.map((r) => r.netRatio ?? 0), 0.05), gasAsideMedian: quantile(rated.map((r) => r.netRatioGasAside ?? 0), 0.5), gasAsideP5: quantile(rated.map((r) => r.netRatioGasAside ?? 0), 0.05), meanSwaps: rated.reduce((sum, r) => sum + (r.awareSwaps ?? 0), 0) / rated.length }
      : undefined,
    otherBudget: rated.some((r) => r.otherBudgetRatio !== undefined) ? { median: quantile(rated.map((r) => r.otherBudgetRatio ?? 0), 0.5), p5: quantile(rated.map((r) => r.otherBudgetRatio ?? 0), 0.05) } : undefined,
    pass: { median: median >= TARGET_MEDIAN, p5: p5 >= TARGET_P5, onePath: belowOnePath === 0 },
  };
}

/**
 * Exact output against exact input: for each query, ask for what the exact-input route paid. The exact-output
 * route needs at most the same input (that input pays it) and pays about what was asked.
 */
function exactOutConsistency(engine, graph, queries) {
  let worstInput = 0;
  let worstExcess = 0;
  let worstLabel = '';
  let count = 0;
  let failed = 0;
  for (const q of queries) {
    const route = askEngine(engine, graph, q);
    if (!route || route.amountOut < 1_000n) continue; // dust: rounding dominates
    let out;
    try {
      out = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountOut: route.amountOut, multiHop: true, maxSwaps: chainMaxSwaps(graph.chainId) });
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
      failed++;
      [worstInput, worstLabel] = [Infinity, q.label];
      continue;
    }
    // Rounding: each swap's amounts round to whole base units, so up to a base unit of input per swap is rounding.
    const swaps = out.stages.flat().length;
    const inputRatio = out.amountIn - BigInt(swaps) <= q.amountIn ? Math.min(1, Number(out.amountIn) / Number(q.amountIn)) : Number(out.amountIn - BigInt(swaps)) / Number(q.amountIn);
    const excess = Number(out.amountOut) / Number(route.amountOut) - 1;
    if (inputRatio > worstInput) [worstInput, worstLabel] = [inputRatio, q.label];
    worstExcess = Math.max(worstExcess, excess);
    count++;
  }
  return { count, failed, worstInput, worstExcess, worstLabel, pass: failed === 0 && worstInput <= TARGET_EXACT_OUT_INPUT && worstExcess <= TARGET_EXACT_OUT_EXCESS };
}

function timeOnly(engine, graph, queries, exactOut) {
  const latencies = [];
  for (const q of queries) {
    const started = performance.now();
    try {
      const maxSwaps = chainMaxSwaps(graph.chainId);
      if (exactOut) engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountOut: q.amountOut, multiHop: true, maxSwaps });
      else engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true, maxSwaps });
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

// ---------------------------------------------------------------- main

async function main() {
  await loadSolver();
  progress('building the libs (tools/build/build.mjs --quiet) and compiling the engine ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { startDevnet } = require(join(root, 'dist/libs/devnet-kit/src'));
  const chainLib = require(join(root, 'dist/libs/chain/src'));
  const { getChainInfo } = chainLib;
  const abis = require(join(root, 'dist/libs/abis/src'));
  const viem = require('viem');
  const { engine, cleanup } = await compileEngine('route-quality-');
  chainMaxSwaps = (chainId) => engine.maxSwapsWithinGas(getChainInfo(chainId).routeGasBudget);
  try {
    // The synthetic graph (its Curve-like pools sampled at routing's curveSampleLadder, as the aggregator samples a
    // Curve pool), and a quick check of the reference's concentrated-liquidity sides against @uniswap/v3-sdk.
    const synthOptions = { ...SYNTHETIC_OPTIONS, curveLadder: engine.curveSampleLadder };
    const synth = syntheticGraph(1000, SYNTHETIC_SEED, 0, synthOptions);
    const synthUsd = new Map(synth.tokens.map((t) => [t.address, t.usd]));
    const sideCheck = await checkConcentratedSides(synth.snapshot.pools, (a) => synthUsd.get(a), { swaps: 300 });
    progress(`concentrated sides against @uniswap/v3-sdk: ${sideCheck.swaps} swaps, worst relative difference ${sideCheck.worst.toExponential(2)}`);
    progress('starting the devnet (chains 999 and 4663) and reading its pools, sampling the core and Curve pools ...');
    const devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
    let chains;
    try {
      chains = await Promise.all([999, 4663].map((id) => readDevnetChain(devnet.manifest.chains[String(id)], abis, viem, chainLib, engine)));
    } finally {
      await devnet.stop();
    }

    const graphs = [];
    for (const chain of chains) {
      const addresses = [...chain.tokens.keys()];
      const pairs = addresses.flatMap((a) => addresses.filter((b) => b !== a).map((b) => [a, b]));
      progress(`devnet ${chain.chainId}: ${chain.pools.length} pools, ${addresses.length} tokens, ${pairs.length * SIZES_USD.length} queries ...`);
      graphs.push(await evaluate(`devnet ${chain.chainId}`, engine, { chainId: chain.chainId, pools: chain.pools }, chain.tokens, queriesFor(pairs, chain.tokens)));
    }

    const synthTokens = new Map(synth.tokens.map((t) => [lower(t.address), { symbol: t.symbol, decimals: t.decimals, usd: t.usd }]));
    const rand = rng(SYNTHETIC_SEED + 1);
    const synthAddresses = [...synthTokens.keys()];
    const synthPairs = [];
    while (synthPairs.length < Math.max(1, Math.round(queryCount / SIZES_USD.length))) {
      const a = synthAddresses[Math.floor(rand() * synthAddresses.length)];
      const b = synthAddresses[Math.floor(rand() * synthAddresses.length)];
      if (a !== b) synthPairs.push([a, b]);
    }
    const synthName = `synthetic ${synth.snapshot.pools.length.toLocaleString('en-US')} pools`;
    progress(`${synthName}: ${synth.tokens.length} tokens, ${synthPairs.length * SIZES_USD.length} queries ...`);
    const synthQueries = queriesFor(synthPairs, synthTokens);
    // The same graph without concentrated pools (their draws left out: V2 pools stay V2), for the same queries.
    const plain = syntheticGraph(1000, SYNTHETIC_SEED, 0, { ...synthOptions, concentrated: 0 });
    const plainName = `${synthName} without concentrated liquidity`;
    progress(`${plainName}: ${synthPairs.length * SIZES_USD.length} queries ...`);
    graphs.push(await evaluate(plainName, engine, plain.snapshot, synthTokens, synthQueries, chainMaxSwaps(999)));
    graphs.push(await evaluate(synthName, engine, synth.snapshot, synthTokens, synthQueries, chainMaxSwaps(999)));

    // For information: exact output against exact input, and the search latency on the synthetic graph.
    const exactOut = Object.fromEntries(graphs.map((g) => [g.name, exactOutConsistency(engine, g.graph, g.name.startsWith('synthetic') ? g.queries.slice(0, 100) : g.queries)]));
    const synthGraph = graphs.at(-1).graph;
    timeOnly(engine, synthGraph, synthQueries, false);
    timeOnly(engine, synthGraph, synthQueries, false);
    const latencyIn = timeOnly(engine, synthGraph, synthQueries, false);

    const report = {
      targets: { median: TARGET_MEDIAN, p5: TARGET_P5, belowOnePath: 0, onePathTolerance: ONE_PATH_TOLERANCE, exactOutInput: TARGET_EXACT_OUT_INPUT, exactOutExcess: TARGET_EXACT_OUT_EXCESS },
      graphs: graphs.map((g) => {
        const rated = g.results.filter((r) => r.ratio !== undefined);
        return {
          graph: g.name,
          chainId: g.graph.chainId,
          maxSwaps: g.maxSwaps,
          alsoMaxSwaps: g.alsoMaxSwaps,
          pools: g.pools,
          curvePairs: g.curvePairs,
          curvePools: g.curvePools,
          concentrated: g.concentrated,
          uniswapV4: g.uniswapV4,
          uniswapV4Hooked: g.uniswapV4Hooked,
          tokens: g.tokens,
          sidesAboveSpot: g.aboveSpot,
          seconds: g.seconds,
          sizes: SIZES_USD.map((usd) => ({ usd, ...summarize(g.results.filter((r) => r.usd === usd)) })),
          all: summarize(g.results),
          // The rated routes that trade a Curve pool, and those trading one through two of its coin pairs.
          curve: { ...summarize(g.results.filter((r) => r.curve)), reuse: g.results.filter((r) => r.curveReuse).map((r) => ({ label: r.label, where: r.curveReuse, ratio: r.ratio, ofOnePath: r.onePath ? r.engine / r.onePath : undefined })) },
          precision: {
            worstGap: Math.max(...rated.filter((r) => Number.isFinite(r.gap)).map((r) => r.gap)),
            uncertified: rated.filter((r) => !r.certified).length,
            maxNodes: Math.max(...rated.map((r) => r.nodes)),
            routesAboveOptimum: rated.filter((r) => r.aboveOptimum).map((r) => r.label),
          },
          lowest: [...rated].sort((a, b) => a.ratio - b.ratio).slice(0, 5).map((r) => ({ label: r.label, ratio: r.ratio, stages: r.stages ?? 0, splits: !!r.splits, curve: !!r.curve, optimumSplits: r.optimumSplits, optimumArcs: r.optimumArcs, onePath: r.onePath / r.upper, onePathHops: r.onePathHops })),
          belowOnePath: g.results.filter((r) => r.belowOnePath).slice(0, 10).map((r) => ({ label: r.label, ofOnePath: r.engine / r.onePath, ofOnePathByReference: r.ofOnePathByReference, onePathHops: r.onePathHops, stages: r.stages ?? 0, splits: !!r.splits, curve: !!r.curve })),
          belowOnePathExactOnly: g.results.filter((r) => !r.belowOnePath && r.belowOnePathExact).slice(0, 10).map((r) => ({ label: r.label, ofOnePath: r.engine / r.onePath, ofOnePathByReference: r.ofOnePathByReference })),
          problems: g.results.filter((r) => r.problems?.length).slice(0, 5).map((r) => ({ label: r.label, problems: r.problems.slice(0, 3) })),
          referenceFailures: g.results.filter((r) => r.optimum === 'failed').map((r) => ({ label: r.label, error: r.error })),
          routedWithoutOptimum: g.results.filter((r) => (r.optimum === 'capped' || r.optimum === 'infeasible') && r.routed).map((r) => r.label),
        };
      }),
      coreSampling: chains.map((c) => ({ chainId: c.chainId, samplesPerSide: CORE_SAMPLES, pools: c.coreStats.map((s) => ({ pool: s.pool, top0to1: String(s.top0to1), top1to0: String(s.top1to0) })) })),
      v4Ladders: chains.flatMap((c) => c.ladderStats.map((s) => ({ chainId: c.chainId, ...s }))),
      curveLadderSize: engine.CURVE_LADDER_SIZE,
      curveDenseQuotes: CORE_SAMPLES,
      curveLadders: chains.flatMap((c) => c.curveLadderStats.map((s) => ({ chainId: c.chainId, ...s }))),
      curveSkipped: chains.flatMap((c) => c.curveSkipped.map((s) => ({ chainId: c.chainId, ...s }))),
      exactOut,
      concentratedSideCheck: sideCheck,
      latency: { queries: latencyIn.length, exactInP50Ms: quantile(latencyIn, 0.5), exactInP99Ms: quantile(latencyIn, 0.99), targetP50Ms: LATENCY_TARGET_P50_MS },
    };
    if (asJson) {
      console.log(JSON.stringify(report, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
      return;
    }
    print(report);
  } finally {
    cleanup();
  }
}

function print(report) {
  const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(3)}%` : '-');
  const share = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '-');
  const mark = (ok) => (ok ? 'PASS' : 'MISS');
  console.log('route quality: engine amountOut / loop-free optimum over any split (real numbers, every pool; HiGHS LP + cutting planes)');
  console.log(`targets: median >= ${pct(TARGET_MEDIAN)}, p5 >= ${pct(TARGET_P5)}, route >= best one-path route (<= ${ONE_PATH_HOPS} hops) always`);
  const c = report.concentratedSideCheck;
  console.log(
    `reference check: concentrated-liquidity sides against @uniswap/v3-sdk's swap (integers) on ${c.swaps} random exact-input swaps ($10 to $10M): worst relative difference ${c.worst.toExponential(2)}${c.worstAt ? ` (${c.worstAt.sdk} vs ${c.worstAt.reference.toFixed(1)} base units: the integer loop's rounding)` : ''}${c.failed ? `; ${c.failed} swaps the SDK refused` : ''}`,
  );
  for (const g of report.graphs) {
    console.log('');
    console.log(`${g.graph}: routes within ${g.maxSwaps} swaps (chain ${g.chainId}'s route gas budget)`);
    console.log(`${g.graph}: ${g.pools} pools${g.concentrated ? ` (${g.concentrated} concentrated: ${share(g.concentrated / g.pools)}; ${g.uniswapV4} of them V4, ${g.uniswapV4Hooked} with a listed hook)` : ''}${g.curvePairs ? ` (${g.curvePairs} Curve coin pairs of ${g.curvePools} pools)` : ''}, ${g.tokens} tokens${g.sidesAboveSpot ? `, ${g.sidesAboveSpot} pool sides above the tokens' prices (loops can pay)` : ', no pool side above the tokens\' prices'}; optimum within ${g.precision.worstGap.toExponential(1)} (worst U/L - 1; ${g.precision.uncertified} not closed), up to ${g.precision.maxNodes} branch-and-bound nodes; ${g.seconds.toFixed(1)} s`);
    console.log(
      `${'size'.padEnd(12)}${'rated'.padStart(6)}${'no route'.padStart(9)}${'median'.padStart(10)}${''.padStart(5)}${'p5'.padStart(10)}${''.padStart(5)}${'min'.padStart(10)}${'splits'.padStart(8)}${'opt splits'.padStart(11)}${'< 1-path'.padStart(9)}${''.padStart(5)}${'no answer'.padStart(10)}${'checks'.padStart(7)}${'curve'.padStart(7)}`,
    );
    for (const s of [...g.sizes.map((x) => ({ ...x, label: `$${x.usd.toLocaleString('en-US')}` })), { ...g.all, label: 'all' }]) {
      console.log(
        `${s.label.padEnd(12)}${String(s.rated).padStart(6)}${String(s.noExactRoute).padStart(9)}${pct(s.median).padStart(10)} ${mark(s.pass.median)}${pct(s.p5).padStart(10)} ${mark(s.pass.p5)}${pct(s.min).padStart(10)}${share(s.splitShare).padStart(8)}${share(s.optimumSplitShare).padStart(11)}${String(s.belowOnePath).padStart(9)} ${mark(s.pass.onePath)}${String(s.engineNoRoute).padStart(10)}${String(s.checkProblems).padStart(7)}${String(s.curveRoutes).padStart(7)}`,
      );
    }
    console.log(
      `  net of gas, for information (gas at $${GAS_USD.toExponential(1)} a unit: 1 gwei at $2,500 a coin; route chosen net of gas against the optimum less one swap's gas): ${g.sizes.map((x) => `$${x.usd.toLocaleString('en-US')} median ${pct(x.net?.median)} p5 ${pct(x.net?.p5)} (gas aside ${pct(x.net?.gasAsideMedian)} / ${pct(x.net?.gasAsideP5)}; ${x.net?.meanSwaps.toFixed(1)} swaps)`).join('; ')}`,
    );
    if (g.alsoMaxSwaps !== undefined) {
      console.log(`  for information, within ${g.alsoMaxSwaps} swaps (chain 999's budget) instead: ${g.sizes.map((x) => `$${x.usd.toLocaleString('en-US')} median ${pct(x.otherBudget?.median)} p5 ${pct(x.otherBudget?.p5)}`).join('; ')}`);
    }
    if (g.curvePairs) {
      const c = g.curve;
      console.log(
        `  routes through a Curve pool: ${c.rated} rated${c.rated ? `, median ${pct(c.median)} p5 ${pct(c.p5)} min ${pct(c.min)}, ${c.belowOnePath} below the best one-path, ${c.engineNoRoute} without an answer` : ''}; trading one Curve pool through two of its coin pairs (refused by the aggregator at answer time, searched again without the later pair; rated as they are, for information): ${c.reuse.length}${c.reuse.length ? ` (${c.reuse.slice(0, 6).map((x) => `${x.label} ${pct(x.ratio)}, ${x.where === 'stages' ? 'in two stages' : 'in one stage'}`).join('; ')}${c.reuse.length > 6 ? '; ...' : ''})` : ''}`,
      );
    }
    console.log(`  most swaps in a route: ${g.sizes.map((x) => `$${x.usd.toLocaleString('en-US')} ${x.maxSwapCount}`).join(', ')}`);
    for (const w of g.lowest) console.log(`  lowest: ${w.label} ${pct(w.ratio)} (route: ${w.stages} stages${w.splits ? ', split' : ''}${w.curve ? ', through a Curve pool' : ''}; optimum ${w.optimumSplits ? 'splits across paths' : `one path of ${w.optimumArcs} hops`}; best one-path ${pct(w.onePath)} in ${w.onePathHops} hops)`);
    for (const b of g.belowOnePath) console.log(`  below the best one-path route: ${b.label} pays ${(b.ofOnePath * 100).toFixed(5)}% of it, ${(b.ofOnePathByReference * 100).toFixed(5)}% valued by the reference (${b.onePathHops} hops; route: ${b.stages} stages${b.splits ? ', split' : ''}${b.curve ? ', through a Curve pool' : ''})`);
    for (const b of g.belowOnePathExactOnly) console.log(`  for information, below the one-path by its exact amounts only: ${b.label} pays ${(b.ofOnePath * 100).toFixed(5)}% of it, ${(b.ofOnePathByReference * 100).toFixed(5)}% valued by the reference (its pools' integer rounding)`);
    for (const p of g.problems) console.log(`  check: ${p.label}: ${p.problems.join('; ')}`);
    for (const f of g.referenceFailures) console.log(`  the reference failed on ${f.label}: ${f.error}`);
    if (g.precision.routesAboveOptimum.length) console.log(`  routes above the optimum (a reference error): ${g.precision.routesAboveOptimum.length} (${g.precision.routesAboveOptimum.slice(0, 5).join(', ')})`);
    if (g.routedWithoutOptimum.length) console.log(`  routed although the pools cannot carry the whole input: ${g.routedWithoutOptimum.length} (${g.routedWithoutOptimum.slice(0, 5).join(', ')})`);
  }
  console.log('');
  console.log('columns: rated = queries with an exact-input optimum; no route = queries whose input the pools cannot carry whole to tokenOut (left out);');
  console.log('  splits = routes that split across paths; opt splits = optima that do; < 1-path = routes paying less than the best one-path route;');
  console.log('  no answer = rated queries the engine found no route for (ratio 0); checks = routes whose amounts exceed the reference pool maths;');
  console.log('  curve = rated routes trading a Curve pool');
  console.log('');
  console.log('exact output vs exact input (for information): ask for what the exact-input route paid');
  for (const [name, r] of Object.entries(report.exactOut)) {
    console.log(`  ${name.padEnd(26)}${String(r.count).padStart(5)} queries   worst input ${r.worstInput.toFixed(6)}x   worst excess ${pct(r.worstExcess)}${r.failed ? `   ${r.failed} without an exact-output route` : ''}   ${mark(r.pass)} (input <= ${TARGET_EXACT_OUT_INPUT}x, excess <= ${pct(TARGET_EXACT_OUT_EXCESS)})${r.pass ? '' : ` worst: ${r.worstLabel}`}`);
  }
  const l = report.latency;
  for (const v of report.v4Ladders) {
    console.log(`sampled V4 pool (for information): ${v.pool} on ${v.chainId}, from ${v.tokenIn}: the aggregator's ladder of ${v.inputs} inputs pays at worst ${(v.worst * 100).toFixed(4)}% less than the pool's own ${v.quotes} quotes between its samples (past 1% of price impact, in hundredths of it; at ${v.worstAt}, impact ${(v.worstImpact * 100).toFixed(2)}%)`);
  }
  // Curve: per pool, its directions' worst (the aggregator's ladder against the pool's own dense get_dy quotes).
  const curvePools = new Map();
  for (const v of report.curveLadders) {
    const key = `${v.chainId}:${v.pool}`;
    curvePools.set(key, [...(curvePools.get(key) ?? []), v]);
  }
  for (const directions of curvePools.values()) {
    const { chainId, pool, quotes } = directions[0];
    const worst = directions.reduce((a, b) => (b.worst > a.worst ? b : a));
    const raw = directions.reduce((a, b) => (b.raw > a.raw ? b : a));
    console.log(
      `Curve pool (for information): ${pool} on ${chainId}, ${directions.length} directions: the aggregator's ladder (${Math.min(...directions.map((d) => d.inputs))} to ${Math.max(...directions.map((d) => d.inputs))} inputs quoted of ${report.curveLadderSize}) pays at worst ${(worst.worst * 100).toFixed(4)}% less than the pool's own ${quotes} get_dy quotes (${report.curveDenseQuotes} geometric up to the ladder's top, and the ladder's own) between its samples (past 1% of price impact, in hundredths of it; ${worst.direction} at ${worst.worstAt}, impact ${(worst.worstImpact * 100).toFixed(2)}%); unscaled at worst ${(raw.raw * 100).toFixed(4)}% (${raw.direction} at ${raw.rawAt}, impact ${(raw.rawImpact * 100).toFixed(2)}%)`,
    );
  }
  for (const k of report.curveSkipped) console.log(`Curve pool left out: ${k.pool} on ${k.chainId}, ${k.pairs} coin pair(s) with ${k.coins.join(', ')}, which the bench does not price (a test token)`);
  console.log(`search latency on the synthetic graph (for information, warm): exact input p50 ${l.exactInP50Ms.toFixed(3)} ms, p99 ${l.exactInP99Ms.toFixed(3)} ms (bench/route target p50 <= ${l.targetP50Ms} ms)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(`route-quality bench failed: ${error?.stack ?? error}`);
      process.exit(1);
    },
  );
}

export { readDevnetChain, sidesOf, queriesFor, readRoute, askEngine, SIZES_USD };
