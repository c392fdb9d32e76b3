// The built indexer as a process on both chains: killed with SIGKILL in the middle of batches again and
// again, restarted, and in the end the database holds every fact of the chains exactly once; its status
// over NATS and its metrics over HTTP.
import { testERC20Abi } from '@dex/abis';
import { adminQuery } from '@dex/db';
import { deployContext, devAccounts, send } from '@dex/devnet-kit';
import { CHAIN_EVENTS_STREAM, CHAIN_FACTS, chainFactSubject, indexerStatusContract } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { parseAbiItem, type Abi, type Address } from 'viem';
import { createChainClient } from '@dex/chain';
import { spawnApp, startApp, until, type AppProcess } from '../src';

jest.setTimeout(150_000);

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const graduatedEvent = parseAbiItem('event TokenGraduated(address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity)');

describe('indexer process: crash mid-batch, restart, exactly once', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let indexer: AppProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains(), createTestDatabase(), startPrivateNatsServer()]);
    bus = new NatsBus({ url: nats.url, name: 'e2e-indexer', logger: createJsonLogger('e2e', 'warn') });
    await bus.connect();
    env = {
      ...chains.env,
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      SOURCES_CONFIG: chains.manifestPath,
      INDEXER_BATCH_SIZE: '3',
      INDEXER_POLL_INTERVAL_MS: '100',
      INDEXER_PROGRESS_INTERVAL_MS: '500',
      LOG_LEVEL: 'debug',
    };
    // More history on chain 999: 150 blocks of transfers on top of the devnet's deployment.
    const ctx = deployContext(999, chains.env.RPC_URL_999);
    const usdc = chains.manifest.chains['999'].tokens.find((t) => t.symbol === 'USDC')!.address;
    const [from, to] = [devAccounts()[2], devAccounts()[3]];
    for (let i = 0; i < 150; i++) await send(ctx, { address: usdc, abi: testERC20Abi as Abi, functionName: 'transfer', args: [to.address, BigInt(i + 1)] }, from);
  });

  afterAll(async () => {
    await indexer?.stop('SIGKILL');
    await bus?.close();
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('loses and duplicates nothing when killed mid-batch and restarted', async () => {
    // Kill rounds while there is work left: each waits for a batch or two to commit in the new process,
    // then kills it the moment its latest batch has started and not committed.
    let killedMidBatch = 0;
    let rounds = 0;
    const batchLines = (output: string) => output.split('\n').filter((l) => l.includes('"batch start"') || l.includes('"batch committed"'));
    for (; rounds < 8; rounds++) {
      const proc = spawnApp('indexer', { ...env, HTTP_HOST: '127.0.0.1', HTTP_PORT: '0' });
      const want = 1 + (rounds % 3);
      const { value: state } = await until(
        async () => {
          const out = proc.output();
          if ((out.match(/batch committed/g) ?? []).length >= want) return 'working';
          const caughtUp = ['999', '4663'].every((id) => new RegExp(`"chainId":${id},"msg":"progress","serviceStatus":"running"`).test(out));
          return caughtUp ? 'caught up' : 'starting';
        },
        (v) => v !== 'starting',
        30_000,
      ).catch((error: Error) => {
        proc.child.kill('SIGKILL');
        throw new Error(`${error.message}\n${proc.output().slice(-3000)}`);
      });
      if (state === 'working') {
        await until(async () => batchLines(proc.output()).pop() ?? '', (last) => last.includes('"batch start"'), 5_000).catch(() => undefined);
      }
      const last = batchLines(proc.output()).pop() ?? '';
      proc.child.kill('SIGKILL');
      await proc.exited;
      if (state === 'caught up') break;
      if (last.includes('"batch start"')) killedMidBatch += 1;
    }
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(killedMidBatch).toBeGreaterThan(0);

    indexer = await startApp('indexer', env);
    const heads = Object.fromEntries(
      await Promise.all(
        chains.nodes.map(async (n) => [n.chainId, (await createChainClient({ chainId: n.chainId, rpcUrl: n.rpcUrl }).getBlockNumber()).toString()] as const),
      ),
    );
    const { value } = await until(
      () => bus.request(indexerStatusContract, {}),
      (r) => r.ok && r.data.chains.length === 2 && r.data.chains.every((c) => c.lastProcessedBlock === heads[c.chainId] && c.serviceStatus === 'running'),
      60_000,
    );
    expect(value.ok && value.data.chains.map((c) => [c.chainId, c.blocksBehind])).toEqual([
      [999, 0],
      [4663, 0],
    ]);

    for (const node of chains.nodes) {
      const client = createChainClient({ chainId: node.chainId, rpcUrl: node.rpcUrl });
      const tokens = (await adminQuery<{ address: Address }>(db.url, 'SELECT address FROM token WHERE chain_id = $1', [node.chainId])).map((t) => t.address);
      const logs = await client.getLogs({ address: tokens, event: transferEvent, fromBlock: 0n, toBlock: BigInt(heads[node.chainId]) });
      const expected = logs.map((l) => `${l.blockNumber}:${l.logIndex}`).sort();
      const stored = (
        await adminQuery<{ b: string; i: number }>(db.url, 'SELECT block_number::text AS b, log_index AS i FROM token_transfer WHERE chain_id = $1', [node.chainId])
      )
        .map((r) => `${r.b}:${r.i}`)
        .sort();
      expect(stored).toEqual(expected);
      const counters = await adminQuery<{ total: string; rows: string; buckets: string }>(
        db.url,
        `SELECT sum(total_transfers)::text AS total,
                (SELECT count(*) FROM token_transfer WHERE chain_id = $1)::text AS rows,
                (SELECT COALESCE(sum(transfers), 0) FROM token_transfer_hour WHERE chain_id = $1)::text AS buckets
           FROM token WHERE chain_id = $1`,
        [node.chainId],
      );
      expect(counters[0]).toEqual({ total: String(expected.length), rows: String(expected.length), buckets: String(expected.length) });

      // The devnet's graduated token (GFROG), recorded once with its TokenGraduated log.
      const launchpad = chains.manifest.chains[String(node.chainId)].launchpad;
      const graduations = await client.getLogs({ address: launchpad.address, event: graduatedEvent, fromBlock: 0n, toBlock: BigInt(heads[node.chainId]) });
      expect(graduations.map((l) => l.args.token)).toEqual([launchpad.tokens.find((t) => t.symbol === 'GFROG')!.address]);
      const graduated = await adminQuery<{ address: string; block: string; log_index: number; pair: string; liquidity: string }>(
        db.url,
        `SELECT address, graduated_block::text AS block, graduated_log_index AS log_index, pair, graduation_liquidity::text AS liquidity
           FROM launchpad_token WHERE chain_id = $1 AND graduated`,
        [node.chainId],
      );
      expect(graduated).toEqual(
        graduations.map((l) => ({ address: l.args.token, block: l.blockNumber.toString(), log_index: l.logIndex, pair: l.args.pair, liquidity: l.args.liquidity!.toString() })),
      );
    }

    // Every committed event reaches JetStream (re-published ones are dropped by their message id).
    await until(async () => Number((await adminQuery<{ n: string }>(db.url, 'SELECT count(*) AS n FROM chain_event_outbox'))[0].n), (n) => n === 0, 20_000);
    const jsm = await bus.current!.jetstreamManager();
    const blockEvents = await jsm.streams.info(CHAIN_EVENTS_STREAM, { subjects_filter: chainFactSubject('*', CHAIN_FACTS.block) } as never);
    expect(blockEvents.state.messages).toBeGreaterThan(0);

    const metrics = await fetch(`${indexer.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/indexer_last_processed_block\{chain="999"\} \d+/);
    expect(metrics).toMatch(/indexer_blocks_behind\{chain="4663"\} 0/);
    // A progress line every INDEXER_PROGRESS_INTERVAL_MS (500 ms); the checks above can take less than that.
    await until(async () => indexer?.output() ?? '', (out) => /"msg":"progress"/.test(out), 5_000);
  });
});
