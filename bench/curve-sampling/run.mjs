#!/usr/bin/env node
// RPC work per block of the aggregator's Curve sampling at a real chain's count of NG pools, each figure beside its
// target. A private anvil gets the devnet's StableswapNG stand-in factory with 100 pools (2, 3 and 4 coins in the
// proportions of a real factory: mostly 2) and the aggregator-router's ChainLiquidity (built, from dist/) follows
// them block by block through a counting transport: every pool's coin pairs are routed on their get_dy samples, each
// block reads every pool's state in one eth_call, and only the pools swapped in that block are sampled again.
//
//   1. eth_calls per block with K pools swapped in it (K = 0, 1, 5, 20): target <= 1 + ceil(their ladders' quotes / 200)
//      + ceil(their refinements' quotes / 200) (the state read, then the changed pools' quotes 200 to a call, in two
//      rounds: the ladder, then the inputs added where its chords fall furthest under the curve): O(changed pools), not
//      O(pools);
//   2. the time of a block's Curve work (the state read and the changed pools' sampling), median over the blocks.
//
//   node bench/curve-sampling/run.mjs             the table
//   --pools N (100), --blocks N per K (5), --json
//
// It exits 0 whether the targets are met or missed; non-zero only when the measurement itself fails.
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a positive integer, got ${JSON.stringify(args[at + 1])}`);
  return value;
};
const POOLS = option('--pools', 100);
const BLOCKS = option('--blocks', 5);
const asJson = args.includes('--json');

const abis = require(join(root, 'dist/libs/abis/src'));
const { blueprintCreationCode, createChainClient } = require(join(root, 'dist/libs/chain/src'));
const { startOnchainChain } = require(join(root, 'dist/libs/testing/src'));
const { curvePairId, CHAIN_FACTS, chainEventSchemas } = require(join(root, 'dist/libs/messages/src'));
const { CURVE_LADDER_REFINE, CURVE_LADDER_SIZE } = require(join(root, 'dist/libs/routing/src'));
const { ChainLiquidity } = require(join(root, 'dist/apps/aggregator-router/src/liquidity/liquidity.service.js'));
const { Logger } = require('@nestjs/common');
const viem = require('viem');

Logger.overrideLogger(['error']);
const CHAIN_ID = 999;
const HASH = `0x${'0'.repeat(64)}`;
const DECIMALS = [18, 6, 6, 18];
/** Coin counts of the pools, cycled: 7 in 10 pools of 2 coins, 2 of 3, 1 of 4. */
const SHAPES = [2, 2, 3, 2, 2, 4, 2, 3, 2, 2];

const chain = await startOnchainChain({ chainId: CHAIN_ID });
try {
  const me = chain.account.address;
  const multicall3 = await chain.deploy({ abi: abis.multicall3Abi, bytecode: abis.multicall3Bytecode });
  const coins = [];
  for (const [k, d] of DECIMALS.entries()) coins.push(await chain.deploy({ abi: abis.testERC20Abi, bytecode: abis.testERC20Bytecode }, [`Coin ${k}`, `C${k}`, d]));
  const factory = await chain.deploy({ abi: abis.curveStableSwapFactoryNGStandInAbi, bytecode: abis.curveStableSwapFactoryNGStandInBytecode }, [me, me]);
  const creation = blueprintCreationCode(abis.curveStableSwapNGStandInBytecode);
  const hash = await chain.wallet.sendTransaction({ account: chain.account, chain: chain.wallet.chain, data: creation, gas: 15_000_000n });
  const blueprint = (await chain.client.waitForTransactionReceipt({ hash })).contractAddress;
  await chain.send(factory, abis.curveStableSwapFactoryNGStandInAbi, 'set_pool_implementations', [0n, blueprint]);
  for (const [k, coin] of coins.entries()) await chain.send(coin, abis.testERC20Abi, 'mint', [me, viem.parseUnits('1000000000000', DECIMALS[k])]);

  const started = performance.now();
  const pools = [];
  for (let n = 0; n < POOLS; n++) {
    const own = coins.slice(0, SHAPES[n % SHAPES.length]);
    await chain.send(factory, abis.curveStableSwapFactoryNGStandInAbi, 'deploy_plain_pool', [`P${n}`, `P${n}`, own, 200n, 4_000_000n, 20_000_000_000n, 866n, 0n, own.map(() => 0), own.map(() => '0x00000000'), own.map(() => viem.zeroAddress)]);
    const pool = await chain.client.readContract({ address: factory, abi: abis.curveStableSwapFactoryNGStandInAbi, functionName: 'pool_list', args: [BigInt(n)] });
    for (const coin of own) await chain.send(coin, abis.testERC20Abi, 'approve', [pool, viem.maxUint256]);
    const depth = 1_000_000 + 10_000 * n;
    await chain.send(pool, abis.curveStableSwapNGStandInAbi, 'add_liquidity', [own.map((_, k) => viem.parseUnits(String(depth), DECIMALS[k])), 0n]);
    pools.push({ address: pool, coins: own.length });
  }
  const seeded = (performance.now() - started) / 1000;
  const stored = await chain.client.getBlockNumber({ cacheTime: 0 });

  let calls = 0;
  const inner = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, multicall3, pollingIntervalMs: 20, timeoutMs: 60_000 });
  const transport = viem.custom({ request: async (req) => ((calls += req.method === 'eth_call' ? 1 : 0), inner.request(req)) });
  const client = Object.assign(viem.createPublicClient({ chain: inner.chain, transport }), { chain: inner.chain });
  const pairs = pools.flatMap((p) => Array.from({ length: p.coins }, (_, i) => Array.from({ length: p.coins - i - 1 }, (_, d) => ({ pool: p.address, i, j: i + d + 1 }))).flat());
  const storedLiquidity = {
    block: stored,
    hash: HASH,
    pools: pairs.map(({ pool, i, j }) => ({ address: curvePairId(pool, i, j), kind: 'curve-stableswap-ng', routerIndex: 9, token0: coins[i], token1: coins[j], createdBlock: stored, reserve0: null, reserve1: null, reservesBlock: null, curve: null })),
    tokens: coins.map((address, k) => ({ address, symbol: `C${k}`, name: `Coin ${k}`, decimals: DECIMALS[k] })),
  };
  const work = [];
  const blockWork = { observe: (labels, seconds) => labels.step.startsWith('curve') && work.push({ step: labels.step, seconds }) };
  const entry = { wrappedNative: { address: coins[0], symbol: 'C0', name: 'Coin 0', decimals: 18 }, tokens: [], pools: [] };
  const liquidity = new ChainLiquidity(CHAIN_ID, entry, [{ name: 'Curve StableswapNG', kind: 'curve-stableswap-ng', routerIndex: 9, addresses: { factory } }], client, { load: async () => storedLiquidity }, { blockWork });
  calls = 0;
  const loadStarted = performance.now();
  await liquidity.load();
  const load = { calls, seconds: (performance.now() - loadStarted) / 1000, routed: liquidity.snapshot.pools.length };

  let seq = 0;
  const blockDone = (block) => ({ chainId: CHAIN_ID, fact: CHAIN_FACTS.block, seq: ++seq, payload: chainEventSchemas[CHAIN_FACTS.block].parse({ chainId: CHAIN_ID, blockNumber: block.toString(), blockHash: HASH, parentHash: HASH, timestamp: 0 }) });
  const rows = [];
  let next = 0;
  for (const swapped of [0, 1, 5, 20]) {
    const perBlock = [];
    for (let b = 0; b < BLOCKS; b++) {
      // K pools swapped in one block (automine off), a different K each block.
      await chain.client.request({ method: 'evm_setAutomine', params: [false] });
      const hashes = [];
      const touched = [];
      for (let k = 0; k < swapped; k++) {
        const pool = pools[next++ % pools.length];
        touched.push(pool);
        hashes.push(await chain.wallet.writeContract({ address: pool.address, abi: abis.curveStableSwapNGStandInAbi, functionName: 'exchange', args: [0n, 1n, viem.parseUnits('1000', DECIMALS[0]), 0n], account: chain.account, chain: chain.wallet.chain, gas: 1_000_000n }));
      }
      await chain.client.request({ method: 'evm_mine', params: [] });
      await chain.client.request({ method: 'evm_setAutomine', params: [true] });
      for (const h of hashes) await chain.client.waitForTransactionReceipt({ hash: h });
      const block = await chain.client.getBlockNumber({ cacheTime: 0 });
      calls = 0;
      work.length = 0;
      await liquidity.onFact(blockDone(block));
      for (let w = 0; w < 500 && liquidity.snapshot.blockNumber !== block; w++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 30));
      const directions = [...new Set(touched)].reduce((n, p) => n + p.coins * (p.coins - 1), 0);
      const target = 1 + Math.ceil((directions * CURVE_LADDER_SIZE) / 200) + Math.ceil((directions * CURVE_LADDER_REFINE) / 200);
      perBlock.push({ calls, target, ms: 1000 * work.reduce((s, w) => s + w.seconds, 0) });
    }
    const worst = perBlock.reduce((a, b) => (b.calls - b.target > a.calls - a.target ? b : a));
    const ms = perBlock.map((p) => p.ms).sort((a, b) => a - b)[Math.floor(perBlock.length / 2)];
    rows.push({ swapped, calls: worst.calls, target: worst.target, pass: perBlock.every((p) => p.calls <= p.target), medianMs: ms });
  }
  const result = { pools: POOLS, pairs: pairs.length, seededSeconds: seeded, load, rows };
  if (asJson) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`Curve sampling: ${POOLS} StableswapNG pools (${pairs.length} coin pairs), seeded in ${seeded.toFixed(1)} s`);
    console.log(`load: ${load.calls} eth_calls, ${load.seconds.toFixed(2)} s, ${load.routed} pairs routed`);
    console.log('pools swapped in the block | eth_calls (worst of the blocks) | target | result | Curve work per block (median)');
    for (const r of rows) console.log(`${String(r.swapped).padStart(26)} | ${String(r.calls).padStart(31)} | ${String(r.target).padStart(6)} | ${r.pass ? 'PASS' : 'MISS'}   | ${r.medianMs.toFixed(1)} ms`);
  }
} finally {
  await chain.node.stop();
}
process.exit(0);
