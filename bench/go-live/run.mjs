#!/usr/bin/env node
// Going live on a chain with history, at full size: a chain built here by accounts of its own, sharing nothing with
// the devnet's seeding (a bare anvil; WETH, Multicall3, real @uniswap/v2-core, @uniswap/v3-core and Algebra Integral
// factories, the V3 and Algebra position managers from their periphery packages; HISTORY blocks of history after the
// factories; 200 tokens; POOLS pools created in batches, a tenth of them V3 and a tenth Algebra with full-range
// positions minted through the position managers), reached through an RPC that limits eth_getLogs as public
// providers do (a block range a request, 25 requests a second; see EMULATED_HISTORY for the range). Then, as an operator goes live: the deploy tool
// deploys our contracts, a catalogue names the chain's V2 factory with its deployment block, and the indexer (started
// at the head), aggregator-router and gateway start from {catalogue, deployment}. Figures beside their targets:
//   - start-up: from the services' start until a route through a pool of each kind (V2, V3, Algebra) is answered at the
//     head (or later): target <= 60 s;
//   - RPC calls the services made through the provider until then, and how many it refused (range, rate);
//   - memory (VmRSS) of the indexer and aggregator-router at that point.
//
//   node bench/go-live/run.mjs [--pools 2000] [--history 10000] [--json]
//
// It exits 0 whether the target is met or missed; non-zero only when the measurement itself fails. Every process,
// the database and the temporary files are removed at the end, on failure and on Ctrl-C.
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanupSteps, closeAgent, get, rssMb, startBuiltApp, stopAppsOnCleanup, wholeNumberOption } from '../shared/stack.mjs';

const TARGET_START_S = 60;
const CHAIN = 4663;
const TOKENS = 200;
const LOG_REQUESTS_PER_SECOND = 25;
/**
 * anvil mines an empty block in 9-17 ms here (10,000 blocks: 91 s, the next 10,000: 170 s), so a 100,000-block
 * history would take over half an hour to build. The chain gets HISTORY blocks (default 10,000) and the provider
 * allows 2,000 * HISTORY / 100,000 blocks a getLogs request: the indexer makes as many requests over the history as
 * it would over 100,000 blocks at a 2,000-block limit.
 */
const EMULATED_HISTORY = 100_000;
const EMULATED_LOG_RANGE = 2_000;
// anvil's dev keys: #0 deploys our contracts, #5 builds the chain.
const DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const BUILDER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => wholeNumberOption(args, name, fallback);
const POOLS = option('--pools', 2_000);
const HISTORY = option('--history', 10_000);
const LOG_RANGE_LIMIT = Math.max(1, Math.round((EMULATED_LOG_RANGE * HISTORY) / EMULATED_HISTORY));
const asJson = args.includes('--json');
const log = (...line) => !asJson && console.log(...line);
const progress = (line) => process.stderr.write(`${line}\n`);
const cleanups = cleanupSteps('go-live bench');


async function main() {
  progress('building the apps (tools/build/build.mjs --quiet) ...');
  execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const viem = require('viem');
  const { privateKeyToAccount } = require('viem/accounts');
  const abis = require(join(root, 'dist/libs/abis/src'));
  const { CANONICAL_MULTICALL3, createChainClient, createChainWalletClient } = require(join(root, 'dist/libs/chain/src'));
  const { startAnvil, freePort } = require(join(root, 'dist/libs/devnet-kit/src'));
  const { runDeployCli } = require(join(root, 'dist/libs/deploy/src'));
  const { createTestDatabase, startPrivateNatsServer, startRpcProxy } = require(join(root, 'dist/libs/testing/src'));

  const dir = mkdtempSync(join(tmpdir(), 'go-live-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  // ---------------------------------------------------------------- the chain, as its builder made it
  progress(`building a chain: ${TOKENS} tokens, ${POOLS} pools (V2, V3, Algebra) over ${HISTORY.toLocaleString('en-US')} blocks ...`);
  const built = performance.now();
  const node = await startAnvil({ chainId: CHAIN, maxPersistedStates: 64 });
  cleanups.push(() => node.stop());
  const client = createChainClient({ chainId: CHAIN, rpcUrl: node.rpcUrl, pollingIntervalMs: 50, multicallBatching: false, timeoutMs: 120_000 });
  const builder = createChainWalletClient({ chainId: CHAIN, rpcUrl: node.rpcUrl, account: privateKeyToAccount(BUILDER_KEY), pollingIntervalMs: 50, timeoutMs: 120_000 });
  const rpc = (method, params = []) => client.request({ method, params });
  const deployed = async (abi, bytecode, ctorArgs) => viem.getAddress((await client.waitForTransactionReceipt({ hash: await builder.deployContract({ abi, bytecode, args: ctorArgs }) })).contractAddress);
  const multicall = await deployed([], abis.multicall3Bytecode, []);
  await rpc('anvil_setCode', [CANONICAL_MULTICALL3, await client.getCode({ address: multicall })]);
  const weth = await deployed(abis.wrappedNativeAbi, abis.wrappedNativeBytecode, ['Wrapped Ether', 'WETH']);
  const factory = await deployed(abis.uniswapV2CoreFactoryAbi, abis.uniswapV2CoreFactoryBytecode, [builder.account.address]);
  const v3Factory = await deployed(abis.uniswapV3FactoryAbi, abis.uniswapV3FactoryBytecode, []);
  const v3Manager = await deployed(abis.uniswapV3PositionManagerAbi, abis.uniswapV3PositionManagerBytecode, [v3Factory, weth, viem.zeroAddress]);
  // The Algebra factory and its pool deployer each take the other's address.
  const poolDeployer = viem.getContractAddress({ from: builder.account.address, nonce: BigInt((await client.getTransactionCount({ address: builder.account.address })) + 1) });
  const algebraFactory = await deployed(abis.algebraFactoryAbi, abis.algebraFactoryBytecode, [poolDeployer]);
  if ((await deployed(abis.algebraPoolDeployerAbi, abis.algebraPoolDeployerBytecode, [algebraFactory])) !== poolDeployer) throw new Error('Algebra pool deployer misplaced');
  const algebraManager = await deployed(abis.algebraPositionManagerAbi, abis.algebraPositionManagerBytecode, [algebraFactory, weth, viem.zeroAddress, poolDeployer]);
  const factoryBlock = Number(await client.getBlockNumber());
  // Transactions sent back to back with their nonces, mined by hand until the pool is empty.
  await rpc('evm_setAutomine', [false]);
  let nonce = await client.getTransactionCount({ address: builder.account.address });
  const mineAll = async () => {
    for (;;) {
      await rpc('evm_mine');
      if (Number(BigInt((await rpc('txpool_status')).pending)) === 0) return;
    }
  };
  const burst = async (calls, gas) => {
    const hashes = [];
    for (const call of calls) hashes.push(await builder.writeContract({ ...call, gas, nonce: nonce++ }));
    await mineAll();
    return hashes;
  };
  const deploys = [];
  for (let i = 0; i < TOKENS; i++) deploys.push(await builder.deployContract({ abi: abis.testERC20Abi, bytecode: abis.testERC20Bytecode, args: [`Token ${i}`, `T${i}`, 18], nonce: nonce++, gas: 3_000_000n }));
  await mineAll();
  const tokens = [];
  for (const hash of deploys) tokens.push(viem.getAddress((await client.getTransactionReceipt({ hash })).contractAddress));
  // WETH against every token first, then token pairs, every one of the TOKENS * (TOKENS - 1) / 2 visited once in a
  // fixed scattered order (a stride prime to their count).
  const combos = [];
  for (let x = 0; x < TOKENS; x++) for (let y = x + 1; y < TOKENS; y++) combos.push([tokens[x], tokens[y]]);
  if (POOLS > TOKENS + combos.length) throw new Error(`--pools at most ${TOKENS + combos.length} with ${TOKENS} tokens`);
  const wanted = tokens.slice(0, Math.min(TOKENS, POOLS)).map((t) => [weth, t]);
  for (let j = 0; wanted.length < POOLS; j = (j + 7_919) % combos.length) wanted.push(combos[j]);
  // A tenth of the pools V3 and a tenth Algebra (token pairs, taken from the end of the list), the rest V2.
  const concentrated = Math.floor(POOLS / 10);
  const algebraPairs = wanted.splice(wanted.length - concentrated, concentrated);
  const v3Pairs = wanted.splice(wanted.length - concentrated, concentrated);
  await burst([{ address: weth, abi: abis.wrappedNativeAbi, functionName: 'deposit', value: viem.parseUnits('100000', 18) }], 100_000n);
  // The history, mined while the chain's state is small (anvil's blocks get slower as it grows), a thousand blocks a
  // request: the factory's logs are read over all of it whatever block the pools were made at.
  for (let mined = 0; mined < HISTORY; mined += 1_000) {
    await rpc('anvil_mine', [viem.toHex(Math.min(1_000, HISTORY - mined)), viem.toHex(1)]);
    progress(`  ${Math.min(mined + 1_000, HISTORY).toLocaleString('en-US')} of ${HISTORY.toLocaleString('en-US')} blocks of history`);
  }
  const chunks = 4;
  const per = Math.ceil(wanted.length / chunks);
  for (let c = 0; c < chunks; c++) {
    await rpc('anvil_mine', [viem.toHex(10), viem.toHex(1)]);
    const slice = wanted.slice(c * per, (c + 1) * per);
    await burst(slice.map(([a, b]) => ({ address: factory, abi: abis.uniswapV2CoreFactoryAbi, functionName: 'createPair', args: [a, b] })), 3_000_000n);
    const addresses = await Promise.all(slice.map(([a, b]) => client.readContract({ address: factory, abi: abis.uniswapV2CoreFactoryAbi, functionName: 'getPair', args: [a, b] })));
    const seed = [];
    slice.forEach(([a, b], i) => {
      for (const t of [a, b]) {
        if (t === weth) seed.push({ address: weth, abi: viem.erc20Abi, functionName: 'transfer', args: [addresses[i], viem.parseUnits('20', 18)] });
        else seed.push({ address: t, abi: abis.testERC20Abi, functionName: 'mint', args: [addresses[i], viem.parseUnits('50000', 18)] });
      }
    });
    await burst(seed, 120_000n);
    await burst(addresses.map((pair) => ({ address: pair, abi: abis.uniswapV2CorePairAbi, functionName: 'mint', args: [builder.account.address] })), 300_000n);
    progress(`  ${Math.min((c + 1) * per, wanted.length)} of ${wanted.length} V2 pairs, block ${await client.getBlockNumber()}`);
  }
  // The concentrated pools, through their position managers: created at a price of 1, a full-range position each.
  await burst(tokens.map((t) => ({ address: t, abi: abis.testERC20Abi, functionName: 'mint', args: [builder.account.address, viem.parseUnits('10000000', 18)] })), 120_000n);
  await burst([v3Manager, algebraManager].flatMap((spender) => tokens.map((t) => ({ address: t, abi: viem.erc20Abi, functionName: 'approve', args: [spender, viem.maxUint256] }))), 100_000n);
  const ordered = (pairs) => pairs.map(([a, b]) => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]));
  const v3Ordered = ordered(v3Pairs);
  const algebraOrdered = ordered(algebraPairs);
  const ONE = 2n ** 96n;
  const position = { tickLower: -887_220, tickUpper: 887_220, amount0Desired: viem.parseUnits('10000', 18), amount1Desired: viem.parseUnits('10000', 18), amount0Min: 0n, amount1Min: 0n, recipient: builder.account.address, deadline: 2n ** 40n };
  await burst(v3Ordered.map(([t0, t1]) => ({ address: v3Manager, abi: abis.uniswapV3PositionManagerAbi, functionName: 'createAndInitializePoolIfNecessary', args: [t0, t1, 3000, ONE] })), 6_000_000n);
  await burst(v3Ordered.map(([t0, t1]) => ({ address: v3Manager, abi: abis.uniswapV3PositionManagerAbi, functionName: 'mint', args: [{ token0: t0, token1: t1, fee: 3000, ...position }] })), 1_000_000n);
  progress(`  ${v3Ordered.length} V3 pools, block ${await client.getBlockNumber()}`);
  await burst(algebraOrdered.map(([t0, t1]) => ({ address: algebraManager, abi: abis.algebraPositionManagerAbi, functionName: 'createAndInitializePoolIfNecessary', args: [t0, t1, viem.zeroAddress, ONE, '0x'] })), 8_000_000n);
  await burst(algebraOrdered.map(([t0, t1]) => ({ address: algebraManager, abi: abis.algebraPositionManagerAbi, functionName: 'mint', args: [{ token0: t0, token1: t1, deployer: viem.zeroAddress, ...position }] })), 1_000_000n);
  progress(`  ${algebraOrdered.length} Algebra pools, block ${await client.getBlockNumber()}`);
  await rpc('evm_setAutomine', [true]);
  const buildSeconds = (performance.now() - built) / 1000;
  const headBefore = await client.getBlockNumber();

  // ---------------------------------------------------------------- going live
  progress('deploying our contracts with the deploy tool ...');
  writeFileSync(
    join(dir, 'catalogue.json'),
    JSON.stringify({
      chains: {
        [CHAIN]: {
          wrappedNative: { symbol: 'WETH', address: weth },
          multicall3: { address: CANONICAL_MULTICALL3 },
          sources: [
            { name: 'Builder V2', kind: 'uniswap-v2', routerIndex: 1, addresses: { factory }, feeBps: 30, deploymentBlock: factoryBlock, document: 'this bench', enabled: true },
            { name: 'Builder V3', kind: 'uniswap-v3', routerIndex: 2, addresses: { factory: v3Factory, nonfungiblePositionManager: v3Manager }, deploymentBlock: factoryBlock, document: 'this bench', enabled: true },
            { name: 'Builder Algebra', kind: 'algebra', routerIndex: 3, addresses: { factory: algebraFactory, nonfungiblePositionManager: algebraManager }, deploymentBlock: factoryBlock, document: 'this bench', enabled: true },
          ],
        },
      },
    }),
  );
  writeFileSync(join(dir, 'deploy.json'), JSON.stringify({ chainId: CHAIN, wrappedNative: weth, treasury: '0x000000000000000000000000000000000000fee1', oracle: { kind: 'settable' }, catalogue: 'catalogue.json' }));
  const out = [];
  const code = await runDeployCli(['--config', join(dir, 'deploy.json'), '--rpc-url', node.rpcUrl, '--out', join(dir, `${CHAIN}.json`)], { DEPLOYER_PRIVATE_KEY: DEPLOYER_KEY }, { out: (l) => out.push(l), err: (l) => out.push(l) });
  if (code !== 0) throw new Error(`deploy failed:\n${out.join('\n')}`);
  writeFileSync(join(dir, 'sources.json'), JSON.stringify({ chains: { [CHAIN]: { catalogue: 'catalogue.json', deployment: `${CHAIN}.json`, nativeSymbol: 'ETH' } } }));

  const proxy = await startRpcProxy(node.rpcUrl);
  cleanups.push(() => proxy.close());
  proxy.limit({ maxLogRange: LOG_RANGE_LIMIT, maxLogRequestsPerSecond: LOG_REQUESTS_PER_SECOND });
  const nats = await startPrivateNatsServer();
  cleanups.push(() => nats.dispose());
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const env = {
    PATH: process.env.PATH ?? '',
    CHAIN_IDS: String(CHAIN),
    [`RPC_URL_${CHAIN}`]: proxy.url,
    NATS_URL: nats.url,
    DATABASE_URL: database.url,
    SOURCES_CONFIG: join(dir, 'sources.json'),
    [`INDEXER_START_BLOCK_${CHAIN}`]: 'head',
    HTTP_HOST: '127.0.0.1',
  };
  const apps = [];
  stopAppsOnCleanup(apps, cleanups);
  const startApp = (name) => startBuiltApp({ root, dir, apps, freePort, name, env });
  const tail = (app) => readFileSync(app.logFile, 'utf8').split('\n').slice(-20).join('\n');

  progress('starting indexer (at the head), aggregator-router and gateway; waiting for the first route ...');
  const forwardedBefore = proxy.forwarded;
  const t0 = performance.now();
  const indexer = await startApp('indexer');
  const aggregator = await startApp('aggregator-router');
  const gateway = await startApp('gateway');
  // A route through a pool of each kind, each answered at the head (or later).
  const probes = [
    ['V2', wanted[0]],
    ['V3', v3Ordered[0]],
    ['Algebra', algebraOrdered[0]],
  ].filter(([, pair]) => pair);
  const routed = {};
  let first;
  for (const [kind, [a, b]] of probes) {
    const path = `/v2/route?chainId=${CHAIN}&tokenIn=${a}&tokenOut=${b}&amountIn=0.1`;
    for (;;) {
      for (const app of apps) if (app.child.exitCode !== null) throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${tail(app)}`);
      const r = await get(gateway.url + path, true);
      if (r.status === 200 && BigInt(JSON.parse(r.body).data.blockNumber) >= headBefore) {
        const data = JSON.parse(r.body).data;
        first ??= data;
        routed[kind] = { seconds: (performance.now() - t0) / 1000, pools: data.execution.details.hopSwaps.flat().map((h) => h.poolAddress), amountOut: data.amountOut };
        break;
      }
      if (performance.now() - t0 > 300_000) throw new Error(`no ${kind} route at the head within 300 s (last ${r.status} ${r.body ?? r.error})\n--- indexer\n${tail(indexer)}\n--- aggregator-router\n${tail(aggregator)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const poolOf = async (kind, [t0, t1]) =>
    viem.getAddress(
      kind === 'V3'
        ? await client.readContract({ address: v3Factory, abi: abis.uniswapV3FactoryAbi, functionName: 'getPool', args: [t0, t1, 3000] })
        : await client.readContract({ address: algebraFactory, abi: abis.algebraFactoryAbi, functionName: 'poolByPair', args: [t0, t1] }),
    );
  for (const [kind, pair] of probes.slice(1)) routed[kind].throughItsPool = routed[kind].pools.includes(await poolOf(kind, pair));
  const startSeconds = (performance.now() - t0) / 1000;
  const indexerLog = readFileSync(indexer.logFile, 'utf8');
  const started = /"msg":"started at the head".*?"pools":(\d+).*?"ms":(\d+)/.exec(indexerLog);
  const report = {
    chain: { pools: wanted.length + v3Ordered.length + algebraOrdered.length, byKind: { v2: wanted.length, v3: v3Ordered.length, algebra: algebraOrdered.length }, tokens: TOKENS + 1, historyBlocks: Number(headBefore), buildSeconds },
    provider: { maxLogRange: LOG_RANGE_LIMIT, logRequestsPerSecond: LOG_REQUESTS_PER_SECOND },
    startSeconds,
    target: { startSeconds: TARGET_START_S },
    pass: startSeconds <= TARGET_START_S,
    indexer: started ? { poolsFound: Number(started[1]), headStartMs: Number(started[2]) } : undefined,
    rpcCalls: proxy.forwarded - forwardedBefore,
    refused: { ...proxy.refused },
    memoryMb: { indexer: rssMb(indexer.child.pid), aggregator: rssMb(aggregator.child.pid) },
    firstRoute: { blockNumber: first.blockNumber, amountOut: first.amountOut, pools: first.execution.details.hopSwaps.flat().length },
    routed,
  };
  const f = (x, d = 1) => (x === undefined || !Number.isFinite(Number(x)) ? '-' : Number(x).toFixed(d));
  log(`going live on a chain built elsewhere: ${report.chain.pools.toLocaleString('en-US')} pools (${report.chain.byKind.v2} V2, ${report.chain.byKind.v3} V3, ${report.chain.byKind.algebra} Algebra) over ${report.chain.tokens} tokens, ${report.chain.historyBlocks.toLocaleString('en-US')} blocks of history (built in ${f(buildSeconds)} s)`);
  log(`provider: eth_getLogs at most ${LOG_RANGE_LIMIT.toLocaleString('en-US')} blocks a request (as many requests over this history as ${EMULATED_HISTORY.toLocaleString('en-US')} blocks at ${EMULATED_LOG_RANGE.toLocaleString('en-US')} a request) and ${LOG_REQUESTS_PER_SECOND} requests a second (429 past it)`);
  log('');
  log(`  start-up to a route of every kind at the head ${f(startSeconds)} s`.padEnd(60) + `target <= ${TARGET_START_S} s   ${report.pass ? 'PASS' : 'MISS'}`);
  if (report.indexer) log(`  indexer's start at the head               ${f(report.indexer.headStartMs / 1000)} s, ${report.indexer.poolsFound.toLocaleString('en-US')} pools found`);
  log(`  RPC calls through the provider           ${report.rpcCalls.toLocaleString('en-US')} (refused: ${report.refused.range} for the range, ${report.refused.rate} for the rate)`);
  log(`  memory (VmRSS)                           indexer ${f(report.memoryMb.indexer, 0)} MB, aggregator-router ${f(report.memoryMb.aggregator, 0)} MB`);
  for (const [kind, r] of Object.entries(routed)) log(`  ${kind.padEnd(8)} route answered at ${f(r.seconds)} s, ${r.amountOut} out through ${r.pools.length} pool(s)${r.throughItsPool === false ? ' (not its own pool: a better path)' : ''}`);
  if (asJson) console.log(JSON.stringify(report, null, 2));
}

try {
  await main();
} catch (error) {
  process.stderr.write(`go-live bench failed: ${error?.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  closeAgent();
  await cleanups.run();
}
