// Concentrated pools indexed from their events on a real chain: two Uniswap V3 deployments (@uniswap/v3-core's
// factory bytecode, deployed twice: a fork is one more source) and Algebra Integral (@cryptoalgebra/integral-core)
// on a private anvil, random mints, burns (fee pokes included), swaps, fee and tick spacing changes block after block, and the
// indexer's own ChainIndexer writing its batches and outbox to a real Postgres. The published pool.created and
// pool.concentrated payloads, through the liquidity state's reducer, must equal a fresh read of every pool after
// every block (price, tick, active liquidity, fee, tick spacing, every initialized tick's net and gross), through
// a reorg too; a state loaded later from a read of the pools must follow the same facts to the same state; and
// the engine's quotes on the built state equal QuoterV2's and the Algebra pool's own to the wei.
import { readConcentratedPools, type ChainPublicClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore } from '@dex/db';
// The test checks both ends of the pool.concentrated contract: the indexer that publishes it and the
// aggregator's liquidity state that consumes it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ChainLiquidityState, concentratedFactOf, concentratedStateOf, routingView, type LiquidityFact, type PoolRecord } from '@dex/liquidity';
import { CHAIN_FACTS, chainEventSchemas, parseChainSubject, type ChainFactPayload, type ConcentratedPoolRead } from '@dex/messages';
import { getSqrtRatioAtTick, stateOf, swapAlgebra, swapUniswapV3, type AlgebraPoolSnapshot, type UniswapV3PoolSnapshot } from '@dex/routing';
import { createJsonLogger } from '@dex/service';
import { createTestDatabase, mulberry32, quoterV2Abi, startConcentratedChain, type ConcentratedChain, type TestDatabase } from '@dex/testing';
import type { Address, Hex } from 'viem';
import { ChainIndexer } from '../src/chain/chain-indexer';
import type { ChainWatchList } from '../src/chain/watch-list';
import { indexerMetrics } from '../src/metrics';

jest.setTimeout(600_000);

const CHAIN_ID = 999;
const BLOCKS = 60;
const Q96 = 2n ** 96n;
const V3_A = { routerIndex: 5, name: 'V3 A' };
const V3_B = { routerIndex: 6, name: 'V3 B' };
const ALGEBRA = { routerIndex: 7, name: 'Algebra' };

interface TestPool {
  address: Address;
  kind: 'uniswap-v3' | 'algebra';
  token0: Address;
  token1: Address;
  quoter?: Address;
  /** The actor's open positions, as the chain holds them. */
  positions: { lower: number; upper: number; liquidity: bigint }[];
}

/** What the state holds of a pool, in the shape of a chain read. */
function heldOf(record: PoolRecord | undefined): ConcentratedPoolRead | undefined {
  const c = record?.concentrated;
  if (!c) return undefined;
  return {
    sqrtPriceX96: c.sqrtPriceX96,
    tick: c.tick,
    liquidity: c.liquidity,
    fee: c.fee!,
    tickSpacing: c.tickSpacing!,
    ticks: [...c.ticks].sort((a, b) => a[0] - b[0]).map(([index, t]) => ({ index, liquidityNet: t.liquidityNet, liquidityGross: t.liquidityGross })),
  };
}

describe('concentrated pools: the liquidity state from the indexed events equals the chain', () => {
  let chain: ConcentratedChain;
  let db: TestDatabase;
  let client: ChainPublicClient;
  let tokens: readonly Address[];
  let indexer: ChainIndexer;
  let store: IndexerStore;
  const pools: TestPool[] = [];
  const state = new ChainLiquidityState(CHAIN_ID, { retainBlocks: 64 });
  /** Every fact applied, in order: what a state loaded later follows. */
  const applied: LiquidityFact[] = [];

  /** Indexes up to the head, applies the outbox's events to the state in publishing order, empties the outbox. */
  async function follow(): Promise<void> {
    await indexer.catchUp();
    for (;;) {
      const events = await store.pendingEvents(500);
      if (events.length === 0) return;
      for (const e of events) {
        const fact = liquidityFactOf(e.subject, e.payload);
        if (!fact) continue;
        // Each published fact is new to the state and applies (the indexer publishes every event once).
        expect({ fact: e.subject, payload: e.payload, outcome: state.apply(fact) }).toEqual({ fact: e.subject, payload: e.payload, outcome: 'applied' });
        applied.push(fact);
      }
      await store.deleteEvents(events.map((e) => e.id));
    }
  }

  /** The published payload, validated by its schema, as the liquidity state's fact (as aggregator-router maps it). */
  function liquidityFactOf(subject: string, payload: unknown): LiquidityFact | undefined {
    const parsed = parseChainSubject(subject);
    if (!parsed) throw new Error(`not a chain fact: ${subject}`);
    switch (parsed.fact) {
      case CHAIN_FACTS.poolCreated: {
        const p = chainEventSchemas[CHAIN_FACTS.poolCreated].parse(payload);
        return { type: 'poolCreated', block: BigInt(p.blockNumber), kind: p.kind as PoolRecord['kind'], address: p.address, routerIndex: p.routerIndex, token0: p.token0, token1: p.token1, fee: 'fee' in p ? p.fee : undefined, tickSpacing: 'tickSpacing' in p ? p.tickSpacing : undefined };
      }
      case CHAIN_FACTS.poolConcentrated:
        return concentratedFactOf(chainEventSchemas[CHAIN_FACTS.poolConcentrated].parse(payload) as ChainFactPayload<'pool.concentrated'>);
      case CHAIN_FACTS.block:
        return { type: 'blockProcessed', block: BigInt(chainEventSchemas[CHAIN_FACTS.block].parse(payload).blockNumber) };
      case CHAIN_FACTS.reorg:
        return { type: 'reorg', ancestor: BigInt(chainEventSchemas[CHAIN_FACTS.reorg].parse(payload).ancestor) };
      default:
        return undefined;
    }
  }

  /** Every pool as read from the chain at the state's block, against what the state holds. */
  async function expectStateEqualsChain(): Promise<void> {
    const block = state.block;
    expect(block).toBe(await client.getBlockNumber({ cacheTime: 0 }));
    const reads = await readConcentratedPools(client, { blockNumber: block, pools: pools.map((p) => ({ address: p.address, kind: p.kind })) });
    pools.forEach((p, i) => {
      expect(reads[i]).toBeDefined();
      expect({ block, pool: p.address, state: heldOf(state.pool(p.address)) }).toEqual({ block, pool: p.address, state: reads[i] });
    });
  }

  beforeAll(async () => {
    [chain, db] = await Promise.all([startConcentratedChain({ chainId: CHAIN_ID, v3Deployments: 2 }), createTestDatabase()]);
    ({ client, tokens } = chain);
    const [v3A, v3B] = chain.v3Factories;
    const [quoterA, quoterB] = chain.quoters;
    const algebraFactory = chain.algebraFactory;

    // The indexer follows the three factories, as a sources file with kinds uniswap-v3 and algebra configures it.
    store = new IndexerStore(db.client);
    const watch: ChainWatchList = {
      chainId: CHAIN_ID,
      announcers: new Map([
        [v3A, { ...V3_A, kind: 'uniswap-v3', feeBps: null }],
        [v3B, { ...V3_B, kind: 'uniswap-v3', feeBps: null }],
        [algebraFactory, { ...ALGEBRA, kind: 'algebra', feeBps: null }],
      ]),
      tokens: [],
      pools: [],
      wrappedNative: null,
    };
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

    // Pools: V3 A at 0.05% and 0.3%, the same pair on V3 B (another deployment, another address), Algebra.
    const create = async (functionName: 'createV3' | 'createAlgebra', args: unknown[], kind: TestPool['kind'], quoter?: Address) => {
      const address = await chain.createPool(functionName, args);
      const [token0, token1] = BigInt(args[1] as Address) < BigInt(args[2] as Address) ? [args[1], args[2]] : [args[2], args[1]];
      pools.push({ address, kind, token0: token0 as Address, token1: token1 as Address, quoter, positions: [] });
    };
    await create('createV3', [v3A, tokens[0], tokens[1], 500, Q96], 'uniswap-v3', quoterA);
    await create('createV3', [v3A, tokens[0], tokens[2], 3000, (Q96 * 3n) / 2n], 'uniswap-v3', quoterA);
    await create('createV3', [v3B, tokens[0], tokens[1], 500, (Q96 * 9n) / 10n], 'uniswap-v3', quoterB);
    await create('createAlgebra', [algebraFactory, tokens[1], tokens[2], (Q96 * 11n) / 10n], 'algebra');
  });

  afterAll(async () => {
    await indexer?.stop();
    await Promise.all([chain?.stop(), db?.drop()]);
  });

  /** Sends a block of random actions (mined together), then mines it. */
  async function randomBlock(random: () => number): Promise<void> {
    const { wallet, account, actor, actorAbi, rpc } = chain;
    await rpc('evm_setAutomine', [false]);
    let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const hashes: { hash: Hex; after?: () => void }[] = [];
    const act = async (functionName: string, args: unknown[], after?: () => void) => {
      const hash = await wallet.writeContract({ address: actor, abi: actorAbi, functionName, args, account, chain: wallet.chain, gas: 8_000_000n, nonce: nonce++ } as never);
      hashes.push({ hash, after });
    };
    const n = 1 + Math.floor(random() * 5);
    for (let i = 0; i < n; i++) {
      const pool = pools[Math.floor(random() * pools.length)];
      const algebra = pool.kind === 'algebra';
      const read = heldOf(state.pool(pool.address));
      const spacing = read?.tickSpacing ?? 60;
      const tick = read?.tick ?? 0;
      const r = random();
      if (r < 0.4 || pool.positions.length < 3) {
        const base = Math.floor(tick / spacing);
        // Bounds other positions use now and then: ticks shared, ticks of net 0.
        const bounds = pool.positions.flatMap((p) => [p.lower, p.upper]);
        let lower = bounds.length && random() < 0.3 ? bounds[Math.floor(random() * bounds.length)] : (base - 1 - Math.floor(random() * 20)) * spacing;
        let upper = bounds.length && random() < 0.3 ? Math.max(lower + spacing, bounds[Math.floor(random() * bounds.length)]) : lower + (1 + Math.floor(random() * 30)) * spacing;
        // A range that starts or ends at the current tick (on a tick after a swap to it): active, or just not.
        if (tick % spacing === 0 && random() < 0.5) {
          if (random() < 0.5) [lower, upper] = [tick, tick + (1 + Math.floor(random() * 10)) * spacing];
          else [lower, upper] = [tick - (1 + Math.floor(random() * 10)) * spacing, tick];
        }
        const liquidity = BigInt(1 + Math.floor(random() * 1000)) * 10n ** BigInt(18 + Math.floor(random() * 4));
        const edge = Math.floor(880_000 / spacing) * spacing;
        if (lower < -edge || upper > edge) continue;
        const position = { lower, upper, liquidity };
        await act('mint', [pool.address, algebra, lower, upper, liquidity], () => pool.positions.push(position));
      } else if (r < 0.6) {
        const position = pool.positions[Math.floor(random() * pool.positions.length)];
        const k = random();
        const amount = k < 0.15 ? 0n : k < 0.5 ? position.liquidity : (position.liquidity * BigInt(Math.floor(random() * 100))) / 100n;
        // Taken off at once so that another burn of the block cannot ask for more than is left.
        position.liquidity -= amount;
        await act('burn', [pool.address, algebra, position.lower, position.upper, amount], () => {
          if (position.liquidity === 0n) pool.positions.splice(pool.positions.indexOf(position), 1);
        });
      } else if (r < 0.72) {
        // A swap that ends on an initialized tick (V3 then reports the tick below it when it came from above).
        const bounds = [...new Set(pool.positions.flatMap((p) => [p.lower, p.upper]))];
        const target = bounds[Math.floor(random() * bounds.length)];
        if (target === undefined || !read || target === tick) continue;
        await act('swapTo', [pool.address, algebra, target < tick, getSqrtRatioAtTick(target)]);
      } else if (r < 0.9 || !algebra) {
        const zeroForOne = random() < 0.5;
        const magnitude = BigInt(1 + Math.floor(random() * 1000)) * 10n ** BigInt(15 + Math.floor(random() * 5));
        await act('swap', [pool.address, algebra, zeroForOne, random() < 0.7 ? magnitude : -magnitude]);
      } else if (random() < 0.7) {
        await act('setFee', [pool.address, 100 + Math.floor(random() * 9000)]);
      } else {
        // New positions then use the new spacing; the ticks of the old ones stay where they are.
        await act('setTickSpacing', [pool.address, [10, 30, 60][Math.floor(random() * 3)]]);
      }
    }
    await rpc('evm_mine');
    await rpc('evm_setAutomine', [true]);
    for (const { hash, after } of hashes) {
      const receipt = await client.waitForTransactionReceipt({ hash });
      // A swap may fail (no liquidity on its way); mints and burns of held positions do not.
      if (receipt.status === "success") after?.();
    }
  }

  it('follows random mints, burns, swaps, fee and tick spacing changes block by block, and a reorg', async () => {
    const random = mulberry32(17);
    await follow();
    expect(pools.map((p) => state.pool(p.address)?.kind)).toEqual(['uniswap-v3', 'uniswap-v3', 'uniswap-v3', 'algebra']);
    expect(pools.map((p) => state.pool(p.address)?.routerIndex)).toEqual([V3_A.routerIndex, V3_A.routerIndex, V3_B.routerIndex, ALGEBRA.routerIndex]);
    await expectStateEqualsChain();
    // The Algebra pool's administrator changes its fee and tick spacing (and the random blocks do now and then).
    const algebraPool = pools.find((p) => p.kind === 'algebra')!.address;
    await chain.act('setFee', [algebraPool, 700]);
    await chain.act('setTickSpacing', [algebraPool, 30]);
    await follow();
    await expectStateEqualsChain();
    expect(state.pool(algebraPool)?.concentrated).toMatchObject({ fee: 700, tickSpacing: 30 });
    for (let b = 0; b < BLOCKS; b++) {
      await randomBlock(random);
      await follow();
      await expectStateEqualsChain();
    }
    expect(pools.every((p) => (state.pool(p.address)?.concentrated?.ticks.size ?? 0) > 0)).toBe(true);

    // Every kind of event happened (Algebra's Fee and TickSpacing come with its initialisation, then by the actor).
    const types = applied.map((f) => f.type);
    for (const type of ['poolInitialized', 'positionChanged', 'concentratedSwapped'] as const) expect(types).toContain(type);
    expect(types.filter((t) => t === 'poolFeeChanged').length).toBeGreaterThan(1);
    expect(types.filter((t) => t === 'tickSpacingChanged').length).toBeGreaterThan(1);
    expect(applied.some((f) => f.type === 'positionChanged' && f.liquidityDelta === 0n)).toBe(true);

    // A reorg: two blocks replaced by three others.
    const kept = pools.map((p) => p.positions.map((q) => ({ ...q })));
    const snapshot = await chain.rpc('evm_snapshot');
    const ancestor = state.block;
    await randomBlock(random);
    await randomBlock(random);
    await follow();
    await expectStateEqualsChain();
    await chain.rpc('evm_revert', [snapshot]);
    pools.forEach((p, i) => (p.positions = kept[i]));
    for (let b = 0; b < 3; b++) await randomBlock(random);
    await follow();
    expect(applied.some((f) => f.type === 'reorg' && f.ancestor === ancestor)).toBe(true);
    await expectStateEqualsChain();
  });

  it('a state loaded later from a read of the pools follows the same facts to the same state', async () => {
    // Loaded from the chain half way (as aggregator-router does at the indexer's checkpoint), then the facts after it.
    const loadedAt = state.block - 10n;
    const reads = await readConcentratedPools(client, { blockNumber: loadedAt, pools: pools.map((p) => ({ address: p.address, kind: p.kind })) });
    const records: PoolRecord[] = pools.map((p, i) => ({
      kind: p.kind,
      address: p.address.toLowerCase(),
      routerIndex: state.pool(p.address)!.routerIndex,
      token0: p.token0,
      token1: p.token1,
      createdBlock: state.pool(p.address)!.createdBlock,
      at: { block: loadedAt, logIndex: Number.MAX_SAFE_INTEGER },
      concentrated: concentratedStateOf(reads[i]!),
    }));
    const later = new ChainLiquidityState(CHAIN_ID, {}, { block: loadedAt, pools: records, tokens: [] });
    // Facts up to the load are duplicates; the replaced branch's facts and the reorg are undone in order.
    for (const fact of applied) later.apply(fact);
    expect(later.block).toBe(state.block);
    for (const p of pools) expect(heldOf(later.pool(p.address))).toEqual(heldOf(state.pool(p.address)));
  });

  it("the engine's quotes on the built state equal QuoterV2's and the Algebra pool's own, to the wei", async () => {
    const sources = [
      { ...V3_A, kind: 'uniswap-v3' },
      { ...V3_B, kind: 'uniswap-v3' },
      { ...ALGEBRA, kind: 'algebra' },
    ];
    const view = routingView(state, { sources, wrappedNative: tokens[0] });
    let compared = 0;
    for (const p of pools) {
      const snapshot = view.pools.find((s) => s.address === p.address.toLowerCase()) as UniswapV3PoolSnapshot | AlgebraPoolSnapshot | undefined;
      expect(snapshot).toBeDefined();
      const fee = snapshot!.fee;
      for (const zeroForOne of [true, false]) {
        for (const amountIn of [10n ** 12n, 10n ** 17n, 10n ** 19n, 3n * 10n ** 20n]) {
          let engine: bigint;
          try {
            engine = (p.kind === 'algebra' ? swapAlgebra : swapUniswapV3)(stateOf(snapshot!), zeroForOne, amountIn).amountOut;
          } catch {
            engine = 0n;
          }
          let onChain: bigint;
          if (p.kind === 'algebra') {
            onChain = await chain.quoteAlgebra(p.address, zeroForOne, amountIn);
          } else {
            const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0];
            onChain = await client
              .simulateContract({ address: p.quoter!, abi: quoterV2Abi, functionName: 'quoteExactInputSingle', args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }] })
              .then((r) => r.result[0], () => 0n);
          }
          expect({ pool: p.address, zeroForOne, amountIn, out: engine }).toEqual({ pool: p.address, zeroForOne, amountIn, out: onChain });
          if (onChain > 0n) compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
});
