#!/usr/bin/env node
// /core/quote latency for a 100-amount batch through the real stack: fresh devnet chain 999, amm-quoter and
// gateway as processes on the local NATS. Prints p50/p90/p99 beside the target (p50 <= 10 ms).
//   node bench/core-quote/run.mjs [--requests 300]
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const REQUESTS = arg('--requests', 300);
const TARGET_P50_MS = 10;

execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { stdio: 'inherit' });
const { startDevnet, writeManifest, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));

const children = [];
async function startApp(name, env) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/apps', name, 'src/main.js')], {
    env: { PATH: process.env.PATH, ...env, HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  children.push(child);
  return `http://127.0.0.1:${port}`;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const dir = mkdtempSync(join(tmpdir(), 'core-quote-bench-'));
const devnet = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
try {
  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);
  const chain = devnet.manifest.chains['999'];
  const env = {
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/dex',
    CHAIN_IDS: '999',
    RPC_URL_999: chain.rpcUrl,
    SOURCES_CONFIG: manifestPath,
  };
  await startApp('amm-quoter', env);
  const gateway = await startApp('gateway', env);
  const usdc = chain.tokens.find((t) => t.symbol === 'USDC').address;
  const amounts = Array.from({ length: 100 }, (_, i) => String(BigInt(i + 1) * 10n ** 18n)).join(',');
  const url = `${gateway}/core/quote?chainId=999&tokenIn=${chain.wrappedNative.address}&tokenOut=${usdc}&amountIn=${amounts}`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the stack did not answer /core/quote within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  for (let i = 0; i < 30; i++) await (await fetch(url)).json(); // warm up

  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(url);
    const body = await res.json();
    times.push(performance.now() - started);
    if (!body.success || body.data.quotes.length !== 100) throw new Error(`bad response: ${JSON.stringify(body).slice(0, 200)}`);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  console.log(`/core/quote, 100-amount batch, ${REQUESTS} sequential requests through gateway -> NATS -> amm-quoter -> anvil\n`);
  console.log(`  p50   ${p50.toFixed(2).padStart(8)} ms   target <= ${TARGET_P50_MS} ms   ${p50 <= TARGET_P50_MS ? 'PASS' : 'MISS'}`);
  console.log(`  p90   ${percentile(times, 90).toFixed(2).padStart(8)} ms`);
  console.log(`  p99   ${percentile(times, 99).toFixed(2).padStart(8)} ms`);
  console.log(`  max   ${times[times.length - 1].toFixed(2).padStart(8)} ms`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await devnet.stop();
  rmSync(dir, { recursive: true, force: true });
}
