// The indexer's store on a real Postgres: batches with their counters, exact rolling windows at the
// edges of the hour buckets, a rewind that leaves exactly what the blocks below the ancestor wrote, and the
// checkpoint guard that makes a batch apply once.
import {
  CheckpointConflictError,
  CheckpointRepository,
  IndexerStore,
  PoolRepository,
  TokenRepository,
  LaunchpadRepository,
  createPrismaClient,
  migrate,
  type ChainBatch,
  type DbClient,
  type TransferRow,
  type AmmSwapRow,
} from '../src';
import { CHAIN_FACTS, chainFactSubject } from '@dex/messages';
import { createTempDatabase, type TempDatabase } from './support/temp-database';

jest.setTimeout(30_000);

const CHAIN = 999;
const T0 = 1_800_000_000n - (1_800_000_000n % 3600n); // an hour boundary
const TOKEN_A = '0x00000000000000000000000000000000000000A1';
const TOKEN_B = '0x00000000000000000000000000000000000000b2';
const POOL = '0x0000000000000000000000000000000000000C01';
const USER = '0x0000000000000000000000000000000000000D01';
const hash = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');

function emptyBatch(after: bigint | null, block: bigint, timestamp: bigint): ChainBatch {
  return {
    chainId: CHAIN,
    after,
    checkpoint: { block, hash: hash(block), timestamp, status: 'running' },
    blocks: [{ number: block, hash: hash(block), parentHash: hash(block - 1n), timestamp }],
    tokens: [],
    pools: [],
    transfers: [],
    swaps: [],
    referralClaims: [],
    launchpadTokens: [],
    launchpadTrades: [],
    launchpadMetadata: [],
    launchpadGraduations: [],
    reserves: [],
    events: [],
  };
}

const transfer = (block: bigint, logIndex: number, token: string, timestamp: bigint): TransferRow => ({
  blockNumber: block,
  logIndex,
  txHash: hash(block * 1000n + BigInt(logIndex)),
  timestamp,
  token,
  from: USER,
  to: POOL,
  value: 10n ** 30n + 1n,
});

const swap = (block: bigint, logIndex: number, timestamp: bigint, zeroForOne: boolean): AmmSwapRow => ({
  blockNumber: block,
  logIndex,
  txHash: hash(block),
  timestamp,
  pool: POOL,
  user: USER,
  sender: USER,
  tokenIn: zeroForOne ? TOKEN_A : TOKEN_B,
  tokenOut: zeroForOne ? TOKEN_B : TOKEN_A,
  amountIn: 1000n,
  amountOut: 900n,
  fee: 3n,
  refCode: zeroForOne ? hash(77n) : null,
  refFee: zeroForOne ? 1n : null,
});

describe('IndexerStore', () => {
  let temp: TempDatabase;
  let db: DbClient;
  let store: IndexerStore;
  let tokens: TokenRepository;
  let pools: PoolRepository;

  beforeAll(async () => {
    temp = await createTempDatabase();
    await migrate(temp.url);
    db = createPrismaClient(temp.url, { maxConnections: 3 });
    store = new IndexerStore(db);
    tokens = new TokenRepository(db);
    pools = new PoolRepository(db);
    const token = (address: string, symbol: string) => ({
      address,
      name: symbol,
      symbol,
      decimals: 18,
      totalSupply: 10n ** 40n,
      isERC20Verified: true,
      verificationError: null,
      source: 'config' as const,
      firstSeenBlock: 0n,
    });
    await store.seed(CHAIN, [token(TOKEN_A, 'AAA'), token(TOKEN_B, 'BBB')], [
      { address: POOL, kind: 'core', routerIndex: 0, source: 'Core', discoveredBy: null, token0: TOKEN_A, token1: TOKEN_B, stable: false, feeBps: null, createdBlock: 0n },
    ]);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await temp?.drop();
  });

  it('applies batches with their counters and refuses one that does not follow the checkpoint', async () => {
    // Block 1 at T0 + 10 (edge hour of a window ending at T0 + 24 h + 10), block 2 at T0 + 3 h, block 3 at T0 + 24 h.
    const b1 = emptyBatch(null, 1n, T0 + 10n);
    b1.transfers = [transfer(1n, 0, TOKEN_A, T0 + 10n), transfer(1n, 1, TOKEN_A, T0 + 10n)];
    b1.swaps = [swap(1n, 2, T0 + 10n, true)];
    await store.applyBatch(b1);
    await expect(store.applyBatch(b1)).rejects.toBeInstanceOf(CheckpointConflictError);

    const b2 = emptyBatch(1n, 2n, T0 + 3n * 3600n);
    b2.transfers = [transfer(2n, 0, TOKEN_B, T0 + 3n * 3600n)];
    b2.swaps = [swap(2n, 1, T0 + 3n * 3600n, false)];
    b2.reserves = [{ pool: POOL, reserve0: 5n, reserve1: 6n, blockNumber: 2n }];
    await store.applyBatch(b2);

    const b3 = emptyBatch(2n, 3n, T0 + 24n * 3600n);
    b3.transfers = [transfer(3n, 0, TOKEN_B, T0 + 24n * 3600n)];
    await store.applyBatch(b3);

    const checkpoint = await new CheckpointRepository(db).get(CHAIN);
    expect(checkpoint).toMatchObject({ lastProcessedBlock: 3n, lastProcessedTime: T0 + 24n * 3600n });

    const all = await tokens.list({ chainId: CHAIN, asOf: T0 + 24n * 3600n });
    expect(all.tokens.map((t) => [t.symbol, t.transfers24h, t.totalTransfers])).toEqual([
      ['AAA', 2, 2],
      ['BBB', 2, 2],
    ]);
    // One second later block 1 (T0 + 10) is still inside; at T0 + 24 h + 10 it has left the window exactly.
    const at = async (asOf: bigint) => (await tokens.list({ chainId: CHAIN, asOf })).tokens.map((t) => [t.symbol, t.transfers24h]);
    expect(await at(T0 + 24n * 3600n + 9n)).toEqual([['AAA', 2], ['BBB', 2]]);
    expect(await at(T0 + 24n * 3600n + 10n)).toEqual([['BBB', 2], ['AAA', 0]]);
    expect(await at(T0 + 27n * 3600n)).toEqual([['BBB', 1], ['AAA', 0]]);
    // A window ending before a fact does not count it.
    expect(await at(T0 + 3n * 3600n - 1n)).toEqual([['AAA', 2], ['BBB', 0]]);

    const page = await tokens.list({ chainId: CHAIN, asOf: T0 + 24n * 3600n, search: 'bb', limit: 1 });
    expect(page.count).toBe(1);
    expect(page.tokens[0].address).toBe(TOKEN_B);

    const stats = await pools.swapStats(CHAIN, { asOf: T0 + 24n * 3600n });
    expect(stats.stats).toEqual([
      expect.objectContaining({ pool: POOL, swaps24h: 2, volume0: 1900n, volume1: 1900n, fees0: 3n, fees1: 3n, totalSwaps: 2 }),
    ]);
    const later = await pools.swapStats(CHAIN, { asOf: T0 + 24n * 3600n + 10n, pools: [POOL] });
    expect(later.stats[0]).toMatchObject({ swaps24h: 1, volume0: 900n, volume1: 1000n, fees0: 0n, fees1: 3n, totalSwaps: 2 });
    expect((await pools.get(CHAIN, POOL))?.reserve0).toBe(5n);
  });

  it('rewinds to a common ancestor, reversing counters from the deleted facts', async () => {
    await store.rewind({
      chainId: CHAIN,
      ancestor: { number: 1n, hash: hash(1n), parentHash: hash(0n), timestamp: T0 + 10n },
      reserves: [],
      events: [{ blockNumber: 1n, subject: chainFactSubject(CHAIN, CHAIN_FACTS.reorg), msgId: `${CHAIN}:reorg:1`, payload: { ancestor: '1' } }],
      status: 'running',
    });
    const list = await tokens.list({ chainId: CHAIN, asOf: T0 + 3600n });
    expect(list.tokens.map((t) => [t.symbol, t.transfers24h, t.totalTransfers])).toEqual([
      ['AAA', 2, 2],
      ['BBB', 0, 0],
    ]);
    const buckets = await db.tokenTransferHour.findMany({ where: { chainId: CHAIN } });
    expect(buckets.map((b) => [b.token, b.transfers])).toEqual([[TOKEN_A, 2]]);
    const stats = await pools.swapStats(CHAIN, { asOf: T0 + 3600n });
    expect(stats.stats[0]).toMatchObject({ swaps24h: 1, totalSwaps: 1, volume0: 1000n, fees0: 3n, fees1: 0n });
    expect(await db.poolSwapHour.count()).toBe(1);
    expect((await pools.get(CHAIN, POOL))?.reserve0).toBeNull();
    expect(await db.block.findMany({ select: { number: true } })).toEqual([{ number: 1n }]);
    expect((await new CheckpointRepository(db).get(CHAIN))?.lastProcessedBlock).toBe(1n);
    expect((await store.pendingEvents()).map((e) => e.msgId)).toEqual(['999:reorg:1']);
    expect(await db.referralAccrual.count()).toBe(1);
  });

  it('records launchpad creations, trades, metadata and graduations, and restores them on a rewind', async () => {
    const launchpad = new LaunchpadRepository(db);
    const meta = { imageUri: 'ipfs://a', description: 'd', website: 'w', twitter: 't', telegram: 'g', discord: 'c' };
    const created = (block: bigint, address: string, symbol: string) => ({
      blockNumber: block, logIndex: 0, txHash: hash(block), timestamp: T0 + block * 10n, address, launchpad: POOL, creator: USER,
      name: symbol, symbol, ...meta, creationTimestamp: T0 + block * 10n, startingLiquidity: 300n, initialPurchaseAmount: 0n,
      nativeReserves: 300n, tokenReserves: 1125n, totalSupply: 1000n, price: 7n,
    });
    const b2 = emptyBatch(1n, 2n, T0 + 20n);
    b2.launchpadTokens = [created(2n, TOKEN_A, 'CAT')];
    await store.applyBatch(b2);
    const b3 = emptyBatch(2n, 3n, T0 + 30n);
    b3.launchpadTrades = [
      { blockNumber: 3n, logIndex: 0, txHash: hash(3n), timestamp: T0 + 30n, token: TOKEN_A, trader: USER, side: 'buy', nativeAmount: 10n, tokenAmount: 20n, price: 8n, nativeReserves: 310n, tokenReserves: 1105n, totalSupply: 1000n },
    ];
    b3.launchpadMetadata = [{ blockNumber: 3n, logIndex: 1, txHash: hash(3n), timestamp: T0 + 30n, token: TOKEN_A, ...meta, imageUri: 'ipfs://b' }];
    await store.applyBatch(b3);
    expect(await launchpad.getToken(CHAIN, TOKEN_A)).toMatchObject({ nativeReserves: 310n, price: 8n, trades: 1, imageUri: 'ipfs://b', graduation: null });

    // Block 4: the buy that sells out CAT's curve and its graduation; DOG is created and graduates in the same block.
    const PAIR = '0x0000000000000000000000000000000000000E01';
    const b4 = emptyBatch(3n, 4n, T0 + 40n);
    b4.launchpadTokens = [{ ...created(4n, TOKEN_B, 'DOG'), logIndex: 3 }];
    b4.launchpadTrades = [
      { blockNumber: 4n, logIndex: 0, txHash: hash(4n), timestamp: T0 + 40n, token: TOKEN_A, trader: USER, side: 'buy', nativeAmount: 600n, tokenAmount: 730n, price: 9n, nativeReserves: 900n, tokenReserves: 375n, totalSupply: 1000n },
    ];
    const graduation = { blockNumber: 4n, logIndex: 1, txHash: hash(4n), timestamp: T0 + 40n, token: TOKEN_A, pair: PAIR, nativeAmount: 600n, tokenAmount: 250n, liquidity: 10n ** 30n + 7n };
    b4.launchpadGraduations = [graduation, { ...graduation, logIndex: 4, token: TOKEN_B, pair: POOL, nativeAmount: 1n }];
    await store.applyBatch(b4);
    const { txHash: _txHash, ...recorded } = graduation;
    expect(await launchpad.getToken(CHAIN, TOKEN_A)).toMatchObject({ trades: 2, nativeReserves: 900n, graduation: { ...recorded, txHash: hash(4n) } });
    expect(await launchpad.getToken(CHAIN, TOKEN_B)).toMatchObject({ graduation: expect.objectContaining({ token: TOKEN_B, pair: POOL, nativeAmount: 1n, logIndex: 4 }) });
    const graduations = await launchpad.graduations(CHAIN, [TOKEN_A.toLowerCase(), USER]);
    expect([...graduations.keys()]).toEqual([TOKEN_A.toLowerCase()]);
    expect(graduations.get(TOKEN_A.toLowerCase())).toEqual({ ...recorded, txHash: hash(4n) });

    // Undoing block 4 takes the graduation (and DOG) back: CAT trades on its curve again.
    const undone = await store.rewind({ chainId: CHAIN, ancestor: { number: 3n, hash: hash(3n), parentHash: hash(2n), timestamp: T0 + 30n }, reserves: [], events: [], status: 'running' });
    expect(undone).toMatchObject({ launchpadTokens: 1, launchpadTrades: 1, launchpadGraduations: 1 });
    expect(await launchpad.getToken(CHAIN, TOKEN_A)).toMatchObject({ nativeReserves: 310n, trades: 1, graduation: null });
    expect(await launchpad.getToken(CHAIN, TOKEN_B)).toBeNull();
    expect((await launchpad.graduations(CHAIN, [TOKEN_A])).size).toBe(0);
    const row = await db.launchpadToken.findFirstOrThrow({ where: { chainId: CHAIN, address: TOKEN_A } });
    expect([row.graduated, row.graduatedBlock, row.graduatedTime, row.pair, row.graduationLiquidity]).toEqual([false, null, null, null, null]);

    await store.rewind({ chainId: CHAIN, ancestor: { number: 2n, hash: hash(2n), parentHash: hash(1n), timestamp: T0 + 20n }, reserves: [], events: [], status: 'running' });
    expect(await launchpad.getToken(CHAIN, TOKEN_A)).toMatchObject({ nativeReserves: 300n, price: 7n, trades: 0, imageUri: 'ipfs://a' });
    await store.rewind({ chainId: CHAIN, ancestor: { number: 1n, hash: hash(1n), parentHash: hash(0n), timestamp: T0 + 10n }, reserves: [], events: [], status: 'running' });
    expect(await launchpad.listTokens(CHAIN)).toEqual({ tokens: [], count: 0 });
    expect(await db.launchpadMetadata.count()).toBe(0);
  });

  it('reads the activity window before a start at the head once, range by range, and ends it at a rewind below it', async () => {
    const OTHER = 4663;
    const token = (address: string, symbol: string) => ({ address, name: symbol, symbol, decimals: 18, totalSupply: 1n, isERC20Verified: true, verificationError: null, source: 'config' as const, firstSeenBlock: 0n });
    await store.seed(OTHER, [token(TOKEN_A, 'AAA'), token(TOKEN_B, 'BBB')], [
      { address: POOL, kind: 'core', routerIndex: 0, source: 'Core', discoveredBy: null, token0: TOKEN_A, token1: TOKEN_B, stable: false, feeBps: null, createdBlock: 0n },
    ]);
    const at = (block: bigint) => T0 + block * 60n;
    // The start at the head: block 100, its window blocks 90..100.
    await store.applyBatch({ ...emptyBatch(null, 100n, at(100n)), chainId: OTHER, activityBackfill: { from: 90n, to: 100n } });
    expect(await store.activityBackfill(OTHER)).toEqual({ from: 90n, to: 100n, next: 90n });
    const range = (from: bigint, to: bigint, transfers: TransferRow[], swaps: AmmSwapRow[] = []) => ({ chainId: OTHER, from, to, transfers, swaps });
    // Only from the cursor, once.
    await expect(store.applyActivityBackfill(range(95n, 100n, []))).rejects.toBeInstanceOf(CheckpointConflictError);
    const first = range(90n, 94n, [transfer(91n, 0, TOKEN_A, at(91n)), transfer(93n, 0, TOKEN_B, at(93n))], [swap(92n, 1, at(92n), true)]);
    await store.applyActivityBackfill(first);
    await expect(store.applyActivityBackfill(first)).rejects.toBeInstanceOf(CheckpointConflictError);
    expect(await store.activityBackfill(OTHER)).toEqual({ from: 90n, to: 100n, next: 95n });

    // Blocks 97..100 undone: the window ends at 96 (the blocks above it come again going forward).
    await store.rewind({ chainId: OTHER, ancestor: { number: 96n, hash: hash(96n), parentHash: hash(95n), timestamp: at(96n) }, reserves: [], events: [], status: 'running' });
    expect(await store.activityBackfill(OTHER)).toEqual({ from: 90n, to: 96n, next: 95n });
    await expect(store.applyActivityBackfill(range(95n, 100n, []))).rejects.toBeInstanceOf(CheckpointConflictError);
    await store.applyActivityBackfill(range(95n, 96n, [transfer(96n, 0, TOKEN_A, at(96n))]));
    expect(await store.activityBackfill(OTHER)).toBeNull();

    // The figures count the window as if it had been indexed going forward.
    const list = await tokens.list({ chainId: OTHER, asOf: at(100n) });
    expect(list.tokens.map((t) => [t.symbol, t.transfers24h, t.totalTransfers])).toEqual([
      ['AAA', 2, 2],
      ['BBB', 1, 1],
    ]);
    const stats = await pools.swapStats(OTHER, { asOf: at(100n) });
    expect(stats.stats[0]).toMatchObject({ swaps24h: 1, totalSwaps: 1, volume0: 1000n, volume1: 900n });
  });
});
