#!/usr/bin/env node
// The faults a cluster sees, one after another, under a steady load (routes and core quotes through the gateway),
// on one stack: a 3-node NATS JetStream cluster on loopback (the chain facts' stream with three copies), a private
// PostgreSQL, the devnet (chain 999, its simulator trading), the indexer, aggregator-router, amm-quoter and the
// gateway, the last three reading the chain through two RPC proxies. For each fault it prints the error window
// (from the fault to the last request that failed), the error count, the slowest failure, and the chain facts lost
// and duplicated (the stream against what aggregator-router handled, and the stream's own duplicates), beside the
// targets; at the end the liquidity state against a fresh read of the chain.
//   node bench/faults/run.mjs [--rate 40] [--json]
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RATE = arg('--rate', 40);
const JSON_OUT = process.argv.includes('--json');
const NATS_OUTAGE_MS = 10_000;
const STALE_AFTER_MS = 3_000;
const log = (...a) => !JSON_OUT && console.error(...a);

execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { stdio: 'inherit' });
const dist = (p) => require(join(root, 'dist', p));
const { startNatsCluster, startPrivatePostgres, createTestDatabase, startRpcProxy, getFreePort } = dist('libs/testing/src');
const { startLoad, faultFigures, factAccount, streamLeader } = dist('apps/e2e/src/faults.js');
const { liquidityAgainstChain } = dist('apps/e2e/src/liquidity.js');
const { createChainClient } = dist('libs/chain/src');
const { readManifest } = dist('libs/devnet-kit/src');
const { CHAIN_FACTS } = dist('libs/messages/src');

const LIQUIDITY_FACTS = ['poolCreated', 'poolUpdated', 'poolConcentrated', 'tokenCreated', 'launchpadTokenCreated', 'launchpadTrade', 'launchpadTokenGraduated', 'block', 'reorg'].map((k) => CHAIN_FACTS[k]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(probe, accept, timeoutMs, what) {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch((e) => e);
    if (accept(value)) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms (${value instanceof Error ? value.message : JSON.stringify(value)})`);
    await sleep(100);
  }
}

const children = [];
async function startApp(name, env) {
  const port = await getFreePort();
  const child = spawn(process.execPath, [join(root, 'dist/apps', name, 'src/main.js')], {
    env: { PATH: process.env.PATH, ...env, HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await until(() => fetch(`${url}/health/live`).then((r) => r.status), (s) => s === 200, 60_000, `${name} /health/live`);
  return { url, child };
}

/** The figures of one fault beside its targets. */
function printRow(r) {
  const checks = [];
  if (r.target.errorWindowMs !== undefined) checks.push(`error window ${r.errorWindowMs} ms   target <= ${r.target.errorWindowMs} ms   ${r.errorWindowMs <= r.target.errorWindowMs ? 'PASS' : 'MISS'}`);
  else checks.push(`error window ${r.errorWindowMs} ms (fault lasted ${r.faultMs} ms)`);
  if (r.target.errors !== undefined) checks.push(`errors ${r.errors} / ${r.requests}   target ${r.target.errors}   ${r.errors <= r.target.errors ? 'PASS' : 'MISS'}`);
  else checks.push(`errors ${r.errors} / ${r.requests}`);
  if (r.target.failureP99Ms !== undefined) checks.push(`failures answered in p99 ${r.failureP99Ms} ms (max ${r.slowestFailureMs})   target <= ${r.target.failureP99Ms} ms   ${r.failureP99Ms <= r.target.failureP99Ms ? 'PASS' : 'MISS'}`);
  else checks.push(`slowest failure ${r.slowestFailureMs} ms`);
  if (r.target.recoveredAfterEndMs !== undefined) checks.push(`answering again ${r.recoveredAfterEndMs} ms after the fault ended   target <= ${r.target.recoveredAfterEndMs} ms   ${r.recoveredAfterEndMs <= r.target.recoveredAfterEndMs ? 'PASS' : 'MISS'}`);
  if (r.target.answer) {
    const ok = Object.keys(r.failures).every((k) => k === '503 Chain 999 unavailable: no RPC provider is giving blocks');
    checks.push(`failures ${JSON.stringify(r.failures)}   target ${r.target.answer}   ${ok ? 'PASS' : 'MISS'}`);
  } else if (r.errors) checks.push(`failures ${JSON.stringify(r.failures)}`);
  const facts = r.lostFacts === 0 && r.duplicatedFacts === 0;
  checks.push(`lost facts: ${r.lostFacts}, duplicated: ${r.duplicatedFacts} (of ${r.factsInStream} in the stream)   target 0, 0   ${facts ? 'PASS' : 'MISS'}`);
  console.log(`${r.fault}${r.detail ? ` (${r.detail})` : ''}`);
  for (const c of checks) console.log(`  ${c}`);
}

const dir = mkdtempSync(join(tmpdir(), 'faults-bench-'));
let cluster, pg, db, proxies = [];
const rows = [];
try {
  log('starting: a 3-node NATS cluster, PostgreSQL, the devnet with its simulator, the services ...');
  [cluster, pg] = await Promise.all([startNatsCluster(3), startPrivatePostgres()]);
  db = await createTestDatabase({ serverUrl: pg.url });
  const manifestPath = join(dir, 'manifest.json');
  const devnet = await startApp('devnet', {
    NATS_URL: cluster.url, DEVNET_PORT_999: '0', DEVNET_PORT_4663: '0', MANIFEST_PATH: manifestPath, DEVNET_LOG_DIR: join(dir, 'logs'),
    GATEWAY_URL: 'http://127.0.0.1:3999', DEVNET_SIMULATE: 'true', DEVNET_SIMULATE_INTERVAL_MS: '200',
  });
  await until(() => fetch(`${devnet.url}/health/ready`).then((r) => r.status), (s) => s === 200, 120_000, 'devnet ready');
  const manifest = readManifest(manifestPath);
  const chain = manifest.chains['999'];
  const client = createChainClient({ chainId: 999, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 });
  proxies = await Promise.all([startRpcProxy(chain.rpcUrl), startRpcProxy(chain.rpcUrl)]);
  const [a, b] = proxies;
  const env = {
    NATS_URL: cluster.url, NATS_STREAM_REPLICAS: '3', DATABASE_URL: db.url, CHAIN_IDS: '999', RPC_URL_999: chain.rpcUrl, SOURCES_CONFIG: manifestPath,
    INDEXER_POLL_INTERVAL_MS: '100', BLOCK_POLL_MS: '100',
  };
  const viaProxies = { RPC_URL_999: `${a.url},${b.url}`, RPC_STALE_AFTER_MS: String(STALE_AFTER_MS), RPC_PROBE_INTERVAL_MS: '250' };
  const indexer = await startApp('indexer', env);
  const [router, , gateway] = await Promise.all([startApp('aggregator-router', { ...env, ...viaProxies }), startApp('amm-quoter', { ...env, ...viaProxies }), startApp('gateway', { ...env, ...viaProxies })]);
  const token = (s) => [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === s).address;
  const routeUrl = `${gateway.url}/v2/route?chainId=999&tokenIn=${token('USDC')}&tokenOut=${token('USDT')}&amountIn=1`;
  const quoteUrl = `${gateway.url}/core/quote?chainId=999&tokenIn=${token('WHYPE')}&tokenOut=${token('USDC')}&amountIn=1000000000000000000`;
  await until(() => fetch(routeUrl).then((r) => r.status), (s) => s === 200, 60_000, 'first route');
  await until(() => fetch(quoteUrl).then((r) => r.status), (s) => s === 200, 60_000, 'first quote');
  await until(() => streamLeader(cluster.url), (l) => typeof l === 'string', 30_000, 'stream leader');

  if (!JSON_OUT) console.log(`Faults under ${RATE} requests/s (3/4 /v2/route, 1/4 /core/quote) through the gateway; facts: chain 999's liquidity facts\n`);
  const routes = startLoad(routeUrl, Math.round(RATE * 0.75));
  const quotes = startLoad(quoteUrl, RATE - Math.round(RATE * 0.75));
  await sleep(3_000);

  /** Runs a fault, lets it last `lastsMs` under load, ends it, waits `settleMs`, and records its figures. */
  async function fault(name, target, begin, end, lastsMs, settleMs = 5_000) {
    log(`fault: ${name}`);
    const at = performance.now();
    const detail = await begin();
    await sleep(lastsMs);
    const ended = performance.now();
    await end?.(detail);
    await until(
      async () => [await fetch(routeUrl).then((r) => r.status), await fetch(quoteUrl).then((r) => r.status)],
      (s) => Array.isArray(s) && s.every((x) => x === 200),
      60_000,
      `answers after ${name}`,
    );
    const recoveredAfterEndMs = Math.round(performance.now() - ended);
    await sleep(settleMs);
    const until_ = performance.now();
    const r = faultFigures(routes.samples, at, until_);
    const q = faultFigures(quotes.samples, at, until_);
    const { value: account } = await until(() => factAccount(cluster.url, router.url, 999, LIQUIDITY_FACTS), (x) => !(x instanceof Error) && x.lost === 0 && x.duplicated === 0, 60_000, 'facts').catch(async () => ({ value: await factAccount(cluster.url, router.url, 999, LIQUIDITY_FACTS) }));
    const failures = { ...r.failures };
    for (const [k, v] of Object.entries(q.failures)) failures[k] = (failures[k] ?? 0) + v;
    const failedLatencies = [...routes.samples, ...quotes.samples].filter((s) => s.status !== 200 && s.doneAt >= at && s.sentAt < until_).map((s) => s.doneAt - s.sentAt).sort((x, y) => x - y);
    rows.push({
      fault: name,
      detail: typeof detail === 'string' ? detail : undefined,
      requests: r.requests + q.requests,
      errors: r.errors + q.errors,
      errorWindowMs: Math.round(Math.max(r.errorWindowMs, q.errorWindowMs)),
      faultMs: Math.round(ended - at),
      recoveredAfterEndMs,
      failureP99Ms: failedLatencies.length ? Math.round(failedLatencies[Math.min(failedLatencies.length - 1, Math.ceil(0.99 * failedLatencies.length) - 1)]) : 0,
      slowestFailureMs: Math.round(Math.max(r.slowestFailureMs, q.slowestFailureMs)),
      failures,
      lostFacts: account.lost,
      duplicatedFacts: account.duplicated,
      factsInStream: account.inStream,
      target,
    });
    if (!JSON_OUT) printRow(rows[rows.length - 1]);
  }

  await fault('RPC: one of two providers killed', { errors: 0 }, () => a.kill(), () => a.revive(), 5_000);
  await fault('RPC: both providers killed', { answer: '503 naming the chain', recoveredAfterEndMs: 2_000 }, async () => { await a.kill(); await b.kill(); }, async () => { await a.revive(); await b.revive(); }, 8_000);
  await fault('NATS: node of the gateway killed', { errorWindowMs: 2_000 }, async () => { const [n] = await cluster.connectedTo('gateway'); await cluster.kill(n); return n; }, (n) => cluster.start(n), 6_000);
  await fault('NATS: stream leader killed', { errorWindowMs: 2_000 }, async () => { const n = await streamLeader(cluster.url); await cluster.kill(n); return n; }, (n) => cluster.start(n), 6_000);
  await fault('Postgres: restarted (crash stop, 6 s down)', { errors: 0 }, () => pg.stop('immediate'), () => pg.start(), 6_000, 8_000);
  await fault(
    `NATS: whole cluster down ${NATS_OUTAGE_MS / 1000} s`,
    { failureP99Ms: 50, recoveredAfterEndMs: 2_000 },
    async () => { for (const n of cluster.nodes) await cluster.kill(n.name); },
    async () => { await Promise.all(cluster.nodes.map((n) => cluster.start(n.name))); },
    NATS_OUTAGE_MS,
    10_000,
  );
  await Promise.all([routes.stop(), quotes.stop()]);

  const head = await client.getBlockNumber();
  const state = await liquidityAgainstChain(router, client, chain, head, 120_000);
  const stateEqual = JSON.stringify(state.held) === JSON.stringify(state.fresh);

  if (JSON_OUT) {
    console.log(JSON.stringify({ rate: RATE, faults: rows, stateEqualsFreshRead: stateEqual, stateBlock: state.block.toString() }, null, 2));
  } else {
    console.log(`\nliquidity state at block ${state.block} equals a fresh read of the chain: ${stateEqual ? 'yes   PASS' : 'no   MISS'}`);
  }
} finally {
  for (const c of children.reverse()) c.kill('SIGTERM');
  await sleep(1_000);
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(proxies.map((p) => p.close()));
  await db?.drop().catch(() => undefined);
  await Promise.all([cluster?.dispose(), pg?.dispose()]);
  rmSync(dir, { recursive: true, force: true });
}
