#!/usr/bin/env node
// The liquidity state at a real chain's scale, each figure beside its target, on the devnet's scale profile
// (chain 999: the ordinary devnet plus 5,000 pools over the V2, stable and core sources and 200 tokens, seeded
// once and then loaded from .devnet/cache; a block every second with 25 swaps of the scale trader in it).
// The apps run built from dist/ as processes on a private NATS server and a fresh database: indexer,
// aggregator-router (whose RPC goes through a counting proxy here) and gateway.
//
//   1. freshness: for every block of the window, from the moment the chain's RPC first answers it to the first
//      /v2/route answer at that block or later (the head and a route are polled every 10 and 20 ms);
//      target p99 <= 500 ms;
//   2. RPC calls per block made by aggregator-router (every JSON-RPC request through its proxy, by method):
//      target <= the core pools it samples + 5, whatever the V2 and stable pool count; beside it, a separate figure
//      without a target: the Curve pools' eth_calls per block (their state read and the sampling of those that moved);
//   3. aggregator-router's memory (VmRSS) holding the state: target <= 400 MB;
//   4. /v2/route through the gateway at 200 requests/s (open loop) over routes between the scale tokens:
//      p99 target <= 100 ms with no errors (the answers by status beside it), aggregator-router CPU per route
//      target <= 2 ms;
//   5. start-up: aggregator-router killed (SIGKILL) and started again while blocks and swaps go on, to its first
//      route at a block at least the head when it started: target <= 10 s;
//   6. with --replicas N (2, 3): N aggregator-routers in the queue group. Identical requests sent together answer
//      identically when they are answered at the same block (target: no difference), and the route load again:
//      what each replica answered and the CPU it used, the answers by status and their latency.
//
//   node bench/liquidity/run.mjs                 the table (the first run seeds the profile: minutes)
//   node bench/liquidity/run.mjs --json          the figures as JSON
//   --pools N --tokens N (the profile; 5000, 200), --seconds N (freshness window, 30), --rate N --load-seconds N
//   (route load, 200 requests/s for 20 s), --swaps N (swaps per block, 25), --profile DIR (a CPU profile of
//   aggregator-router, written when it is stopped before the restart), --replicas N (part 6), --node-flags "FLAGS"
//   (Node flags for every aggregator-router instead of those it is deployed with, NODE_OPTIONS in
//   k8s/base/aggregator-router.yaml; "" for none)
//
// It exits 0 whether the targets are met or missed; non-zero only when the measurement itself fails.
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanupSteps, closeAgent, cpuSeconds, get, openLoop, rssMb, startBuiltApp, stopAppsOnCleanup, summary } from '../shared/stack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} takes a positive number, got ${JSON.stringify(args[at + 1])}`);
  return value;
};
const asJson = args.includes('--json');
const POOLS = option('--pools', 5000);
const TOKENS = option('--tokens', 200);
const SECONDS = option('--seconds', 30);
const RATE = option('--rate', 200);
const LOAD_SECONDS = option('--load-seconds', 20);
const SWAPS = option('--swaps', 25);
/** A folder for a CPU profile of aggregator-router over the whole run (it is then stopped, not killed). */
const PROFILE_DIR = args.includes('--profile') ? resolve(args[args.indexOf('--profile') + 1] ?? 'aggregator-profile') : undefined;
const TARGET = { freshnessP99Ms: 500, extraCallsPerBlock: 5, rssMb: 400, routeP99Ms: 100, cpuPerRouteMs: 2, startupS: 10 };
/** The Node flags aggregator-router is deployed with (NODE_OPTIONS in k8s/base/aggregator-router.yaml: its heap size). */
function deployedNodeFlags() {
  const manifest = readFileSync(join(root, 'k8s/base/aggregator-router.yaml'), 'utf8');
  const m = /- name: NODE_OPTIONS\s+value: (.+)/.exec(manifest);
  return m ? m[1].trim() : '';
}
/** Node flags for every aggregator-router: as deployed, or `--node-flags "FLAGS"` ("" for none). */
const NODE_FLAGS = (args.includes('--node-flags') ? (args[args.indexOf('--node-flags') + 1] ?? '') : deployedNodeFlags()).split(/\s+/).filter(Boolean);
/** aggregator-router replicas in the queue group for part 6 (1: no part 6). */
const REPLICAS = option('--replicas', 1);

const progress = (line) => {
  if (!asJson) process.stderr.write(`${line}\n`);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const cleanups = cleanupSteps('liquidity bench');
const cleanup = cleanups.run;

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * An HTTP proxy in front of the chain's RPC that counts the JSON-RPC requests through it, by method, and apart, the
 * `eth_call`s `isCurve` tells are the Curve pools' (their state read and their sampling).
 */
async function countingProxy(target, freePort, isCurve = () => false) {
  const counts = new Map();
  const curve = { calls: 0 };
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed = JSON.parse(body.toString());
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
          if (call.method === 'eth_call' && isCurve(call)) curve.calls += 1;
        }
      } catch {
        counts.set('(unparsed)', (counts.get('(unparsed)') ?? 0) + 1);
      }
      const out = http.request({ host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: 'POST', headers: { 'content-type': 'application/json' } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, counts, curve, total: () => [...counts.values()].reduce((a, b) => a + b, 0), close: () => new Promise((r) => server.close(r)) };
}


async function bench() {
  progress('building the apps (tools/build/build.mjs --quiet) ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { startDevnet, writeManifest, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));
  const { createTestDatabase, startPrivateNatsServer } = require(join(root, 'dist/libs/testing/src'));
  const { ScaleTrader, scaleTraderAccounts } = require(join(root, 'dist/apps/devnet/src/simulator'));

  const dir = mkdtempSync(join(tmpdir(), 'liquidity-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const nats = await startPrivateNatsServer();
  cleanups.push(() => nats.dispose());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());

  const traders = scaleTraderAccounts();
  const seedStarted = performance.now();
  progress(`starting chain 999 with the scale profile (${POOLS} pools, ${TOKENS} tokens; seeded once into .devnet/cache, loaded after) ...`);
  const devnet = await startDevnet({
    ports: { 999: 0 },
    gatewayUrl: 'http://127.0.0.1:3000',
    scale: { pools: POOLS, tokens: TOKENS, traders: traders.map((a) => a.address), cacheDir: join(root, '.devnet/cache') },
  });
  cleanups.push(() => devnet.stop());
  const chainReadyS = (performance.now() - seedStarted) / 1000;
  const chain = devnet.manifest.chains['999'];
  const scale = devnet.scale.get(999);
  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);

  const quiet = { log: () => undefined, warn: (m) => progress(`scale trader: ${JSON.stringify(m)}`) };
  const trader = new ScaleTrader({ chain, scale, accounts: traders, swapsPerBlock: SWAPS, seed: 999, logger: quiet, summaryIntervalMs: 10_000 });
  await trader.prepare();
  cleanups.push(() => trader.stop());

  // The Curve pools' eth_calls (aggregator-router's read of their state each block, and the sampling of those that
  // moved, by their get_dy) are told by a Curve pool's address in the call's data: a separate figure, not in the target.
  const curveAddresses = [...(chain.curvePools ?? []), ...scale.pools.filter((p) => p.kind === 'curve-stableswap-ng' || p.kind === 'curve-twocrypto-ng')].map((p) => p.address.slice(2).toLowerCase());
  const isCurveCall = (call) => {
    const data = String(call.params?.[0]?.data ?? call.params?.[0]?.input ?? '').toLowerCase();
    return curveAddresses.some((a) => data.includes(a));
  };
  const proxy = await countingProxy(chain.rpcUrl, freePort, isCurveCall);
  cleanups.push(() => proxy.close());
  const env = { NATS_URL: nats.url, DATABASE_URL: database.url, CHAIN_IDS: '999', SOURCES_CONFIG: manifestPath, LOG_LEVEL: 'warn' };
  const apps = [];
  stopAppsOnCleanup(apps, cleanups);
  const startApp = (name, extra = {}, nodeArgs = [], logName = name) =>
    startBuiltApp({ root, dir, apps, freePort, name, env: { PATH: process.env.PATH ?? '', ...env, RPC_URL_999: chain.rpcUrl, ...extra }, nodeArgs, logName });
  const logTail = (name) => {
    try {
      return readFileSync(join(dir, `${name}.log`), 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  };

  // Routes between scale tokens that have a direct V2 pool (a route exists), multi-hop allowed.
  const direct = scale.pools.filter((p) => p.kind === 'uniswap-v2');
  const mix = Array.from({ length: 40 }, (_, i) => {
    const p = direct[(i * 97) % direct.length];
    const [tokenIn, tokenOut] = i % 2 ? [p.token0, p.token1] : [p.token1, p.token0];
    const path = (amount) => `/v2/route?${new URLSearchParams({ chainId: '999', tokenIn, tokenOut, amountIn: amount, multiHop: 'true' })}`;
    return { label: `S${i}`, amount: 10, path, basePath: path('10') };
  });

  progress('starting indexer, aggregator-router (RPC through the counting proxy) and gateway; the indexer reads the whole chain first ...');
  await startApp('indexer');
  let aggregator = await startApp('aggregator-router', { RPC_URL_999: proxy.url }, [...NODE_FLAGS, ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])]);
  const gateway = await startApp('gateway');
  const routeAt = async (path) => {
    const r = await get(gateway.url + path, true);
    if (r.status !== 200) return { status: r.status, body: r.body };
    return { status: 200, block: BigInt(JSON.parse(r.body).data.blockNumber) };
  };
  const indexStarted = performance.now();
  for (;;) {
    for (const app of apps) if (app.child.exitCode !== null) throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${logTail(app.name)}`);
    const r = await routeAt(mix[0].basePath);
    if (r.status === 200) break;
    if (performance.now() - indexStarted > 900_000) throw new Error(`no route within 15 minutes (last ${r.status} ${r.body})\n${logTail('aggregator-router')}`);
    await sleep(500);
  }
  const firstRouteS = (performance.now() - indexStarted) / 1000;
  for (const q of mix) {
    const r = await routeAt(q.basePath);
    if (r.status !== 200) throw new Error(`${q.basePath}: ${r.status} ${r.body}`);
  }

  progress(`a block every second with ${SWAPS} swaps from now on; ${SECONDS} s of freshness ...`);
  await rpc(chain.rpcUrl, 'evm_setIntervalMining', [1]);
  trader.start();
  await sleep(5_000);

  // 1-3: freshness, RPC calls per block, memory.
  const seen = new Map();
  const reflected = new Map();
  let watching = true;
  const headWatch = (async () => {
    while (watching) {
      const head = BigInt(await rpc(chain.rpcUrl, 'eth_blockNumber'));
      if (!seen.has(head)) seen.set(head, performance.now());
      await sleep(10);
    }
  })();
  const routeWatch = (async () => {
    while (watching) {
      const r = await routeAt(mix[0].basePath);
      const now = performance.now();
      if (r.status === 200) for (const [b] of seen) if (b <= r.block && !reflected.has(b)) reflected.set(b, now);
      await sleep(20);
    }
  })();
  await sleep(1_000);
  const headBefore = BigInt(await rpc(chain.rpcUrl, 'eth_blockNumber'));
  const callsBefore = new Map(proxy.counts);
  const curveCallsBefore = proxy.curve.calls;
  await sleep(SECONDS * 1000);
  const headAfter = BigInt(await rpc(chain.rpcUrl, 'eth_blockNumber'));
  const callsAfter = new Map(proxy.counts);
  const curveCalls = proxy.curve.calls - curveCallsBefore;
  await sleep(2_000);
  watching = false;
  await Promise.all([headWatch, routeWatch]);
  const blocks = Number(headAfter - headBefore);
  const byMethod = Object.fromEntries([...callsAfter].map(([m, n]) => [m, n - (callsBefore.get(m) ?? 0)]).filter(([, n]) => n > 0));
  const calls = Object.values(byMethod).reduce((a, b) => a + b, 0);
  const delays = [...seen].filter(([b]) => b > headBefore && b <= headAfter && reflected.has(b)).map(([b, t]) => reflected.get(b) - t);
  const missed = [...seen].filter(([b]) => b > headBefore && b <= headAfter && !reflected.has(b)).length;
  const syncTopics = ['0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1'];
  const logs = await rpc(chain.rpcUrl, 'eth_getLogs', [{ fromBlock: `0x${(headBefore + 1n).toString(16)}`, toBlock: `0x${headAfter.toString(16)}`, topics: [syncTopics] }]);
  const state = JSON.parse((await get(`${aggregator.url}/liquidity/999`, true)).body).data;
  const corePools = state.pools.filter((p) => p.kind === 'core').length;
  const memory = rssMb(aggregator.child.pid);
  const blockWork = await meanBlockWork(aggregator.url);

  // 4: route load.
  progress(`route load: ${RATE} requests/s for ${LOAD_SECONDS} s ...`);
  await openLoop(gateway.url, mix, RATE, 3, 1);
  const cpu0 = { aggregator: cpuSeconds(aggregator.child.pid), gateway: cpuSeconds(gateway.child.pid) };
  const run = await openLoop(gateway.url, mix, RATE, LOAD_SECONDS, 2);
  const cpu1 = { aggregator: cpuSeconds(aggregator.child.pid), gateway: cpuSeconds(gateway.child.pid) };
  const ok = run.results.filter((r) => r.status === 200);
  const latency = summary(run.results.map((r) => r.latency));
  const statuses = countBy(run.results, (r) => String(r.status));
  const cpuPerRoute = {
    aggregator: ((cpu1.aggregator - cpu0.aggregator) * 1000) / run.total,
    gateway: ((cpu1.gateway - cpu0.gateway) * 1000) / run.total,
    // The same over the routes answered (a refusal costs little): what one answer costs.
    aggregatorPerAnswer: ((cpu1.aggregator - cpu0.aggregator) * 1000) / Math.max(1, ok.length),
  };

  // 6: replicas in the queue group.
  const replicas = REPLICAS > 1 ? await replicaRun() : undefined;
  async function replicaRun() {
    progress(`starting ${REPLICAS - 1} more aggregator-router replicas; identical answers, then the route load again ...`);
    const more = [];
    for (let i = 2; i <= REPLICAS; i++) more.push(await startApp('aggregator-router', { RPC_URL_999: proxy.url }, NODE_FLAGS, `aggregator-router-${i}`));
    const all = [aggregator, ...more];
    // Each replica at the head before it counts.
    for (const replica of more) {
      const started = performance.now();
      for (;;) {
        const head = BigInt(await rpc(chain.rpcUrl, 'eth_blockNumber'));
        const r = await get(`${replica.url}/liquidity/999`, true);
        if (r.status === 200 && BigInt(JSON.parse(r.body).data.blockNumber) >= head - 1n) break;
        if (performance.now() - started > 120_000) throw new Error(`replica ${replica.url} not at the head within 120 s`);
        await sleep(200);
      }
    }
    const handled = async () => Promise.all(all.map(async (a) => {
      const text = (await get(`${a.url}/metrics`, true)).body ?? '';
      const m = /^nats_handler_duration_seconds_count\{outcome="ok",subject="aggregator\.route"\} (\S+)$/m.exec(text);
      return m ? Number(m[1]) : 0;
    }));
    // Identical requests together: the answers of a block compared (the amounts and the calldata).
    const h0 = await handled();
    let groups = 0;
    let differing = 0;
    let example;
    for (let round = 0; round < 20; round++) {
      const q = mix[round % mix.length];
      const answers = await Promise.all(Array.from({ length: 4 * REPLICAS }, () => get(gateway.url + q.basePath, true)));
      const byBlock = new Map();
      for (const a of answers.filter((x) => x.status === 200).map((x) => JSON.parse(x.body).data)) {
        const key = a.blockNumber;
        byBlock.set(key, [...(byBlock.get(key) ?? []), JSON.stringify([a.amountOut, a.execution.calldata, a.execution.details.hopSwaps])]);
      }
      for (const same of byBlock.values()) {
        if (same.length < 2) continue;
        groups++;
        if (new Set(same).size > 1) {
          differing++;
          example ??= [...new Set(same)].slice(0, 2).map((a) => JSON.parse(a));
        }
      }
    }
    const h1 = await handled();
    const cpuA = all.map((a) => cpuSeconds(a.child.pid));
    const run2 = await openLoop(gateway.url, mix, RATE, LOAD_SECONDS, 3);
    const cpuB = all.map((a) => cpuSeconds(a.child.pid));
    const h2 = await handled();
    for (const replica of more) {
      replica.child.kill('SIGTERM');
      await new Promise((r) => (replica.child.exitCode !== null || replica.child.signalCode !== null ? r() : replica.child.once('exit', r)));
    }
    return {
      count: REPLICAS,
      identical: { groupsCompared: groups, differing, answeredBy: h1.map((n, i) => n - h0[i]), pass: groups > 0 && differing === 0, example },
      load: {
        rate: RATE,
        seconds: LOAD_SECONDS,
        statuses: countBy(run2.results, (r) => String(r.status)),
        latency: summary(run2.results.map((r) => r.latency)),
        okLatency: summary(run2.results.filter((r) => r.status === 200).map((r) => r.latency)),
        perReplica: all.map((_, i) => ({ answered: h2[i] - h1[i], perSecond: (h2[i] - h1[i]) / LOAD_SECONDS, cpuSeconds: cpuB[i] - cpuA[i] })),
      },
    };
  }

  // 5: a replica's start-up.
  progress('killing aggregator-router and starting it again ...');
  aggregator.child.kill(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL');
  await new Promise((r) => (aggregator.child.exitCode !== null || aggregator.child.signalCode !== null ? r() : aggregator.child.once('exit', r)));
  const restartHead = BigInt(await rpc(chain.rpcUrl, 'eth_blockNumber'));
  const restarted = performance.now();
  aggregator = await startApp('aggregator-router', { RPC_URL_999: proxy.url }, NODE_FLAGS);
  let startupS = NaN;
  while (performance.now() - restarted < 60_000) {
    const r = await routeAt(mix[0].basePath);
    if (r.status === 200 && r.block >= restartHead) {
      startupS = (performance.now() - restarted) / 1000;
      break;
    }
    await sleep(50);
  }
  const restartedMemory = rssMb(aggregator.child.pid);

  const freshness = summary(delays);
  return {
    profile: { pools: POOLS, tokens: TOKENS, swapsPerBlock: SWAPS, chainReadySeconds: chainReadyS, firstRouteAfterIndexerStartSeconds: firstRouteS, aggregatorNodeFlags: NODE_FLAGS.join(' ') },
    state: { blockNumber: state.blockNumber, pools: state.pools.length, routablePools: state.routablePools, corePools, byKind: countBy(state.pools, (p) => p.kind) },
    window: { blocks, syncsPerBlock: logs.length / Math.max(1, blocks) },
    freshness: { ...freshness, missed, pass: freshness.p99 <= TARGET.freshnessP99Ms && missed === 0 },
    rpc: { callsPerBlock: calls / Math.max(1, blocks), byMethod, curveEthCallsPerBlock: curveCalls / Math.max(1, blocks), curvePools: curveAddresses.length, target: corePools + TARGET.extraCallsPerBlock, pass: calls / Math.max(1, blocks) <= corePools + TARGET.extraCallsPerBlock },
    memory: { rssMb: memory, afterRestartRssMb: restartedMemory, pass: memory <= TARGET.rssMb },
    blockWorkMeanMs: blockWork,
    load: { rate: RATE, seconds: LOAD_SECONDS, sent: run.total, ok: ok.length, errors: run.total - ok.length, statuses, latency, cpuPerRouteMs: cpuPerRoute, pass: ok.length === run.total && latency.p99 <= TARGET.routeP99Ms && cpuPerRoute.aggregator <= TARGET.cpuPerRouteMs },
    startup: { seconds: startupS, pass: startupS <= TARGET.startupS },
    replicas,
  };
}

/** Mean milliseconds of each step of aggregator-router's work per block (liquidity_block_work_seconds). */
async function meanBlockWork(url) {
  const text = (await get(`${url}/metrics`, true)).body ?? '';
  const sums = {};
  for (const line of text.split('\n')) {
    const m = /^liquidity_block_work_seconds_(sum|count)\{[^}]*step="([^"]+)"[^}]*\} (\S+)$/.exec(line);
    if (!m) continue;
    sums[m[2]] ??= { sum: 0, count: 0 };
    sums[m[2]][m[1]] += Number(m[3]);
  }
  return Object.fromEntries(Object.entries(sums).map(([step, { sum, count }]) => [step, count ? (sum / count) * 1000 : NaN]));
}

function countBy(items, key) {
  const out = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const verdict = (pass) => (pass ? 'PASS' : 'MISS');

function print(r) {
  const lines = [
    `liquidity state on the scale profile: chain 999, ${r.state.pools} pools in the state (${Object.entries(r.state.byKind).map(([k, n]) => `${n} ${k}`).join(', ')}), ${r.state.routablePools} routable`,
    `  aggregator-router node flags: ${r.profile.aggregatorNodeFlags || '(none)'}`,
    `  chain up in ${f(r.profile.chainReadySeconds)} s; first route ${f(r.profile.firstRouteAfterIndexerStartSeconds)} s after the indexer started on the whole chain`,
    `  window: ${r.window.blocks} blocks of 1 s, ${f(r.window.syncsPerBlock)} V2 Syncs a block (${r.profile.swapsPerBlock} swaps sent a block, V2 and stable)`,
    `  aggregator-router work per block (mean): ${Object.entries(r.blockWorkMeanMs).map(([step, ms]) => `${step} ${f(ms)} ms`).join(', ')}`,
    '',
    `  figure                                        measured                     target`,
    `  freshness, block at RPC -> route at it       p50 ${f(r.freshness.p50, 0)} ms, p99 ${f(r.freshness.p99, 0)} ms${r.freshness.missed ? ` (${r.freshness.missed} never seen)` : ''}`.padEnd(77) + `p99 <= ${TARGET.freshnessP99Ms} ms   ${verdict(r.freshness.pass)}`,
    `  aggregator-router RPC calls per block        ${f(r.rpc.callsPerBlock, 2)} (${Object.entries(r.rpc.byMethod).map(([m, n]) => `${m} ${n}`).join(', ')})`.padEnd(77) + `<= ${r.state.corePools} core + ${TARGET.extraCallsPerBlock}   ${verdict(r.rpc.pass)}`,
    `    of which Curve eth_calls per block: ${f(r.rpc.curveEthCallsPerBlock, 2)} (the state read of its ${r.rpc.curvePools} Curve pools and the sampling of those that moved; a separate figure, not in the target)`,
    `  aggregator-router memory (VmRSS)             ${f(r.memory.rssMb, 0)} MB (${f(r.memory.afterRestartRssMb, 0)} MB after restart)`.padEnd(77) + `<= ${TARGET.rssMb} MB   ${verdict(r.memory.pass)}`,
    `  /v2/route at ${r.load.rate}/s, p99 (p50)              ${f(r.load.latency.p99)} ms (${f(r.load.latency.p50)} ms), ${r.load.errors} errors of ${r.load.sent}`.padEnd(77) +
      `p99 <= ${TARGET.routeP99Ms} ms, 0 errors   ${verdict(r.load.errors === 0 && r.load.latency.p99 <= TARGET.routeP99Ms)}`,
    `    answers by status: ${Object.entries(r.load.statuses).map(([status, n]) => `${n} x ${status}`).join(', ')}`,
    `  aggregator-router CPU per route              ${f(r.load.cpuPerRouteMs.aggregator, 2)} ms (gateway ${f(r.load.cpuPerRouteMs.gateway, 2)} ms)`.padEnd(77) + `<= ${TARGET.cpuPerRouteMs} ms   ${verdict(r.load.cpuPerRouteMs.aggregator <= TARGET.cpuPerRouteMs)}`,
    `    per route answered: ${f(r.load.cpuPerRouteMs.aggregatorPerAnswer, 2)} ms`,
    `  start-up to a route at the head              ${f(r.startup.seconds)} s`.padEnd(77) + `<= ${TARGET.startupS} s   ${verdict(r.startup.pass)}`,
  ];
  if (r.replicas) {
    const x = r.replicas;
    lines.push(
      '',
      `  ${x.count} aggregator-router replicas in the queue group`,
      `  identical requests together, same block        ${x.identical.differing} of ${x.identical.groupsCompared} groups differ (answered by the replicas: ${x.identical.answeredBy.join(' / ')})`.padEnd(77) + `0 differ   ${verdict(x.identical.pass)}`,
      `  /v2/route at ${x.load.rate}/s                        p99 ${f(x.load.latency.p99)} ms (p50 ${f(x.load.latency.p50)} ms); 200s p99 ${f(x.load.okLatency.p99)} ms; ${Object.entries(x.load.statuses).map(([status, n]) => `${n} x ${status}`).join(', ')}`,
      ...x.load.perReplica.map((p, i) => `    replica ${i + 1}: ${p.answered} routes (${f(p.perSecond)}/s), ${f(p.cpuSeconds, 2)} CPU s`),
    );
  }
  console.log(lines.join('\n'));
}

try {
  const result = await bench();
  if (asJson) console.log(JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
  else print(result);
} catch (error) {
  process.stderr.write(`liquidity bench failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  closeAgent();
  await cleanup();
}
