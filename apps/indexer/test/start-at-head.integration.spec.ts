// A first start at the head (INDEXER_START_BLOCK_<id>=head) on the devnet: every pool of every kind and every token
// the devnet created (its manifest) is found from the announcers' logs alone, the V2
// and stable pools' reserves are the chain's at the start block, the activity of the 24 hours before it (and nothing
// older) is read afterwards, counted as the chain's own logs count it, and the blocks after it are indexed as usual.
import { DAY, PoolRepository, TokenRepository } from '@dex/db';
import { uniswapV2PairAbi } from '@dex/abis';
import { toEventSelector, type Address } from 'viem';
import type { ChainIndexer } from '../src/chain/chain-indexer';
import { CHAIN_ID, routerSwap, rpc, startHarness, token, trader, transfer, type Harness } from './support/harness';

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');

jest.setTimeout(180_000);

describe('indexer started at the head', () => {
  let h: Harness;
  let indexer: ChainIndexer;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await indexer?.stop();
    await h?.close();
  });

  it('finds every pool and token the devnet created, with the reserves at its start block, and goes on from there', async () => {
    // Activity a day and more before the start, then within its last 24 hours.
    const [usdc, usdt] = [token(h, 'USDC'), token(h, 'USDT')];
    await transfer(h, usdc, trader(1).address, 7n);
    await routerSwap(h, usdc, usdt, 10n ** 6n);
    await rpc(h.client, 'evm_increaseTime', [25 * 3600]);
    await rpc(h.client, 'evm_mine');
    await transfer(h, usdc, trader(1).address, 9n);
    await routerSwap(h, usdt, usdc, 2n * 10n ** 6n);
    indexer = await h.indexer({ startAtHead: true, batchSize: 3 });
    const head = await h.client.getBlockNumber();
    await indexer.catchUp();
    const startedAt = BigInt(indexer.status().lastProcessedBlock!);
    expect(startedAt).toBeGreaterThanOrEqual(head);

    const manifest = h.chains.manifest.chains[String(CHAIN_ID)];
    const pools = await new PoolRepository(h.db.client).list(CHAIN_ID);
    expect(pools.map((p) => p.address)).toEqual(expect.arrayContaining(manifest.pools.map((p) => p.address)));
    const launched = (manifest as { launchpad?: { tokens: { address: string }[] } }).launchpad?.tokens.map((t) => t.address) ?? [];
    expect(pools.filter((p) => p.kind === 'launchpad').map((p) => p.address).sort()).toEqual([...launched].sort());
    for (const kind of ['uniswap-v2', 'stable', 'core', 'uniswap-v3', 'algebra']) expect(pools.some((p) => p.kind === kind)).toBe(true);
    // Reserves as the pools report them at the start block.
    const reserved = pools.filter((p) => p.kind === 'uniswap-v2' || p.kind === 'stable');
    expect(reserved.length).toBeGreaterThan(10);
    for (const p of reserved) {
      const [r0, r1] = await h.client.readContract({ address: p.address as Address, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber: startedAt });
      expect([p.address, p.reserve0, p.reserve1]).toEqual([p.address, r0, r1]);
    }
    const tokens = await h.db.client.token.findMany({ where: { chainId: CHAIN_ID } });
    expect(tokens.map((t) => t.address)).toEqual(expect.arrayContaining([manifest.wrappedNative.address, ...manifest.tokens.map((t) => t.address), ...launched]));
    // The 24 hours before the start block: every transfer of a known token, as the chain's logs give them.
    const startTime = (await h.client.getBlock({ blockNumber: startedAt })).timestamp;
    const known = new Set(tokens.map((t) => t.address.toLowerCase()));
    const logs = (await h.client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: `0x${startedAt.toString(16)}`, topics: [TRANSFER] }] })) as { address: string; blockNumber: string; topics: string[] }[];
    const times = new Map<string, bigint>();
    for (const n of new Set(logs.map((l) => l.blockNumber))) times.set(n, (await h.client.getBlock({ blockNumber: BigInt(n) })).timestamp);
    const inWindow = logs.filter((l) => l.topics.length === 3 && known.has(l.address.toLowerCase()) && times.get(l.blockNumber)! > startTime - DAY);
    expect(inWindow.length).toBeGreaterThan(4);
    expect(inWindow.length).toBeLessThan(logs.length);
    const expected = new Map<string, number>();
    for (const l of inWindow) expected.set(l.address.toLowerCase(), (expected.get(l.address.toLowerCase()) ?? 0) + 1);
    const listed = await new TokenRepository(h.db.client).list({ chainId: CHAIN_ID, asOf: startTime });
    expect(new Map(listed.tokens.filter((t) => t.transfers24h > 0).map((t) => [t.address.toLowerCase(), t.transfers24h]))).toEqual(expected);
    expect(await h.db.client.tokenTransfer.count({ where: { chainId: CHAIN_ID } })).toBe(inWindow.length);
    // The core swap within the window, not the one before it.
    const swaps = await h.db.client.ammSwap.findMany({ where: { chainId: CHAIN_ID } });
    expect(swaps.map((s) => [s.tokenIn, s.amountIn.toString(), s.sender])).toEqual([[usdt, (2n * 10n ** 6n).toString(), trader(0).address]]);
    expect(await h.db.client.activityBackfill.findUnique({ where: { chainId: CHAIN_ID } })).toMatchObject({ toBlock: startedAt, nextBlock: startedAt + 1n });

    // The blocks after it as usual.
    await transfer(h, token(h, 'USDC'), trader(1).address, 1_000n);
    await indexer.catchUp();
    expect(await h.db.client.tokenTransfer.count({ where: { chainId: CHAIN_ID, blockNumber: { gt: startedAt } } })).toBe(1);
  });
});
