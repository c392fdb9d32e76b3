// The indexer against a real anvil chain (the devnet deployed), a real Postgres and a private NATS with
// JetStream: backfill, discovery, bad tokens, a reorg made with snapshot/revert, rolling 24 h counters
// across time travel, and the events on JetStream.
import { LaunchpadRepository, PoolRepository, TokenRepository, adminQuery } from '@dex/db';
import { CHAIN_EVENTS_STREAM, CHAIN_FACTS, chainFactSubject, launchpadTokenGraduatedEventSchema, parseChainSubject } from '@dex/messages';
import { getAddress, keccak256, parseAbiItem, stringToHex, type Address } from 'viem';
import { ChainIndexer } from '../src/chain/chain-indexer';
import { buyLaunched, CHAIN_ID, createPair, graduateLaunched, launchpadAddress, launchToken, routerSwap, rpc, startHarness, token, trader, transfer, type Harness } from './support/harness';

jest.setTimeout(120_000);

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const graduatedEvent = parseAbiItem('event TokenGraduated(address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity)');

describe('indexer on anvil, Postgres and JetStream', () => {
  let h: Harness;
  let indexer: ChainIndexer;

  beforeAll(async () => {
    h = await startHarness();
    indexer = await h.indexer();
  });

  afterAll(async () => {
    await indexer?.stop();
    await h?.close();
  });

  /** The rows the chain says there should be: every Transfer log of every followed token, by position. */
  async function expectedTransfers(): Promise<string[]> {
    const tokens = (await h.db.client.token.findMany({ where: { chainId: CHAIN_ID }, select: { address: true } })).map((t) => t.address as Address);
    const logs = await h.client.getLogs({ address: tokens, event: transferEvent, fromBlock: 0n, toBlock: 'latest' });
    return logs.map((l) => `${l.blockNumber}:${l.logIndex}:${l.transactionHash}`).sort();
  }

  async function storedTransfers(): Promise<string[]> {
    const rows = await h.db.client.tokenTransfer.findMany({ where: { chainId: CHAIN_ID } });
    return rows.map((r) => `${r.blockNumber}:${r.logIndex}:${r.txHash}`).sort();
  }

  /** Counters agree with the fact rows: per-token totals and hourly buckets. */
  async function expectCountersMatchRows(): Promise<void> {
    const mismatches = await adminQuery(
      h.db.url,
      `SELECT t.address, t.total_transfers, (SELECT count(*) FROM token_transfer x WHERE x.chain_id = t.chain_id AND x.token = t.address) AS n,
              (SELECT COALESCE(sum(transfers), 0) FROM token_transfer_hour b WHERE b.chain_id = t.chain_id AND b.token = t.address) AS buckets
         FROM token t WHERE t.chain_id = $1`,
      [CHAIN_ID],
    );
    for (const row of mismatches as { total_transfers: string; n: string; buckets: string }[]) {
      expect([String(row.total_transfers), String(row.buckets)]).toEqual([String(row.n), String(row.n)]);
    }
    const pools = await adminQuery<{ total_swaps: string; n: string; buckets: string }>(
      h.db.url,
      `SELECT p.total_swaps, (SELECT count(*) FROM amm_swap s WHERE s.chain_id = p.chain_id AND s.pool = p.address) AS n,
              (SELECT COALESCE(sum(swaps), 0) FROM pool_swap_hour b WHERE b.chain_id = p.chain_id AND b.pool = p.address) AS buckets
         FROM pool p WHERE p.chain_id = $1`,
      [CHAIN_ID],
    );
    for (const row of pools) expect([String(row.total_swaps), String(row.buckets)]).toEqual([String(row.n), String(row.n)]);
  }

  it('backfills the devnet: configured tokens verified, every pool, every transfer exactly once', async () => {
    await indexer.catchUp();
    const manifest = h.chains.manifest.chains[String(CHAIN_ID)];
    const tokens = await new TokenRepository(h.db.client).list({ chainId: CHAIN_ID });
    const launched = (manifest as { launchpad?: { tokens: { address: string }[] } }).launchpad?.tokens.map((t) => t.address) ?? [];
    // The misbehaving test tokens are found through their pools; every one verifies (MKR's bytes32 name and symbol too).
    const testTokens = (manifest as { testTokens?: { address: string }[] }).testTokens?.map((t) => t.address) ?? [];
    expect(testTokens.length).toBeGreaterThan(0);
    expect(tokens.tokens.map((t) => t.address).sort()).toEqual([manifest.wrappedNative.address, ...manifest.tokens.map((t) => t.address), ...launched, ...testTokens].sort());
    expect(tokens.tokens.find((t) => t.address === (manifest as { testTokens?: { symbol: string; address: string }[] }).testTokens?.find((x) => x.symbol === 'MKR')?.address)).toMatchObject({ name: 'Maker', symbol: 'MKR', isERC20Verified: true });
    expect(await h.db.client.launchpadToken.count()).toBe(launched.length);
    expect(tokens.tokens.every((t) => t.isERC20Verified)).toBe(true);
    const usdc = tokens.tokens.find((t) => t.symbol === 'USDC')!;
    expect(usdc).toMatchObject({ name: 'USD Coin', decimals: 6 });
    expect(usdc.transfers24h).toBe(usdc.totalTransfers);
    expect(usdc.totalTransfers).toBeGreaterThan(5);
    // Sorted by transfers24h, highest first.
    const counts = tokens.tokens.map((t) => t.transfers24h);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));

    const pools = await new PoolRepository(h.db.client).list(CHAIN_ID);
    // Every pool of the manifest, plus one curve per launched token (and the pools launches created).
    expect(pools.map((p) => p.address)).toEqual(expect.arrayContaining(manifest.pools.map((p) => p.address)));
    expect(pools.filter((p) => p.kind === 'launchpad').map((p) => p.address).sort()).toEqual([...launched].sort());
    const seeded = new Set<string>(manifest.pools.map((p) => p.address));
    expect(pools.filter((p) => p.kind === 'uniswap-v2' && seeded.has(p.address)).every((p) => p.reserve0 !== null && p.reserve0 > 0n)).toBe(true);

    expect(await storedTransfers()).toEqual(await expectedTransfers());
    await expectCountersMatchRows();
    expect(indexer.status()).toMatchObject({ chainId: CHAIN_ID, lastProcessedBlock: (await h.client.getBlockNumber()).toString(), blocksBehind: 0 });
  });

  /** Every TokenGraduated log of the launchpad, as the repository reports a graduation. */
  async function graduationsOnChain() {
    const logs = await h.client.getLogs({ address: launchpadAddress(h), event: graduatedEvent, fromBlock: 0n, toBlock: 'latest' });
    return Promise.all(
      logs.map(async (l) => ({
        token: l.args.token!,
        blockNumber: l.blockNumber,
        logIndex: l.logIndex,
        txHash: l.transactionHash,
        timestamp: (await h.client.getBlock({ blockNumber: l.blockNumber })).timestamp,
        pair: l.args.pair!,
        nativeAmount: l.args.hypeAmount!,
        tokenAmount: l.args.tokenAmount!,
        liquidity: l.args.liquidity!,
      })),
    );
  }

  /** The graduations stored on the launched tokens. */
  async function storedGraduations() {
    const { tokens } = await new LaunchpadRepository(h.db.client).listTokens(CHAIN_ID);
    return tokens.flatMap((t) => (t.graduation ? [t.graduation] : []));
  }

  it("records the devnet's graduated token with its TokenGraduated log, and only that one", async () => {
    const manifest = h.chains.manifest.chains[String(CHAIN_ID)];
    const gfrog = manifest.launchpad.tokens.find((t) => t.symbol === 'GFROG')!;
    const onChain = await graduationsOnChain();
    expect(onChain.map((g) => [g.token, g.pair])).toEqual([[gfrog.address, gfrog.pair]]);
    expect(await storedGraduations()).toEqual(onChain);
    const stored = await new LaunchpadRepository(h.db.client).getToken(CHAIN_ID, gfrog.address);
    // The graduation's native coin is what the curve raised: its virtual reserve less the 300 it started with.
    expect(stored?.graduation?.nativeAmount).toBe(stored!.nativeReserves - stored!.startingLiquidity);
    expect(stored?.graduation?.tokenAmount).toBe(250_000_000n * 10n ** 6n);
    const others = await h.db.client.launchpadToken.findMany({ where: { chainId: CHAIN_ID, NOT: { address: gfrog.address } } });
    expect(others.map((t) => [t.graduated, t.graduatedBlock, t.pair])).toEqual(others.map(() => [false, null, null]));
  });

  it('records core swaps with the trader as sender, referral accruals, and discovers new pools and tokens', async () => {
    const usdc = token(h, 'USDC');
    const usdt = token(h, 'USDT');
    const alpha = keccak256(stringToHex('ALPHA'));
    await routerSwap(h, usdc, usdt, 1_000n * 10n ** 6n, alpha);
    await routerSwap(h, usdt, usdc, 500n * 10n ** 6n);
    await indexer.catchUp();
    const swaps = await h.db.client.ammSwap.findMany({ where: { chainId: CHAIN_ID }, orderBy: [{ blockNumber: 'asc' }] });
    expect(swaps).toHaveLength(2);
    const router = h.chains.manifest.chains[String(CHAIN_ID)].core.router;
    expect(swaps.map((s) => [s.user, s.sender, s.tokenIn, s.refCode])).toEqual([
      [router, trader(0).address, usdc, alpha],
      [router, trader(0).address, usdt, null],
    ]);
    expect(await h.db.client.referralAccrual.count({ where: { refCode: alpha } })).toBe(1);
    const stats = await new PoolRepository(h.db.client).swapStats(CHAIN_ID, { pools: [swaps[0].pool] });
    expect(stats.stats[0]).toMatchObject({ swaps24h: 2, totalSwaps: 2 });
    expect(stats.stats[0].volume0 + stats.stats[0].volume1).toBe(
      swaps.reduce((sum, s) => sum + BigInt(s.amountIn.toString()) + BigInt(s.amountOut.toString()), 0n),
    );
  });

  it('stores a token whose metadata calls revert or return garbage as unverified, and keeps going', async () => {
    // One contract reverts on every call, the other answers every call with 32 bytes of 0xff.
    const reverting = getAddress('0x00000000000000000000000000000000000bad01');
    const garbage = getAddress('0x00000000000000000000000000000000000bad02');
    await rpc(h.client, 'anvil_setCode', [reverting, '0x5f5ffd']);
    await rpc(h.client, 'anvil_setCode', [garbage, '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff5f5260205ff3']);
    await createPair(h, reverting, token(h, 'USDC'));
    await createPair(h, garbage, token(h, 'DAI'));
    await indexer.catchUp();
    const rows = (await h.db.client.token.findMany({ where: { chainId: CHAIN_ID, address: { in: [reverting, garbage] } } })).sort((a, b) =>
      a.address.toLowerCase().localeCompare(b.address.toLowerCase()),
    );
    expect(rows.map((r) => [r.address, r.isERC20Verified, r.source])).toEqual([
      [reverting, false, 'pool'],
      [garbage, false, 'pool'],
    ]);
    expect(rows.every((r) => (r.verificationError ?? '').length > 0)).toBe(true);
    expect(await h.db.client.pool.count({ where: { chainId: CHAIN_ID, OR: [{ token0: { in: [reverting, garbage] } }, { token1: { in: [reverting, garbage] } }] } })).toBe(2);
    expect(indexer.status().serviceStatus).not.toBe('error');
  });

  it('after a reorg (snapshot, revert, another branch) holds exactly the rows of the new branch', async () => {
    const usdc = token(h, 'USDC');
    const dai = token(h, 'DAI');
    const purr = token(h, 'PURR');
    const snapshot = await rpc<string>(h.client, 'evm_snapshot');
    const forkBlock = await h.client.getBlockNumber();

    // Old branch: transfers, a core swap, a new pair with a new token.
    for (let i = 0; i < 4; i++) await transfer(h, usdc, trader(1).address, 1_000n + BigInt(i));
    await routerSwap(h, usdc, token(h, 'USDT'), 10n ** 6n);
    const orphanToken = getAddress('0x00000000000000000000000000000000000bad03');
    await rpc(h.client, 'anvil_setCode', [orphanToken, '0x5f5ffd']);
    await createPair(h, orphanToken, usdc);
    await indexer.catchUp();
    const oldHead = await h.client.getBlockNumber();
    expect(await h.db.client.token.count({ where: { address: orphanToken } })).toBe(1);
    const swapsBefore = await h.db.client.ammSwap.count();

    // New branch from the fork point, longer than the old one, with other activity.
    expect(await rpc(h.client, 'evm_revert', [snapshot])).toBe(true);
    expect(await h.client.getBlockNumber()).toBe(forkBlock);
    for (let i = 0; i < 9; i++) await transfer(h, i % 2 ? dai : purr, trader(2).address, 7n + BigInt(i), trader(1));
    expect(await h.client.getBlockNumber()).toBeGreaterThan(oldHead);
    await indexer.catchUp();

    expect(await storedTransfers()).toEqual(await expectedTransfers());
    await expectCountersMatchRows();
    expect(await h.db.client.token.count({ where: { address: orphanToken } })).toBe(0);
    expect(await h.db.client.pool.count({ where: { token0: orphanToken } })).toBe(0);
    expect(await h.db.client.pool.count({ where: { token1: orphanToken } })).toBe(0);
    expect(await h.db.client.ammSwap.count()).toBe(swapsBefore - 1);
    expect(await h.db.client.tokenTransfer.count({ where: { blockNumber: { gt: forkBlock }, token: usdc } })).toBe(0);
    // Stored headers link up to the new head.
    const head = await h.client.getBlock();
    const checkpoint = await h.db.client.chainCheckpoint.findUnique({ where: { chainId: CHAIN_ID } });
    expect(checkpoint).toMatchObject({ lastProcessedBlock: head.number, lastProcessedHash: head.hash });

    // A reorg to a shorter chain is undone as well.
    const snapshot2 = await rpc<string>(h.client, 'evm_snapshot');
    const base = await h.client.getBlockNumber();
    for (let i = 0; i < 3; i++) await transfer(h, usdc, trader(3).address, 1n);
    await indexer.catchUp();
    await rpc(h.client, 'evm_revert', [snapshot2]);
    await transfer(h, dai, trader(3).address, 2n);
    await indexer.catchUp();
    expect((await h.db.client.chainCheckpoint.findUnique({ where: { chainId: CHAIN_ID } }))?.lastProcessedBlock).toBe(base + 1n);
    expect(await storedTransfers()).toEqual(await expectedTransfers());
    await expectCountersMatchRows();

    // And one to a chain of the same length: the head's number is the checkpoint's, its hash another.
    const snapshot3 = await rpc<string>(h.client, 'evm_snapshot');
    for (let i = 0; i < 2; i++) await transfer(h, usdc, trader(3).address, 5n);
    await indexer.catchUp();
    const sameHeight = await h.client.getBlockNumber();
    await rpc(h.client, 'evm_revert', [snapshot3]);
    for (let i = 0; i < 2; i++) await transfer(h, dai, trader(3).address, 6n);
    const head3 = await h.client.getBlock();
    expect(head3.number).toBe(sameHeight);
    await indexer.catchUp();
    expect(await h.db.client.chainCheckpoint.findUnique({ where: { chainId: CHAIN_ID } })).toMatchObject({ lastProcessedBlock: head3.number, lastProcessedHash: head3.hash });
    expect(await storedTransfers()).toEqual(await expectedTransfers());
    await expectCountersMatchRows();
  });

  it('records a graduation in the batch of its block, and a reorg that removes the block takes it back', async () => {
    const launchpad = new LaunchpadRepository(h.db.client);
    const lily = await launchToken(h, 'LILY');
    await buyLaunched(h, lily, '3');
    await indexer.catchUp();
    expect(await launchpad.getToken(CHAIN_ID, lily)).toMatchObject({ trades: 2, graduation: null });

    const snapshot = await rpc<string>(h.client, 'evm_snapshot');
    const forkBlock = await h.client.getBlockNumber();
    // Old branch: the buy that sells out the curve graduates LILY.
    await graduateLaunched(h, lily, trader(1));
    const oldHead = await h.client.getBlockNumber();
    await indexer.catchUp();
    await h.publisher.drain(); // its fact is out before the reorg voids it
    const [old] = (await storedGraduations()).filter((g) => g.token === lily);
    expect(old).toMatchObject({ token: lily, tokenAmount: 250_000_000n * 10n ** 6n });
    expect(old.blockNumber).toBeGreaterThan(forkBlock);
    expect(await storedGraduations()).toEqual(await graduationsOnChain());
    const graduatedState = await launchpad.getToken(CHAIN_ID, lily);
    expect(graduatedState).toMatchObject({ trades: 3 });
    expect(graduatedState?.graduation?.nativeAmount).toBe(graduatedState!.nativeReserves - graduatedState!.startingLiquidity);

    // New branch, longer: small buys only, LILY keeps trading on its curve.
    expect(await rpc(h.client, 'evm_revert', [snapshot])).toBe(true);
    for (let i = 0; i < 3; i++) await buyLaunched(h, lily, '1', trader(2));
    const newBranchHead = await h.client.getBlockNumber();
    expect(newBranchHead).toBeGreaterThan(oldHead);
    await indexer.catchUp();
    expect(await storedGraduations()).toEqual(await graduationsOnChain());
    const reverted = await launchpad.getToken(CHAIN_ID, lily);
    expect(reverted).toMatchObject({ trades: 5, graduation: null });
    expect((await launchpad.graduations(CHAIN_ID, [lily])).size).toBe(0);
    const row = await h.db.client.launchpadToken.findFirstOrThrow({ where: { chainId: CHAIN_ID, address: lily } });
    expect([row.graduated, row.graduatedBlock, row.graduatedTxHash, row.pair, row.graduationNativeAmount]).toEqual([false, null, null, null, null]);

    // It graduates on the new branch as well, in another block: that graduation is the one recorded.
    await graduateLaunched(h, lily, trader(1));
    await indexer.catchUp();
    const [again] = (await storedGraduations()).filter((g) => g.token === lily);
    expect(again.blockNumber).toBeGreaterThan(newBranchHead);
    expect(await storedGraduations()).toEqual(await graduationsOnChain());
    expect(await storedTransfers()).toEqual(await expectedTransfers());
    await expectCountersMatchRows();
  });

  it('keeps rolling 24 h counters exact across time travel', async () => {
    const tokens = new TokenRepository(h.db.client);
    const link = token(h, 'USDT');
    const count = async () => (await tokens.list({ chainId: CHAIN_ID, search: link })).tokens[0];
    await indexer.catchUp();
    const start = await count();

    await transfer(h, link, trader(4).address, 1n);
    await transfer(h, link, trader(4).address, 1n);
    await rpc(h.client, 'evm_increaseTime', [23 * 3600]);
    await transfer(h, link, trader(4).address, 1n);
    await indexer.catchUp();
    // Everything so far happened within 24 h of the chain's latest block.
    expect(await count()).toMatchObject({ transfers24h: start.transfers24h + 3, totalTransfers: start.totalTransfers + 3 });

    await rpc(h.client, 'evm_increaseTime', [3600 + 60]);
    await transfer(h, token(h, 'DAI'), trader(4).address, 1n); // moves the chain's clock
    await indexer.catchUp();
    // The two transfers (and all earlier history) are now more than 24 h old; the third is not.
    expect(await count()).toMatchObject({ transfers24h: 1, totalTransfers: start.totalTransfers + 3 });

    await rpc(h.client, 'evm_increaseTime', [23 * 3600]);
    await transfer(h, token(h, 'DAI'), trader(4).address, 1n);
    await indexer.catchUp();
    expect(await count()).toMatchObject({ transfers24h: 0, totalTransfers: start.totalTransfers + 3 });
  });

  it('publishes chain facts on JetStream with de-duplication ids, and reports its status', async () => {
    await h.publisher.drain();
    const nc = h.bus.current!;
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(CHAIN_EVENTS_STREAM);
    expect(info.state.messages).toBeGreaterThan(0);
    const subjects = new Set<string>();
    for (let seq = 1; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(CHAIN_EVENTS_STREAM, { seq }).catch(() => undefined);
      if (!msg) continue;
      const parsed = parseChainSubject(msg.subject);
      expect(parsed?.chainId).toBe(CHAIN_ID);
      subjects.add(parsed!.fact);
      expect(msg.header.get('Nats-Msg-Id')).toMatch(new RegExp(`^${CHAIN_ID}:`));
    }
    expect([...subjects].sort()).toEqual(
      expect.arrayContaining(
        [
          CHAIN_FACTS.block,
          CHAIN_FACTS.launchpadTokenCreated,
          CHAIN_FACTS.launchpadTokenGraduated,
          CHAIN_FACTS.launchpadTrade,
          CHAIN_FACTS.poolCreated,
          CHAIN_FACTS.poolUpdated,
          CHAIN_FACTS.reorg,
          CHAIN_FACTS.swap,
          CHAIN_FACTS.tokenCreated,
        ].sort(),
      ),
    );
    // The graduations: the devnet's GFROG, and LILY on both branches of the reorg (each with its block hash).
    const graduations: { subject: string; msgId: string | undefined; data: Record<string, unknown> }[] = [];
    for (let seq = 1; seq <= info.state.last_seq; seq++) {
      const msg = await jsm.streams.getMessage(CHAIN_EVENTS_STREAM, { seq }).catch(() => undefined);
      if (msg && msg.subject === chainFactSubject(CHAIN_ID, CHAIN_FACTS.launchpadTokenGraduated)) graduations.push({ subject: msg.subject, msgId: msg.header.get('Nats-Msg-Id'), data: msg.json() });
    }
    expect(graduations).toHaveLength(3);
    for (const g of graduations) {
      expect(launchpadTokenGraduatedEventSchema.parse(g.data)).toEqual(g.data);
      expect(g.msgId).toBe(`${CHAIN_ID}:${g.data.blockNumber}:${g.data.logIndex}:${g.data.blockHash}`);
    }
    const gfrog = h.chains.manifest.chains[String(CHAIN_ID)].launchpad.tokens.find((t) => t.symbol === 'GFROG')!;
    expect(graduations[0].data).toMatchObject({ chainId: CHAIN_ID, token: gfrog.address, pair: gfrog.pair, tokenAmount: (250_000_000n * 10n ** 6n).toString() });
    expect(await h.db.client.chainEventOutbox.count()).toBe(0);

    // Following in the background: status turns to running at the head.
    indexer.start();
    await transfer(h, token(h, 'USDC'), trader(5).address, 1n);
    const head = await h.client.getBlockNumber();
    for (let i = 0; i < 100 && indexer.status().lastProcessedBlock !== head.toString(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(indexer.status()).toMatchObject({ serviceStatus: 'running', lastProcessedBlock: head.toString(), blocksBehind: 0 });
    // The head and the lag follow each look at the chain.
    const gauges = () => h.registry.render().split('\n');
    expect(gauges()).toEqual(expect.arrayContaining([`indexer_head_block{chain="${CHAIN_ID}"} ${head}`, `indexer_blocks_behind{chain="${CHAIN_ID}"} 0`]));
    await rpc(h.client, 'anvil_mine', ['0x3']);
    const caughtUp = [`indexer_head_block{chain="${CHAIN_ID}"} ${head + 3n}`, `indexer_last_processed_block{chain="${CHAIN_ID}"} ${head + 3n}`];
    for (let i = 0; i < 100 && !caughtUp.every((l) => gauges().includes(l)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(gauges()).toEqual(expect.arrayContaining(caughtUp));
    await indexer.stop();
    expect(indexer.status().serviceStatus).toBe('stopped');
    expect((await h.db.client.chainCheckpoint.findUnique({ where: { chainId: CHAIN_ID } }))?.status).toBe('stopped');
  });
});
