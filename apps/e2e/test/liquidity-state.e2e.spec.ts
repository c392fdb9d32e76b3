// The aggregator's liquidity state, built from the indexer's chain facts, against a fresh read of the chain at the
// same block, pool by pool: while the devnet's activity simulator trades (V2, stable and core swaps, Uniswap V3 and
// Algebra swaps with their ticks, launchpad trades and launches), after aggregator-router is killed mid-stream and restarted, and after a reorg of at
// least three blocks (anvil snapshot, revert, another branch).
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { CHAIN_FACTS, type ChainFact, type DevnetManifest } from '@dex/messages';
import { createTestDatabase, startPrivateNatsServer, type PrivateNatsServer, type TestDatabase } from '@dex/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { heldLiquidity, liquidityAgainstChain, startApp, until, type AppProcess, startDevnetApp } from '../src';

jest.setTimeout(180_000);

describe('aggregator liquidity state against the chain', () => {
  let dir: string;
  let nats: PrivateNatsServer;
  let db: TestDatabase;
  let devnet: AppProcess;
  let indexer: AppProcess;
  let router: AppProcess;
  let manifest: DevnetManifest;
  let client: ChainPublicClient;
  let env: Record<string, string>;
  const chain = () => manifest.chains['999'];
  const rpc = <T>(method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never }) as Promise<T>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'liquidity-state-e2e-'));
    [nats, db] = await Promise.all([startPrivateNatsServer(), createTestDatabase()]);
    const started = await startDevnetApp(dir, nats.url, 100);
    ({ devnet, manifest } = started);
    const manifestPath = started.manifestPath;
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
    env = { NATS_URL: nats.url, DATABASE_URL: db.url, CHAIN_IDS: '999', RPC_URL_999: chain().rpcUrl, SOURCES_CONFIG: manifestPath, INDEXER_POLL_INTERVAL_MS: '100' };
    [indexer, router] = await Promise.all([startApp('indexer', env), startApp('aggregator-router', env)]);
  });

  afterAll(async () => {
    await Promise.all([router?.stop(), indexer?.stop()]);
    await devnet?.stop();
    await Promise.all([db?.drop(), nats?.dispose()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until the state reaches `atLeast`, then checks it against the chain at its block, pool by pool. */
  async function expectStateEqualsChain(app: AppProcess, atLeast: bigint): Promise<bigint> {
    const { block, held, fresh } = await liquidityAgainstChain(app, client, chain(), atLeast);
    expect(held).toEqual(fresh);
    return block;
  }

  /** The sum of a counter's series whose labels include all of `labels`. */
  const metric = async (app: AppProcess, name: string, labels: string[]): Promise<number> => {
    const text = await fetch(`${app.url}/metrics`).then((r) => r.text());
    return text
      .split('\n')
      .filter((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)))
      .reduce((a, l) => a + Number(l.split(' ').pop()), 0);
  };
  const factsReceived = (app: AppProcess, fact: ChainFact) => metric(app, 'chain_facts_received_total', [`fact="${fact}"`, 'outcome="handled"']);
  const reloads = (app: AppProcess) => metric(app, 'liquidity_loads_total', ['reason="reorg"']);

  it('equals a fresh read of the chain while the simulator trades', async () => {
    // It follows the trades as facts (Sync reserves, concentrated pools' swaps, curve trades), not by reading the pools.
    await until(() => factsReceived(router, CHAIN_FACTS.poolUpdated), (n) => n > 0, 60_000);
    await until(() => factsReceived(router, CHAIN_FACTS.poolConcentrated), (n) => n > 0, 60_000);
    await until(() => factsReceived(router, CHAIN_FACTS.launchpadTrade), (n) => n > 0, 60_000);
    const head = await client.getBlockNumber();
    expect(await expectStateEqualsChain(router, head + 3n)).toBeGreaterThanOrEqual(head + 3n);
  });

  it('rebuilds the same state after it is killed mid-stream and restarted', async () => {
    await router.stop('SIGKILL');
    // The chain moves on while it is down.
    const down = await client.getBlockNumber();
    await until(() => client.getBlockNumber(), (b) => b >= down + 10n, 60_000);
    router = await startApp('aggregator-router', env);
    await expectStateEqualsChain(router, (await client.getBlockNumber()) + 3n);
  });

  it('leaves no trace of a reorg of three blocks or more', async () => {
    // The state follows the head before the fork, so the reorg is undone by the state itself, not by a reload.
    const start = await client.getBlockNumber();
    await until(() => heldLiquidity(router), (s) => !(s instanceof Error) && s.block >= start, 60_000);
    const snapshot = await rpc<string>('evm_snapshot');
    const fork = await client.getBlockNumber();
    // The old branch: at least three blocks, with trades (Sync reserves and curve trades) that the state follows.
    const trades = async () => (await factsReceived(router, CHAIN_FACTS.poolUpdated)) + (await factsReceived(router, CHAIN_FACTS.launchpadTrade));
    const tradesBefore = await trades();
    await until(() => client.getBlockNumber(), (b) => b >= fork + 3n, 60_000);
    await until(trades, (n) => n >= tradesBefore + 3, 60_000);
    const head = await client.getBlockNumber();
    await until(() => heldLiquidity(router), (s) => !(s instanceof Error) && s.block >= head, 60_000);
    const reorgsBefore = await factsReceived(router, CHAIN_FACTS.reorg);
    expect(await rpc('evm_revert', [snapshot])).toBe(true);
    // The new branch grows past the old one: the simulator's next trades, and blocks mined here (the simulator's
    // account may wait out nonces it sent on the old branch; a CI run once saw no new block within a minute).
    for (let n = fork; n <= head + 1n; n++) await rpc('evm_mine');
    await until(() => factsReceived(router, CHAIN_FACTS.reorg), (n) => n > reorgsBefore, 60_000);
    await expectStateEqualsChain(router, (await client.getBlockNumber()) + 2n);
    expect(await reloads(router)).toBe(0);
  });
});
