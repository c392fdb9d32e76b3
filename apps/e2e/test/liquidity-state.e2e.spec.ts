// The aggregator's liquidity state, built from the indexer's chain facts, against a fresh read of the chain at the
// same block, pool by pool: while the devnet's activity simulator trades (V2, stable and core swaps, Uniswap V3 and
// Algebra swaps with their ticks, launchpad trades and launches), after aggregator-router is killed mid-stream and restarted, and after a reorg of at
// least three blocks (anvil snapshot, revert, another branch).
import { launchpadAbi, stablePoolAbi, stablePoolFactoryAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@dex/abis';
import { createChainClient, readConcentratedPools, type ChainPublicClient } from '@dex/chain';
import { readManifest } from '@dex/devnet-kit';
import { CHAIN_FACTS, type ChainFact, type DevnetManifest } from '@dex/messages';
import { createTestDatabase, startPrivateNatsServer, type PrivateNatsServer, type TestDatabase } from '@dex/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { apiClient, getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(180_000);

/** A pool's state as both sides describe it. */
type PoolState = { kind: string; reserve0?: string; reserve1?: string; nativeReserve?: string; tokenReserve?: string; graduated?: boolean; concentrated?: ConcentratedRecord };
/** A Uniswap V3 or Algebra pool's state: price, tick, active liquidity, fee (pips), tick spacing, initialized ticks ascending. */
type ConcentratedRecord = { sqrtPriceX96: string; tick: number; liquidity: string; fee?: number; tickSpacing?: number; ticks: { index: number; liquidityNet: string; liquidityGross: string }[] };

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
    const manifestPath = join(dir, 'manifest.json');
    devnet = await startApp('devnet', {
      NATS_URL: nats.url,
      DEVNET_PORT_999: '0',
      DEVNET_PORT_4663: '0',
      MANIFEST_PATH: manifestPath,
      DEVNET_LOG_DIR: join(dir, 'logs'),
      GATEWAY_URL: 'http://127.0.0.1:3999',
      DEVNET_SIMULATE: 'true',
      DEVNET_SIMULATE_INTERVAL_MS: '100',
    });
    await until(() => apiClient(devnet.url).request('ready'), (r) => r.status === 200, 90_000);
    manifest = readManifest(manifestPath);
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

  /** The state aggregator-router holds: its block and its V2, stable, concentrated and launchpad pools. */
  async function held(app: AppProcess): Promise<{ block: bigint; pools: Map<string, PoolState> }> {
    const { status, body } = await getJson(`${app.url}/liquidity/999`);
    if (status !== 200) throw new Error(`GET /liquidity/999: ${status} ${JSON.stringify(body)}`);
    const pools = new Map<string, PoolState>();
    for (const p of body.data.pools) {
      if (p.kind === 'core') continue;
      pools.set(p.address.toLowerCase(), { kind: p.kind, reserve0: p.reserve0, reserve1: p.reserve1, nativeReserve: p.nativeReserve, tokenReserve: p.tokenReserve, graduated: p.graduated, concentrated: p.concentrated });
    }
    return { block: BigInt(body.data.blockNumber), pools };
  }

  /**
   * A fresh read of the chain at `block`: every pair of the V2 and stable factories, the V3 and Algebra pools of the
   * sources file read whole (`readConcentratedPools`: ticks from the tick bitmap / tick list), every launched token's curve.
   */
  async function freshRead(blockNumber: bigint): Promise<Map<string, PoolState>> {
    const pools = new Map<string, PoolState>();
    for (const source of chain().sources) {
      if (source.kind !== 'uniswap-v2' && source.kind !== 'stable') continue;
      const factory = source.addresses.factory as Address;
      const abi = source.kind === 'stable' ? stablePoolFactoryAbi : uniswapV2FactoryAbi;
      const count = (await client.readContract({ address: factory, abi, functionName: 'allPairsLength', blockNumber })) as bigint;
      const pairs = (await client.multicall({
        blockNumber,
        allowFailure: false,
        contracts: Array.from({ length: Number(count) }, (_, i) => ({ address: factory, abi, functionName: 'allPairs', args: [BigInt(i)] }) as const),
      })) as Address[];
      const reserves = await client.multicall({
        blockNumber,
        allowFailure: false,
        contracts: pairs.map((address) =>
          source.kind === 'stable'
            ? ({ address, abi: stablePoolAbi, functionName: 'getReserves' } as const)
            : ({ address, abi: uniswapV2PairAbi, functionName: 'getReserves' } as const),
        ),
      });
      pairs.forEach((address, i) => {
        const [r0, r1] = reserves[i] as readonly [bigint, bigint, ...unknown[]];
        pools.set(address.toLowerCase(), { kind: source.kind, reserve0: r0.toString(), reserve1: r1.toString() });
      });
    }
    const concentrated = chain().pools.filter((p): p is typeof p & { kind: 'uniswap-v3' | 'algebra' } => p.kind === 'uniswap-v3' || p.kind === 'algebra');
    expect(concentrated.length).toBeGreaterThan(0);
    const reads = await readConcentratedPools(client, { pools: concentrated.map((p) => ({ address: p.address as Address, kind: p.kind })), blockNumber });
    concentrated.forEach((p, i) => {
      const r = reads[i];
      if (!r) throw new Error(`the ${p.kind} pool ${p.address} did not answer at block ${blockNumber}`);
      pools.set(p.address.toLowerCase(), {
        kind: p.kind,
        concentrated: {
          sqrtPriceX96: r.sqrtPriceX96.toString(),
          tick: r.tick,
          liquidity: r.liquidity.toString(),
          fee: r.fee,
          tickSpacing: r.tickSpacing,
          ticks: r.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
        },
      });
    });
    const launchpad = chain().launchpad.address as Address;
    const count = await client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenCount', blockNumber });
    const [tokens] = await client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getPaginatedTokensWithMetadata', args: [0n, count], blockNumber });
    const states = await client.multicall({
      blockNumber,
      allowFailure: false,
      contracts: tokens.map((token) => ({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] }) as const),
    });
    tokens.forEach((token, i) => {
      const s = states[i];
      pools.set(token.toLowerCase(), { kind: 'launchpad', nativeReserve: s.hypeReserve.toString(), tokenReserve: s.tokenReserve.toString(), graduated: s.graduated });
    });
    return pools;
  }

  /** Waits until the state reaches `atLeast`, then checks it against the chain at its block, pool by pool. */
  async function expectStateEqualsChain(app: AppProcess, atLeast: bigint): Promise<bigint> {
    const { value } = await until(() => held(app), (s) => !(s instanceof Error) && s.block >= atLeast, 60_000);
    const fresh = await freshRead(value.block);
    const strip = (m: Map<string, PoolState>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, JSON.parse(JSON.stringify(v))]));
    expect(strip(value.pools)).toEqual(strip(fresh));
    return value.block;
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
    await until(() => held(router), (s) => !(s instanceof Error) && s.block >= start, 60_000);
    const snapshot = await rpc<string>('evm_snapshot');
    const fork = await client.getBlockNumber();
    // The old branch: at least three blocks, with trades (Sync reserves and curve trades) that the state follows.
    const trades = async () => (await factsReceived(router, CHAIN_FACTS.poolUpdated)) + (await factsReceived(router, CHAIN_FACTS.launchpadTrade));
    const tradesBefore = await trades();
    await until(() => client.getBlockNumber(), (b) => b >= fork + 3n, 60_000);
    await until(trades, (n) => n >= tradesBefore + 3, 60_000);
    const head = await client.getBlockNumber();
    await until(() => held(router), (s) => !(s instanceof Error) && s.block >= head, 60_000);
    const reorgsBefore = await factsReceived(router, CHAIN_FACTS.reorg);
    expect(await rpc('evm_revert', [snapshot])).toBe(true);
    // The new branch, built by the simulator's next trades, grows past the old one.
    await until(() => factsReceived(router, CHAIN_FACTS.reorg), (n) => n > reorgsBefore, 60_000);
    await expectStateEqualsChain(router, (await client.getBlockNumber()) + 2n);
    expect(await reloads(router)).toBe(0);
  });
});
