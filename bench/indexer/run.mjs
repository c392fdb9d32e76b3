// Backfill throughput of the indexer: a fresh anvil chain carrying at least 50,000 Transfer and core Swap
// logs, backfilled into a fresh database with the indexer's own code (the built dist/), and the figure
// printed beside the target. A report, not a test: exits 0 either way, non-zero only when the run fails.
//   node bench/indexer/run.mjs [--logs 60000] [--per-tx 50] [--batch 500] [--json]
import '../../tools/runtime/use-pinned.mjs'; // first: on another Node, runs this script on the pinned one
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const TARGET_LOGS_PER_SECOND = 5_000;
const totalLogs = arg('--logs', 60_000);
const perTx = arg('--per-tx', 50);
const batchSize = arg('--batch', 500);
const json = process.argv.includes('--json');

execFileSync(process.execPath, [join(root, 'tools/build/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
const dist = (p) => require(join(root, 'dist', p));
const { startAnvil } = dist('libs/devnet-kit/src/index.js');
const { createTestDatabase } = dist('libs/testing/src/index.js');
const { createChainClient } = dist('libs/chain/src/index.js');
const { IndexerStore, CheckpointRepository } = dist('libs/db/src/index.js');
const { ChainIndexer } = dist('apps/indexer/src/chain/chain-indexer.js');
const { readWatchLists } = dist('apps/indexer/src/chain/watch-list.js');
const { indexerMetrics } = dist('apps/indexer/src/metrics.js');
const { TOPICS } = dist('apps/indexer/src/facts/index.js');

const CHAIN_ID = 999;
const TOKEN = '0x00000000000000000000000000000000000bec01';
const OTHER = '0x00000000000000000000000000000000000bec02';
const POOL = '0x00000000000000000000000000000000000bec03';

/**
 * Runtime code that emits `n` logs per call (calldata: one 32-byte word `n`; anything else reverts).
 * Transfer: LOG3(from = the counter, to = caller, value = the counter). Swap: LOG4(user = caller, tokenIn,
 * tokenOut; amountIn = amountOut = the counter, fee = 1).
 */
function emitter(body) {
  const head = '366020146' + '00a575f80fd5b5f35'; // require(calldatasize == 32); n = calldataload(0)
  const loop = (end) => '5b801561' + end + '57'; // loop: if n == 0 goto end
  const tail = '600190036' + '00d56'; // n -= 1; goto loop
  const endOffset = (head.length + loop('0000').length + body.length + tail.length) / 2;
  return '0x' + head + loop(endOffset.toString(16).padStart(4, '0')) + body + tail + '5b00';
}
const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');
const transferBody = '805f52' + '3381' + '7f' + word(TOPICS.transfer) + '60205f' + 'a3';
const swapBody =
  '805f52' + '80602052' + '6001604052' + '73' + OTHER.slice(2) + '73' + TOKEN.slice(2) + '33' + '7f' + word(TOPICS.ammSwap) + '60605f' + 'a4';

async function main() {
  const anvil = await startAnvil({ chainId: CHAIN_ID, port: 0 });
  const db = await createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bench-indexer-'));
  try {
    const rpc = async (method, params = []) => {
      const res = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      const body = await res.json();
      if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
      return body.result;
    };
    await rpc('anvil_setCode', [TOKEN, emitter(transferBody)]);
    await rpc('anvil_setCode', [POOL, emitter(swapBody)]);
    const [from] = await rpc('eth_accounts');

    // Two thirds transfers, one third swaps, `perTx` logs per transaction, one transaction per block.
    const txs = Math.ceil(totalLogs / perTx);
    const generated = Date.now();
    let last;
    for (let i = 0; i < txs; i++) {
      const to = i % 3 === 2 ? POOL : TOKEN;
      last = await rpc('eth_sendTransaction', [{ from, to, data: '0x' + word(perTx.toString(16)), gas: '0x' + (2_000_000 + perTx * 3_000).toString(16) }]);
    }
    for (let i = 0; i < 200 && !(await rpc('eth_getTransactionReceipt', [last])); i++) await new Promise((r) => setTimeout(r, 50));
    const head = BigInt(await rpc('eth_blockNumber'));
    const generatedMs = Date.now() - generated;

    const sources = join(dir, 'sources.json');
    writeFileSync(
      sources,
      JSON.stringify({
        chains: {
          [CHAIN_ID]: {
            sources: [{ name: 'Core', kind: 'core', routerIndex: 0, addresses: { router: OTHER } }],
            tokens: [{ name: 'Bench', symbol: 'BENCH', decimals: 18, address: TOKEN }],
            pools: [{ name: 'Core BENCH', routerIndex: 0, kind: 'core', address: POOL, token0: TOKEN, token1: OTHER }],
          },
        },
      }),
    );
    const silent = { log() {}, warn() {}, error: (m) => console.error(JSON.stringify(m)), debug() {}, verbose() {} };
    const metrics = indexerMetrics();
    const indexer = new ChainIndexer({
      chainId: CHAIN_ID,
      client: createChainClient({ chainId: CHAIN_ID, rpcUrl: anvil.rpcUrl, timeoutMs: 60_000 }),
      store: new IndexerStore(db.client),
      checkpoints: new CheckpointRepository(db.client),
      watch: readWatchLists(sources, [CHAIN_ID]).get(CHAIN_ID),
      options: { startBlock: 0n, batchSize, confirmations: 0, reorgWindow: 64, blockRetention: 10_000, pollIntervalMs: 1_000 },
      logger: silent,
      metrics,
    });
    await indexer.init();
    const started = performance.now();
    await indexer.catchUp();
    const seconds = (performance.now() - started) / 1000;

    const logs = metrics.logs.get({ chain: CHAIN_ID });
    const [transfers, swaps] = await Promise.all([db.client.tokenTransfer.count(), db.client.ammSwap.count()]);
    if (transfers + swaps !== logs) throw new Error(`indexed ${transfers} transfers and ${swaps} swaps, but read ${logs} logs`);
    const logsPerSecond = logs / seconds;
    const result = {
      chainBlocks: Number(head),
      logs,
      transfers,
      swaps,
      batchSize,
      generateSeconds: +(generatedMs / 1000).toFixed(1),
      backfillSeconds: +seconds.toFixed(2),
      blocksPerSecond: Math.round(Number(head) / seconds),
      logsPerSecond: Math.round(logsPerSecond),
      targetLogsPerSecond: TARGET_LOGS_PER_SECOND,
      pass: logsPerSecond >= TARGET_LOGS_PER_SECOND,
    };
    if (json) console.log(JSON.stringify(result));
    else {
      console.log(`indexer backfill: ${result.logs} logs (${transfers} Transfer, ${swaps} Swap) in ${result.chainBlocks} blocks, batches of ${batchSize} blocks`);
      console.log(`  chain generated in ${result.generateSeconds} s; backfilled in ${result.backfillSeconds} s`);
      console.log('');
      console.log('  figure                 measured      target         ');
      console.log(`  backfill logs/s        ${String(result.logsPerSecond).padEnd(13)} ${'>= ' + TARGET_LOGS_PER_SECOND.toLocaleString('en-US')}       ${result.pass ? 'PASS' : 'MISS'}`);
      console.log(`  backfill blocks/s      ${String(result.blocksPerSecond).padEnd(13)} -`);
    }
  } finally {
    await db.drop();
    await anvil.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench/indexer failed: ${error.stack ?? error}`);
    process.exit(1);
  },
);
