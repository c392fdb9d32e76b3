// The stack on a 3-node NATS JetStream cluster (loopback, NATS_URL listing the three, the chain facts' stream with
// three replicas) while the devnet's simulator trades and routes are asked 40 times a second: the node the gateway
// is connected to is killed, then the stream's leader. Requests fail only until the clients have moved to another
// node (the figures against the 2 s target are bench/faults'), and then none does; no chain fact is lost and none
// is applied twice: aggregator-router handled exactly what the stream holds, the stream holds each fact once, and
// the liquidity state equals a fresh read of the chain.
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { LIQUIDITY_FACTS, type DevnetManifest } from '@dex/messages';
import { createTestDatabase, startNatsCluster, type NatsCluster, type TestDatabase } from '@dex/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { factAccount, faultFigures, liquidityAgainstChain, startApp, startLoad, streamLeader, until, type AppProcess, type FaultFigures, startDevnetApp } from '../src';

jest.setTimeout(240_000);

/** The facts aggregator-router builds its liquidity state from. */
const RATE = 40;
/** How long each fault lasts under load before the node is started again, and the quiet end of it. */
const FAULT_MS = 6_000;
const QUIET_MS = 2_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a NATS cluster losing a node under load', () => {
  let dir: string;
  let cluster: NatsCluster;
  let db: TestDatabase;
  let devnet: AppProcess;
  const apps: AppProcess[] = [];
  let manifest: DevnetManifest;
  let client: ChainPublicClient;
  let routeUrl: string;
  const chain = () => manifest.chains['999'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nats-cluster-e2e-'));
    [cluster, db] = await Promise.all([startNatsCluster(3), createTestDatabase()]);
    const started = await startDevnetApp(dir, cluster.url, 200);
    ({ devnet, manifest } = started);
    const manifestPath = started.manifestPath;
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
    const env = {
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: '3',
      DATABASE_URL: db.url,
      CHAIN_IDS: '999',
      RPC_URL_999: chain().rpcUrl,
      SOURCES_CONFIG: manifestPath,
      INDEXER_POLL_INTERVAL_MS: '100',
      // Failover is under test, not load: the gateway's refusals while its event loop lags (three NATS servers, the
      // chain and the simulator share this machine's cores) would count as failures outside the faults.
      HTTP_MAX_EVENT_LOOP_LAG_MS: '60000',
    };
    apps.push(...(await Promise.all(['indexer', 'aggregator-router', 'gateway'].map((name) => startApp(name, env)))));
    const usdc = chain().tokens.find((t) => t.symbol === 'USDC')!.address;
    const usdt = chain().tokens.find((t) => t.symbol === 'USDT')!.address;
    routeUrl = `${apps[2].url}/v2/route?chainId=999&tokenIn=${usdc}&tokenOut=${usdt}&amountIn=1`;
    await until(() => fetch(routeUrl).then((r) => r.status), (s) => s === 200, 60_000);
    await until(() => streamLeader(cluster.url), (leader) => typeof leader === 'string', 30_000);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await devnet?.stop();
    await Promise.all([db?.drop(), cluster?.dispose()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails requests only while clients move to another node, loses no fact and applies none twice', async () => {
    const router = apps[1];
    const load = startLoad(routeUrl, RATE);
    const faults: { name: string; node: string; at: number; figures?: FaultFigures }[] = [];
    const fault = async (name: string, node: string) => {
      const at = performance.now();
      await cluster.kill(node);
      await sleep(FAULT_MS);
      faults.push({ name, node, at });
      await cluster.start(node);
      // The node rejoins and catches up with the stream before the next fault (a stream of three copies loses
      // its quorum with two nodes down).
      await sleep(4_000);
    };

    await sleep(2_000);
    const gatewayNodes = await cluster.connectedTo('gateway');
    expect(gatewayNodes).toHaveLength(1);
    await fault('node of the gateway', gatewayNodes[0]);
    const leader = await streamLeader(cluster.url);
    expect(leader).toMatch(/^n\d$/);
    await fault('stream leader', leader!);
    const samples = await load.stop();

    for (const f of faults) {
      const figures = faultFigures(samples, f.at, f.at + FAULT_MS);
      // Each failure is the bus's: the connection lost (503 at once), no instance subscribed yet, or a request whose
      // answer went down with a node (504).
      for (const key of Object.keys(figures.failures)) expect(key).toMatch(/^(503 Message bus unavailable|503 No service is answering|504 Upstream service timed out)$/);
      // And then none: every request of the fault's last seconds was answered.
      const late = samples.filter((s) => s.sentAt >= f.at + FAULT_MS - QUIET_MS && s.sentAt < f.at + FAULT_MS);
      expect(late.length).toBeGreaterThan(QUIET_MS / 1000 * RATE * 0.5);
      expect(late.filter((s) => s.status !== 200)).toEqual([]);
      expect(figures.errorWindowMs).toBeLessThan(FAULT_MS - QUIET_MS);
    }
    // Outside the faults, no request failed.
    const outside = samples.filter((s) => !faults.some((f) => s.doneAt >= f.at && s.sentAt < f.at + FAULT_MS + 4_000));
    expect(outside.filter((s) => s.status !== 200)).toEqual([]);

    // Every fact of the stream handled once, the stream holding each once, and the state as the chain's.
    const { value: account } = await until(
      () => factAccount(cluster.url, router.url, 999, LIQUIDITY_FACTS),
      (a) => !(a instanceof Error) && a.inStream > 0 && a.lost === 0 && a.duplicated === 0,
      60_000,
    );
    expect(account.duplicatedInStream).toBe(0);
    const { held, fresh } = await liquidityAgainstChain(router, client, chain(), (await client.getBlockNumber()) + 2n);
    expect(held).toEqual(fresh);
  });
});
