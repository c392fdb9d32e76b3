// Uniswap V4 pools indexed from their PoolManager's events on a real chain: v4-core's own PoolManager bytecode
// (@uniswap/v4-core's `out/`) with v4-periphery's StateView and V4Quoter on a private anvil (the testing lib's
// `startOnchainChain`), pools set up and moved by the test actor (`UniswapV4Actor.sol`): two tokens with a protocol
// fee switched on, the native coin against a token (its wrapped token sorting above the other: token0 above token1),
// a dynamic-fee pool whose hook (an impersonated address) changes its LP fee without an event, and a pool whose hook
// may change swaps. Random positions added and removed, swaps that stay and donations, block after block, indexed by
// the indexer's own ChainIndexer into a real Postgres. The published pool.created and pool.concentrated payloads,
// through the liquidity state (the dynamic LP fee read from slot0 each block, as a service does), must equal what
// extsload (libs/chain's readUniswapV4Pools) and StateView report after every block, through a reorg too; a state
// loaded from a whole read (the key from Initialize, the storage through extsload) follows the same facts to the
// same state; and the engine's legs on the built state quote what the PoolManager's own swap does, to the wei.
import { multicall3Abi, multicall3Bytecode, testERC20Abi, testERC20Bytecode } from '@dex/abis';
import { createChainClient, readUniswapV4PoolKeys, readUniswapV4Pools, readUniswapV4Slot0s, type ChainPublicClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore } from '@dex/db';
// The test checks both ends of the V4 facts: the indexer that publishes them and the liquidity state that takes them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ChainLiquidityState, concentratedFactOf, poolCreatedFactOf, routingView, uniswapV4Exclusion, type LiquidityFact, type PoolRecord } from '@dex/liquidity';
import { CHAIN_FACTS, chainEventSchemas, parseChainSubject, type UniswapV4PoolRead } from '@dex/messages';
import { getSqrtRatioAtTick, type ConcentratedLeg, type UniswapV4PoolSnapshot } from '@dex/routing';
import { createJsonLogger } from '@dex/service';
import { artifactOf, compileUniswapV4Actor, createTestDatabase, mulberry32, ONCHAIN_CALL_GAS, startOnchainChain, type OnchainChain, type Random, type TestDatabase } from '@dex/testing';
import poolManagerArtifact from '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json';
import stateViewArtifact from '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json';
import v4QuoterArtifact from '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json';
import { encodeAbiParameters, getAddress, keccak256, toHex, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { ChainIndexer } from '../src/chain/chain-indexer';
import type { ChainWatchList } from '../src/chain/watch-list';
import { indexerMetrics } from '../src/metrics';

jest.setTimeout(120_000);

const CHAIN_ID = 999;
const BLOCKS = 20;
const Q96 = 2n ** 96n;
const SOURCE = { name: 'V4', kind: 'uniswap-v4', routerIndex: 9 } as const;
/** A hook with only afterDonate (1 << 4): it cannot change swaps; the dynamic-fee pool's, impersonated to set its LP fee. */
const FEE_HOOK = getAddress('0x00000000000000000000000000000000000f0010');
/** A hook with beforeSwap (1 << 7): its pool is kept, not routed (and never swapped: the hook has no code). */
const SWAP_HOOK = getAddress('0x00000000000000000000000000000000000f0080');
const DYNAMIC_FEE = 0x800000;

const foundry = (a: { abi: unknown; bytecode: { object: string } }) => ({ abi: a.abi as Abi, bytecode: a.bytecode.object as Hex });

interface PoolKey {
  readonly currency0: Address;
  readonly currency1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: Address;
}

interface TestPool {
  readonly name: string;
  readonly key: PoolKey;
  readonly id: Hex;
  /** The actor's open positions (salt 0), as the chain holds them. */
  positions: { lower: number; upper: number; liquidity: bigint }[];
  readonly swaps: boolean;
  readonly donations: boolean;
}

const POOL_KEY = { type: 'tuple', components: [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] } as const;
const poolId = (key: PoolKey): Hex => keccak256(encodeAbiParameters([POOL_KEY], [[key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]]));

/** What the state holds of a pool, in the shape of a whole read. */
function heldOf(record: PoolRecord | undefined): UniswapV4PoolRead | undefined {
  const c = record?.concentrated;
  const v4 = record?.uniswapV4;
  if (!c || !v4) return undefined;
  const ticks = [...c.ticks].sort((a, b) => a[0] - b[0]).map(([index, t]) => ({ index, liquidityGross: t.liquidityGross, liquidityNet: t.liquidityNet }));
  return { sqrtPriceX96: c.sqrtPriceX96, tick: c.tick, protocolFee: v4.protocolFee, lpFee: c.fee ?? -1, liquidity: c.liquidity, ticks };
}

describe('Uniswap V4 pools: the liquidity state from the indexed PoolManager events equals the chain', () => {
  let chain: OnchainChain;
  let client: ChainPublicClient;
  let db: TestDatabase;
  let store: IndexerStore;
  let indexer: ChainIndexer;
  let actor: Address;
  let actorAbi: Abi;
  let manager: Address;
  let stateView: Address;
  let quoter: Address;
  let wrapped: Address;
  const pools: TestPool[] = [];
  const state = new ChainLiquidityState(CHAIN_ID, { retainBlocks: 64 });
  /** Every fact applied, in order, and each fee read (block, pool, slot0): what a state loaded later follows. */
  const applied: LiquidityFact[] = [];

  const poolOf = (name: string) => pools.find((p) => p.name === name)!;
  const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never });

  beforeAll(async () => {
    const [compiled, started, database] = await Promise.all([compileUniswapV4Actor(), startOnchainChain({ chainId: CHAIN_ID }), createTestDatabase()]);
    [chain, db, actorAbi] = [started, database, compiled.abi];
    client = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, timeoutMs: 60_000 });
    // Multicall3 where the services' clients look for it (the indexer reads token metadata through it).
    const multicall = await chain.deploy(artifactOf({ abi: multicall3Abi, bytecode: multicall3Bytecode }));
    await rpc('anvil_setCode', [client.chain.contracts!.multicall3!.address, await client.getCode({ address: multicall })]);
    actor = await chain.deploy(compiled);
    await rpc('anvil_setBalance', [actor, toHex(1n << 200n)]);
    const tokens: Address[] = [];
    for (let i = 0; i < 3; i++) {
      const token = await chain.deploy(artifactOf({ abi: testERC20Abi, bytecode: testERC20Bytecode }), [`Token ${i}`, `T${i}`, 18]);
      await chain.send(token, testERC20Abi as Abi, 'mint', [actor, 1n << 220n]);
      tokens.push(token);
    }
    // The wrapped native token sorts above the others: a native pool's token0 (it) sorts above its token1.
    const [a, b, w] = [...tokens].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
    wrapped = w;
    manager = await chain.deploy(foundry(poolManagerArtifact), [chain.account.address]);
    stateView = await chain.deploy(foundry(stateViewArtifact), [manager]);
    quoter = await chain.deploy(foundry(v4QuoterArtifact), [manager]);
    await chain.send(manager, poolManagerArtifact.abi as Abi, 'setProtocolFeeController', [chain.account.address]);
    await rpc('anvil_impersonateAccount', [FEE_HOOK]);
    await rpc('anvil_setBalance', [FEE_HOOK, toHex(10n ** 20n)]);

    store = new IndexerStore(db.client);
    const watch: ChainWatchList = { chainId: CHAIN_ID, announcers: new Map([[manager, { ...SOURCE, feeBps: null }]]), tokens: [], pools: [], wrappedNative: wrapped };
    indexer = new ChainIndexer({
      chainId: CHAIN_ID,
      client,
      store,
      checkpoints: new CheckpointRepository(db.client),
      watch,
      options: { startBlock: 0n, batchSize: 50, confirmations: 0, reorgWindow: 16, blockRetention: 1_000, pollIntervalMs: 50 },
      logger: createJsonLogger('indexer', 'warn'),
      metrics: indexerMetrics(),
    });
    await indexer.init();

    const add = (name: string, key: PoolKey, sqrtPriceX96: bigint, spacing: number, swaps = true, donations = true) => {
      const positions = [
        { lower: -100 * spacing, upper: 100 * spacing, liquidity: 10n ** 21n },
        { lower: -3 * spacing, upper: 5 * spacing, liquidity: 4n * 10n ** 21n },
      ];
      pools.push({ name, key, id: poolId(key), positions, swaps, donations });
      return chain.send(actor, actorAbi, 'setUp', [manager, key, sqrtPriceX96, positions, { active: false, zeroForOne: false, amount: 0n, limit: 0n }]);
    };
    await add('tokens', { currency0: a, currency1: b, fee: 3000, tickSpacing: 60, hooks: zeroAddress }, Q96, 60);
    await add('native', { currency0: zeroAddress, currency1: a, fee: 500, tickSpacing: 10, hooks: zeroAddress }, (Q96 * 3n) / 2n, 10);
    // The afterDonate hook has no code: no donation to its pool.
    await add('dynamic', { currency0: a, currency1: b, fee: DYNAMIC_FEE, tickSpacing: 60, hooks: FEE_HOOK }, Q96, 60, true, false);
    await add('hooked', { currency0: a, currency1: b, fee: 500, tickSpacing: 10, hooks: SWAP_HOOK }, Q96, 10, false, false);
    await chain.send(manager, poolManagerArtifact.abi as Abi, 'setProtocolFee', [poolOf('tokens').key, 1000 | (400 << 12)]);
  });

  afterAll(async () => {
    await indexer?.stop();
    await Promise.all([chain?.node.stop(), db?.drop()]);
  });

  /** The published payload, validated by its schema, as the liquidity state's fact. */
  function liquidityFactOf(subject: string, payload: unknown): LiquidityFact | undefined {
    const parsed = parseChainSubject(subject);
    if (!parsed) throw new Error(`not a chain fact: ${subject}`);
    switch (parsed.fact) {
      case CHAIN_FACTS.poolCreated:
        return poolCreatedFactOf(chainEventSchemas[CHAIN_FACTS.poolCreated].parse(payload));
      case CHAIN_FACTS.poolConcentrated:
        return concentratedFactOf(chainEventSchemas[CHAIN_FACTS.poolConcentrated].parse(payload));
      case CHAIN_FACTS.block:
        return { type: 'blockProcessed', block: BigInt(chainEventSchemas[CHAIN_FACTS.block].parse(payload).blockNumber) };
      case CHAIN_FACTS.reorg:
        return { type: 'reorg', ancestor: BigInt(chainEventSchemas[CHAIN_FACTS.reorg].parse(payload).ancestor) };
      default:
        return undefined;
    }
  }

  /** A state's dynamic LP fees read from slot0 at its block, as a service does at each block. */
  async function readFees(target: ChainLiquidityState): Promise<void> {
    const due = target.managedFeeReads({ sources: [SOURCE], wrappedNative: wrapped });
    const reads = await readUniswapV4Slot0s(client, { poolManager: manager, ids: due.map((p) => p.address as Hex), blockNumber: target.block });
    due.forEach((p, i) => target.setManagedFees(p.address, reads[i]!, target.block));
  }

  /** Indexes up to the head, applies the outbox's events to the state in publishing order, reads the dynamic fees. */
  async function follow(): Promise<void> {
    await indexer.catchUp();
    for (;;) {
      const events = await store.pendingEvents(500);
      if (events.length === 0) break;
      for (const e of events) {
        const fact = liquidityFactOf(e.subject, e.payload);
        if (!fact) continue;
        expect({ fact: e.subject, payload: e.payload, outcome: state.apply(fact) }).toEqual({ fact: e.subject, payload: e.payload, outcome: 'applied' });
        applied.push(fact);
      }
      await store.deleteEvents(events.map((e) => e.id));
    }
    await readFees(state);
  }

  /** Every pool read through extsload and StateView at the state's block, against what the state holds. */
  async function expectStateEqualsChain(): Promise<void> {
    const block = state.block;
    expect(block).toBe(await client.getBlockNumber({ cacheTime: 0 }));
    const reads = await readUniswapV4Pools(client, { poolManager: manager, blockNumber: block, pools: pools.map((p) => ({ id: p.id, tickSpacing: p.key.tickSpacing })) });
    for (const [i, p] of pools.entries()) {
      const held = heldOf(state.pool(p.id));
      expect({ block, pool: p.name, held }).toEqual({ block, pool: p.name, held: reads[i] });
      const view = (functionName: string, args: readonly unknown[]) => client.readContract({ address: stateView, abi: stateViewArtifact.abi as Abi, functionName, args, blockNumber: block });
      const [sqrtPriceX96, tick, protocolFee, lpFee] = (await view('getSlot0', [p.id])) as [bigint, number, number, number];
      const liquidity = (await view('getLiquidity', [p.id])) as bigint;
      const ticks = await Promise.all(held!.ticks.map(async (t) => ((await view('getTickLiquidity', [p.id, t.index])) as [bigint, bigint])));
      expect({ pool: p.name, sqrtPriceX96, tick, protocolFee, lpFee, liquidity, ticks }).toEqual({ ...held, pool: p.name, ticks: held!.ticks.map((t) => [t.liquidityGross, t.liquidityNet]) });
    }
  }

  /** Sends a block of random actions (mined together), then mines it. */
  async function randomBlock(random: Random): Promise<void> {
    await rpc('evm_setAutomine', [false]);
    let nonce = await client.getTransactionCount({ address: chain.account.address, blockTag: 'pending' });
    const sent: { hash: Hex; after?: () => void }[] = [];
    const act = async (functionName: string, args: unknown[], after?: () => void) => {
      const hash = await chain.wallet.writeContract({ address: actor, abi: actorAbi, functionName, args, account: chain.account, chain: chain.wallet.chain, gas: 8_000_000n, nonce: nonce++ } as never);
      sent.push({ hash, after });
    };
    const n = 2 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) await randomAction(random, pools[Math.floor(random() * pools.length)], act);
    if (random() < 0.5) {
      const fee = Math.floor(random() * 20_000);
      sent.push({ hash: await chain.wallet.writeContract({ address: manager, abi: poolManagerArtifact.abi as Abi, functionName: 'updateDynamicLPFee', args: [poolOf('dynamic').key, fee], account: FEE_HOOK, chain: chain.wallet.chain, gas: 1_000_000n } as never) });
    }
    await rpc('evm_mine');
    await rpc('evm_setAutomine', [true]);
    for (const { hash, after } of sent) {
      // A swap may fail (no liquidity on its way); position changes of held positions do not.
      if ((await client.waitForTransactionReceipt({ hash })).status === 'success') after?.();
    }
  }

  /** One random action on a pool: a position added or (partly) removed, a swap that stays, a donation. */
  async function randomAction(random: Random, pool: TestPool, act: (functionName: string, args: unknown[], after?: () => void) => Promise<void>): Promise<void> {
    const spacing = pool.key.tickSpacing;
    const tick = state.pool(pool.id)?.concentrated?.tick ?? 0;
    const r = random();
    if (r < 0.3 || pool.positions.length < 2) {
      const bounds = pool.positions.flatMap((p) => [p.lower, p.upper]);
      const lower = bounds.length && random() < 0.3 ? bounds[Math.floor(random() * bounds.length)] : (Math.floor(tick / spacing) - 1 - Math.floor(random() * 20)) * spacing;
      const upper = lower + (1 + Math.floor(random() * 30)) * spacing;
      const liquidity = BigInt(1 + Math.floor(random() * 1000)) * 10n ** BigInt(17 + Math.floor(random() * 4));
      await act('modify', [manager, pool.key, [{ lower, upper, liquidityDelta: liquidity }]], () => pool.positions.push({ lower, upper, liquidity }));
    } else if (r < 0.5) {
      const position = pool.positions[Math.floor(random() * pool.positions.length)];
      const amount = random() < 0.4 ? position.liquidity : (position.liquidity * BigInt(1 + Math.floor(random() * 99))) / 100n;
      // Taken off at once so that another change of the block cannot ask for more than is left.
      position.liquidity -= amount;
      await act('modify', [manager, pool.key, [{ lower: position.lower, upper: position.upper, liquidityDelta: -amount }]], () => {
        if (position.liquidity === 0n) pool.positions.splice(pool.positions.indexOf(position), 1);
      });
    } else if (r < 0.62 && pool.swaps) {
      // A swap to an initialized tick's price: it ends on the tick.
      const bounds = [...new Set(pool.positions.flatMap((p) => [p.lower, p.upper]))].filter((t) => t !== tick);
      const target = bounds[Math.floor(random() * bounds.length)];
      if (target !== undefined) await act('swap', [manager, pool.key, target < tick, -(1n << 126n), getSqrtRatioAtTick(target)]);
    } else if (r < 0.9 && pool.swaps) {
      const magnitude = BigInt(1 + Math.floor(random() * 1000)) * 10n ** BigInt(14 + Math.floor(random() * 4));
      await act('swap', [manager, pool.key, random() < 0.5, random() < 0.7 ? -magnitude : magnitude, 0n]);
    } else if (pool.donations) {
      await act('donate', [manager, pool.key, BigInt(Math.floor(random() * 1e9)), BigInt(Math.floor(random() * 1e9))]);
    }
  }

  it('follows random position changes, swaps, donations and dynamic fees block by block, and a reorg', async () => {
    const random = mulberry32(404);
    await follow();
    expect(pools.map((p) => state.pool(p.id)?.kind)).toEqual(['uniswap-v4', 'uniswap-v4', 'uniswap-v4', 'uniswap-v4']);
    expect(state.pool(poolOf('native').id)).toMatchObject({ token0: wrapped, token1: poolOf('native').key.currency1, uniswapV4: { currency0: zeroAddress, poolManager: manager } });
    await expectStateEqualsChain();
    for (let b = 0; b < BLOCKS; b++) {
      await randomBlock(random);
      await follow();
      await expectStateEqualsChain();
    }
    const types = applied.map((f) => f.type);
    for (const type of ['poolCreated', 'positionChanged', 'concentratedSwapped', 'poolDonated', 'protocolFeeChanged'] as const) expect(types).toContain(type);
    expect(applied.some((f) => f.type === 'positionChanged' && f.liquidityDelta < 0n)).toBe(true);
    expect(state.pool(poolOf('dynamic').id)!.concentrated!.fee).not.toBe(0);

    // A reorg: two blocks replaced by three others.
    const kept = pools.map((p) => p.positions.map((q) => ({ ...q })));
    const snapshot = await rpc('evm_snapshot');
    const ancestor = state.block;
    await randomBlock(random);
    await randomBlock(random);
    await follow();
    await expectStateEqualsChain();
    await rpc('evm_revert', [snapshot]);
    pools.forEach((p, i) => (p.positions = kept[i]));
    for (let b = 0; b < 3; b++) await randomBlock(random);
    await follow();
    expect(applied.some((f) => f.type === 'reorg' && f.ancestor === ancestor)).toBe(true);
    await expectStateEqualsChain();
  });

  /**
   * A state started at `block` from pools as a store holds them (no key, no state), each read whole as a service
   * does: its key from its Initialize (in its creation block), its storage through the PoolManager's extsload.
   */
  async function loadedState(block: bigint, stored: readonly Pick<PoolRecord, 'kind' | 'address' | 'routerIndex' | 'token0' | 'token1' | 'createdBlock'>[]): Promise<ChainLiquidityState> {
    const records: PoolRecord[] = stored.map(({ kind, address, routerIndex, token0, token1, createdBlock }) => ({
      kind,
      address: address.toLowerCase(),
      routerIndex,
      token0,
      token1,
      createdBlock,
      at: { block, logIndex: Number.MAX_SAFE_INTEGER },
    }));
    const later = new ChainLiquidityState(CHAIN_ID, {}, { block, pools: records, tokens: [] });
    const stateless = later.statelessManagedPools();
    expect(stateless).toHaveLength(pools.length);
    const keys = await readUniswapV4PoolKeys(client, { poolManager: manager, pools: stateless.map((p) => ({ id: p.address as Hex, block: p.createdBlock })) });
    expect(keys).toEqual(stateless.map((p) => pools.find((q) => q.id === p.address)!.key));
    const reads = await readUniswapV4Pools(client, { poolManager: manager, blockNumber: block, pools: stateless.map((p, i) => ({ id: p.address as Hex, tickSpacing: keys[i]!.tickSpacing })) });
    stateless.forEach((p, i) => expect(later.setManagedState(p.address, { poolManager: manager, key: keys[i]!, state: reads[i]! }, block)).toBe(true));
    return later;
  }

  /** What two states hold of every pool (their V4 and concentrated states) is the same. */
  function expectSameState(later: ChainLiquidityState): void {
    expect(later.block).toBe(state.block);
    for (const p of pools) {
      const { concentrated, uniswapV4, token0, token1 } = later.pool(p.id)!;
      const held = state.pool(p.id)!;
      expect({ pool: p.name, concentrated, uniswapV4, token0, token1 }).toEqual({ pool: p.name, concentrated: held.concentrated, uniswapV4: held.uniswapV4, token0: held.token0, token1: held.token1 });
    }
  }

  it('a state loaded from a whole read of the pools (key from Initialize, storage through extsload) follows the same facts to the same state', async () => {
    const loadedAt = state.block - 8n;
    const later = await loadedState(loadedAt, pools.map((p) => state.pool(p.id)!));
    // Facts up to the load are duplicates; the replaced branch's facts and the reorg are undone in order.
    for (const fact of applied) later.apply(fact);
    await readFees(later);
    expectSameState(later);
  });

  it("a start at the head stores the pools by PoolId from the PoolManager's Initialize logs, leaves their events' history out, and a state read whole from them is the followed one", async () => {
    const second = await createTestDatabase();
    try {
      const headStore = new IndexerStore(second.client);
      const atHead = new ChainIndexer({
        chainId: CHAIN_ID,
        client,
        store: headStore,
        checkpoints: new CheckpointRepository(second.client),
        watch: { chainId: CHAIN_ID, announcers: new Map([[manager, { ...SOURCE, feeBps: null }]]), tokens: [], pools: [], wrappedNative: wrapped },
        options: { startBlock: 0n, startAtHead: true, batchSize: 50, confirmations: 0, reorgWindow: 16, blockRetention: 1_000, pollIntervalMs: 50 },
        logger: createJsonLogger('indexer', 'warn'),
        metrics: indexerMetrics(),
      });
      await atHead.init();
      await atHead.catchUp();
      const facts = (await headStore.pendingEvents(10_000)).map((e) => ({ fact: parseChainSubject(e.subject)!.fact, payload: e.payload as { address?: string } }));
      expect(facts.filter((f) => f.fact === CHAIN_FACTS.poolConcentrated)).toEqual([]);
      expect(facts.filter((f) => f.fact === CHAIN_FACTS.poolCreated).map((f) => f.payload.address).sort()).toEqual(pools.map((p) => p.id).sort());
      const stored = await headStore.knownPools(CHAIN_ID);
      expect(stored.map((p) => [p.address, p.kind, p.discoveredBy]).sort()).toEqual(pools.map((p) => [p.id, 'uniswap-v4', manager]).sort());
      const later = await loadedState(state.block, stored.map((p) => ({ ...p, kind: 'uniswap-v4' as const })));
      await readFees(later);
      expectSameState(later);
    } finally {
      await second.drop();
    }
  });

  it("routes the pools without a swap-changing hook, and the engine's legs quote what the PoolManager's swap does, to the wei", async () => {
    const view = routingView(state, { sources: [{ ...SOURCE }], wrappedNative: wrapped });
    expect(view.pools.map((s) => s.address).sort()).toEqual(['tokens', 'native', 'dynamic'].map((name) => poolOf(name).id).sort());
    expect(uniswapV4Exclusion(state.pool(poolOf('hooked').id)!, { sources: [SOURCE], wrappedNative: wrapped })).toBe(`hook ${SWAP_HOOK} may change swaps (beforeSwap); not on the source's hook list`);
    const native = view.pools.find((s) => s.address === poolOf('native').id) as UniswapV4PoolSnapshot;
    expect([native.token0, native.currency0]).toEqual([wrapped, zeroAddress]);
    expect(BigInt(native.token0)).toBeGreaterThan(BigInt(native.token1));
    const random = mulberry32(7);
    const tally = { quotes: 0, compared: 0, crossed: 0, partial: 0 };
    for (const snapshot of view.pools as UniswapV4PoolSnapshot[]) {
      const pool = pools.find((p) => p.id === snapshot.address)!;
      const legs = view.graph.legs;
      const quotes: { leg: ConcentratedLeg; zeroForOne: boolean; exactInput: boolean; amount: bigint }[] = [];
      for (const [tokenIn, tokenOut] of [
        [snapshot.token0, snapshot.token1],
        [snapshot.token1, snapshot.token0],
      ]) {
        const leg = legs.get(tokenIn.toLowerCase())?.get(tokenOut.toLowerCase())?.find((l) => l.pool.address === snapshot.address) as ConcentratedLeg | undefined;
        // A pool the random blocks took to the end of its liquidity one way trades the other way only.
        if (!leg) continue;
        for (let i = 0; i < 16; i++) {
          const exactInput = i % 2 === 0;
          const amount = BigInt(1 + Math.floor(random() * 1000)) * 10n ** BigInt(14 + Math.floor(random() * 8));
          quotes.push({ leg, zeroForOne: tokenIn === snapshot.token0, exactInput, amount });
          tally.quotes++;
        }
      }
      const { result } = await client.simulateContract({
        address: actor,
        abi: actorAbi,
        functionName: 'quote',
        args: [manager, quoter, pool.key, quotes.map(({ zeroForOne, exactInput, amount }) => ({ zeroForOne, exactInput, amount }))],
        account: chain.account.address,
        gas: ONCHAIN_CALL_GAS,
      });
      (result as { ok: boolean; amountIn: bigint; amountOut: bigint; sqrtPriceAfter: bigint }[]).forEach((onChain, i) => {
        const { leg, exactInput, amount } = quotes[i];
        const engine = exactInput ? leg.swapExactIn(amount) : leg.swapExactOut(amount);
        const context = { pool: pool.name, zeroForOne: quotes[i].zeroForOne, exactInput, amount };
        expect({ ...context, swap: [onChain.ok, onChain.amountIn, onChain.amountOut, onChain.sqrtPriceAfter] }).toEqual({
          ...context,
          swap: engine ? [true, engine.amountIn, engine.amountOut, engine.sqrtPriceX96] : [false, 0n, 0n, 0n],
        });
        // The leg's quote, as the search asks it: what the pool pays for an input it takes whole.
        if (exactInput) expect({ ...context, quote: leg.quote(amount) }).toEqual({ ...context, quote: onChain.ok && onChain.amountIn === amount ? onChain.amountOut : 0n });
        if (!engine || engine.amountOut === 0n) return;
        tally.compared++;
        if (engine.liquidity !== snapshot.liquidity) tally.crossed++;
        if (exactInput ? engine.amountIn < amount : engine.amountOut < amount) tally.partial++;
      });
    }
    // Both ways on most pools; most quotes pay something, some cross ticks, some are filled only in part.
    expect(tally.quotes).toBeGreaterThanOrEqual(16 * 4);
    expect(tally.compared).toBeGreaterThan(tally.quotes / 2);
    expect(tally.crossed).toBeGreaterThan(0);
    expect(tally.partial).toBeGreaterThan(0);
  });
});
