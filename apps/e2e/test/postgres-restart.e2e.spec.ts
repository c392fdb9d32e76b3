// Postgres restarting under the indexer and the services (a private server of this test, stopped as in a crash and
// started again on the same data) while the devnet's simulator trades and routes are asked: readiness turns red and
// green again, no process exits, routes are answered from the state in memory, the indexer resumes from its
// checkpoint, and nothing is lost or counted twice: every block recorded once, the chain's Transfer logs each
// stored once, the hourly counts equal the rows they count, the stream and aggregator-router agree on every fact,
// and the liquidity state equals a fresh read of the chain.
import { erc20Abi, getAbiItem, type Address } from 'viem';
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { LIQUIDITY_FACTS, type DevnetManifest } from '@dex/messages';
import { createTestDatabase, startPrivateNatsServer, startPrivatePostgres, type PrivateNatsServer, type PrivatePostgres, type TestDatabase } from '@dex/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { factAccount, faultFigures, getJson, liquidityAgainstChain, startApp, startLoad, until, type AppProcess, startDevnetApp } from '../src';

jest.setTimeout(240_000);

const OUTAGE_MS = 6_000;

describe('Postgres restarting under the stack', () => {
  let dir: string;
  let pg: PrivatePostgres;
  let nats: PrivateNatsServer;
  let db: TestDatabase;
  let devnet: AppProcess;
  let indexer: AppProcess;
  let router: AppProcess;
  let gateway: AppProcess;
  let manifest: DevnetManifest;
  let client: ChainPublicClient;
  let routeUrl: string;
  const chain = () => manifest.chains['999'];
  const ready = (app: AppProcess) => getJson(`${app.url}/health/ready`).then((r) => r.status, () => 0);
  const checkpoint = async () => {
    const rows = await db.client.$queryRawUnsafe<{ b: bigint }[]>('SELECT last_processed_block AS b FROM chain_checkpoint WHERE chain_id = 999');
    return rows.length ? BigInt(rows[0].b) : -1n;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'postgres-restart-e2e-'));
    [pg, nats] = await Promise.all([startPrivatePostgres(), startPrivateNatsServer()]);
    db = await createTestDatabase({ serverUrl: pg.url });
    const started = await startDevnetApp(dir, nats.url, 200);
    ({ devnet, manifest } = started);
    const manifestPath = started.manifestPath;
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
    // Every header is read and stored (the reorg window spans the whole devnet): a batch further than the window from
    // the head stores its first and last headers only, and whether the first catch-up batch is such a batch depends on
    // how many blocks the devnet made before the indexer started. "Every block once" below needs all of them.
    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      CHAIN_IDS: '999',
      RPC_URL_999: chain().rpcUrl,
      SOURCES_CONFIG: manifestPath,
      INDEXER_POLL_INTERVAL_MS: '100',
      INDEXER_REORG_WINDOW: '1000000',
    };
    [indexer, router, gateway] = await Promise.all(['indexer', 'aggregator-router', 'gateway'].map((name) => startApp(name, env)));
    const usdc = chain().tokens.find((t) => t.symbol === 'USDC')!.address;
    const usdt = chain().tokens.find((t) => t.symbol === 'USDT')!.address;
    routeUrl = `${gateway.url}/v2/route?chainId=999&tokenIn=${usdc}&tokenOut=${usdt}&amountIn=1`;
    await until(() => fetch(routeUrl).then((r) => r.status), (s) => s === 200, 60_000);
    await until(() => Promise.all([ready(indexer), ready(router)]), (s) => s.every((x) => x === 200), 30_000);
  });

  afterAll(async () => {
    await Promise.all([gateway, router, indexer].map((a) => a?.stop()));
    await devnet?.stop();
    await db?.drop().catch(() => undefined);
    await Promise.all([pg?.dispose(), nats?.dispose()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('turns readiness red and back, keeps every process up, resumes from the checkpoint, loses and repeats nothing', async () => {
    const load = startLoad(routeUrl, 20);
    await new Promise((r) => setTimeout(r, 1_000));
    const before = await checkpoint();
    expect(before).toBeGreaterThan(0n);

    const at = performance.now();
    await pg.stop('immediate');
    // Readiness turns red on the services that use Postgres; the processes stay up.
    await until(() => Promise.all([ready(indexer), ready(router)]), (s) => s.every((x) => x === 503), OUTAGE_MS);
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (performance.now() - at))));
    for (const app of [indexer, router, gateway]) expect(app.child.exitCode).toBeNull();
    await pg.start();

    // Green again, and the indexer goes on past where it was.
    await until(() => Promise.all([ready(indexer), ready(router)]), (s) => s.every((x) => x === 200), 60_000);
    const head = await client.getBlockNumber();
    await until(checkpoint, (b) => b >= head, 60_000);
    const samples = await load.stop();
    for (const app of [indexer, router, gateway]) {
      expect(app.child.exitCode).toBeNull();
      expect(app.output().match(/"service started"/g)).toHaveLength(1);
    }
    // The indexer met the outage (its batches failed) and went on from its checkpoint.
    expect(indexer.output()).toContain('"batch failed"');
    // Routes come from the state in memory: the restart costs none.
    const figures = faultFigures(samples, at, performance.now());
    expect(figures.errors).toBe(0);
    expect(figures.requests).toBeGreaterThan(0);

    // Every block once, from the first recorded to the checkpoint (read in one statement, one snapshot: the indexer
    // goes on committing blocks, each with the checkpoint that names it).
    const [blocks] = await db.client.$queryRawUnsafe<{ n: bigint; lo: bigint; hi: bigint; last: bigint }[]>(
      `SELECT count(*) AS n, min(number) AS lo, max(number) AS hi,
              (SELECT last_processed_block FROM chain_checkpoint WHERE chain_id = 999) AS last
         FROM block WHERE chain_id = 999`,
    );
    const last = BigInt(blocks.last);
    expect(BigInt(blocks.hi)).toBe(last);
    expect(BigInt(blocks.n)).toBe(BigInt(blocks.hi) - BigInt(blocks.lo) + 1n);

    // The chain's Transfer logs of the followed tokens, each stored once.
    const tokens = (await db.client.$queryRawUnsafe<{ address: string }[]>('SELECT address FROM token WHERE chain_id = 999')).map((t) => t.address as Address);
    expect(tokens.length).toBeGreaterThan(0);
    const logs = await client.getLogs({ address: tokens, event: getAbiItem({ abi: erc20Abi, name: 'Transfer' }), fromBlock: 0n, toBlock: last });
    const [transfers] = await db.client.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM token_transfer WHERE chain_id = 999 AND block_number <= $1', last);
    expect(Number(transfers.n)).toBe(logs.length);

    // The hourly counts count each row once (read in one statement, one snapshot: the indexer goes on committing
    // blocks, each with its rows and their counts).
    const [counts] = await db.client.$queryRawUnsafe<{ ht: bigint | null; hs: bigint | null; t: bigint; s: bigint }[]>(
      `SELECT (SELECT sum(transfers) FROM token_transfer_hour WHERE chain_id = 999) AS ht, (SELECT sum(swaps) FROM pool_swap_hour WHERE chain_id = 999) AS hs,
              (SELECT count(*) FROM token_transfer WHERE chain_id = 999) AS t, (SELECT count(*) FROM amm_swap WHERE chain_id = 999) AS s`,
    );
    expect(Number(counts.ht ?? 0)).toBe(Number(counts.t));
    expect(Number(counts.hs ?? 0)).toBe(Number(counts.s));
    expect(Number(counts.s)).toBeGreaterThan(0);

    // The facts: the stream and aggregator-router agree, and the state is the chain's.
    const { value: account } = await until(() => factAccount(nats.url, router.url, 999, LIQUIDITY_FACTS), (a) => !(a instanceof Error) && a.lost === 0 && a.duplicated === 0, 60_000);
    expect(account.inStream).toBeGreaterThan(0);
    const { held, fresh } = await liquidityAgainstChain(router, client, chain(), head);
    expect(held).toEqual(fresh);
  });
});
