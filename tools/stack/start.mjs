#!/usr/bin/env node
// Brings the whole product up on one machine with embedded defaults:
//   build -> database migrations -> devnet (two chains, contracts deployed, manifest) -> the six services.
// Prints the gateway URL and the manifest path; Ctrl-C stops every process it started.
//
// Settings (all optional): NATS_URL, DATABASE_URL, GATEWAY_PORT (3000), DEVNET_PORT_999 (8545),
// DEVNET_PORT_4663 (8546), STACK_LOGS=inherit to stream the services' JSON logs here instead of to files,
// STACK_KEEP_DB=1 to keep the database of an earlier run (by default it is recreated: the chains are new).
// The devnet's activity simulator (swaps, transfers, launchpad trades, oracle moves on both chains, so the
// stats are alive) is on; `npm start -- --no-simulate` or STACK_SIMULATE=0 turns it off, and
// DEVNET_SIMULATE_INTERVAL_MS (2000) sets its pace. `npm start -- --scale` runs the devnet's scale profile:
// 5,000 more pools (DEVNET_SCALE_POOLS) across the V2, stable, core, V3, Algebra and V4 sources and 200 tokens on
// each chain, a block every second with 25 swaps in it; the first start seeds them (about two minutes)
// and keeps the chains in .devnet/cache, later starts load them in seconds. `npm start -- --fork
// <rpc-url>[@block] --chain <chainId> [--deploy-config <file>]` runs the stack on an anvil fork of a real chain
// instead of the devnet (forkChain).
import '../runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from '../db/load-ts.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const stateDir = join(root, '.devnet');
const logDir = join(stateDir, 'logs');
const manifestPath = join(stateDir, 'manifest.json');

const env = {
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/dex',
  GATEWAY_PORT: process.env.GATEWAY_PORT ?? '3000',
  DEVNET_PORT_999: process.env.DEVNET_PORT_999 ?? '8545',
  DEVNET_PORT_4663: process.env.DEVNET_PORT_4663 ?? '8546',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'log',
};
const inheritLogs = process.env.STACK_LOGS === 'inherit';
/** Keep the database of an earlier run (its index is of chains that no longer exist, unless the RPCs are kept). */
const keepDatabase = process.env.STACK_KEEP_DB === '1';
const gatewayUrl = `http://127.0.0.1:${env.GATEWAY_PORT}`;

const USAGE = 'usage: npm start [-- --no-simulate] [--scale] | npm start -- --fork <rpc-url>[@block] --chain <chainId> [--deploy-config <file>]';
const allArgs = process.argv.slice(2);
/** Fork mode (`--fork <rpc-url>[@block] --chain <id>`): the stack on an anvil fork of a real chain (see forkChain). */
const valueOf = (flag) => {
  const at = allArgs.indexOf(flag);
  if (at < 0) return undefined;
  const value = allArgs[at + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`${flag} takes a value; ${USAGE}`);
    process.exit(2);
  }
  allArgs.splice(at, 2);
  return value;
};
const forkArg = valueOf('--fork');
const forkChainArg = valueOf('--chain');
const forkConfigArg = valueOf('--deploy-config');
if ((forkArg === undefined) !== (forkChainArg === undefined) || (forkChainArg !== undefined && !/^\d+$/.test(forkChainArg))) {
  console.error(`--fork and --chain go together, --chain a chain id; ${USAGE}`);
  process.exit(2);
}
const fork = forkArg === undefined ? undefined : { url: forkArg.replace(/@\d+$/, ''), block: /@(\d+)$/.exec(forkArg)?.[1], chainId: Number(forkChainArg), config: forkConfigArg };
if (forkConfigArg !== undefined && !fork) {
  console.error(`--deploy-config goes with --fork; ${USAGE}`);
  process.exit(2);
}
/** The devnet's scale profile (`--scale`): thousands of pools and a block a second full of swaps. */
const scale = allArgs.includes('--scale');
const args = allArgs.filter((a) => a !== '--scale');
const unknownArgs = args.filter((a) => a !== '--simulate' && a !== '--no-simulate');
if (unknownArgs.length > 0 || (fork && scale)) {
  console.error(`${unknownArgs.length ? `unknown argument ${unknownArgs.join(' ')}` : '--scale is for the devnet, not a fork'}; ${USAGE}`);
  process.exit(2);
}
/** The devnet's activity simulator: on unless `--no-simulate` or STACK_SIMULATE=0 (the last flag wins). */
const simulate = args.length > 0 ? args.at(-1) === '--simulate' : !['0', 'false', 'no', 'off'].includes((process.env.STACK_SIMULATE ?? '').toLowerCase());
const scalePools = process.env.DEVNET_SCALE_POOLS ?? '5000';
const simulateInterval = Number(process.env.DEVNET_SIMULATE_INTERVAL_MS || 2000);

/** The services after the devnet, with their health ports. */
const services = [
  { name: 'aggregator-router', port: 3011 },
  { name: 'amm-quoter', port: 3012 },
  { name: 'launchpad-service', port: 3013 },
  { name: 'indexer', port: 3014 },
  { name: 'referral-keeper', port: 3015 },
  { name: 'gateway', port: Number(env.GATEWAY_PORT) },
];
const DEVNET_HEALTH_PORT = 3016;

const children = [];
let stopping = false;
const totalSteps = 5;
const step = (n, text) => console.log(`[${n}/${totalSteps}] ${text}`);
const fail = async (message) => {
  console.error(`\n✗ ${message}`);
  await stopAll(1);
};

function hostPort(url, fallbackPort) {
  const u = new URL(url);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || fallbackPort) };
}

function reachable({ host, port }, timeoutMs = 1_500) {
  return new Promise((resolveReach) => {
    const socket = connect(port, host);
    const done = (ok) => {
      socket.destroy();
      resolveReach(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function portFree(port) {
  return reachable({ host: '127.0.0.1', port }, 500).then((open) => !open);
}

function start(name, extraEnv) {
  const entry = join(root, 'dist/apps', name, 'src/main.js');
  const out = inheritLogs ? 'inherit' : openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: root,
    env: { ...process.env, ...env, ...extraEnv },
    stdio: ['ignore', out, out],
    // Own process group: a terminal's Ctrl-C reaches only this launcher, which stops the apps in order.
    detached: true,
  });
  const entryInfo = { name, child };
  children.push(entryInfo);
  child.once('exit', (code, signal) => {
    if (stopping) return;
    void fail(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); see ${join(logDir, `${name}.log`)}:\n${tail(name)}`);
  });
  return entryInfo;
}

function tail(name, lines = 8) {
  try {
    return readFileSync(join(logDir, `${name}.log`), 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitReady(name, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      if (res.ok) return true;
      last = JSON.stringify((await res.json()).data?.checks ?? {});
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await fail(`${name} was not ready within ${timeoutMs / 1000} s (${last}); log:\n${tail(name)}`);
  return false;
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping…');
  // Services first, the chains last.
  for (const { name, child } of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const exited = new Promise((r) => child.once('exit', r));
    const timeout = new Promise((r) => setTimeout(r, 10_000, 'timeout'));
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      console.log(`  ${name} did not stop in 10 s; killing it`);
      child.kill('SIGKILL');
      await exited;
    }
    console.log(`  stopped ${name}`);
  }
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// A closed terminal (SIGHUP) stops everything too, and a terminal or pipe that is gone must not cut the stop
// sequence short: the apps run in their own process groups and would be left behind.
process.on('SIGHUP', () => void stopAll(0));
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

async function main() {
  const started = Date.now();
  if (!existsSync(join(root, 'node_modules/.bin/nx'))) {
    console.error('Dependencies are missing: run `npm ci` first.');
    process.exit(1);
  }

  step(1, 'checking NATS, Postgres and free ports');
  const nats = hostPort(env.NATS_URL.split(',')[0], 4222);
  const pg = hostPort(env.DATABASE_URL, 5432);
  if (!(await reachable(nats))) await fail(`NATS is not reachable at ${env.NATS_URL} (start nats-server with JetStream: nats-server -js)`);
  if (!(await reachable(pg))) await fail(`Postgres is not reachable at ${pg.host}:${pg.port} (set DATABASE_URL or start PostgreSQL)`);
  const ports = [
    ['DEVNET_PORT_999', Number(env.DEVNET_PORT_999)],
    ['DEVNET_PORT_4663', Number(env.DEVNET_PORT_4663)],
    ['GATEWAY_PORT', Number(env.GATEWAY_PORT)],
    ...services.filter((s) => s.name !== 'gateway').map((s) => [`${s.name} health port`, s.port]),
    ['devnet health port', DEVNET_HEALTH_PORT],
  ];
  for (const [label, port] of ports) {
    if (!(await portFree(port))) await fail(`port ${port} (${label}) is in use: is another stack running?`);
  }

  step(2, 'building apps and libs');
  // STACK_SKIP_BUILD=1: dist/ is built already (the end-to-end tests, whose other suites run from it).
  if (process.env.STACK_SKIP_BUILD !== '1') execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });

  // The devnet's chains are new on every start, so what was indexed from the previous ones must go too.
  step(3, `${keepDatabase ? '' : 'recreating the database and '}applying migrations to ${env.DATABASE_URL}`);
  if (!keepDatabase) {
    const { dropDatabase } = loadTs(join(root, 'libs/db/src/index-migrate.ts'));
    await dropDatabase(env.DATABASE_URL);
  }
  execFileSync(process.execPath, [join(root, 'tools/db/migrate.mjs')], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

  mkdirSync(logDir, { recursive: true });
  if (fork) return forkChain(started);
  step(
    4,
    `starting the devnet: chains 999 (port ${env.DEVNET_PORT_999}) and 4663 (port ${env.DEVNET_PORT_4663}), deploying contracts${simulate ? ', activity simulator on' : ''}${scale ? `, scale profile (${scalePools} pools a chain; seeded once, then loaded from .devnet/cache)` : ''}`,
  );
  rmSync(manifestPath, { force: true });
  start('devnet', {
    HTTP_PORT: String(DEVNET_HEALTH_PORT),
    HTTP_HOST: '127.0.0.1',
    MANIFEST_PATH: manifestPath,
    DEVNET_LOG_DIR: logDir,
    GATEWAY_URL: gatewayUrl,
    DEVNET_SIMULATE: String(simulate),
    ...(scale ? { DEVNET_SCALE_POOLS: scalePools, DEVNET_SCALE_CACHE_DIR: join(stateDir, 'cache') } : {}),
  });
  if (!(await waitReady('devnet', `http://127.0.0.1:${DEVNET_HEALTH_PORT}/health/ready`, scale ? 900_000 : 120_000))) return;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const keeper = manifest.accounts.find((a) => a.role === 'keeper');
  const chainEnv = { CHAIN_IDS: Object.keys(manifest.chains).join(',') };
  for (const chain of Object.values(manifest.chains)) chainEnv[`RPC_URL_${chain.chainId}`] = chain.rpcUrl;

  if (!(await startServices(chainEnv, manifestPath, keeper.privateKey))) return;

  console.log(`
The stack is up (${((Date.now() - started) / 1000).toFixed(1)} s).
  Gateway:   ${gatewayUrl}        try: curl '${gatewayUrl}/dexes?chainId=999'
  Docs:      ${gatewayUrl}/docs         (OpenAPI: ${gatewayUrl}/openapi.json)
  Health:    ${gatewayUrl}/health
  Manifest:  ${manifestPath}
  Chains:    ${Object.values(manifest.chains).map((c) => `${c.chainId} ${c.rpcUrl}`).join(', ')}
  Logs:      ${inheritLogs ? 'this terminal' : logDir}
  Activity:  ${
    simulate
      ? `simulator on: a swap, transfer, launchpad trade or oracle move on each chain every ${simulateInterval / 1000} s
             (turn it off with \`npm start -- --no-simulate\` or STACK_SIMULATE=0)`
      : 'simulator off (on by default; drop --no-simulate / STACK_SIMULATE=0)'
  }${
    scale
      ? `
  Scale:     ${Object.values(manifest.chains)
          .map((c) => `chain ${c.chainId}: ${c.scale.pools['uniswap-v2']} V2, ${c.scale.pools.stable} stable, ${c.scale.pools.core} core, ${c.scale.pools['uniswap-v3'] ?? 0} V3, ${c.scale.pools.algebra ?? 0} Algebra, ${c.scale.pools['uniswap-v4'] ?? 0} V4, ${(c.scale.pools['curve-stableswap-ng'] ?? 0) + (c.scale.pools['curve-twocrypto-ng'] ?? 0)} Curve NG pools, ${c.scale.tokens.length} tokens`)
          .join('; ')}
             a block every second with 25 swaps (DEVNET_SCALE_SWAPS_PER_BLOCK)`
      : ''
  }
Press Ctrl-C to stop everything.`);
}

/** Step 5: the six services on the chains of `chainEnv`, reading `sourcesPath`; false when one was not ready. */
async function startServices(chainEnv, sourcesPath, keeperKey) {
  step(5, `starting ${services.map((s) => s.name).join(', ')}`);
  for (const s of services) {
    start(s.name, {
      ...chainEnv,
      HTTP_PORT: String(s.port),
      HTTP_HOST: s.name === 'gateway' ? '0.0.0.0' : '127.0.0.1',
      SOURCES_CONFIG: sourcesPath,
      KEEPER_PRIVATE_KEY: keeperKey,
    });
  }
  const readiness = await Promise.all(
    services.map(async (s) => {
      const ok = await waitReady(s.name, `http://127.0.0.1:${s.port}${s.name === 'gateway' ? '/health' : '/health/ready'}`, 120_000);
      if (ok) console.log(`  ✓ ${s.name} ready`);
      return ok;
    }),
  );
  return readiness.every(Boolean);
}

/**
 * Fork mode, a release rehearsed against a real chain's state: an anvil fork of `--fork` (at `@block`, else its
 * newest block) on the chain's devnet port, our contracts deployed onto it by the deploy tool from `--deploy-config`
 * (default config/deploy/<chainId>.example.json; anvil's dev account #0 deploys; the fork's gas limit holds our
 * larger contracts), the config's catalogue as it is, the services started from {catalogue, deployment} with the
 * indexer at the head. Nothing is sent to the real chain.
 */
async function forkChain(started) {
  const { chainId } = fork;
  const port = Number(env[`DEVNET_PORT_${chainId}`] ?? 8545);
  const forkDir = join(stateDir, 'fork');
  mkdirSync(forkDir, { recursive: true });
  const config = resolve(fork.config ?? join(root, 'config', 'deploy', `${chainId}.example.json`));
  if (!existsSync(config)) return fail(`no deploy config for chain ${chainId}: ${config}`);
  const catalogueOf = JSON.parse(readFileSync(config, 'utf8')).catalogue;
  if (typeof catalogueOf !== 'string') return fail(`${config} names no catalogue`);
  const catalogue = resolve(dirname(config), catalogueOf);
  step(4, `forking chain ${chainId} from ${fork.url}${fork.block ? ` at block ${fork.block}` : ''} on port ${port}, deploying our contracts with the deploy tool`);
  const { anvilBinary } = require(join(root, 'dist/libs/devnet-kit/src'));
  const anvil = spawn(anvilBinary(), ['--fork-url', fork.url, ...(fork.block ? ['--fork-block-number', fork.block] : []), '--chain-id', String(chainId), '--port', String(port), '--host', '127.0.0.1', '--gas-limit', '100000000'], {
    stdio: ['ignore', openSync(join(logDir, 'anvil-fork.log'), 'a'), openSync(join(logDir, 'anvil-fork.log'), 'a')],
    detached: true,
  });
  children.push({ name: 'anvil fork', child: anvil });
  anvil.once('exit', (code) => !stopping && void fail(`the anvil fork stopped (exit code ${code}); see ${join(logDir, 'anvil-fork.log')}`));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })
      .then((r) => r.json())
      .catch(() => undefined);
    if (answer?.result !== undefined) {
      if (Number(answer.result) !== chainId) return fail(`${fork.url} is chain ${Number(answer.result)}, not ${chainId}`);
      break;
    }
    if (Date.now() > deadline) return fail(`the anvil fork did not answer within 60 s; see ${join(logDir, 'anvil-fork.log')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const deployment = join(forkDir, `deployments-${chainId}.json`);
  rmSync(deployment, { force: true });
  const { runDeployCli } = require(join(root, 'dist/libs/deploy/src'));
  const deployLog = [];
  const code = await runDeployCli(['--config', config, '--rpc-url', rpcUrl, '--out', deployment, '--big-blocks'], { DEPLOYER_PRIVATE_KEY: ANVIL_KEYS[0] }, { out: (l) => deployLog.push(l), err: (l) => deployLog.push(l) });
  writeFileSync(join(logDir, 'deploy.log'), `${deployLog.join('\n')}\n`);
  if (code !== 0) return fail(`the deploy tool failed on the fork:\n${deployLog.slice(-8).join('\n')}`);
  const sourcesPath = join(forkDir, 'sources.json');
  writeFileSync(sourcesPath, JSON.stringify({ chains: { [chainId]: { catalogue, deployment, nativeSymbol: chainId === 999 ? 'HYPE' : 'ETH' } } }, null, 2));
  const chainEnv = { CHAIN_IDS: String(chainId), [`RPC_URL_${chainId}`]: rpcUrl, [`INDEXER_START_BLOCK_${chainId}`]: 'head' };
  if (!(await startServices(chainEnv, sourcesPath, ANVIL_KEYS[1]))) return;
  console.log(`
The stack is up on a fork of chain ${chainId} (${((Date.now() - started) / 1000).toFixed(1)} s).
  Gateway:   ${gatewayUrl}        try: curl '${gatewayUrl}/dexes?chainId=${chainId}'
  Fork:      ${rpcUrl} (of ${fork.url}${fork.block ? `@${fork.block}` : ''})
  Contracts: ${deployment} (deploy log: ${join(logDir, 'deploy.log')})
  Sources:   ${sourcesPath}
  Logs:      ${inheritLogs ? 'this terminal' : logDir}
Press Ctrl-C to stop everything.`);
}

/** anvil's well-known dev keys #0 (deploys on a fork) and #1 (the keeper), funded on every anvil chain and fork. */
const ANVIL_KEYS = ['0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'];

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
