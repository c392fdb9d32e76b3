// Real infrastructure for the indexer's integration tests: an anvil chain with the devnet deployed, a fresh
// database, a private NATS server with JetStream, and the indexer's own classes wired as the app wires them.
import { testERC20Abi, ammRouterAbi, uniswapV2FactoryAbi } from '@dex/abis';
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore } from '@dex/db';
import { deployContext, devAccounts, send, type DeployContext } from '@dex/devnet-kit';
import { createJsonLogger, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import type { Abi, Address, Hex } from 'viem';
import { ChainIndexer, type ChainIndexerOptions } from '../../src/chain/chain-indexer';
import { readWatchLists } from '../../src/chain/watch-list';
import { indexerMetrics } from '../../src/metrics';
import { OutboxPublisher } from '../../src/publisher';

export const CHAIN_ID = 999;

export interface Harness {
  chains: TestChains;
  db: TestDatabase;
  nats: PrivateNatsServer;
  bus: NatsBus;
  client: ChainPublicClient;
  ctx: DeployContext;
  store: IndexerStore;
  publisher: OutboxPublisher;
  /** A fresh indexer over the same database (as after a restart). */
  indexer(options?: Partial<ChainIndexerOptions>): Promise<ChainIndexer>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const [chains, db, nats] = await Promise.all([startTestChains([CHAIN_ID]), createTestDatabase(), startPrivateNatsServer()]);
  const logger = createJsonLogger('indexer', 'warn');
  const bus = new NatsBus({ url: nats.url, name: 'indexer-test', logger });
  await bus.connect();
  const rpcUrl = chains.env[`RPC_URL_${CHAIN_ID}`];
  const client = createChainClient({ chainId: CHAIN_ID, rpcUrl });
  const store = new IndexerStore(db.client);
  const metrics = indexerMetrics();
  const publisher = new OutboxPublisher(store, bus, logger, metrics, { retryMs: 200 });
  const watch = readWatchLists(chains.manifestPath, [CHAIN_ID]).get(CHAIN_ID)!;
  return {
    chains,
    db,
    nats,
    bus,
    client,
    ctx: deployContext(CHAIN_ID, rpcUrl),
    store,
    publisher,
    indexer: async (options = {}) => {
      const indexer = new ChainIndexer({
        chainId: CHAIN_ID,
        client,
        store,
        checkpoints: new CheckpointRepository(db.client),
        watch,
        options: { startBlock: 0n, batchSize: 40, confirmations: 0, reorgWindow: 16, blockRetention: 1_000, pollIntervalMs: 50, ...options },
        logger,
        metrics,
        onEvents: () => publisher.kick(),
      });
      await indexer.init();
      return indexer;
    },
    close: async () => {
      await publisher.close();
      await bus.close();
      await Promise.all([chains.stop(), db.drop(), nats.dispose()]);
    },
  };
}

export const trader = (i: number) => devAccounts()[2 + i];

export async function rpc<T = unknown>(client: ChainPublicClient, method: string, params: unknown[] = []): Promise<T> {
  return (await client.request({ method: method as never, params: params as never })) as T;
}

export async function transfer(h: Harness, token: Address, to: Address, amount: bigint, from = trader(0)): Promise<void> {
  await send(h.ctx, { address: token, abi: testERC20Abi as Abi, functionName: 'transfer', args: [to, amount] }, from);
}

/** A swap through the core router (the pool sees the router as `user`; the trader is the transaction sender). */
export async function routerSwap(h: Harness, tokenIn: Address, tokenOut: Address, amountIn: bigint, refCode?: Hex, from = trader(0)): Promise<void> {
  const router = h.chains.manifest.chains[String(CHAIN_ID)].core.router;
  await send(h.ctx, { address: tokenIn, abi: testERC20Abi as Abi, functionName: 'approve', args: [router, amountIn] }, from);
  await send(h.ctx, { address: router, abi: ammRouterAbi as Abi, functionName: 'swap', args: refCode ? [tokenIn, tokenOut, amountIn, 0n, refCode] : [tokenIn, tokenOut, amountIn, 0n] }, from);
}

/** Creates a pair on the chain's first V2 factory. */
export async function createPair(h: Harness, tokenA: Address, tokenB: Address): Promise<void> {
  const factory = h.chains.manifest.chains[String(CHAIN_ID)].sources.find((s) => s.kind === 'uniswap-v2')!.addresses.factory;
  await send(h.ctx, { address: factory, abi: uniswapV2FactoryAbi as Abi, functionName: 'createPair', args: [tokenA, tokenB] });
}

export const token = (h: Harness, symbol: string): Address => {
  const chain = h.chains.manifest.chains[String(CHAIN_ID)];
  const found = [chain.wrappedNative, ...chain.tokens].find((t) => t.symbol === symbol);
  if (!found) throw new Error(`no token ${symbol}`);
  return found.address;
};
