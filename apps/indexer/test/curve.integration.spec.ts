// Curve NG pools discovered by the indexer on a real chain: the devnet's stand-ins of Curve's StableswapNG and
// TwocryptoNG factories (libs/contracts/src/devnet/curve: NG's interfaces and events, pools created from blueprints)
// on a private anvil, the indexer's own ChainIndexer writing to a real Postgres and publishing on a private NATS
// JetStream. A 2-coin and a 3-coin StableswapNG pool deployed in one block (their PlainPoolDeployed name no pool: the
// indexer reads them from the factory's pool_list) and a TwocryptoNG pool: each coin pair i < j a pool row named by its
// pair id and a pool.created fact (the schema's), the coins followed as tokens; a pool deployed later found at its
// index; a start after all of them reads the factories' pools whole at its first batch; a start at the head finds them
// all from the factories' logs.
import {
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapFactoryNGStandInBytecode,
  curveStableSwapNGStandInBytecode,
  curveTwocryptoFactoryNGStandInAbi,
  curveTwocryptoFactoryNGStandInBytecode,
  curveTwocryptoMathNGStandInAbi,
  curveTwocryptoMathNGStandInBytecode,
  curveTwocryptoNGStandInBytecode,
  curveTwocryptoViewNGStandInAbi,
  curveTwocryptoViewNGStandInBytecode,
  multicall3Abi,
  multicall3Bytecode,
  testERC20Abi,
  testERC20Bytecode,
} from '@dex/abis';
import { blueprintCreationCode, createChainClient, type ChainPublicClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore } from '@dex/db';
import { CHAIN_EVENTS_STREAM, CHAIN_FACTS, chainFactSubject, curvePairId, poolCreatedEventSchema } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { artifactOf, createTestDatabase, startOnchainChain, startPrivateNatsServer, type OnchainChain, type PrivateNatsServer, type TestDatabase } from '@dex/testing';
import { parseAbiItem, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { ChainIndexer, type ChainIndexerOptions } from '../src/chain/chain-indexer';
import type { ChainWatchList, SourceRef } from '../src/chain/watch-list';
import { indexerMetrics } from '../src/metrics';
import { OutboxPublisher } from '../src/publisher';

jest.setTimeout(180_000);

const CHAIN_ID = 999;
const NG_SOURCE = { name: 'Curve NG', kind: 'curve-stableswap-ng', routerIndex: 10, feeBps: null } as const satisfies SourceRef;
const TWOCRYPTO_SOURCE = { name: 'Curve Twocrypto', kind: 'curve-twocrypto-ng', routerIndex: 11, feeBps: null } as const satisfies SourceRef;
/** TwocryptoNG's deploy_pool (served by the stand-in's fallback, so not in its ABI: the Vyper's interface). */
const deployPoolFunction = parseAbiItem(
  'function deploy_pool(string _name, string _symbol, address[2] _coins, uint256 implementation_id, uint256 A, uint256 gamma, uint256 mid_fee, uint256 out_fee, uint256 fee_gamma, uint256 allowed_extra_profit, uint256 adjustment_step, uint256 ma_exp_time, uint256 initial_price) returns (address)',
);

/** A pool as the test deployed it: its address, its coins in its order, the block of its deployment. */
interface DeployedPool {
  address: Address;
  coins: Address[];
  kind: 'curve-stableswap-ng' | 'curve-twocrypto-ng';
  factory: Address;
  block: bigint;
}

/** A stored pool row's columns the test checks. */
const rowOf = (p: { address: string; kind: string; routerIndex: number; source: string; discoveredBy: string | null; token0: string; token1: string; stable: boolean; createdBlock: bigint }) => ({
  address: p.address,
  kind: p.kind,
  routerIndex: p.routerIndex,
  source: p.source,
  discoveredBy: p.discoveredBy,
  token0: p.token0,
  token1: p.token1,
  stable: p.stable,
  createdBlock: p.createdBlock,
});

/** The pair rows a pool should have (created at `block`, default its deployment's). */
function expectedRows(pool: DeployedPool, block = pool.block) {
  const source = pool.kind === 'curve-stableswap-ng' ? NG_SOURCE : TWOCRYPTO_SOURCE;
  const rows = [];
  for (let i = 0; i < pool.coins.length; i++) {
    for (let j = i + 1; j < pool.coins.length; j++) {
      rows.push({
        address: curvePairId(pool.address, i, j),
        kind: pool.kind,
        routerIndex: source.routerIndex,
        source: source.name,
        discoveredBy: pool.factory,
        token0: pool.coins[i],
        token1: pool.coins[j],
        stable: pool.kind === 'curve-stableswap-ng',
        createdBlock: block,
      });
    }
  }
  return rows;
}

/** The pool.created payload of each pair row. */
const expectedFacts = (pool: DeployedPool, block = pool.block) =>
  expectedRows(pool, block).map((r) => {
    const [, i, j] = r.address.split(':').map(Number);
    return { chainId: CHAIN_ID, blockNumber: block.toString(), address: r.address, kind: r.kind, routerIndex: r.routerIndex, token0: r.token0, token1: r.token1, stable: r.stable, pool: pool.address, i, j, nCoins: pool.coins.length };
  });

const byAddress = <T extends { address?: unknown }>(rows: T[]): T[] => [...rows].sort((a, b) => String(a.address).localeCompare(String(b.address)));

describe('Curve NG pools: each coin pair of the factories’ pools stored and announced', () => {
  let chain: OnchainChain;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let client: ChainPublicClient;
  let store: IndexerStore;
  let publisher: OutboxPublisher;
  let indexer: ChainIndexer;
  let ngFactory: Address;
  let twocryptoFactory: Address;
  const coins: Address[] = [];
  const pools: DeployedPool[] = [];
  const logger = createJsonLogger('indexer', 'warn');
  const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never });

  const watch = (): ChainWatchList => ({
    chainId: CHAIN_ID,
    announcers: new Map<Address, SourceRef>([
      [ngFactory, NG_SOURCE],
      [twocryptoFactory, TWOCRYPTO_SOURCE],
    ]),
    tokens: [],
    pools: [],
    wrappedNative: null,
  });

  const newIndexer = async (on: { store: IndexerStore; db: TestDatabase }, options: Partial<ChainIndexerOptions>, onEvents?: () => void) => {
    const created = new ChainIndexer({
      chainId: CHAIN_ID,
      client,
      store: on.store,
      checkpoints: new CheckpointRepository(on.db.client),
      watch: watch(),
      options: { startBlock: 0n, batchSize: 6, confirmations: 0, reorgWindow: 16, blockRetention: 1_000, pollIntervalMs: 50, ...options },
      logger,
      metrics: indexerMetrics(),
      onEvents,
    });
    await created.init();
    return created;
  };

  /** A contract's blueprint (EIP-5202: 0xFE7100 and its creation code), deployed by the code Vyper's create_copy_of uses. */
  async function blueprint(bytecode: Hex): Promise<Address> {
    const creation = blueprintCreationCode(bytecode);
    const hash = await chain.wallet.sendTransaction({ account: chain.account, chain: chain.wallet.chain, data: creation, gas: 15_000_000n });
    return (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!;
  }

  /** Deploys StableswapNG plain pools of `coinSets` through the factory, all in one block. */
  async function deployNGPools(coinSets: Address[][]): Promise<void> {
    const before = Number(await client.readContract({ address: ngFactory, abi: curveStableSwapFactoryNGStandInAbi, functionName: 'pool_count' }));
    await rpc('evm_setAutomine', [false]);
    let nonce = await client.getTransactionCount({ address: chain.account.address, blockTag: 'pending' });
    const hashes: Hex[] = [];
    for (const set of coinSets) {
      const n = set.length;
      const args = ['Pool', 'NG', set, 200n, 4_000_000n, 20_000_000_000n, 866n, 0n, set.map(() => 0), set.map(() => '0x00000000'), set.map(() => zeroAddress)];
      hashes.push(await chain.wallet.writeContract({ address: ngFactory, abi: curveStableSwapFactoryNGStandInAbi as Abi, functionName: 'deploy_plain_pool', args, account: chain.account, chain: chain.wallet.chain, gas: 10_000_000n * BigInt(n), nonce: nonce++ } as never));
    }
    await rpc('evm_mine');
    await rpc('evm_setAutomine', [true]);
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
    expect(receipts.map((r) => r.status)).toEqual(coinSets.map(() => 'success'));
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    for (const [k, set] of coinSets.entries()) {
      const address = (await client.readContract({ address: ngFactory, abi: curveStableSwapFactoryNGStandInAbi, functionName: 'pool_list', args: [BigInt(before + k)] })) as Address;
      pools.push({ address, coins: set, kind: 'curve-stableswap-ng', factory: ngFactory, block: receipts[0].blockNumber });
    }
  }

  /** The pool.created facts on JetStream, validated by the schema (the common fields kept: chainId, blockNumber). */
  async function publishedPoolCreated(): Promise<Record<string, unknown>[]> {
    await publisher.drain();
    const jsm = await bus.current!.jetstreamManager();
    const info = await jsm.streams.info(CHAIN_EVENTS_STREAM);
    const facts: Record<string, unknown>[] = [];
    for (let seq = 1; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(CHAIN_EVENTS_STREAM, { seq }).catch(() => undefined);
      if (msg?.subject !== chainFactSubject(CHAIN_ID, CHAIN_FACTS.poolCreated)) continue;
      const data = msg.json<Record<string, unknown>>();
      expect(poolCreatedEventSchema.parse(data)).toEqual(data);
      expect(msg.header.get('Nats-Msg-Id')).toBe(`${CHAIN_ID}:${data.blockNumber}:pool:${data.address}:${data.blockHash}`);
      const { blockHash: _h, timestamp: _t, ...rest } = data;
      facts.push(rest);
    }
    return facts;
  }

  beforeAll(async () => {
    [chain, db, nats] = await Promise.all([startOnchainChain({ chainId: CHAIN_ID }), createTestDatabase(), startPrivateNatsServer()]);
    const multicall3 = await chain.deploy(artifactOf({ abi: multicall3Abi, bytecode: multicall3Bytecode }));
    client = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, multicall3, timeoutMs: 60_000, pollingIntervalMs: 20 });
    bus = new NatsBus({ url: nats.url, name: 'indexer-curve-test', logger });
    await bus.connect();
    store = new IndexerStore(db.client);
    publisher = new OutboxPublisher(store, bus, logger, indexerMetrics(), { retryMs: 200 });

    for (const [k, decimals] of [18, 6, 6, 18].entries()) coins.push(await chain.deploy(artifactOf({ abi: testERC20Abi, bytecode: testERC20Bytecode }), [`Coin ${k}`, `C${k}`, decimals]));
    const me = chain.account.address;
    ngFactory = await chain.deploy(artifactOf({ abi: curveStableSwapFactoryNGStandInAbi, bytecode: curveStableSwapFactoryNGStandInBytecode }), [me, me]);
    await chain.send(ngFactory, curveStableSwapFactoryNGStandInAbi as Abi, 'set_pool_implementations', [0n, await blueprint(curveStableSwapNGStandInBytecode as Hex)]);
    // TwocryptoNG: the deployer (tx.origin at construction) initialises the ownership; the pool's blueprint, the maths and the views.
    twocryptoFactory = await chain.deploy(artifactOf({ abi: curveTwocryptoFactoryNGStandInAbi, bytecode: curveTwocryptoFactoryNGStandInBytecode }));
    await chain.send(twocryptoFactory, curveTwocryptoFactoryNGStandInAbi as Abi, 'initialise_ownership', [me, me]);
    await chain.send(twocryptoFactory, curveTwocryptoFactoryNGStandInAbi as Abi, 'set_pool_implementation', [await blueprint(curveTwocryptoNGStandInBytecode as Hex), 0n]);
    await chain.send(twocryptoFactory, curveTwocryptoFactoryNGStandInAbi as Abi, 'set_math_implementation', [await chain.deploy(artifactOf({ abi: curveTwocryptoMathNGStandInAbi, bytecode: curveTwocryptoMathNGStandInBytecode }))]);
    await chain.send(twocryptoFactory, curveTwocryptoFactoryNGStandInAbi as Abi, 'set_views_implementation', [await chain.deploy(artifactOf({ abi: curveTwocryptoViewNGStandInAbi, bytecode: curveTwocryptoViewNGStandInBytecode }))]);

    // A 2-coin pool (its coins not in address order) and a 3-coin pool in one block; then a TwocryptoNG pool.
    await deployNGPools([
      [coins[1], coins[0]],
      [coins[0], coins[1], coins[2]],
    ]);
    const receipt = await chain.send(twocryptoFactory, [deployPoolFunction] as Abi, 'deploy_pool', [
      'Curve TwoCrypto',
      'crv2',
      [coins[2], coins[3]],
      0n,
      400_000n,
      145_000_000_000_000n,
      26_000_000n,
      45_000_000n,
      230_000_000_000_000n,
      2_000_000_000_000n,
      146_000_000_000_000n,
      866n,
      10n ** 18n,
    ]);
    const crypto = (await client.readContract({ address: twocryptoFactory, abi: curveTwocryptoFactoryNGStandInAbi, functionName: 'pool_list', args: [0n] })) as Address;
    pools.push({ address: crypto, coins: [coins[2], coins[3]], kind: 'curve-twocrypto-ng', factory: twocryptoFactory, block: receipt.blockNumber });

    indexer = await newIndexer({ store, db }, {}, () => publisher.kick());
  });

  afterAll(async () => {
    await indexer?.stop();
    await publisher?.close();
    await bus?.close();
    await Promise.all([chain?.node.stop(), db?.drop(), nats?.dispose()]);
  });

  it('stores a row per coin pair i < j of each pool, named by its pair id, and publishes its pool.created fact', async () => {
    await indexer.catchUp();
    const stored = (await store.knownPools(CHAIN_ID)).map(rowOf);
    expect(byAddress(stored)).toEqual(byAddress(pools.flatMap((p) => expectedRows(p))));
    expect(stored).toHaveLength(1 + 3 + 1);
    // The pools' coins are followed, their metadata read.
    const tokens = await db.client.token.findMany({ where: { chainId: CHAIN_ID }, orderBy: { address: 'asc' } });
    expect(tokens.map((t) => [t.address, t.symbol, t.decimals, t.source, t.isERC20Verified])).toEqual(
      coins.map((c, k) => [c, `C${k}`, [18, 6, 6, 18][k], 'pool', true]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(byAddress(await publishedPoolCreated())).toEqual(byAddress(pools.flatMap((p) => expectedFacts(p))));
  });

  it('finds a pool deployed later at its index in the factory', async () => {
    await deployNGPools([[coins[3], coins[2]]]);
    await indexer.catchUp();
    const later = pools[pools.length - 1];
    const stored = (await store.knownPools(CHAIN_ID)).map(rowOf).filter((p) => p.address.startsWith(later.address.toLowerCase()));
    expect(stored).toEqual(expectedRows(later));
    expect(byAddress((await publishedPoolCreated()).filter((f) => String(f.address).startsWith(later.address.toLowerCase())))).toEqual(expectedFacts(later));
  });

  it('reads the pools of factories from before its start at its first batch, created at that batch’s last block', async () => {
    const second = await createTestDatabase();
    try {
      const secondStore = new IndexerStore(second.client);
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const fresh = await newIndexer({ store: secondStore, db: second }, { startBlock: head + 1n });
      await rpc('anvil_mine', ['0x2']);
      await fresh.catchUp();
      const at = head + 2n;
      const stored = (await secondStore.knownPools(CHAIN_ID)).map(rowOf);
      expect(byAddress(stored)).toEqual(byAddress(pools.flatMap((p) => expectedRows(p, at))));
      const facts = (await secondStore.pendingEvents(10_000)).filter((e) => e.subject === chainFactSubject(CHAIN_ID, CHAIN_FACTS.poolCreated));
      const payloads = facts.map((e) => {
        const data = e.payload as Record<string, unknown>;
        expect(poolCreatedEventSchema.parse(data)).toEqual(data);
        const { blockHash: _h, timestamp: _t, ...rest } = data;
        return rest;
      });
      expect(byAddress(payloads)).toEqual(byAddress(pools.flatMap((p) => expectedFacts(p, at))));
      // Once read, the factories are not read again: a later batch announces nothing new.
      await rpc('anvil_mine', ['0x1']);
      await fresh.catchUp();
      expect(await secondStore.knownPools(CHAIN_ID)).toHaveLength(stored.length);
      await fresh.stop();
    } finally {
      await second.drop();
    }
  });

  it('a start at the head finds every pool from the factories’ logs, each at its deployment block', async () => {
    const third = await createTestDatabase();
    try {
      const thirdStore = new IndexerStore(third.client);
      const atHead = await newIndexer({ store: thirdStore, db: third }, { startAtHead: true, batchSize: 50 });
      await atHead.catchUp();
      expect(byAddress((await thirdStore.knownPools(CHAIN_ID)).map(rowOf))).toEqual(byAddress(pools.flatMap((p) => expectedRows(p))));
      await atHead.stop();
    } finally {
      await third.drop();
    }
  });
});
