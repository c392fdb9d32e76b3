// A first start at the head (INDEXER_START_BLOCK_<id>=head) on the devnet: every pool of every kind and every token
// the devnet created (its manifest) is found from the announcers' logs alone, the V2
// and stable pools' reserves are the chain's at the start block, no transfer before it is stored, and the blocks
// after it are indexed as usual.
import { PoolRepository } from '@dex/db';
import { uniswapV2PairAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainIndexer } from '../src/chain/chain-indexer';
import { CHAIN_ID, startHarness, token, trader, transfer, type Harness } from './support/harness';

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
    indexer = await h.indexer({ startAtHead: true });
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
    // Nothing before the start block; the blocks after it as usual.
    expect(await h.db.client.tokenTransfer.count({ where: { chainId: CHAIN_ID } })).toBe(0);
    await transfer(h, token(h, 'USDC'), trader(1).address, 1_000n);
    await indexer.catchUp();
    expect(await h.db.client.tokenTransfer.count({ where: { chainId: CHAIN_ID, blockNumber: { gt: startedAt } } })).toBe(1);
  });
});
