// The indexer through a provider that limits eth_getLogs as public ones do (a maximum block range, a number of
// requests a second answered 429 past it), against the devnet on anvil: it learns the range limit once and cuts its
// requests to it, waits out the rate limit, and stores every transfer exactly once, as the chain has them.
import { createChainClient } from '@dex/chain';
import { startRpcProxy, type RpcProxy } from '@dex/testing';
import { parseAbiItem, type Address } from 'viem';
import type { ChainIndexer } from '../src/chain/chain-indexer';
import { CHAIN_ID, startHarness, type Harness } from './support/harness';

jest.setTimeout(180_000);

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('indexer through a provider that limits eth_getLogs', () => {
  let h: Harness;
  let proxy: RpcProxy;
  let indexer: ChainIndexer;

  beforeAll(async () => {
    h = await startHarness();
    proxy = await startRpcProxy(h.chains.env[`RPC_URL_${CHAIN_ID}`]);
    proxy.limit({ maxLogRange: 7, maxLogRequestsPerSecond: 20 });
    const limited = createChainClient({ chainId: CHAIN_ID, rpcUrl: proxy.url, timeoutMs: 10_000 });
    indexer = await h.indexer({ batchSize: 60 }, limited);
  });

  afterAll(async () => {
    await indexer?.stop();
    await proxy?.close();
    await h?.close();
  });

  it('backfills every transfer exactly once, its requests cut to the range limit, the rate limit waited out', async () => {
    await indexer.catchUp();
    const tokens = (await h.db.client.token.findMany({ where: { chainId: CHAIN_ID }, select: { address: true } })).map((t) => t.address as Address);
    const onChain = (await h.client.getLogs({ address: tokens, event: transferEvent, fromBlock: 0n, toBlock: 'latest' })).map((l) => `${l.blockNumber}:${l.logIndex}`).sort();
    const stored = (await h.db.client.tokenTransfer.findMany({ where: { chainId: CHAIN_ID } })).map((r) => `${r.blockNumber}:${r.logIndex}`).sort();
    expect(onChain.length).toBeGreaterThan(10);
    expect(stored).toEqual(onChain);
    expect(indexer.status()).toMatchObject({ lastProcessedBlock: (await h.client.getBlockNumber()).toString(), blocksBehind: 0 });
    // One refused range: the limit it names is learned, and every request after it is cut to it.
    expect(proxy.refused.range).toBe(1);
    expect(proxy.refused.rate).toBeGreaterThan(0);
  });
});
