// Real infrastructure for the indexer's integration tests: an anvil chain with the devnet deployed, a fresh
// database, a private NATS server with JetStream, and the indexer's own classes wired as the app wires them.
import { testERC20Abi, ammRouterAbi, launchpadAbi, uniswapV2FactoryAbi } from '@dex/abis';
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore } from '@dex/db';
import { deployContext, devAccounts, send, type DeployContext } from '@dex/devnet-kit';
import { createJsonLogger, MetricsRegistry, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { getAddress, parseAbiItem, parseEther, type Abi, type Address, type Hex } from 'viem';
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
  /** The registry the indexers record their metrics in, as the service's `GET /metrics` serves it. */
  registry: MetricsRegistry;
  /** A fresh indexer over the same database (as after a restart). */
  indexer(options?: Partial<ChainIndexerOptions>, client?: ChainPublicClient): Promise<ChainIndexer>;
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
  const registry = new MetricsRegistry('indexer');
  const metrics = indexerMetrics(registry);
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
    registry,
    indexer: async (options = {}, through = client) => {
      const indexer = new ChainIndexer({
        chainId: CHAIN_ID,
        client: through,
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

/** The chain's launchpad. */
export const launchpadAddress = (h: Harness): Address => h.chains.manifest.chains[String(CHAIN_ID)].launchpad.address;

/** Launches a token on the launchpad (the creator buys `creatorBuy` native coins of it); returns its address. */
export async function launchToken(h: Harness, symbol: string, creatorBuy = '1', from = trader(3)): Promise<Address> {
  const launchpad = launchpadAddress(h);
  const lower = symbol.toLowerCase();
  const args = [symbol, symbol, `ipfs://test/${lower}.png`, `${symbol} of the test`, `https://${lower}.example`, `@${lower}`, `t.me/${lower}`, `discord.gg/${lower}`, 0];
  await send(h.ctx, { address: launchpad, abi: launchpadAbi as Abi, functionName: 'createToken', args, value: parseEther(creatorBuy) }, from);
  const count = await h.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenCount' });
  const [tokens] = await h.client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getPaginatedTokensWithMetadata', args: [count - 1n, 1n] });
  return getAddress(tokens[0]);
}

/** Buys a launched token on its curve for `value` native coins (700 sells out a fresh curve). */
export async function buyLaunched(h: Harness, token: Address, value: string, from = trader(0)): Promise<void> {
  await send(h.ctx, { address: launchpadAddress(h), abi: launchpadAbi as Abi, functionName: 'buyTokens', args: [token], value: parseEther(value) }, from);
}

const graduateFunction = parseAbiItem('function graduate(address token)');

/**
 * Sells out a launched token's curve (a buy of 700 native coins) so that it graduates. A launchpad that
 * seeds the DEX pair only when the pair is already deployed leaves a sold-out curve frozen: `graduate`
 * completes it in a second transaction.
 */
export async function graduateLaunched(h: Harness, token: Address, from = trader(0)): Promise<void> {
  await buyLaunched(h, token, '700', from);
  const state = await h.client.readContract({ address: launchpadAddress(h), abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
  if (!state.graduated) await send(h.ctx, { address: launchpadAddress(h), abi: [graduateFunction], functionName: 'graduate', args: [token] }, from);
}
