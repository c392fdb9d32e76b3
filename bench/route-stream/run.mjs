#!/usr/bin/env node
// Live routes at scale: STREAMS concurrent `GET /v2/route/stream` connections (Server-Sent Events) over REQUESTS
// distinct route requests, held for SECONDS while the market moves every block. The stack is the bench's own: a fresh
// devnet chain 999 (a block per transaction) with the devnet's activity simulator trading in it every BLOCK_MS (pool
// swaps and oracle moves only, so that each block moves some price), a private NATS server and a fresh migrated
// database, and the indexer, aggregator-router and gateway as processes (the gateway with ROUTE_STREAMS_PER_CLIENT
// raised past STREAMS: every stream comes from 127.0.0.1).
//
// The blocks are timed independently of the services: the chain's eth_blockNumber is polled every 20 ms and each
// block's first appearance noted; aggregator-router's view announcements (`aggregator.view.999` on NATS) are
// followed too. Each `event: route` a stream receives is timed and tied to its block (the event's `id`).
// Figures, beside their targets:
//   - route searches per block, from the gateway's route_stream_searches_total: <= REQUESTS (one per standing
//     request per view, however many streams watch it);
//   - lag from a block's appearance on the node to each route event at that block: p99 <= 1,000 ms (a block's time
//     on HyperEVM), p50 beside it; for information the lag from the view's announcement, and the block -> view time;
//   - streams that failed (refused, dropped) or got an `event: error`: 0;
//   - for information, the CPU of gateway and aggregator-router per block (from /proc), the gateway's per stream
//     per block, the events per block, the gateway's memory per stream, and the deliveries a stream missed (a route
//     event the other streams of its request got).
//
//   node bench/route-stream/run.mjs [--seconds 60] [--streams 1000] [--requests 50] [--block-ms 1000] [--json]
//
// It exits 0 whether the targets are met or missed; non-zero only when the measurement itself fails.
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanupSteps, closeAgent, cpuSeconds, get, machineCpu, natsServerPid, rssMb, startBuiltApp, stopAppsOnCleanup, summary, wholeNumberOption } from '../shared/stack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => wholeNumberOption(args, name, fallback);
const SECONDS = option('--seconds', 60);
const STREAMS = option('--streams', 1_000);
const REQUESTS = option('--requests', 50);
const BLOCK_MS = option('--block-ms', 1_000);
const asJson = args.includes('--json');
if (REQUESTS > 50) throw new Error('--requests: at most 50 (10 pairs x 5 sizes)');
if (STREAMS < REQUESTS) throw new Error('--streams must be at least --requests');
const TARGET = { lagP99Ms: 1_000, failedStreams: 0 };
/** Streams opened at once while connecting (each waits for its response's head before the next). */
const OPEN_CONCURRENCY = 100;
/** Tries to open a stream the gateway refuses with a 503 (Retry-After) before it counts as failed. */
const OPEN_ATTEMPTS = 5;
const WARMUP_MS = 3_000;
/** After the window, how long the events of its last blocks may still come. */
const GRACE_MS = 3_000;
const HEAD_POLL_MS = 20;

const progress = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cleanups = cleanupSteps('route-stream bench');

// ---------------------------------------------------------------- the chain's head, timed independently

/** Polls eth_blockNumber every HEAD_POLL_MS on a keep-alive socket of its own; `seen` maps a block to when it appeared. */
function watchHead(rpcUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(rpcUrl);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  const blockNumber = () =>
    new Promise((done, fail) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          try {
            done(Number(BigInt(JSON.parse(Buffer.concat(chunks).toString()).result)));
          } catch (e) {
            fail(e);
          }
        });
      });
      req.setTimeout(5_000, () => req.destroy(new Error('eth_blockNumber: no answer within 5 s')));
      req.on('error', fail);
      req.end(body);
    });
  const seen = new Map();
  let running = true;
  let last;
  let skipped = 0;
  let failures = 0;
  const loop = (async () => {
    while (running) {
      try {
        const head = await blockNumber();
        const now = performance.now();
        if (last !== undefined && head > last + 1) skipped += head - last - 1;
        // A block the poll jumped over appeared at most now (its lag is then understated, never overstated).
        for (let b = last === undefined ? head : last + 1; b <= head; b++) if (!seen.has(b)) seen.set(b, now);
        if (last === undefined || head > last) last = head;
      } catch {
        failures += 1;
      }
      await sleep(HEAD_POLL_MS);
    }
  })();
  return {
    seen,
    head: () => last,
    stats: () => ({ skipped, failures }),
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
    },
  };
}

// ---------------------------------------------------------------- the streams

/**
 * Opens one SSE connection and parses its events as they come. Each `route` event is pushed to `routeEvents` with its
 * receive time and block; comments and `error` / `end` events are counted on the stream.
 */
function openStream(agent, base, query, index, requestIndex, routeEvents, state) {
  const stream = { index, request: requestIndex, opened: performance.now(), headAt: undefined, firstRouteAt: undefined, status: undefined, routes: 0, comments: 0, unchanged: 0, errors: [], ends: 0, failed: undefined, badData: 0 };
  const ready = new Promise((done) => {
    const req = http.get(`${base}/v2/route/stream?${query}`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      stream.status = res.statusCode;
      stream.retryAfter = res.headers['retry-after'];
      stream.headAt = performance.now();
      if (res.statusCode !== 200) {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          stream.failed = `HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`;
          done();
        });
        return;
      }
      done();
      res.setEncoding('utf8');
      let buffer = '';
      const handle = (block, at) => {
        let name;
        let id;
        const data = [];
        let comment = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            comment = true;
            if (line.includes('unchanged')) {
              stream.unchanged += 1;
              state.unchanged += 1;
            }
          } else if (line.startsWith('event: ')) name = line.slice(7);
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (name === undefined) {
          if (comment) stream.comments += 1;
          return;
        }
        const text = data.join('\n');
        // A stream's first event answers its opening (the standing request's last answer, or a search made for it),
        // not a block: it is left out of the lags.
        const opening = stream.routes === 0 && stream.errors.length === 0;
        if (opening) stream.firstEventAt = at;
        if (name === 'route') {
          const first = stream.routes === 0;
          stream.routes += 1;
          if (first) stream.firstRouteAt = at;
          // The whole answer is parsed for the first event of each stream only (its block must be the event's id);
          // the others are checked by their envelope, to keep this client's own CPU low.
          if (first) {
            try {
              const body = JSON.parse(text);
              if (!body.success || String(body.data.blockNumber) !== id) stream.badData += 1;
            } catch {
              stream.badData += 1;
            }
          } else if (!text.startsWith('{"success":true,')) stream.badData += 1;
          routeEvents.push({ stream: index, request: requestIndex, block: Number(id), at, first: opening });
        } else if (name === 'error') {
          let error;
          try {
            const body = JSON.parse(text);
            error = `${body.status} ${body.error}`;
          } catch {
            error = text.slice(0, 200);
          }
          stream.errors.push({ at, error });
        } else if (name === 'end') stream.ends += 1;
      };
      res.on('data', (chunk) => {
        const at = performance.now();
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          handle(block, at);
        }
      });
      res.on('error', (e) => {
        if (!state.stopping) stream.failed ??= `response error: ${e.message}`;
      });
      res.on('close', () => {
        if (!state.stopping) stream.failed ??= 'closed by the gateway';
      });
    });
    req.setTimeout(0);
    req.on('error', (e) => {
      if (!state.stopping) stream.failed ??= `connection: ${e.message}`;
      done();
    });
    stream.req = req;
  });
  return { stream, ready };
}

// ---------------------------------------------------------------- metrics

async function metricsText(url) {
  const r = await get(`${url}/metrics`, true);
  if (r.status !== 200) throw new Error(`${url}/metrics answered ${r.status} ${r.error ?? ''}`);
  return r.body;
}
/** The sum of a metric's series whose labels match `labels` (a substring), 0 when it has none yet. */
function metric(text, name, labels = '') {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^(\w+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').includes(labels)) sum += Number(m[3]);
  }
  return sum;
}
async function gatewayMetrics(url) {
  const t = await metricsText(url);
  return {
    open: metric(t, 'route_streams_open'),
    standing: metric(t, 'route_streams_standing'),
    searches: metric(t, 'route_stream_searches_total'),
    routeEvents: metric(t, 'route_stream_events_total', 'event="route"'),
    errorEvents: metric(t, 'route_stream_events_total', 'event="error"'),
    refused: metric(t, 'route_streams_refused_total'),
    httpRefused: metric(t, 'http_refused_total', 'route="/v2/route/stream"'),
  };
}

/** warn / error lines of a service's log (JSON lines), counted by message, with a sample of each. */
function logProblems(file) {
  const out = {};
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    const level = /"level":"(warn|error|fatal)"/.exec(line)?.[1];
    if (!level) continue;
    const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? /"message":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120);
    const key = `${level}: ${msg}`;
    out[key] ??= { count: 0, sample: line.slice(0, 400) };
    out[key].count += 1;
  }
  return out;
}

// ---------------------------------------------------------------- the requests

/**
 * REQUESTS distinct exact-input requests: 10 token pairs of chain 999 (both ways, the stablecoins, the wrapped native
 * and PURR; six of them multi-hop) at 5 sizes ($10 to $10k at the devnet's prices), in that order, so that the first
 * REQUESTS cover every pair before repeating a size.
 */
function requestMix(chain) {
  const token = (symbol) => {
    const t = [chain.wrappedNative, ...chain.tokens].find((x) => x.symbol === symbol);
    if (!t) throw new Error(`chain 999 has no ${symbol}`);
    return t.address;
  };
  const usd = { WHYPE: 25, USDC: 1, USDT: 1, DAI: 1, PURR: 0.25 };
  const pairs = [
    ['WHYPE', 'USDC', false],
    ['USDC', 'WHYPE', true],
    ['WHYPE', 'USDT', true],
    ['USDT', 'DAI', false],
    ['DAI', 'USDC', true],
    ['PURR', 'USDC', false],
    ['USDC', 'PURR', true],
    ['PURR', 'WHYPE', false],
    ['WHYPE', 'DAI', true],
    ['USDT', 'PURR', true],
  ];
  const sizes = [10, 100, 1_000, 3_000, 10_000];
  const mix = [];
  for (const size of sizes) {
    for (const [a, b, multiHop] of pairs) {
      const amount = String(Number((size / usd[a]).toPrecision(4)));
      const params = new URLSearchParams({ chainId: '999', tokenIn: token(a), tokenOut: token(b), amountIn: amount, ...(multiHop ? { multiHop: 'true' } : {}) });
      mix.push({ label: `${a}->${b} ${amount} in${multiHop ? ', multi-hop' : ''}`, query: params.toString() });
    }
  }
  return mix.slice(0, REQUESTS);
}

// ---------------------------------------------------------------- the bench

async function bench() {
  progress('building the apps (tools/build/build.mjs --quiet) ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { startDevnet, writeManifest, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));
  const { createTestDatabase, startPrivateNatsServer } = require(join(root, 'dist/libs/testing/src'));
  const { Simulator, prepareSimulator, simulatorAccounts } = require(join(root, 'dist/apps/devnet/src/simulator'));
  const { SUBJECTS, aggregatorViewTopic } = require(join(root, 'dist/libs/messages/src'));
  const { connect } = require('nats');

  const dir = mkdtempSync(join(tmpdir(), 'route-stream-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  progress('starting a private NATS server, a fresh database and a devnet chain 999 ...');
  const nats = await startPrivateNatsServer();
  cleanups.push(() => nats.dispose());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const devnet = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  cleanups.push(() => devnet.stop());
  const chain = devnet.manifest.chains['999'];

  // The devnet's activity simulator, in this process: one action a tick, each its own block (the chain mines a block
  // per transaction), only those that move a price (pool swaps of every kind, oracle moves).
  const accounts = simulatorAccounts();
  await prepareSimulator(devnet.manifest, accounts);
  const simulatorWarnings = [];
  const simulator = new Simulator({
    manifest: devnet.manifest,
    accounts,
    intervalMs: BLOCK_MS,
    seed: 999,
    weights: { transfer: 0, 'launchpad-trade': 0, 'launch-token': 0 },
    summaryIntervalMs: 24 * 3_600_000,
    logger: { log: () => undefined, warn: (m) => simulatorWarnings.push(m) },
  });
  cleanups.push(() => simulator.stop());

  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);
  const env = {
    PATH: process.env.PATH ?? '',
    NATS_URL: nats.url,
    DATABASE_URL: database.url,
    CHAIN_IDS: '999',
    RPC_URL_999: chain.rpcUrl,
    SOURCES_CONFIG: manifestPath,
  };
  const apps = [];
  stopAppsOnCleanup(apps, cleanups);
  const startApp = (name, extra = {}) => startBuiltApp({ root, dir, apps, freePort, name, env: { ...env, ...extra } });
  const logTail = (app) => {
    try {
      return readFileSync(app.logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '';
    }
  };
  const alive = () => {
    for (const app of apps) if (app.child.exitCode !== null || app.child.signalCode !== null) throw new Error(`${app.name} exited (${app.child.exitCode ?? app.child.signalCode}):\n${logTail(app)}`);
  };
  progress('starting indexer, aggregator-router and gateway ...');
  const indexer = await startApp('indexer');
  const aggregator = await startApp('aggregator-router');
  const gateway = await startApp('gateway', { ROUTE_STREAMS_PER_CLIENT: String(STREAMS * 2), ROUTE_STREAMS_MAX: String(Math.max(5_000, STREAMS * 2)) });

  const mix = requestMix(chain);
  progress('waiting for /v2/route to answer ...');
  const deadline = performance.now() + 120_000;
  for (;;) {
    alive();
    const r = await get(`${gateway.url}/v2/route?${mix[0].query}`);
    if (r.status === 200) break;
    if (performance.now() > deadline) throw new Error(`/v2/route did not answer 200 within 120 s (last ${r.status} ${r.error ?? ''})\n${apps.map((a) => `--- ${a.name}\n${logTail(a)}`).join('\n')}`);
    await sleep(250);
  }
  // Every request must answer a route before the streams open: an error event would then mean the stream's.
  for (const q of mix) {
    const r = await get(`${gateway.url}/v2/route?${q.query}`, true);
    if (r.status !== 200) throw new Error(`${q.label}: /v2/route answered ${r.status} ${r.body ?? r.error}`);
  }

  progress(`the market moves: a trade every ${BLOCK_MS} ms, each its own block ...`);
  simulator.start();
  const head = watchHead(chain.rpcUrl);
  cleanups.push(() => head.stop());
  const views = new Map();
  const nc = await connect({ servers: nats.url, name: 'route-stream bench' });
  cleanups.push(() => nc.close());
  nc.subscribe(aggregatorViewTopic(999), {
    callback: (err, msg) => {
      if (err) return;
      const at = performance.now();
      try {
        const block = Number(JSON.parse(Buffer.from(msg.data).toString()).blockNumber);
        if (!views.has(block)) views.set(block, at);
      } catch {
        // not a view
      }
    },
  });
  await sleep(3_000);
  const rssBeforeStreams = rssMb(gateway.child.pid);

  progress(`opening ${STREAMS} streams over ${mix.length} distinct requests (${OPEN_CONCURRENCY} at a time) ...`);
  const state = { stopping: false, unchanged: 0 };
  const routeEvents = [];
  const streams = [];
  const refusedAtOpen = [];
  const sseAgent = new http.Agent({ keepAlive: true, maxSockets: STREAMS + 16 });
  cleanups.push(() => {
    state.stopping = true;
    for (const s of streams) s.req?.destroy();
    sseAgent.destroy();
  });
  const openStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: OPEN_CONCURRENCY }, async () => {
      while (next < STREAMS) {
        const i = next++;
        const request = i % mix.length;
        // A 503 at opening (the gateway's event loop behind: `Service overloaded`, Retry-After) is tried again after
        // Retry-After, as a client does; it is counted, and the stream fails only if it is still refused after 5 tries.
        for (let attempt = 1; ; attempt++) {
          const { stream, ready } = openStream(sseAgent, gateway.url, mix[request].query, i, request, routeEvents, state);
          await ready;
          if (stream.status === 503 && attempt < OPEN_ATTEMPTS) {
            refusedAtOpen.push(stream.failed);
            await sleep(1_000 * (Number(stream.retryAfter) || 1));
            continue;
          }
          stream.attempts = attempt;
          streams.push(stream);
          break;
        }
      }
    }),
  );
  const openedMs = performance.now() - openStarted;
  // Every open stream's first event (the standing request's last answer, or a search made for it).
  const firstDeadline = performance.now() + 60_000;
  while (streams.some((s) => !s.failed && s.routes === 0 && s.errors.length === 0) && performance.now() < firstDeadline) await sleep(50);
  const firstEventsMs = performance.now() - openStarted;
  alive();
  progress(`${streams.filter((s) => s.status === 200).length} streams open in ${(openedMs / 1000).toFixed(1)} s, first events in ${(firstEventsMs / 1000).toFixed(1)} s; ${WARMUP_MS / 1000} s of warm-up ...`);
  await sleep(WARMUP_MS);

  // The window.
  progress(`measuring for ${SECONDS} s ...`);
  const processes = [
    ['gateway', gateway.child.pid],
    ['aggregator-router', aggregator.child.pid],
    ['indexer', indexer.child.pid],
    ['nats-server', natsServerPid(nats.port)],
    ...devnet.nodes.map((n) => [`anvil ${n.chainId}`, n.pid]),
  ];
  const gatewayBefore = await gatewayMetrics(gateway.url);
  const aggregatorBefore = await metricsText(aggregator.url);
  const cpuBefore = processes.map(([, pid]) => (pid === undefined ? undefined : cpuSeconds(pid)));
  const selfBefore = process.cpuUsage();
  const unchangedBefore = state.unchanged;
  const machineBefore = machineCpu();
  const loadBefore = loadavg();
  const t0 = performance.now();
  let peakRss = rssMb(gateway.child.pid);
  while (performance.now() - t0 < SECONDS * 1000) {
    await sleep(Math.min(1_000, t0 + SECONDS * 1000 - performance.now()));
    peakRss = Math.max(peakRss, rssMb(gateway.child.pid));
    alive();
  }
  const t1 = performance.now();
  const cpuAfter = processes.map(([, pid]) => (pid === undefined ? undefined : cpuSeconds(pid)));
  const selfAfter = process.cpuUsage(selfBefore);
  const unchangedInWindow = state.unchanged - unchangedBefore;
  const machineAfter = machineCpu();
  const loadAfter = loadavg();
  const gatewayAfter = await gatewayMetrics(gateway.url);
  const aggregatorAfter = await metricsText(aggregator.url);
  const rssAtEnd = rssMb(gateway.child.pid);
  const aggregatorRss = rssMb(aggregator.child.pid);
  progress(`${GRACE_MS / 1000} s for the last blocks' events ...`);
  await sleep(GRACE_MS);
  await simulator.stop();
  await head.stop();

  // The figures.
  const windowBlocks = [...head.seen].filter(([, at]) => at >= t0 && at <= t1).map(([b]) => b);
  const blockSet = new Set(windowBlocks);
  const blocks = windowBlocks.length;
  if (blocks === 0) throw new Error('no block appeared during the window: the simulator did not trade');
  const inWindow = routeEvents.filter((e) => !e.first && blockSet.has(e.block));
  const lags = inWindow.map((e) => e.at - head.seen.get(e.block));
  const viewLags = inWindow.filter((e) => views.has(e.block)).map((e) => e.at - views.get(e.block));
  const blockToView = windowBlocks.filter((b) => views.has(b)).map((b) => views.get(b) - head.seen.get(b));
  // Per block: the first and the last of its events (the gateway's fan-out), and the streams that missed one.
  const perBlock = new Map();
  const perRequestBlock = new Map();
  for (const e of inWindow) {
    const p = perBlock.get(e.block) ?? { first: Infinity, last: -Infinity, events: 0 };
    p.first = Math.min(p.first, e.at);
    p.last = Math.max(p.last, e.at);
    p.events += 1;
    perBlock.set(e.block, p);
    const key = `${e.request}:${e.block}`;
    perRequestBlock.set(key, (perRequestBlock.get(key) ?? 0) + 1);
  }
  const streamsOf = (request) => streams.filter((s) => s.request === request && s.status === 200 && !s.failed).length;
  const watchers = mix.map((_, i) => streamsOf(i));
  let missed = 0;
  for (const [key, n] of perRequestBlock) missed += Math.max(0, watchers[Number(key.split(':')[0])] - n);
  const spread = [...perBlock.values()].map((p) => p.last - p.first);
  const lastLag = [...perBlock].map(([b, p]) => p.last - head.seen.get(b));

  const cpuMs = {};
  processes.forEach(([name], i) => {
    if (cpuBefore[i] !== undefined && cpuAfter[i] !== undefined) cpuMs[name] = (cpuAfter[i] - cpuBefore[i]) * 1000;
  });
  cpuMs['this bench (client)'] = (selfAfter.user + selfAfter.system) / 1000;
  const seconds = (t1 - t0) / 1000;
  let machine;
  if (machineBefore && machineAfter && machineAfter.total > machineBefore.total) {
    const share = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const ours = Object.values(cpuMs).reduce((a, b) => a + b, 0) / 1000;
    machine = { busy: share, others: Math.max(0, share - ours / seconds / cpus().length) };
  }
  const open = streams.filter((s) => s.status === 200);
  const failed = streams.filter((s) => s.failed);
  const errored = streams.filter((s) => s.errors.length > 0);
  const errorKinds = {};
  for (const s of streams) for (const e of s.errors) errorKinds[e.error] = (errorKinds[e.error] ?? 0) + 1;
  const failureKinds = {};
  for (const s of failed) failureKinds[s.failed] = (failureKinds[s.failed] ?? 0) + 1;
  const routeSubject = SUBJECTS.aggregatorRoute;
  const refusedByAggregator =
    metric(aggregatorAfter, 'nats_handler_refused_total', `subject="${routeSubject}"`) - metric(aggregatorBefore, 'nats_handler_refused_total', `subject="${routeSubject}"`);
  const refusedByReason = {};
  for (const reason of ['queue_full', 'queue_wait', 'deadline', 'late']) {
    const n = metric(aggregatorAfter, 'nats_handler_refused_total', `reason="${reason}",subject="${routeSubject}"`) - metric(aggregatorBefore, 'nats_handler_refused_total', `reason="${reason}",subject="${routeSubject}"`);
    if (n) refusedByReason[reason] = n;
  }
  // The error events of the window: at how many blocks, for how many distinct requests.
  const windowErrors = streams.flatMap((s) => s.errors.filter((e) => e.at >= t0 && e.at <= t1 + GRACE_MS).map((e) => ({ ...e, request: s.request })));
  const errorRequests = new Set(windowErrors.map((e) => e.request)).size;
  // Error events of the window by request, in the order the requests were first opened (the gateway's standing
  // requests are searched in that order at each view).
  const errorsByRequest = mix.map((_, i) => windowErrors.filter((e) => e.request === i).length);
  const searches = gatewayAfter.searches - gatewayBefore.searches;
  const sentRouteEvents = gatewayAfter.routeEvents - gatewayBefore.routeEvents;
  const simCounts = simulator.counts()[999] ?? {};
  const trades = Object.values(simCounts).reduce((a, c) => a + c.ok, 0);
  const failedTrades = Object.values(simCounts).reduce((a, c) => a + c.failed, 0);

  // The gateway lets the streams go when their clients do.
  state.stopping = true;
  for (const s of streams) s.req?.destroy();
  sseAgent.destroy();
  const releaseStarted = performance.now();
  let afterClose = await gatewayMetrics(gateway.url);
  while ((afterClose.open > 0 || afterClose.standing > 0) && performance.now() - releaseStarted < 10_000) {
    await sleep(100);
    afterClose = await gatewayMetrics(gateway.url);
  }
  const releasedMs = performance.now() - releaseStarted;
  await sleep(2_000);
  const rssAfterClose = rssMb(gateway.child.pid);
  await nc.close();

  const lag = summary(lags);
  const firstEvent = summary(streams.filter((s) => s.firstEventAt !== undefined).map((s) => s.firstEventAt - s.opened));
  const firstRoute = summary(streams.filter((s) => s.firstRouteAt !== undefined).map((s) => s.firstRouteAt - s.opened));
  const openedWithError = streams.filter((s) => s.errors.length > 0 && s.errors[0].at === s.firstEventAt).length;
  return {
    setup: {
      streams: STREAMS,
      requests: mix.length,
      streamsPerRequest: STREAMS / mix.length,
      blockMs: BLOCK_MS,
      seconds,
      cores: cpus().length,
      loadAverage: { before: loadBefore, after: loadAfter },
      machineCpu: machine,
      simulator: { trades, failedTrades, warnings: simulatorWarnings.slice(0, 5) },
      headPoll: { everyMs: HEAD_POLL_MS, ...head.stats() },
      requestsList: mix.map((q) => q.label),
    },
    opening: {
      openedMs,
      firstEventsMs,
      open: open.length,
      refusedAtOpen: refusedAtOpen.length,
      refusedAtOpenKinds: countKinds(refusedAtOpen.map((x) => x.replace(/behind by \d+ ms/, 'behind by N ms'))),
      firstEventLatency: firstEvent,
      firstRouteLatency: firstRoute,
      openedWithError,
      gatewayRssMbBefore: rssBeforeStreams,
    },
    window: {
      blocks,
      blocksPerSecond: blocks / seconds,
      views: windowBlocks.filter((b) => views.has(b)).length,
      blocksWithRouteEvents: perBlock.size,
    },
    searches: { total: searches, perBlock: searches / blocks, perView: searches / Math.max(1, windowBlocks.filter((b) => views.has(b)).length), target: mix.length, refusedByAggregator, refusedByReason, pass: searches / blocks <= mix.length },
    events: {
      received: inWindow.length,
      perBlock: inWindow.length / blocks,
      sentByGatewayPerBlock: sentRouteEvents / blocks,
      standingRequestsChangedPerBlock: inWindow.length / blocks / (STREAMS / mix.length),
      unchangedCommentsPerBlock: unchangedInWindow / blocks,
      missedDeliveries: missed,
      badData: streams.reduce((a, s) => a + s.badData, 0),
    },
    lag: {
      blockToEvent: { ...lag, target: TARGET.lagP99Ms, pass: lag.p99 <= TARGET.lagP99Ms },
      viewToEvent: summary(viewLags),
      blockToView: summary(blockToView),
      blockToLastEvent: summary(lastLag),
      fanOutSpread: summary(spread),
    },
    streams: {
      failed: failed.length,
      failureKinds,
      errored: errored.length,
      errorEvents: streams.reduce((a, s) => a + s.errors.length, 0),
      errorKinds,
      errorEventsInWindow: windowErrors.length,
      requestsWithErrorsInWindow: errorRequests,
      errorEventsByRequest: errorsByRequest,
      endEvents: streams.reduce((a, s) => a + s.ends, 0),
      refusedByGateway: gatewayAfter.refused,
      refusedByGatewayEventLoopGuard: afterClose.httpRefused,
      releasedAfterCloseMs: afterClose.open === 0 && afterClose.standing === 0 ? releasedMs : undefined,
      openAfterClose: afterClose.open,
      pass: failed.length + errored.length === TARGET.failedStreams,
    },
    cpu: {
      msPerBlock: Object.fromEntries(Object.entries(cpuMs).map(([name, ms]) => [name, ms / blocks])),
      gatewayUsPerStreamPerBlock: (cpuMs.gateway / blocks / open.length) * 1000,
      gatewayUsPerEvent: inWindow.length ? (cpuMs.gateway / inWindow.length) * 1000 : NaN,
      aggregatorMsPerSearch: searches ? cpuMs['aggregator-router'] / searches : NaN,
      coresBusy: Object.fromEntries(Object.entries(cpuMs).map(([name, ms]) => [name, ms / 1000 / seconds])),
    },
    memory: {
      gatewayRssMb: { beforeStreams: rssBeforeStreams, end: rssAtEnd, peak: peakRss, afterClose: rssAfterClose },
      gatewayKbPerStream: ((rssAtEnd - rssBeforeStreams) * 1024) / Math.max(1, open.length),
      aggregatorRssMb: aggregatorRss,
    },
    logs: { gateway: logProblems(gateway.logFile), 'aggregator-router': logProblems(aggregator.logFile) },
  };
}

// ---------------------------------------------------------------- the table

function countKinds(items) {
  const out = {};
  for (const item of items) out[item] = (out[item] ?? 0) + 1;
  return out;
}

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const verdict = (pass) => (pass ? 'PASS' : 'MISS');

function print(r) {
  const row = (label, value, target, pass) => `  ${label.padEnd(46)}${String(value).padEnd(34)}${target === undefined ? 'info' : `${target.padEnd(16)}${verdict(pass)}`}`;
  const s = r.setup;
  const lines = [
    `/v2/route/stream: ${s.streams} streams over ${s.requests} distinct requests (${s.streamsPerRequest} each), chain 999 with a trade every ${s.blockMs} ms, ${f(s.seconds, 0)} s`,
    `  ${r.window.blocks} blocks in the window (${f(r.window.blocksPerSecond, 2)}/s), ${r.window.views} announced as views; ${s.simulator.trades} trades (${s.simulator.failedTrades} failed); head polled every ${s.headPoll.everyMs} ms (${s.headPoll.skipped} blocks jumped over)`,
    `  streams open in ${f(r.opening.openedMs / 1000, 1)} s (${r.opening.refusedAtOpen} opening attempts refused with a 503 and tried again after Retry-After), all first events in ${f(r.opening.firstEventsMs / 1000, 1)} s (after opening: p50 ${f(r.opening.firstEventLatency.p50, 0)} ms, p99 ${f(r.opening.firstEventLatency.p99, 0)} ms; ${r.opening.openedWithError} streams' first event an error; first route event p50 ${f(r.opening.firstRouteLatency.p50, 0)} ms, p99 ${f(r.opening.firstRouteLatency.p99, 0)} ms)`,
    `  load average ${s.loadAverage.before.map((x) => x.toFixed(2)).join(' ')} -> ${s.loadAverage.after.map((x) => x.toFixed(2)).join(' ')} on ${s.cores} cores; machine busy ${s.machineCpu ? `${f(s.machineCpu.busy * 100, 0)}%, other processes ${f(s.machineCpu.others * 100, 0)}%` : '-'}`,
    '',
    `  ${'figure'.padEnd(46)}${'measured'.padEnd(34)}target`,
    row('route searches per block', `${f(r.searches.perBlock, 2)} (${r.searches.total})`, `<= ${r.searches.target}`, r.searches.pass),
    row('lag block -> route event, p99', `${f(r.lag.blockToEvent.p99, 0)} ms`, `<= ${TARGET.lagP99Ms} ms`, r.lag.blockToEvent.pass),
    row('lag block -> route event, p50', `${f(r.lag.blockToEvent.p50, 0)} ms (max ${f(r.lag.blockToEvent.max, 0)}, ${r.lag.blockToEvent.count} events)`),
    row('streams failed (refused, dropped)', `${r.streams.failed} of ${s.streams}`, `${TARGET.failedStreams}`, r.streams.failed === 0),
    row('streams that got an error event', `${r.streams.errored} (${r.streams.errorEvents} events)`, `${TARGET.failedStreams}`, r.streams.errored === 0),
    row('gateway CPU per block', `${f(r.cpu.msPerBlock.gateway, 1)} ms (${f(r.cpu.coresBusy.gateway * 100, 0)}% of a core)`),
    row('aggregator-router CPU per block', `${f(r.cpu.msPerBlock['aggregator-router'], 1)} ms (${f(r.cpu.coresBusy['aggregator-router'] * 100, 0)}% of a core)`),
    row('gateway CPU per stream per block', `${f(r.cpu.gatewayUsPerStreamPerBlock, 1)} µs`),
    row('route events per block (received)', `${f(r.events.perBlock, 1)} (gateway sent ${f(r.events.sentByGatewayPerBlock, 1)})`),
    '',
    `  for information`,
    `    lag view -> route event: p50 ${f(r.lag.viewToEvent.p50, 0)} ms, p99 ${f(r.lag.viewToEvent.p99, 0)} ms; block -> view: p50 ${f(r.lag.blockToView.p50, 0)} ms, p99 ${f(r.lag.blockToView.p99, 0)} ms`,
    `    a block's last event: p50 ${f(r.lag.blockToLastEvent.p50, 0)} ms, p99 ${f(r.lag.blockToLastEvent.p99, 0)} ms after the block; first to last event of a block: p50 ${f(r.lag.fanOutSpread.p50, 0)} ms, p99 ${f(r.lag.fanOutSpread.p99, 0)} ms`,
    `    standing requests whose answer changed, per block: ${f(r.events.standingRequestsChangedPerBlock, 1)} of ${s.requests}; blocks with a route event: ${r.window.blocksWithRouteEvents} of ${r.window.blocks}`,
    `    "unchanged" comments per block: ${f(r.events.unchangedCommentsPerBlock, 1)}`,
    `    deliveries missed (an event other streams of its request got): ${r.events.missedDeliveries}; events with a bad body: ${r.events.badData}; end events: ${r.streams.endEvents}`,
    `    route searches per view ${f(r.searches.perView, 2)}; refused by aggregator-router's admission: ${r.searches.refusedByAggregator}${Object.keys(r.searches.refusedByReason).length ? ` (${Object.entries(r.searches.refusedByReason).map(([k, n]) => `${n} ${k}`).join(', ')})` : ''}; error events in the window: ${r.streams.errorEventsInWindow}, for ${r.streams.requestsWithErrorsInWindow} of ${s.requests} requests`,
    `    aggregator-router CPU per search ${f(r.cpu.aggregatorMsPerSearch, 2)} ms; gateway CPU per event received ${f(r.cpu.gatewayUsPerEvent, 1)} µs`,
    `    CPU per block, other processes: ${Object.entries(r.cpu.msPerBlock).filter(([n]) => n !== 'gateway' && n !== 'aggregator-router').map(([n, ms]) => `${n} ${f(ms, 1)} ms`).join(', ')}`,
    `    gateway memory (VmRSS): ${f(r.memory.gatewayRssMb.beforeStreams, 0)} MB before the streams, ${f(r.memory.gatewayRssMb.end, 0)} MB at the end (peak ${f(r.memory.gatewayRssMb.peak, 0)}), ${f(r.memory.gatewayRssMb.afterClose, 0)} MB 2 s after they closed; ${f(r.memory.gatewayKbPerStream, 1)} KB a stream; aggregator-router ${f(r.memory.aggregatorRssMb, 0)} MB`,
    `    streams released after the clients closed: ${r.streams.releasedAfterCloseMs === undefined ? `no, ${r.streams.openAfterClose} still open after 10 s` : `in ${f(r.streams.releasedAfterCloseMs, 0)} ms`}`,
  ];
  if (Object.keys(r.opening.refusedAtOpenKinds).length) lines.push(`    refused at opening (tried again): ${Object.entries(r.opening.refusedAtOpenKinds).map(([k, n]) => `${n} x ${k}`).join('; ')}`);
  if (Object.keys(r.streams.failureKinds).length) lines.push(`    failures: ${Object.entries(r.streams.failureKinds).map(([k, n]) => `${n} x ${k}`).join('; ')}`);
  if (Object.keys(r.streams.errorKinds).length) {
    lines.push(`    error events: ${Object.entries(r.streams.errorKinds).map(([k, n]) => `${n} x ${k}`).join('; ')}`);
    lines.push(`    error events of the window by request, in the order the gateway searches them: ${r.streams.errorEventsByRequest.join(' ')}`);
  }
  for (const [name, problems] of Object.entries(r.logs)) {
    const entries = Object.entries(problems);
    if (entries.length) lines.push(`    ${name} log: ${entries.map(([k, v]) => `${v.count} x ${k}`).join('; ')}`);
  }
  console.log(lines.join('\n'));
}

try {
  const result = await bench();
  if (asJson) console.log(JSON.stringify(result, null, 2));
  else print(result);
} catch (error) {
  process.stderr.write(`route-stream bench failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  closeAgent();
  await cleanups.run();
}
