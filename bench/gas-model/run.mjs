#!/usr/bin/env node
// Gas model calibration: executes RouterV2 routes of every shape on fresh devnet chains (999 and 4663) and compares
// the gas each used (the receipt's gasUsed) with the model of libs/routing/src/route/gas-model.ts.
//
// The routes are built from the manifest's pools, seeded: one swap on every pool in both directions (each source
// kind: core, V2 clone and Uniswap's own V2 pair on 4663, stable, the launchpad's buys and sales, Uniswap V3, Algebra
// Integral, Uniswap V4 through its PoolManager, Curve StableswapNG and TwocryptoNG pools' coin pairs through
// exchange_received), two and three hops, a hop split across two or three pools, splits before and after a hop, routes split
// across paths (diamonds, a path beside a direct swap); sizes from $20 to $20k, so concentrated swaps cross from none
// to several initialized ticks (counted from the pool's tick before and after the transaction and its positions'
// bounds, read from its Mint logs); at random the native coin in or out, an integrator fee, executeSwapsWithData to
// the sender or to a new address. Each route is simulated first and skipped when it would revert (a pool too thin).
//
// It then fits the model's constants by non-negative least squares (what each transaction used less its intrinsic 21,000 and its
// calldata, against the route's features) and prints them beside the committed ones, and per
// route shape the committed model against what executed, with the worst error beside the 10% target. Exit code 0
// whether the target is met or not (this is a report); non-zero when the bench itself fails.
//
//   node bench/gas-model/run.mjs            the table
//   node bench/gas-model/run.mjs --json     the figures as JSON
//   node bench/gas-model/run.mjs --seed 7   another draw of routes

import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileEngine } from '../shared/routing-engine.mjs';
import { rng } from '../shared/synthetic-graph.mjs';

const TARGET = 0.1;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SEED = arg('--seed', 1);
const JSON_OUT = process.argv.includes('--json');

execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { stdio: 'inherit' });
const { startDevnet, DEVNET_SOURCES } = require(join(root, 'dist/libs/devnet-kit/src'));
const { encodeExecuteSwaps, readOraclePrices, createChainClient, createChainWalletClient } = require(join(root, 'dist/libs/chain/src'));
const { uniswapV3PoolAbi, algebraPoolAbi, stateViewAbi } = require(join(root, 'dist/libs/abis/src'));
const { encodeUniswapV4PoolKey, swapHookPermissions } = require(join(root, 'dist/libs/routing/src'));
const viem = require('viem');
const { privateKeyToAccount, generatePrivateKey } = require('viem/accounts');
const { engine, cleanup } = await compileEngine('gas-model-bench-');

const MINT_TOPIC = viem.keccak256(viem.toHex('Mint(address,address,int24,int24,uint128,uint256,uint256)'));
const MODIFY_LIQUIDITY_TOPIC = viem.keccak256(viem.toHex('ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)'));
/** The kinds whose swaps cross ticks. */
const TICK_KINDS = ['uniswap-v3', 'algebra', 'uniswap-v4', 'uniswap-v4-hooked'];
/** A kind's tick feature: a hooked V4 pool's ticks cost what any V4 pool's do (the engine has one per-tick figure per pool kind). */
const tickFeature = (kind) => `ticks:${kind === 'uniswap-v4-hooked' ? 'uniswap-v4' : kind}`;
const ZERO = viem.zeroAddress;
const lower = (a) => a.toLowerCase();

/** The features the constants are fitted on, in order (the target: gas less intrinsic, calldata and new holder). */
const FEATURES = [
  'base',
  'withData',
  'nativeIn',
  'nativeOut',
  'routerPayout',
  'fee',
  'extraToken',
  'newHolder',
  'newAccount',
  'swap:core',
  'swap:uniswap-v2',
  'swap:stable',
  'swap:launchpad-buy',
  'swap:launchpad-sell',
  'swap:uniswap-v3',
  'swap:algebra',
  'swap:uniswap-v4',
  'swap:uniswap-v4-hooked',
  'swap:curve-stableswap-ng',
  'swap:curve-stableswap-ng-3',
  'swap:curve-stableswap-ng-4',
  'swap:curve-twocrypto-ng',
  'ticks:uniswap-v3',
  'ticks:algebra',
  'ticks:uniswap-v4',
  'words',
];

/** Least squares on the normal equations restricted to the features in `set` (the others 0). */
function solveOn(g, b, set) {
  const n = set.length;
  const a = set.map((i) => [...set.map((j) => g[i][j] + (i === j ? 1e-6 : 0)), b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < n; r++) {
      if (r === c || a[c][c] === 0) continue;
      const f = a[r][c] / a[c][c];
      for (let k = c; k <= n; k++) a[r][k] -= f * a[c][k];
    }
  }
  return a.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}

/**
 * Non-negative least squares (Lawson and Hanson's active set): no constant may come out negative, as none of the
 * work it stands for can give gas back (a negative constant would only absorb another one's error).
 */
function solveNonNegative(rows, ys) {
  const n = FEATURES.length;
  const g = Array.from({ length: n }, () => new Array(n).fill(0));
  const b = new Array(n).fill(0);
  rows.forEach((x, r) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) g[i][j] += x[i] * x[j];
      b[i] += x[i] * ys[r];
    }
  });
  const x = new Array(n).fill(0);
  const passive = new Set();
  const gradient = () => b.map((bi, i) => bi - g[i].reduce((a, gij, j) => a + gij * x[j], 0));
  for (let iter = 0; iter < 10 * n; iter++) {
    const w = gradient();
    const candidates = [...Array(n).keys()].filter((i) => !passive.has(i) && w[i] > 1e-6 * Math.max(1, Math.abs(b[i])));
    if (candidates.length === 0) break;
    passive.add(candidates.reduce((m, i) => (w[i] > w[m] ? i : m)));
    for (;;) {
      const set = [...passive];
      const sub = solveOn(g, b, set);
      const s = new Array(n).fill(0);
      set.forEach((i, k) => (s[i] = sub[k]));
      if (set.every((i) => s[i] > 0)) {
        s.forEach((v, i) => (x[i] = v));
        break;
      }
      const alpha = Math.min(...set.filter((i) => s[i] <= 0).map((i) => x[i] / (x[i] - s[i])));
      for (let i = 0; i < n; i++) x[i] += alpha * (s[i] - x[i]);
      for (const i of set) {
        if (x[i] > 1e-9) continue;
        passive.delete(i);
        x[i] = 0;
      }
    }
  }
  return x;
}

/** One chain's routes, executed: per route its shape for the model, its features and the gas it used. */
async function runChain(chainId, manifest, rand) {
  const chain = manifest.chains[String(chainId)];
  const client = createChainClient({ chainId, rpcUrl: chain.rpcUrl, pollingIntervalMs: 20 });
  const account = privateKeyToAccount(manifest.accounts.find((a) => a.role === 'trader-1').privateKey);
  const wallet = createChainWalletClient({ chainId, rpcUrl: chain.rpcUrl, account, pollingIntervalMs: 20 });
  const integrator = manifest.accounts.find((a) => a.role === 'integrator').address;
  const router = chain.routerV2;
  const wn = chain.wrappedNative.address;
  const sourceOf = new Map(chain.sources.map((s) => [s.routerIndex, s]));
  const coreV2 = new Set((DEVNET_SOURCES[chainId] ?? []).filter((s) => s.bytecode === 'uniswap/v2-core').map((s) => s.name));
  const tokens = [chain.wrappedNative, ...chain.tokens];
  const decimals = new Map(tokens.map((t) => [lower(t.address), t.decimals]));
  for (const t of chain.launchpad?.tokens ?? []) decimals.set(lower(t.address), t.decimals);
  const prices = await readOraclePrices(client, { oracle: chain.core.oracle, tokens: tokens.map((t) => t.address) });
  const usd = new Map(tokens.map((t, i) => [lower(t.address), prices[i] === undefined ? 1 : Number(prices[i]) / 1e18]));

  const send = async (tx) => client.waitForTransactionReceipt({ hash: await wallet.sendTransaction(tx) });
  for (const t of [...tokens.map((t) => t.address), ...(chain.launchpad?.tokens ?? []).map((t) => t.address)]) {
    await send({ to: t, data: viem.encodeFunctionData({ abi: viem.erc20Abi, functionName: 'approve', args: [router, viem.maxUint256] }) });
  }

  // Directed edges: one per pool and direction (the launchpad: a buy and a sale per token still on its curve).
  const edges = [];
  // The test tokens' pools are left out: those tokens are there to misbehave (pause, blocklist, take fees).
  const testTokens = new Set((chain.testTokens ?? []).map((t) => lower(t.address)));
  for (const p of chain.pools.filter((x) => !testTokens.has(lower(x.token0)) && !testTokens.has(lower(x.token1)))) {
    const source = sourceOf.get(p.routerIndex);
    const kind = p.kind === 'uniswap-v2' && coreV2.has(source?.name) ? 'uniswap-v2-core' : p.kind;
    edges.push({ pool: p.address, routerIndex: p.routerIndex, kind, tokenIn: p.token0, tokenOut: p.token1 });
    edges.push({ pool: p.address, routerIndex: p.routerIndex, kind, tokenIn: p.token1, tokenOut: p.token0 });
  }
  // Uniswap V4 pools the aggregator routes (no hook that may change a swap, or one its source lists): the PoolManager
  // is the swap's pool, the key its data; `id` (the PoolId) tells the pools apart. A pool whose hook is called on
  // swaps is its own gas kind (the hook's work besides).
  for (const p of chain.uniswapV4Pools ?? []) {
    const hooked = swapHookPermissions(p.hooks).length > 0;
    const listed = sourceOf.get(p.routerIndex)?.hooks?.some((h) => lower(h.address) === lower(p.hooks));
    if (hooked && !listed) continue; // the aggregator does not route it
    const data = encodeUniswapV4PoolKey(p);
    const kind = hooked ? 'uniswap-v4-hooked' : 'uniswap-v4';
    edges.push({ pool: p.poolManager, id: p.poolId, routerIndex: p.routerIndex, kind, tokenIn: p.token0, tokenOut: p.token1, data });
    edges.push({ pool: p.poolManager, id: p.poolId, routerIndex: p.routerIndex, kind, tokenIn: p.token1, tokenOut: p.token0, data });
  }
  // Curve NG pools: each coin pair i < j both ways, the pool the swap's pool, paid by exchange_received (empty data);
  // `id` (the pair id) tells a pool's pairs apart. A pool holding a test token (the rebasing coin's) is left out.
  for (const p of chain.curvePools ?? []) {
    if (p.coins.some((c) => testTokens.has(lower(c)))) continue;
    // A StableswapNG swap's gas grows with the pool's coins: 3- and 4-coin pools are gas kinds of their own.
    const kind = p.kind === 'curve-stableswap-ng' && p.coins.length > 2 ? `curve-stableswap-ng-${Math.min(p.coins.length, 4)}` : p.kind;
    for (let i = 0; i < p.coins.length; i++) {
      for (let j = i + 1; j < p.coins.length; j++) {
        const id = `${lower(p.address)}:${i}:${j}`;
        edges.push({ pool: p.address, id, routerIndex: p.routerIndex, kind, tokenIn: p.coins[i], tokenOut: p.coins[j], data: '0x' });
        edges.push({ pool: p.address, id, routerIndex: p.routerIndex, kind, tokenIn: p.coins[j], tokenOut: p.coins[i], data: '0x' });
      }
    }
  }
  const stateView = chain.sources.find((s) => s.kind === 'uniswap-v4')?.addresses.stateView;
  const launchSource = chain.sources.find((s) => s.kind === 'launchpad');
  for (const t of chain.launchpad?.tokens ?? []) {
    if (t.stage === 'graduated' || !launchSource) continue;
    edges.push({ pool: chain.launchpad.address, routerIndex: launchSource.routerIndex, kind: 'launchpad-buy', tokenIn: wn, tokenOut: t.address });
    edges.push({ pool: chain.launchpad.address, routerIndex: launchSource.routerIndex, kind: 'launchpad-sell', tokenIn: t.address, tokenOut: wn });
  }
  // Launched tokens to sell: buy some first.
  for (const t of chain.launchpad?.tokens ?? []) {
    if (t.stage === 'graduated') continue;
    const e = edges.find((x) => x.kind === 'launchpad-buy' && lower(x.tokenOut) === lower(t.address));
    const amountIn = 10n ** 18n;
    const data = encodeExecuteSwaps({ tokens: [wn, t.address], amountIn, minAmountOut: 1n, expectedAmountOut: 0n, hopSwaps: [[{ ...e, amountIn, data: '0x' }]], feeBps: 0, nativeIn: true });
    await send({ to: router, data, value: amountIn, gas: 3_000_000n });
  }

  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const sample = (xs, n) => {
    const copy = [...xs];
    const out = [];
    while (copy.length > 0 && out.length < n) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0]);
    return out;
  };
  const from = (t) => edges.filter((e) => lower(e.tokenIn) === lower(t));
  const pairEdges = (a, b) => edges.filter((e) => lower(e.tokenIn) === lower(a) && lower(e.tokenOut) === lower(b));

  // Route shapes: { label, stages: [[edge, ...], ...] } (each stage's swaps spending tokens held at its start).
  const shapes = [];
  for (const e of edges) for (let k = 0; k < 2; k++) shapes.push({ label: '1 swap', stages: [[e]] });
  const twoHops = edges.flatMap((a) => from(a.tokenOut).filter((b) => lower(b.tokenOut) !== lower(a.tokenIn)).map((b) => [a, b]));
  for (const [a, b] of sample(twoHops, 40)) shapes.push({ label: '2 hops', stages: [[a], [b]] });
  const threeHops = twoHops.flatMap(([a, b]) => from(b.tokenOut).filter((c) => ![a.tokenIn, b.tokenIn].map(lower).includes(lower(c.tokenOut))).map((c) => [a, b, c]));
  for (const hops of sample(threeHops, 15)) shapes.push({ label: '3 hops', stages: hops.map((h) => [h]) });
  const pairs = [...new Set(edges.map((e) => `${lower(e.tokenIn)}>${lower(e.tokenOut)}`))].map((k) => pairEdges(...k.split('>'))).filter((g) => g.length >= 2);
  for (let i = 0; i < 30; i++) {
    const group = pick(pairs);
    shapes.push({ label: 'split 1 hop', stages: [sample(group, 2 + Math.floor(rand() * 5))] });
  }
  for (let i = 0; i < 12; i++) {
    const group = pick(pairs);
    const next = from(group[0].tokenOut).filter((b) => lower(b.tokenOut) !== lower(group[0].tokenIn));
    if (next.length === 0) continue;
    if (rand() < 0.5) shapes.push({ label: 'split, then hop', stages: [sample(group, 2), [pick(next)]] });
    else {
      const prev = edges.filter((a) => lower(a.tokenOut) === lower(group[0].tokenIn) && lower(a.tokenIn) !== lower(group[0].tokenOut));
      if (prev.length > 0) shapes.push({ label: 'hop, then split', stages: [[pick(prev)], sample(group, 2)] });
    }
  }
  // Split across paths: A -> B and A -> C, then B -> D and C -> D (a diamond), or A -> D beside A -> B -> D.
  for (let i = 0; i < 40 && shapes.filter((s) => s.label.startsWith('paths')).length < 20; i++) {
    const a = pick(edges);
    const b = pick(from(a.tokenIn).filter((e) => lower(e.tokenOut) !== lower(a.tokenOut)));
    if (!b) continue;
    const c = pick(from(a.tokenOut).filter((e) => ![a.tokenIn, b.tokenOut].map(lower).includes(lower(e.tokenOut))));
    if (!c) continue;
    const d = pick(pairEdges(b.tokenOut, c.tokenOut));
    if (d) shapes.push({ label: 'paths: diamond', stages: [[a, b], [c, d]] });
    const direct = pick(pairEdges(a.tokenIn, c.tokenOut));
    if (direct) shapes.push({ label: 'paths: direct + 2 hops', stages: [[a, direct], [c]] });
  }

  // Every pool traded once each way (a V2 pair's first swap after its seeding sets its price accumulators from zero,
  // and a concentrated pool's fee growth of a token stays zero until a swap pays it in: a tick crossing then writes
  // its fee growth outside from zero for that token only, which no pool on a live chain sees), then each route
  // measured from that state (an anvil snapshot, reverted after it), each in a block 2 seconds after the last (the
  // pools' oracles write once per block, as most swaps on a live chain are the first on their pool in their block).
  await client.request({ method: 'anvil_setBlockTimestampInterval', params: [2] });
  const warmed = new Set();
  for (const w of edges.filter((x) => !x.kind.startsWith('launchpad')).sort((a, b) => Number(lower(b.tokenIn) === lower(wn)) - Number(lower(a.tokenIn) === lower(wn)))) {
    // The wrapped native token in (first) is paid as the native coin (the trader holds it); the way back is skipped
    // where the trader holds none of the token (a launched token's pair).
    const nativeIn = lower(w.tokenIn) === lower(wn);
    const dec = decimals.get(lower(w.tokenIn)) ?? 18;
    const amountIn = BigInt(Math.floor((1 / (usd.get(lower(w.tokenIn)) ?? 1)) * 10 ** Math.min(dec, 12))) * 10n ** BigInt(Math.max(0, dec - 12));
    const data = encodeExecuteSwaps({ tokens: [w.tokenIn, w.tokenOut], amountIn, minAmountOut: 1n, expectedAmountOut: 0n, hopSwaps: [[{ ...w, amountIn, data: w.data ?? '0x' }]], feeBps: 0, nativeIn });
    const value = nativeIn ? amountIn : 0n;
    if (warmed.has(w.id ?? w.pool) && !(await client.call({ account: account.address, to: router, data, value, gas: 3_000_000n }).then(() => true, () => false))) continue;
    warmed.add(w.id ?? w.pool);
    const warm = await send({ to: router, data, gas: 3_000_000n, value });
    if (warm.status !== 'success') throw new Error(`the first swap on ${w.pool} (${w.kind}) reverted`);
  }
  // Each concentrated pool traded across its ticks near the price, each way, and back ($40k, less where the pool is thinner): on a
  // live pool the ticks a swap crosses were crossed before, so their values outside are set, and a crossing rewrites
  // them (a tick crossed for the first time in its life sets them from zero: about 35,000 gas more).
  const balanceOf = (t) => client.readContract({ address: t, abi: viem.erc20Abi, functionName: 'balanceOf', args: [account.address] });
  for (const w of edges.filter((x) => TICK_KINDS.includes(x.kind) && usd.has(lower(x.tokenIn)))) {
    const pool = w.id ?? w.pool;
    const back = edges.find((x) => (x.id ?? x.pool) === pool && lower(x.tokenIn) === lower(w.tokenOut));
    const nativeIn = lower(w.tokenIn) === lower(wn);
    const dec = decimals.get(lower(w.tokenIn)) ?? 18;
    for (let usdIn = 40_000; usdIn >= 10; usdIn /= 2) {
      const amountIn = BigInt(Math.floor((usdIn / usd.get(lower(w.tokenIn))) * 10 ** Math.min(dec, 12))) * 10n ** BigInt(Math.max(0, dec - 12));
      const data = encodeExecuteSwaps({ tokens: [w.tokenIn, w.tokenOut], amountIn, minAmountOut: 1n, expectedAmountOut: 0n, hopSwaps: [[{ ...w, amountIn, data: w.data ?? '0x' }]], feeBps: 0, nativeIn });
      const value = nativeIn ? amountIn : 0n;
      if (!(await client.call({ account: account.address, to: router, data, value, gas: 5_000_000n }).then(() => true, () => false))) continue;
      const held = await balanceOf(w.tokenOut);
      if ((await send({ to: router, data, gas: 5_000_000n, value })).status !== 'success') throw new Error(`the swap across ${pool}'s ticks reverted`);
      const got = (await balanceOf(w.tokenOut)) - held;
      const backData = encodeExecuteSwaps({ tokens: [back.tokenIn, back.tokenOut], amountIn: got, minAmountOut: 1n, expectedAmountOut: 0n, hopSwaps: [[{ ...back, amountIn: got, data: back.data ?? '0x' }]], feeBps: 0, nativeIn: false });
      if ((await send({ to: router, data: backData, gas: 5_000_000n })).status !== 'success') throw new Error(`the swap back across ${pool}'s ticks reverted`);
      break;
    }
  }
  // The integrator and the treasury hold every token already (the launched ones too), as they soon do on a live
  // chain: a fee's first payment of a token to either sets a balance slot from zero, about 16,700 gas more each.
  for (const t of [...tokens, ...(chain.launchpad?.tokens ?? [])]) {
    if (lower(t.address) === lower(wn)) await send({ to: wn, value: 2n, data: '0xd0e30db0' }); // deposit()
    else if ((await client.readContract({ address: t.address, abi: viem.erc20Abi, functionName: 'balanceOf', args: [account.address] })) < 2n) continue; // never traded
    for (const to of [integrator, chain.treasury]) await send({ to: t.address, data: viem.encodeFunctionData({ abi: viem.erc20Abi, functionName: 'transfer', args: [to, 1n] }) });
  }
  const snapshot = await client.request({ method: 'evm_snapshot', params: [] });
  let state = snapshot;
  const results = [];
  let skipped = 0;
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
  for (const shape of shapes) {
    // A route through two coin pairs of one Curve pool is one the aggregator never answers (it searches again without
    // the later pair: each is quoted at the pool's state before the route).
    const curvePairs = shape.stages.flat().filter((e) => e.kind.startsWith('curve-'));
    if (curvePairs.some((e) => curvePairs.some((f) => f.pool === e.pool && f.id !== e.id))) continue;
    const tokenIn = shape.stages[0][0].tokenIn;
    const last = shape.stages[shape.stages.length - 1];
    const tokenOut = last[last.length - 1].tokenOut;
    if (lower(tokenIn) === lower(tokenOut)) continue;
    // Token list: tokenIn, the intermediates in the order the stages make them, tokenOut.
    const list = [tokenIn];
    for (const st of shape.stages) for (const s of st) if (![...list, tokenOut].map(lower).includes(lower(s.tokenOut))) list.push(s.tokenOut);
    list.push(tokenOut);
    const usdIn = 20 * 1000 ** rand();
    const dec = decimals.get(lower(tokenIn)) ?? 18;
    let amountIn;
    if (usd.has(lower(tokenIn))) amountIn = BigInt(Math.floor((usdIn / usd.get(lower(tokenIn))) * 10 ** Math.min(dec, 12))) * 10n ** BigInt(Math.max(0, dec - 12));
    else {
      const held = await client.readContract({ address: tokenIn, abi: viem.erc20Abi, functionName: 'balanceOf', args: [account.address] });
      amountIn = held / BigInt(20 + Math.floor(rand() * 200));
    }
    if (amountIn <= 0n) continue;
    const nativeIn = lower(tokenIn) === lower(wn) && rand() < 0.4;
    const nativeOut = lower(tokenOut) === lower(wn) && rand() < 0.4;
    const feeBps = rand() < 0.25 ? 20 : 0;
    const withData = rand() < 0.3;
    const recipient = withData && rand() < 0.4 ? fresh() : account.address;
    const stages = shape.stages.map((st, i) =>
      st.map((e) => ({ pool: e.pool, tokenIn: e.tokenIn, tokenOut: e.tokenOut, routerIndex: e.routerIndex, data: e.data ?? '0x', amountIn: i === 0 ? (amountIn * BigInt(1 + Math.floor(rand() * 9))) / 10n + 1n : BigInt(1 + Math.floor(rand() * 9)) * 10n ** 15n })),
    );
    const params = {
      tokens: list,
      amountIn,
      minAmountOut: 1n,
      // Above any output: no positive slippage to capture; a one-swap last stage pays the recipient directly (as
      // the API's expected output, the quoted one, does).
      expectedAmountOut: 2n ** 200n,
      hopSwaps: stages,
      feeBps,
      ...(feeBps > 0 ? { feeRecipient: integrator } : {}),
      nativeIn,
      unwrapNative: nativeOut,
      ...(withData ? { payout: { recipient, deadline: 2n ** 40n } } : {}),
    };
    // Stage-1 quoted inputs must add up to the input for the first stage's shares; later ones are proportions.
    const first = stages[0];
    const sum = first.reduce((a, s) => a + s.amountIn, 0n);
    first[first.length - 1].amountIn += amountIn - sum > 0n ? amountIn - sum : 0n;
    const data = encodeExecuteSwaps(params);
    const value = nativeIn ? amountIn : 0n;
    const ok = await client.call({ account: account.address, to: router, data, value, gas: 5_000_000n }).then(
      () => true,
      () => false,
    );
    if (!ok) {
      skipped++;
      continue;
    }
    const concentrated = [...new Set(shape.stages.flat().filter((e) => TICK_KINDS.includes(e.kind)).map((e) => e.id ?? e.pool))];
    const tickOf = async (pool) => {
      const kind = shape.stages.flat().find((e) => (e.id ?? e.pool) === pool).kind;
      const r =
        kind === 'algebra'
          ? await client.readContract({ address: pool, abi: algebraPoolAbi, functionName: 'globalState' })
          : kind.startsWith('uniswap-v4')
            ? await client.readContract({ address: stateView, abi: stateViewAbi, functionName: 'getSlot0', args: [pool] })
            : await client.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'slot0' });
      return Number(r[1]);
    };
    const before = await Promise.all(concentrated.map(tickOf));
    const outToken = nativeOut ? ZERO : tokenOut;
    const holds =
      outToken === ZERO
        ? (await client.getBalance({ address: recipient })) > 0n || (await client.getTransactionCount({ address: recipient })) > 0
        : (await client.readContract({ address: tokenOut, abi: viem.erc20Abi, functionName: 'balanceOf', args: [recipient] })) > 0n;
    const receipt = await send({ to: router, data, value, gas: 5_000_000n });
    if (receipt.status !== 'success') throw new Error(`route ${shape.label} reverted after its simulation passed`);
    const after = await Promise.all(concentrated.map(tickOf));
    await client.request({ method: 'evm_revert', params: [state] });
    state = await client.request({ method: 'evm_snapshot', params: [] });
    const crossed = new Map();
    const moves = [];
    const words = new Map();
    moves.spacingOf = (pool) => [...chain.pools.map((p) => ({ id: p.address, tickSpacing: p.tickSpacing })), ...(chain.uniswapV4Pools ?? []).map((p) => ({ id: p.poolId, tickSpacing: p.tickSpacing }))].find((p) => p.id === pool)?.tickSpacing ?? 1;
    for (const [i, pool] of concentrated.entries()) {
      const v4 = pool.length === 66;
      // A V4 pool's positions are the PoolManager's ModifyLiquidity events of its id (the ticks in the data).
      const logs = v4
        ? await client.getLogs({ address: chain.uniswapV4Pools.find((p) => p.poolId === pool).poolManager, fromBlock: 0n, toBlock: 'latest' })
        : await client.getLogs({ address: pool, fromBlock: 0n, toBlock: 'latest' });
      const bounds = v4
        ? logs.filter((l) => l.topics[0] === MODIFY_LIQUIDITY_TOPIC && l.topics[1] === pool).flatMap((l) => [0, 1].map((k) => Number(viem.hexToBigInt(`0x${l.data.slice(2 + 64 * k, 2 + 64 * (k + 1))}`, { signed: true, size: 32 }))))
        : logs.filter((l) => l.topics[0] === MINT_TOPIC).flatMap((l) => [l.topics[2], l.topics[3]].map((t) => Number(viem.hexToBigInt(t, { signed: true, size: 32 }))));
      const ticks = new Set(bounds);
      const [lo, hi] = [Math.min(before[i], after[i]), Math.max(before[i], after[i])];
      crossed.set(pool, [...ticks].filter((t) => t > lo && t <= hi).length);
      const word = (t) => Math.floor(Math.floor(t / moves.spacingOf(pool)) / 256);
      words.set(pool, Math.abs(word(after[i]) - word(before[i])));
      moves.push({ pool, before: before[i], after: after[i], spacing: moves.spacingOf(pool) });
    }
    const modelSwaps = shape.stages.map((st) =>
      st.map((e) => ({
        kind: e.kind === 'uniswap-v2-core' ? 'uniswap-v2' : e.kind,
        tokenIn: e.tokenIn,
        tokenOut: e.tokenOut,
        ...(crossed.has(e.id ?? e.pool) ? { ticksCrossed: crossed.get(e.id ?? e.pool), wordsCrossed: words.get(e.id ?? e.pool) } : {}),
      })),
    );
    const gasShape = { tokens: list, stages: modelSwaps, nativeIn, nativeOut, feeBps, withData, calldata: data, recipientHoldsOutput: holds };
    results.push({ chainId, label: shape.label, kinds: shape.stages.map((st) => st.map((e) => e.kind).join('+')).join(' > '), shape: gasShape, rawKinds: shape.stages.flat().map((e) => e.kind), crossed: [...crossed.values()], moves, gasUsed: Number(receipt.gasUsed) });
  }
  return { results, skipped };
}

/** A route's feature vector and fitted target. */
function features(r) {
  const s = r.shape;
  const x = new Array(FEATURES.length).fill(0);
  const at = (name) => FEATURES.indexOf(name);
  x[at('base')] = 1;
  if (s.withData) x[at('withData')] = 1;
  if (s.nativeIn) x[at('nativeIn')] = 1;
  if (s.nativeOut) x[at('nativeOut')] = 1;
  if (s.feeBps > 0) x[at('fee')] = 1;
  const out = lower(s.tokens[s.tokens.length - 1]);
  const last = s.stages[s.stages.length - 1];
  const viaRouter = s.feeBps > 0 || last.length !== 1 || lower(last[0].tokenOut) !== out || s.stages.slice(0, -1).some((st) => st.some((w) => lower(w.tokenOut) === out));
  if (!s.nativeOut && viaRouter) x[at('routerPayout')] = 1;
  x[at('extraToken')] = Math.max(0, s.tokens.length - 2);
  const flat = s.stages.flat();
  r.rawKinds.forEach((k, i) => {
    // Uniswap's own V2 pair and the V2 clones: one kind to the engine, one constant.
    x[at(`swap:${k === 'uniswap-v2-core' ? 'uniswap-v2' : k}`)] += 1;
    if (TICK_KINDS.includes(k)) {
      x[at(tickFeature(k))] += flat[i].ticksCrossed ?? 0;
      x[at('words')] += flat[i].wordsCrossed ?? 0;
    }
  });
  if (!s.recipientHoldsOutput) x[at(s.nativeOut ? 'newAccount' : 'newHolder')] = 1;
  const y = r.gasUsed - engine.TX_BASE_GAS - engine.calldataGas(s.calldata);
  return { x, y };
}

const rand = rng(SEED);
const devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
let results = [];
let skipped = 0;
try {
  for (const chainId of [999, 4663]) {
    const r = await runChain(chainId, devnet.manifest, rand);
    results = results.concat(r.results);
    skipped += r.skipped;
  }
} finally {
  await devnet.stop();
}

const fit = (() => {
  const rows = results.map(features);
  const w = solveNonNegative(
    rows.map((r) => r.x),
    rows.map((r) => r.y),
  );
  return Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(w[i])]));
})();
const fittedGas = (r) => {
  const { x } = features(r);
  return r.gasUsed - features(r).y + FEATURES.reduce((a, f, i) => a + x[i] * fit[f], 0);
};
const committed = {
  ...Object.fromEntries(Object.entries(engine.ROUTER_GAS).map(([k, v]) => [k === 'base' ? 'base' : k, v])),
  ...Object.fromEntries(Object.entries(engine.SWAP_GAS_BY_KIND).map(([k, v]) => [`swap:${k}`, v])),
  ...Object.fromEntries(Object.entries(engine.TICK_GAS).map(([k, v]) => [`ticks:${k}`, v])),
  words: engine.TICK_WORD_GAS,
  newHolder: engine.NEW_TOKEN_HOLDER_GAS,
  newAccount: engine.NEW_ACCOUNT_GAS,
};
const rows = results.map((r) => {
  const model = engine.shapeGas(r.shape);
  const noCalldata = engine.shapeGas({ ...r.shape, calldata: undefined });
  return { ...r, model, modelFromShape: noCalldata, error: model / r.gasUsed - 1, shapeError: noCalldata / r.gasUsed - 1, fittedError: fittedGas(r) / r.gasUsed - 1 };
});
const worst = (key) => rows.reduce((w, r) => (Math.abs(r[key]) > Math.abs(w[key]) ? r : w), rows[0]);
const rms = (key) => Math.sqrt(rows.reduce((a, r) => a + r[key] ** 2, 0) / rows.length);
const concentratedTicks = rows.flatMap((r) => r.crossed);
const averageTicks = concentratedTicks.reduce((a, b) => a + b, 0) / Math.max(1, concentratedTicks.length);
const summary = {
  seed: SEED,
  routes: rows.length,
  skipped,
  target: TARGET,
  worstError: worst('error').error,
  worstRoute: { chainId: worst('error').chainId, label: worst('error').label, kinds: worst('error').kinds, gasUsed: worst('error').gasUsed, model: worst('error').model },
  rmsError: rms('error'),
  worstShapeOnlyError: worst('shapeError').shapeError,
  worstFittedError: worst('fittedError').fittedError,
  averageTicksCrossed: averageTicks,
  fitted: fit,
  committed,
  verdict: Math.abs(worst('error').error) <= TARGET ? 'PASS' : 'MISS',
};
cleanup();

if (JSON_OUT) {
  console.log(JSON.stringify({ ...summary, rows: rows.map(({ shape, ...r }) => ({ ...r, ...features({ ...r, shape }), calldataGas: engine.calldataGas(shape.calldata), shape: { ...shape, calldata: undefined } })) }, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
} else {
  const pct = (e) => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(2)}%`;
  console.log(`RouterV2 gas model against ${rows.length} executed routes (seed ${SEED}; ${skipped} drawn routes skipped: they would revert)\n`);
  console.log('constant                 committed    fitted now');
  for (const f of FEATURES) console.log(`  ${f.padEnd(22)} ${String(committed[f] ?? '-').padStart(9)}   ${String(fit[f]).padStart(9)}`);
  console.log(`  average ticks crossed    ${String(engine.AVERAGE_TICKS_CROSSED).padStart(7)}   ${averageTicks.toFixed(2).padStart(9)}`);
  console.log('\nper route shape: routes, executed gas (mean), worst error of the committed model (calldata counted), of the model from the shape alone');
  const groups = new Map();
  for (const r of rows) {
    const key = `${r.chainId} ${r.label}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const [key, g] of groups) {
    const w = g.reduce((a, r) => (Math.abs(r.error) > Math.abs(a.error) ? r : a), g[0]);
    const ws = g.reduce((a, r) => (Math.abs(r.shapeError) > Math.abs(a.shapeError) ? r : a), g[0]);
    const mean = Math.round(g.reduce((a, r) => a + r.gasUsed, 0) / g.length);
    console.log(`  ${key.padEnd(32)} ${String(g.length).padStart(4)}  ${mean.toLocaleString('en-US').padStart(9)}  ${pct(w.error).padStart(8)}  ${pct(ws.shapeError).padStart(8)}   (${w.kinds})`);
  }
  console.log('\nper swap kind, single-swap routes: executed gas (mean) and the worst error');
  const singles = new Map();
  for (const r of rows.filter((r) => r.label === '1 swap')) singles.set(r.kinds, [...(singles.get(r.kinds) ?? []), r]);
  for (const [kind, g] of singles) {
    const w = g.reduce((a, r) => (Math.abs(r.error) > Math.abs(a.error) ? r : a), g[0]);
    console.log(`  ${kind.padEnd(22)} ${String(g.length).padStart(4)}  ${Math.round(g.reduce((a, r) => a + r.gasUsed, 0) / g.length).toLocaleString('en-US').padStart(9)}  ${pct(w.error).padStart(8)}`);
  }
  console.log(`\nworst error (committed model)   ${pct(summary.worstError).padStart(8)}   target within ${TARGET * 100}%   ${summary.verdict}   (${summary.worstRoute.chainId} ${summary.worstRoute.label}: ${summary.worstRoute.kinds}; executed ${summary.worstRoute.gasUsed}, model ${summary.worstRoute.model})`);
  console.log(`rms error (committed model)     ${(summary.rmsError * 100).toFixed(2).padStart(7)}%`);
  console.log(`worst error, calldata estimated from the shape   ${pct(summary.worstShapeOnlyError)}`);
  console.log(`worst error of the constants fitted now          ${pct(summary.worstFittedError)}`);
}
