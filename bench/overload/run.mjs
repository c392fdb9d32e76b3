#!/usr/bin/env node
// The stack past its capacity, on a machine with other work running: a fresh devnet chain 999, a private NATS and
// Postgres, the services behind the REST API as processes, and (unless --quiet-machine) --hogs processes (default 1)
// that each keep a core busy the whole time. Two loads, as users bring them:
//   1. a burst: BURST concurrent /core/quote requests of 100 amounts each;
//   2. an open loop at RATE requests a second for SECONDS, spread over every endpoint the gateway serves;
//   3. for /v2/route and the /core/quote batch apart: the rate the stack answers them at (8 clients back to back),
//      then an open loop at half and at twice that rate.
// Figures beside their targets: no answer is a 500, none comes after the bus timeout (a 504 or later), every 503
// carries Retry-After, a 503 refused at admission comes within 50 ms; and the latency of the answers that are 200 (at
// twice the capacity, p99 within twice its value at half of it).
//
//   node bench/overload/run.mjs [--burst 1000] [--rate 200] [--seconds 60] [--hogs 1 | --quiet-machine] [--json]
//
// It exits 0 whether the targets are met or missed; non-zero only when the measurement itself fails.
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanupSteps, startBuiltApp, stopAppsOnCleanup, summary, wholeNumberOption } from '../shared/stack.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => wholeNumberOption(args, name, fallback);
const BURST = option('--burst', 1_000);
const RATE = option('--rate', 200);
const SECONDS = option('--seconds', 60);
const HOGS = args.includes('--quiet-machine') ? 0 : option('--hogs', 1);
const BUSY = HOGS > 0;
const asJson = args.includes('--json');
const BUS_TIMEOUT_MS = 5_000;
const TARGET_REFUSAL_MS = 50;
const CAPACITY_CLIENTS = 8;
const log = (...line) => !asJson && console.log(...line);
const progress = (line) => process.stderr.write(`${line}\n`);
const cleanups = cleanupSteps('overload bench');

// Many sockets at once (the burst), each request's own time to its answer; a 60 s limit so a hung answer counts.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
function get(url) {
  const started = performance.now();
  return new Promise((done) => {
    const req = http.get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let error;
        try {
          error = JSON.parse(Buffer.concat(chunks).toString()).error;
        } catch {
          error = undefined;
        }
        done({ status: res.statusCode, retryAfter: res.headers['retry-after'], error, ms: performance.now() - started });
      });
    });
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', (e) => done({ status: 0, error: e.message, ms: performance.now() - started }));
  });
}

/** `rate` requests a second for `seconds` over `mix` ([name, path(i)] in turn), on schedule whatever the answers. */
async function openLoop(base, mix, rate, seconds) {
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const pending = [];
  const t0 = performance.now() + 20;
  for (let i = 0; i < total; i++) {
    const wait = t0 + i * interval - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const [name, path] = mix[i % mix.length];
    pending.push(get(base + path(i)).then((a) => ({ ...a, endpoint: name })));
  }
  return Promise.all(pending);
}

/** Per status, how many and how fast; the 503s with Retry-After; the answers after the bus timeout. */
function tally(answers) {
  const byStatus = {};
  for (const a of answers) (byStatus[a.status] ??= []).push(a.ms);
  const unavailable = answers.filter((a) => a.status === 503);
  const refusedAtOnce = unavailable.filter((a) => a.error === 'Service overloaded');
  return {
    count: answers.length,
    statuses: Object.fromEntries(Object.entries(byStatus).map(([s, ms]) => [s, { count: ms.length, ...summary(ms) }])),
    errors500: answers.filter((a) => a.status === 500).length,
    afterBusTimeout: answers.filter((a) => a.ms >= BUS_TIMEOUT_MS).length,
    without503RetryAfter: unavailable.filter((a) => !/^[1-9]\d*$/.test(String(a.retryAfter ?? ''))).length,
    overloadedWithin50ms: refusedAtOnce.length ? refusedAtOnce.filter((a) => a.ms <= TARGET_REFUSAL_MS).length / refusedAtOnce.length : undefined,
    messages: Object.entries(
      answers
        .filter((a) => a.status !== 200)
        .reduce((m, a) => {
          const key = `${a.status} ${a.error ?? ''}`;
          m[key] = (m[key] ?? 0) + 1;
          return m;
        }, {}),
    ).sort((x, y) => y[1] - x[1]),
  };
}

async function main() {
  progress('building the apps (tools/build/build.mjs --quiet) ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const { startDevnet, writeManifest, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));
  const { createTestDatabase, startPrivateNatsServer } = require(join(root, 'dist/libs/testing/src'));
  const dir = mkdtempSync(join(tmpdir(), 'overload-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  progress('starting a devnet chain 999, NATS, Postgres and the services ...');
  const devnet = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  cleanups.push(() => devnet.stop());
  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);
  const chain = devnet.manifest.chains['999'];
  const nats = await startPrivateNatsServer();
  cleanups.push(() => nats.dispose());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const env = {
    PATH: process.env.PATH ?? '',
    CHAIN_IDS: '999',
    RPC_URL_999: chain.rpcUrl,
    NATS_URL: nats.url,
    DATABASE_URL: database.url,
    SOURCES_CONFIG: manifestPath,
    BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS),
    HTTP_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const apps = [];
  stopAppsOnCleanup(apps, cleanups);
  const startApp = (name) => startBuiltApp({ root, dir, apps, freePort, name, env });
  await startApp('indexer');
  for (const name of ['aggregator-router', 'amm-quoter', 'launchpad-service']) await startApp(name);
  const gateway = await startApp('gateway');

  const token = (symbol) => [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol).address;
  const [whype, usdc, usdt] = [token('WHYPE'), token('USDC'), token('USDT')];
  const corePool = chain.pools.find((p) => p.kind === 'core').address;
  const launched = chain.launchpad?.tokens?.find((t) => t.stage !== 'graduated')?.address;
  const batch = Array.from({ length: 100 }, (_, i) => String(BigInt(i + 1) * 10n ** 16n)).join(',');
  const quotePath = `/core/quote?chainId=999&tokenIn=${whype}&tokenOut=${usdc}&amountIn=${batch}`;
  let routeSeq = 0;
  const mix = [
    // Every route request its own amount: identical requests at the same block are answered once (the view's memo),
    // and a load of them would measure the gateway rather than the route search.
    ['/v2/route', (i) => `/v2/route?chainId=999&tokenIn=${i % 2 ? usdc : whype}&tokenOut=${i % 2 ? whype : usdt}&amountIn=${1 + (i % 97)}.${String(routeSeq++ % 1_000_000).padStart(6, '0')}`],
    ['/core/quote', () => quotePath],
    ['/core/pools', () => '/core/pools?chainId=999'],
    ['/core/pool', () => `/core/pool/${corePool}?chainId=999`],
    ['/tokens', () => '/tokens?chainId=999'],
    ['/pools', () => `/pools?chainId=999&tokenA=${usdc}&tokenB=${whype}`],
    ['/dexes', () => '/dexes?chainId=999'],
    ['/launchpad/tokens', () => '/launchpad/tokens?chainId=999'],
    ...(launched ? [['/launchpad/estimate', () => `/launchpad/estimate?chainId=999&token=${launched}&side=buy&amount=1000000000000000`]] : []),
  ];
  const ready = performance.now();
  for (const [name, path] of mix) {
    for (;;) {
      const r = await get(gateway.url + path(0));
      if (r.status === 200) break;
      for (const app of apps) if (app.child.exitCode !== null) throw new Error(`${app.name} exited:\n${readFileSync(app.logFile, 'utf8').slice(-2_000)}`);
      if (performance.now() - ready > 120_000) throw new Error(`${name} did not answer 200 within 120 s (last ${r.status} ${r.error})`);
      await new Promise((r2) => setTimeout(r2, 200));
    }
  }

  for (let i = 0; i < HOGS; i++) {
    const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    cleanups.push(() => hog.kill('SIGKILL'));
  }

  progress(`burst: ${BURST} concurrent /core/quote of 100 amounts ...`);
  const burst = tally(await Promise.all(Array.from({ length: BURST }, () => get(gateway.url + quotePath))));

  progress(`open loop: ${RATE} requests a second for ${SECONDS} s over ${mix.length} endpoints ...`);
  const answers = await openLoop(gateway.url, mix, RATE, SECONDS);
  const loop = tally(answers);
  const perEndpoint = Object.fromEntries(mix.map(([name]) => [name, tally(answers.filter((a) => a.endpoint === name))]));
  // At twice what one endpoint's service answers a second: the answers that are 200 keep the latency they have
  // at half of it, the rest are 503s at once.
  const capacity = {};
  for (const [name, path] of [mix[0], mix[1]]) {
    progress(`${name}: its capacity (${CAPACITY_CLIENTS} clients back to back for 5 s), then half and twice that rate ...`);
    let done = 0;
    const until = performance.now() + 5_000;
    await Promise.all(
      Array.from({ length: CAPACITY_CLIENTS }, async (_, c) => {
        for (let i = c; performance.now() < until; i += CAPACITY_CLIENTS) if ((await get(gateway.url + path(i))).status === 200) done++;
      }),
    );
    const perSecond = done / 5;
    const half = tally(await openLoop(gateway.url, [[name, path]], Math.max(1, Math.round(perSecond / 2)), 10));
    const twice = tally(await openLoop(gateway.url, [[name, path]], Math.max(2, Math.round(perSecond * 2)), 20));
    capacity[name] = { perSecond, half, twice };
  }
  const refused = {};
  for (const app of apps) {
    const text = await fetch(`${app.url}/metrics`).then((r) => r.text(), () => '');
    for (const m of text.matchAll(/^nats_handler_refused_total\{reason="([a-z_]+)",subject="([^"]+)"\} (\d+)/gm)) refused[`${app.name} ${m[2]} ${m[1]}`] = Number(m[3]);
  }
  const report = { busyCores: HOGS, busTimeoutMs: BUS_TIMEOUT_MS, burst, openLoop: { rate: RATE, seconds: SECONDS, ...loop, perEndpoint }, capacity, refused };

  const pct = (x) => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
  const row = (label, value, target, pass) => log(`  ${label.padEnd(44)}${String(value).padEnd(14)}target ${target.padEnd(10)}${pass ? 'PASS' : 'MISS'}`);
  const section = (title, t) => {
    log(title);
    row('answers 500', t.errors500, '0', t.errors500 === 0);
    row('answers at or after the bus timeout (5 s)', t.afterBusTimeout, '0', t.afterBusTimeout === 0);
    row('503 without Retry-After', t.without503RetryAfter, '0', t.without503RetryAfter === 0);
    row('"Service overloaded" 503s within 50 ms', pct(t.overloadedWithin50ms), '100%', t.overloadedWithin50ms === undefined || t.overloadedWithin50ms === 1);
    for (const [status, s] of Object.entries(t.statuses)) log(`    ${status}: ${s.count} answers, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
    for (const [message, n] of t.messages.slice(0, 8)) log(`    ${n} x ${message}`);
  };
  log(`the stack past its capacity${BUSY ? `, ${HOGS} of the machine's cores kept busy by other processes` : ''} (bus timeout ${BUS_TIMEOUT_MS} ms)`);
  log('');
  section(`burst: ${BURST} concurrent 100-amount /core/quote`, burst);
  log('');
  section(`open loop: ${RATE} req/s for ${SECONDS} s over ${mix.length} endpoints (${loop.count} requests)`, loop);
  log('');
  log('  per endpoint (200 p50 / p99, other answers)');
  for (const [name, t] of Object.entries(perEndpoint)) {
    const ok = t.statuses['200'];
    const others = Object.entries(t.statuses).filter(([s]) => s !== '200').map(([s, v]) => `${v.count} x ${s}`).join(', ');
    log(`    ${name.padEnd(22)}${ok ? `${ok.p50.toFixed(1)} / ${ok.p99.toFixed(1)} ms (${ok.count})` : 'none 200'}${others ? `; ${others}` : ''}`);
  }
  for (const [name, c] of Object.entries(capacity)) {
    const normal = c.half.statuses['200'];
    const loaded = c.twice.statuses['200'];
    const refusals = c.twice.statuses['503'];
    log('');
    log(`${name} at twice its capacity (${c.perSecond.toFixed(0)} answers a second with ${CAPACITY_CLIENTS} clients back to back)`);
    log(`    at half of it (${Math.round(c.perSecond / 2)}/s): 200 p50 ${normal?.p50.toFixed(1) ?? '-'} ms, p99 ${normal?.p99.toFixed(1) ?? '-'} ms`);
    log(`    at twice it (${Math.round(c.perSecond * 2)}/s): ${loaded?.count ?? 0} x 200, ${refusals?.count ?? 0} x 503, ${c.twice.errors500} x 500`);
    row('  200 p99 at twice / at half', loaded && normal ? `${(loaded.p99 / normal.p99).toFixed(2)}x` : '-', '<= 2x', !!loaded && !!normal && loaded.p99 <= 2 * normal.p99);
    row('  503 p99', refusals ? `${refusals.p99.toFixed(1)} ms` : '-', `<= ${TARGET_REFUSAL_MS} ms`, !refusals || refusals.p99 <= TARGET_REFUSAL_MS);
    row('  answers 500 or after the bus timeout', c.twice.errors500 + c.twice.afterBusTimeout, '0', c.twice.errors500 + c.twice.afterBusTimeout === 0);
  }
  if (Object.keys(refused).length) {
    log('');
    log('  refused by the services (nats_handler_refused_total)');
    for (const [key, n] of Object.entries(refused)) log(`    ${key}: ${n}`);
  }
  if (asJson) console.log(JSON.stringify(report, null, 2));
}

try {
  await main();
} catch (error) {
  process.stderr.write(`overload bench failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  agent.destroy();
  await cleanups.run();
}
