#!/usr/bin/env node
// Route-search speed, in two parts, each figure beside its target:
//
// 1. The engine alone (libs/routing compiled by itself, no I/O): multiHop route search (the optimum across paths,
//    or the best path of up to 3 hops where that is provably it) over the
//    seeded synthetic graph of 1,000 pools (bench/shared/synthetic-graph.mjs without options; bench/route-quality
//    checks quality on a variant of it with more pool kinds), after two warm-up passes; exact input against the targets (p50 <= 5 ms,
//    p99 <= 25 ms), exact output (asking for what the exact-input route paid; one pass over 60 queries) for
//    information; then the same on a
//    graph of 10,000 pools, a third and more of them concentrated liquidity (Uniswap V3, Algebra and, three in ten
//    of those, Uniswap V4: the `concentrated` and `uniswapV4` options of synthetic-graph.mjs), against p50 <= 10 ms
//    and p99 <= 50 ms; the load average
//    beside each.
// 2. `GET /v2/route` through the real stack: the apps built to dist/, a fresh devnet (chains 999 and 4663, a
//    block every second), a fresh migrated database, a private NATS server, indexer, aggregator-router and gateway
//    as processes. After a warm-up, an open-loop load (requests sent on schedule whatever the answers, so queueing
//    shows in the latency) of a mix of realistic queries on both chains; latency is measured from each request's
//    scheduled send time. Achieved rate, errors (anything but 200), p50 / p90 / p99 / max against the target
//    (p99 <= 25 ms); for information, the mean time spent in each service (from their /metrics), the CPU time
//    per request of each process and the machine's CPU use by others during the load (Linux /proc), and the
//    load average.
// 3. Then what executing every answer before answering it costs (`simulationOverhead`): the simulation's own time
//    per answer from the aggregator's log (p50 <= 2 ms), and /v2/route one request at a time with it and with an
//    aggregator-router restarted with ROUTE_SIMULATION=off.
//
// It exits 0 whether the targets are met or missed; non-zero only when the measurement itself fails.
// Every process, the database and the temporary files are removed at the end, on failure and on Ctrl-C.
//
//   node bench/route/run.mjs                    both parts, the table
//   node bench/route/run.mjs --json             the figures as JSON
//   node bench/route/run.mjs --rate 200 --seconds 20   load of part 2 (requests per second, measured seconds)
//   node bench/route/run.mjs --block-time 1     seconds between devnet blocks during the load (0: no new blocks)
//   node bench/route/run.mjs --engine-only      part 1 only (no processes)
//   node bench/route/run.mjs --stack-only       part 2 only (the load through the stack)

import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compileEngine } from '../shared/routing-engine.mjs';
import { cleanupSteps, closeAgent, cpuSeconds, get, machineCpu, meanMs, natsServerPid, openLoop, scrape, stopAppsOnCleanup, summary } from '../shared/stack.mjs';
import { syntheticGraph } from '../shared/synthetic-graph.mjs';

const ENGINE_TARGET_P50_MS = 5;
const ENGINE_TARGET_P99_MS = 25;
/** The large graph: 10,000 pools, a third and more of them concentrated liquidity (Uniswap V3, Algebra, V4). */
const LARGE_POOLS = 10_000;
const LARGE_CONCENTRATED = 0.34;
/** The share of the large graph's concentrated pools that are Uniswap V4 pools. */
const LARGE_UNISWAP_V4 = 0.3;
const LARGE_TARGET_P50_MS = 10;
const LARGE_TARGET_P99_MS = 50;
const HTTP_TARGET_P99_MS = 25;
const SYNTHETIC_SEED = 20_251_121; // the seed bench/route-quality uses too
const SYNTHETIC_QUERIES = 300;
const ENGINE_WARMUP_PASSES = 2;
const ENGINE_TIMED_PASSES = 5;
const EXACT_OUT_QUERIES = 60;
const HTTP_WARMUP_SECONDS = 3;
/** Part 3: what simulating every answered route costs, p50 of its own time (the devnet's). */
const SIMULATION_TARGET_P50_MS = 2;
const SIMULATION_REQUESTS = 280;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} takes a number, got ${JSON.stringify(args[at + 1])}`);
  return value;
};
const asJson = flag('--json');
const engineOnly = flag('--engine-only');
const stackOnly = flag('--stack-only');
if (engineOnly && stackOnly) throw new Error('--engine-only and --stack-only exclude each other');
const RATE = option('--rate', 200);
const SECONDS = option('--seconds', 20);
const BLOCK_TIME = option('--block-time', 1);
if (!(RATE > 0) || !(SECONDS > 0)) throw new Error('--rate and --seconds must be greater than zero');

const log = (...line) => {
  if (!asJson) console.log(...line);
};
const progress = (line) => {
  if (!asJson) process.stderr.write(`${line}\n`);
};

// ---------------------------------------------------------------- cleanup, whatever happens

const cleanups = cleanupSteps('route bench');
const cleanup = cleanups.run;

// ---------------------------------------------------------------- part 1: the engine alone

function timeSearches(engine, graph, queries, exactOut, maxSwaps) {
  const latencies = [];
  for (const q of queries) {
    const request = exactOut
      ? { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountOut: q.amountOut, multiHop: true, maxSwaps }
      : { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true, maxSwaps };
    const started = performance.now();
    try {
      engine.findRoute(graph, request);
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

let compiled;
async function compiledEngine() {
  if (!compiled) {
    const { engine, cleanup: removeEngine } = await compileEngine('route-bench-engine-');
    cleanups.push(removeEngine);
    // The swaps a route may hold, as aggregator-router gives them: what the chain's route gas budget holds.
    execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const { getChainInfo } = require(join(root, 'dist/libs/chain/src'));
    compiled = { engine, getChainInfo };
  }
  return compiled;
}

async function engineBench(poolCount = 1000, options = {}, targets = { p50: ENGINE_TARGET_P50_MS, p99: ENGINE_TARGET_P99_MS }) {
  const { engine, getChainInfo } = await compiledEngine();
  const synth = syntheticGraph(poolCount, SYNTHETIC_SEED, SYNTHETIC_QUERIES, options);
  const graph = engine.buildGraph(synth.snapshot);
  const maxSwaps = engine.maxSwapsWithinGas(getChainInfo(synth.snapshot.chainId).routeGasBudget);
  const exactIn = synth.queries;
  // Exact output: ask for what the exact-input route paid.
  const exactOut = [];
  const hops = [0, 0, 0, 0, 0, 0];
  let split = 0;
  for (const q of exactIn) {
    try {
      const route = engine.findRoute(graph, { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: q.amountIn, multiHop: true, maxSwaps });
      exactOut.push({ ...q, amountOut: route.amountOut });
      if (route.split) split++;
      else hops[Math.min(route.tokens.length - 1, 5)]++;
    } catch (e) {
      if (e.name !== 'NoRouteError') throw e;
    }
  }
  // A running service is warm: warm-up passes (JIT, inline caches) before the timed ones.
  const timed = (queries, exactOutput, warmUp = ENGINE_WARMUP_PASSES, passes = ENGINE_TIMED_PASSES) => {
    for (let i = 0; i < warmUp; i++) timeSearches(engine, graph, queries, exactOutput, maxSwaps);
    const all = [];
    for (let i = 0; i < passes; i++) all.push(...timeSearches(engine, graph, queries, exactOutput, maxSwaps));
    return summary(all);
  };
  const loadBefore = loadavg();
  const inFigures = timed(exactIn, false);
  const loadAfter = loadavg();
  // Exact output takes far longer per search today (hundreds of ms): for information, one pass over the first
  // EXACT_OUT_QUERIES queries after a warm-up pass over them.
  const exactOutTimed = exactOut.slice(0, EXACT_OUT_QUERIES);
  const outFigures = timed(exactOutTimed, true, 1, 1);
  return {
    targets,
    loadAverage: { before: loadBefore, after: loadAfter, cores: cpus().length },
    graph: { pools: synth.snapshot.pools.length, concentrated: synth.snapshot.pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra' || p.kind === 'uniswap-v4').length, uniswapV4: synth.snapshot.pools.filter((p) => p.kind === 'uniswap-v4').length, tokens: synth.tokenCount, pairs: synth.pairs, seed: SYNTHETIC_SEED, chainId: synth.snapshot.chainId, maxSwaps },
    queries: { exactIn: exactIn.length, exactOut: exactOutTimed.length, routesByHops: { 1: hops[1], 2: hops[2], 3: hops[3], 4: hops[4], more: hops[5] }, splitRoutes: split },
    passes: { warmUp: ENGINE_WARMUP_PASSES, timed: ENGINE_TIMED_PASSES },
    exactIn: inFigures,
    exactOut: outFigures,
    passP50: inFigures.p50 <= targets.p50,
    passP99: inFigures.p99 <= targets.p99,
    pass: inFigures.p50 <= targets.p50 && inFigures.p99 <= targets.p99,
  };
}

// ---------------------------------------------------------------- part 2: /v2/route through the stack

const NATIVE = '0x0000000000000000000000000000000000000000';
const NATIVE_ALIAS = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** The query mix: pairs of each chain, small to large sizes, direct and multi-hop, exact in and out, native in and out. */
function queryMix(manifest) {
  const mix = [];
  const chain = (id) => manifest.chains[String(id)];
  const token = (id, symbol) => {
    const c = chain(id);
    const t = [c.wrappedNative, ...c.tokens, ...(c.launchpad?.tokens ?? [])].find((x) => x.symbol === symbol);
    if (!t) throw new Error(`the devnet has no ${symbol} on chain ${id}`);
    return t.address;
  };
  const add = (label, chainId, tokenIn, tokenOut, params) => {
    const amountParam = params.amountIn !== undefined ? 'amountIn' : 'amountOut';
    const path = (amount) => `/v2/route?${new URLSearchParams({ chainId: String(chainId), tokenIn, tokenOut, ...params, [amountParam]: amount })}`;
    mix.push({ label, amount: Number(params[amountParam]), path, basePath: path(params[amountParam]) });
  };
  const t = (symbol) => token(999, symbol);
  const e = (symbol) => token(4663, symbol);
  const integrator = manifest.accounts.find((a) => a.role === 'integrator');
  if (!integrator) throw new Error('the devnet manifest has no integrator account');
  const fee = { feeBps: '20', feeRecipient: integrator.address };
  // Chain 999 (HYPE).
  add('999 WHYPE->USDC 10 in, direct', 999, t('WHYPE'), t('USDC'), { amountIn: '10' });
  add('999 USDC->WHYPE 2500 in, multi-hop', 999, t('USDC'), t('WHYPE'), { amountIn: '2500', multiHop: 'true' });
  add('999 HYPE->USDT 5 in, native in, multi-hop', 999, NATIVE, t('USDT'), { amountIn: '5', multiHop: 'true' });
  add('999 USDC->HYPE 3 out, native out, multi-hop', 999, t('USDC'), NATIVE_ALIAS, { amountOut: '3', multiHop: 'true' });
  add('999 PURR->DAI 20000 in, multi-hop', 999, t('PURR'), t('DAI'), { amountIn: '20000', multiHop: 'true' });
  add('999 DAI->PURR 10000 out, multi-hop', 999, t('DAI'), t('PURR'), { amountOut: '10000', multiHop: 'true' });
  add('999 USDT->USDC 50000 in, direct, fee', 999, t('USDT'), t('USDC'), { amountIn: '50000', slippage: '0.5', ...fee });
  add('999 WHYPE->USDC 100 in, no core', 999, t('WHYPE'), t('USDC'), { amountIn: '100', multiHop: 'true', excludeDexes: '0' });
  const launched = chain(999).launchpad?.tokens?.find((x) => x.stage === 'trading');
  if (launched) add(`999 HYPE->${launched.symbol} 1 in, launchpad, multi-hop`, 999, NATIVE, launched.address, { amountIn: '1', multiHop: 'true' });
  // Chain 4663 (ETH).
  add('4663 WETH->USDC 1 in, direct', 4663, e('WETH'), e('USDC'), { amountIn: '1' });
  add('4663 LINK->USDT 500 in, multi-hop', 4663, e('LINK'), e('USDT'), { amountIn: '500', multiHop: 'true' });
  add('4663 ETH->DAI 0.5 in, native in, multi-hop', 4663, NATIVE, e('DAI'), { amountIn: '0.5', multiHop: 'true' });
  add('4663 USDC->WETH 2 out, unwrap, multi-hop', 4663, e('USDC'), e('WETH'), { amountOut: '2', multiHop: 'true', unwrapNative: 'true' });
  add('4663 DAI->LINK 100 out, multi-hop', 4663, e('DAI'), e('LINK'), { amountOut: '100', multiHop: 'true' });
  return mix;
}

async function stackBench() {
  progress('building the apps (tools/build/build.mjs --quiet) ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { startDevnet, writeManifest, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));
  const { createTestDatabase, startPrivateNatsServer } = require(join(root, 'dist/libs/testing/src'));
  const { SUBJECTS } = require(join(root, 'dist/libs/messages/src'));
  const routeMetrics = (url) => scrape(url, SUBJECTS.aggregatorRoute);

  const dir = mkdtempSync(join(tmpdir(), 'route-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  progress('starting a private NATS server, a fresh database and the devnet (chains 999 and 4663) ...');
  const nats = await startPrivateNatsServer();
  cleanups.push(() => nats.dispose());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const devnet = await startDevnet({ ports: { 999: 0, 4663: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  cleanups.push(() => devnet.stop());

  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);
  const chains = devnet.manifest.chains;
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: database.url,
    CHAIN_IDS: '999,4663',
    RPC_URL_999: chains['999'].rpcUrl,
    RPC_URL_4663: chains['4663'].rpcUrl,
    SOURCES_CONFIG: manifestPath,
  };

  const apps = [];
  stopAppsOnCleanup(apps, cleanups);
  const startApp = async (name, extraEnv = {}) => {
    const port = await freePort();
    const logFile = join(dir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    // The services' default log level: the gateway writes its access log line per request, as in production.
    const child = spawn(process.execPath, [join(root, 'dist/apps', name, 'src/main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env, ...extraEnv, HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1' },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const app = { name, child, url: `http://127.0.0.1:${port}`, logFile };
    apps.push(app);
    return app;
  };
  const logTail = (app) => {
    try {
      return readFileSync(app.logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '';
    }
  };
  // aggregator-router keeps its liquidity from the indexer's chain facts.
  const indexer = await startApp('indexer');
  const aggregator = await startApp('aggregator-router');
  const gateway = await startApp('gateway');

  const mix = queryMix(devnet.manifest);
  progress('waiting for /v2/route to answer ...');
  const deadline = Date.now() + 90_000;
  for (;;) {
    for (const app of apps) if (app.child.exitCode !== null) throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${logTail(app)}`);
    const r = await get(gateway.url + mix[0].basePath);
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`/v2/route did not answer 200 within 90 s (last status ${r.status})\n${apps.map((a) => `--- ${a.name}\n${logTail(a)}`).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Every query of the mix must answer a route before the load: a measurement of errors would mean nothing.
  for (const q of mix) {
    const r = await get(gateway.url + q.basePath, true);
    const body = r.body ? JSON.parse(r.body) : undefined;
    if (r.status !== 200 || !body?.success) throw new Error(`${q.label}: ${r.status} ${r.body ?? r.error}`);
    q.hops = body.data.execution.details.hopSwaps.length;
  }

  // Blocks keep coming during the load, so the aggregator refreshes its liquidity snapshot as in production.
  if (BLOCK_TIME > 0) {
    for (const chainId of ['999', '4663']) {
      const res = await fetch(chains[chainId].rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setIntervalMining', params: [BLOCK_TIME] }),
      }).then((r) => r.json());
      if (res.error) throw new Error(`evm_setIntervalMining on chain ${chainId}: ${res.error.message}`);
    }
  }
  const blockNumber = async (chainId) =>
    BigInt(
      (
        await fetch(chains[chainId].rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        }).then((r) => r.json())
      ).result,
    );

  progress(`warming up: ${HTTP_WARMUP_SECONDS} s at ${RATE} requests/s ...`);
  await openLoop(gateway.url, mix, RATE, Math.min(HTTP_WARMUP_SECONDS, SECONDS), 1);

  progress(`measuring: ${SECONDS} s at ${RATE} requests/s, open loop ...`);
  const blocksBefore = await Promise.all(['999', '4663'].map(blockNumber));
  const metricsBefore = { gateway: await routeMetrics(gateway.url), aggregator: await routeMetrics(aggregator.url) };
  const processes = [
    ['gateway', gateway.child.pid],
    ['aggregator-router', aggregator.child.pid],
    ['indexer', indexer.child.pid],
    ['nats-server', natsServerPid(nats.port)],
    ...devnet.nodes.map((n) => [`anvil ${n.chainId}`, n.pid]),
    ['this script (load generator)', process.pid],
  ];
  const cpuBefore = processes.map(([, pid]) => (pid === undefined ? undefined : cpuSeconds(pid)));
  const machineBefore = machineCpu();
  const loadBefore = loadavg();
  const run = await openLoop(gateway.url, mix, RATE, SECONDS, 2);
  const loadAfter = loadavg();
  const cpuAfter = processes.map(([, pid]) => (pid === undefined ? undefined : cpuSeconds(pid)));
  const machineAfter = machineCpu();
  const cpuPerRequestMs = {};
  let benchCpuSeconds = 0;
  processes.forEach(([name], i) => {
    if (cpuBefore[i] === undefined || cpuAfter[i] === undefined) return;
    cpuPerRequestMs[name] = ((cpuAfter[i] - cpuBefore[i]) * 1000) / run.total;
    benchCpuSeconds += cpuAfter[i] - cpuBefore[i];
  });
  // The machine's CPU use during the load (all cores = 100%), and the part of it that is not this bench's processes.
  let machine;
  if (machineBefore && machineAfter && machineAfter.total > machineBefore.total) {
    const share = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const seconds = (run.end - run.t0) / 1000;
    machine = { busy: share, others: Math.max(0, share - benchCpuSeconds / seconds / cpus().length) };
  }
  const metricsAfter = { gateway: await routeMetrics(gateway.url), aggregator: await routeMetrics(aggregator.url) };
  const blocksAfter = await Promise.all(['999', '4663'].map(blockNumber));
  for (const app of apps) if (app.child.exitCode !== null) throw new Error(`${app.name} exited during the load with ${app.child.exitCode}:\n${logTail(app)}`);

  const ok = run.results.filter((r) => r.status === 200);
  const errors = run.results.filter((r) => r.status !== 200);
  const errorKinds = {};
  for (const r of errors) {
    const key = r.status === 0 ? `no answer: ${r.error}` : `HTTP ${r.status}`;
    errorKinds[key] = (errorKinds[key] ?? 0) + 1;
  }
  const latency = summary(run.results.map((r) => r.latency));
  const byQuery = mix.map((q, i) => {
    const own = run.results.filter((r) => r.query === i);
    const s = summary(own.map((r) => r.latency));
    return { label: q.label, hops: q.hops, requests: own.length, errors: own.filter((r) => r.status !== 200).length, p50: s.p50, p99: s.p99 };
  });
  const simulation = await simulationOverhead({ gateway, aggregator, mix, apps, startApp, logTail });
  return {
    simulation,
    setup: {
      chains: [999, 4663],
      blockTimeSeconds: BLOCK_TIME,
      blocksDuringLoad: { 999: Number(blocksAfter[0] - blocksBefore[0]), 4663: Number(blocksAfter[1] - blocksBefore[1]) },
      queries: mix.length,
      warmUpSeconds: Math.min(HTTP_WARMUP_SECONDS, SECONDS),
    },
    targetRate: RATE,
    seconds: SECONDS,
    sent: run.total,
    sendRate: run.total > 1 ? ((run.total - 1) / (run.lastScheduled - run.t0)) * 1000 : run.total,
    answeredRate: (run.results.length / (run.end - run.t0)) * 1000,
    ok: ok.length,
    errors: errors.length,
    errorKinds,
    latency,
    sendLag: summary(run.results.map((r) => r.sendLag)),
    meanMs: {
      gatewayHttp: meanMs(metricsBefore.gateway, metricsAfter.gateway, 'http_request_duration_seconds'),
      gatewayBusRequest: meanMs(metricsBefore.gateway, metricsAfter.gateway, 'nats_request_duration_seconds'),
      aggregatorHandler: meanMs(metricsBefore.aggregator, metricsAfter.aggregator, 'nats_handler_duration_seconds'),
    },
    cpuPerRequestMs,
    machineCpu: machine,
    byQuery,
    loadAverage: { before: loadBefore, after: loadAfter, cores: cpus().length },
    pass: errors.length === 0 && latency.p99 <= HTTP_TARGET_P99_MS,
  };
}

// ---------------------------------------------------------------- the simulation's cost

/**
 * What executing every answered route before answering it costs (part 3, after the load): the mix's queries asked
 * one at a time (closed loop, so that no queueing is counted), SIMULATION_REQUESTS of them with the simulation on
 * (the default), the aggregator's own time for it read from its 'route quote' log lines (`simulationMs`: the
 * balance-slot look-up where not yet known, the eth_call, the calldata built again), then the same requests against
 * an aggregator-router restarted with ROUTE_SIMULATION=off: the end-to-end latency with and without it.
 */
async function simulationOverhead({ gateway, aggregator, mix, apps, startApp, logTail }) {
  const closedLoop = async () => {
    const latencies = [];
    for (let i = 0; i < SIMULATION_REQUESTS; i++) {
      const q = mix[i % mix.length];
      const t0 = performance.now();
      const r = await get(gateway.url + q.basePath);
      if (r.status !== 200) throw new Error(`${q.label}: ${r.status} ${r.error ?? ''}`);
      latencies.push(performance.now() - t0);
    }
    return summary(latencies);
  };
  const logged = () => readFileSync(aggregator.logFile, 'utf8');
  progress(`simulation's cost: ${SIMULATION_REQUESTS} requests one at a time with the simulation on ...`);
  const logStart = logged().length;
  const on = await closedLoop();
  const times = [...logged().slice(logStart).matchAll(/"simulationMs":([0-9.]+)/g)].map((m) => Number(m[1]));
  if (times.length < SIMULATION_REQUESTS) throw new Error(`the aggregator logged ${times.length} simulation times for ${SIMULATION_REQUESTS} answers`);

  progress('restarting aggregator-router with ROUTE_SIMULATION=off ...');
  await new Promise((done) => {
    aggregator.child.once('exit', done);
    aggregator.child.kill('SIGTERM');
  });
  apps.splice(apps.indexOf(aggregator), 1);
  // The same log file, appended to.
  const restartAt = logged().length;
  const without = await startApp('aggregator-router', { ROUTE_SIMULATION: 'off' });
  const deadline = Date.now() + 90_000;
  for (const q of mix) {
    for (;;) {
      if (without.child.exitCode !== null) throw new Error(`aggregator-router exited with ${without.child.exitCode}:\n${logTail(without)}`);
      if ((await get(gateway.url + q.basePath)).status === 200) break;
      if (Date.now() > deadline) throw new Error(`${q.label}: no 200 within 90 s of the restart`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  progress(`simulation's cost: ${SIMULATION_REQUESTS} requests one at a time with the simulation off ...`);
  const off = await closedLoop();
  if (/"simulationMs":/.test(readFileSync(without.logFile, 'utf8').slice(restartAt))) throw new Error('ROUTE_SIMULATION=off still simulated');
  const own = summary(times);
  return { requests: SIMULATION_REQUESTS, own, on, off, pass: own.p50 <= SIMULATION_TARGET_P50_MS };
}

// ---------------------------------------------------------------- the report

const ms = (x, width = 9) => `${Number.isFinite(x) ? x.toFixed(x < 10 ? 3 : 1) : '-'} ms`.padStart(width + 3);

function printEngine(e) {
  log(
    `engine only: libs/routing findRoute, multiHop (the optimum across paths) within ${e.graph.maxSwaps} swaps (chain ${e.graph.chainId}'s route gas budget), synthetic graph of ${e.graph.pools.toLocaleString('en-US')} pools${e.graph.concentrated ? ` (${e.graph.concentrated.toLocaleString('en-US')} of them concentrated liquidity, ${e.graph.uniswapV4.toLocaleString('en-US')} Uniswap V4)` : ''} (${e.graph.tokens} tokens, ${e.graph.pairs} pairs)`,
  );
  const h = e.queries.routesByHops;
  log(`  ${e.queries.exactIn} queries x ${e.passes.timed} passes after ${e.passes.warmUp} warm-up passes; linear routes of 1/2/3/4/more hops: ${h[1]}/${h[2]}/${h[3]}/${h[4]}/${h.more}, split across paths: ${e.queries.splitRoutes}`);
  log('');
  log(`  ${''.padEnd(14)}${'p50'.padStart(12)}${'p90'.padStart(12)}${'p99'.padStart(12)}${'max'.padStart(12)}   target`);
  const row = (name, s, target) => log(`  ${name.padEnd(14)}${ms(s.p50)}${ms(s.p90)}${ms(s.p99)}${ms(s.max)}   ${target}`);
  row('exact input', e.exactIn, `p50 <= ${e.targets.p50} ms ${e.passP50 ? 'PASS' : 'MISS'}, p99 <= ${e.targets.p99} ms ${e.passP99 ? 'PASS' : 'MISS'}`);
  row('exact output', e.exactOut, `(for information, ${e.queries.exactOut} queries, one pass)`);
  const la = e.loadAverage;
  log(`  load average ${la.before.map((x) => x.toFixed(2)).join(' ')} before, ${la.after.map((x) => x.toFixed(2)).join(' ')} after the exact-input passes (${la.cores} cores)`);
}

function printStack(s) {
  log(
    `/v2/route through gateway -> NATS -> aggregator-router, devnet chains 999 and 4663 (${s.setup.blockTimeSeconds > 0 ? `a block every ${s.setup.blockTimeSeconds} s: ${s.setup.blocksDuringLoad[999]} and ${s.setup.blocksDuringLoad[4663]} during the load` : 'no new blocks'})`,
  );
  log(`  open loop: ${s.sent} requests over ${s.seconds} s (${s.setup.queries} queries in turn at varying sizes, after ${s.setup.warmUpSeconds} s of warm-up), latency from each scheduled send`);
  log('');
  log(`  rate        ${s.sendRate.toFixed(1)} requests/s sent, ${s.answeredRate.toFixed(1)} answered/s   (target rate ${s.targetRate})`);
  log(`  errors      ${s.errors} of ${s.sent}${s.errors ? `: ${Object.entries(s.errorKinds).map(([k, n]) => `${n} x ${k}`).join(', ')}` : ''}`);
  log(`  p50      ${ms(s.latency.p50)}`);
  log(`  p90      ${ms(s.latency.p90)}`);
  log(`  p99      ${ms(s.latency.p99)}   target <= ${HTTP_TARGET_P99_MS} ms   ${s.pass ? 'PASS' : 'MISS'}${s.errors ? ' (errors)' : ''}`);
  log(`  max      ${ms(s.latency.max)}`);
  log('');
  log(
    `  mean time (services' /metrics): gateway HTTP ${ms(s.meanMs.gatewayHttp, 0)}, of which the NATS request ${ms(s.meanMs.gatewayBusRequest, 0)}, of which the aggregator's handler ${ms(s.meanMs.aggregatorHandler, 0)}; send lag p99 ${ms(s.sendLag.p99, 0)}`,
  );
  const cpu = Object.entries(s.cpuPerRequestMs);
  if (cpu.length) log(`  CPU per request (/proc): ${cpu.map(([name, v]) => `${name} ${v.toFixed(2)} ms`).join(', ')}`);
  log('  by query:');
  for (const q of s.byQuery) log(`    ${q.label.padEnd(46)} ${q.hops} hop${q.hops === 1 ? ' ' : 's'}  p50 ${ms(q.p50, 0)}  p99 ${ms(q.p99, 0)}${q.errors ? `  errors ${q.errors}` : ''}`);
  const la = s.loadAverage;
  log(`  load average ${la.before.map((x) => x.toFixed(2)).join(' ')} before, ${la.after.map((x) => x.toFixed(2)).join(' ')} after the load (${la.cores} cores)`);
  const sim = s.simulation;
  if (sim) {
    log('');
    log(`  every answer executed first (one eth_call of RouterV2 from a virtual payer): ${sim.requests} requests one at a time, the mix's queries in turn`);
    log(`  ${''.padEnd(36)}${'p50'.padStart(12)}${'p99'.padStart(12)}`);
    log(`  ${"the simulation's own time".padEnd(36)}${ms(sim.own.p50)}${ms(sim.own.p99)}   target p50 <= ${SIMULATION_TARGET_P50_MS} ms   ${sim.pass ? 'PASS' : 'MISS'}`);
    log(`  ${'/v2/route with it (the default)'.padEnd(36)}${ms(sim.on.p50)}${ms(sim.on.p99)}`);
    log(`  ${'/v2/route with ROUTE_SIMULATION=off'.padEnd(36)}${ms(sim.off.p50)}${ms(sim.off.p99)}   difference p50 ${(sim.on.p50 - sim.off.p50).toFixed(3)} ms`);
  }
  if (s.machineCpu) {
    const others = s.machineCpu.others * 100;
    log(
      `  machine CPU busy during the load ${(s.machineCpu.busy * 100).toFixed(0)}% of ${la.cores} cores, of which ${others.toFixed(0)}% not this bench's processes${others >= 10 ? ' (the latency above includes that contention)' : ''}`,
    );
  }
}

async function main() {
  const report = {
    target: { simulationP50Ms: SIMULATION_TARGET_P50_MS, engineExactInP50Ms: ENGINE_TARGET_P50_MS, engineExactInP99Ms: ENGINE_TARGET_P99_MS, largeEngineExactInP50Ms: LARGE_TARGET_P50_MS, largeEngineExactInP99Ms: LARGE_TARGET_P99_MS, routeP99Ms: HTTP_TARGET_P99_MS },
  };
  if (!stackOnly) {
    report.engine = await engineBench();
    printEngine(report.engine);
    progress(`engine on ${LARGE_POOLS.toLocaleString('en-US')} pools ...`);
    report.engineLarge = await engineBench(LARGE_POOLS, { concentrated: LARGE_CONCENTRATED, uniswapV4: LARGE_UNISWAP_V4 }, { p50: LARGE_TARGET_P50_MS, p99: LARGE_TARGET_P99_MS });
    log('');
    printEngine(report.engineLarge);
  }
  if (!engineOnly) {
    report.route = await stackBench();
    if (!stackOnly) log('');
    printStack(report.route);
  }
  if (asJson) console.log(JSON.stringify(report, null, 2));
}

try {
  await main();
} catch (error) {
  process.stderr.write(`route bench failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  closeAgent();
  await cleanup();
}
