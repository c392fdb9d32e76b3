import { createChainClient } from '@dex/chain';
import { CheckpointRepository, IndexerStore, type DbClient } from '@dex/db';
import type { ChainIndexerStatus } from '@dex/messages';
import { NatsBus } from '@dex/service';
import type { LoggerService, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ChainIndexer } from './chain/chain-indexer';
import { readWatchLists } from './chain/watch-list';
import type { Config } from './config';
import { indexerMetrics, type IndexerMetrics, type MetricsSink } from './metrics';
import { OutboxPublisher } from './publisher';

/** Runs one ChainIndexer per configured chain and the publisher of their events. */
export class IndexerService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly metrics: IndexerMetrics;
  readonly indexers: ChainIndexer[];
  readonly publisher: OutboxPublisher;

  constructor(config: Config, db: DbClient, bus: NatsBus, private readonly logger: LoggerService, metrics?: MetricsSink) {
    this.metrics = indexerMetrics(metrics);
    const store = new IndexerStore(db);
    const checkpoints = new CheckpointRepository(db);
    const watchLists = readWatchLists(config.SOURCES_CONFIG, config.chains.map((c) => c.chainId));
    this.publisher = new OutboxPublisher(store, bus, logger, this.metrics, { stream: config.INDEXER_STREAM, replicas: config.NATS_STREAM_REPLICAS });
    this.indexers = config.chains.map((endpoint) => {
      const indexer = new ChainIndexer({
        chainId: endpoint.chainId,
        client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, providers: endpoint.providers, timeoutMs: 30_000 }),
        store,
        checkpoints,
        watch: watchLists.get(endpoint.chainId)!,
        options: {
          startBlock: config.startBlocks[endpoint.chainId] ?? 0n,
          startAtHead: config.startAtHead[endpoint.chainId] ?? false,
          batchSize: config.INDEXER_BATCH_SIZE,
          confirmations: config.INDEXER_CONFIRMATIONS,
          reorgWindow: config.INDEXER_REORG_WINDOW,
          blockRetention: config.INDEXER_BLOCK_RETENTION,
          pollIntervalMs: config.INDEXER_POLL_INTERVAL_MS,
        },
        logger,
        metrics: this.metrics,
        onEvents: () => this.publisher.kick(),
      });
      indexer.progressIntervalMs = config.INDEXER_PROGRESS_INTERVAL_MS;
      return indexer;
    });
  }

  onApplicationBootstrap(): void {
    // Chains start in the background: an unreachable node or database must not keep the service from
    // answering its health checks; each chain retries until it can initialise.
    for (const indexer of this.indexers) void this.startChain(indexer);
    // Events committed before a restart and not yet acknowledged go out first.
    this.publisher.kick();
  }

  private async startChain(indexer: ChainIndexer, attempt = 1): Promise<void> {
    try {
      await indexer.init();
      indexer.start();
    } catch (error) {
      this.logger.warn({ msg: 'chain could not start; retrying', chainId: indexer.chainId, error: (error as Error).message, attempt }, 'indexer');
      await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * attempt)).unref());
      if (!this.stopping) await this.startChain(indexer, attempt + 1);
    }
  }

  private stopping = false;

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.indexers.map((i) => i.stop()));
    await this.publisher.close();
  }

  status(chainId?: number): ChainIndexerStatus[] {
    return this.indexers.filter((i) => chainId === undefined || i.chainId === chainId).map((i) => i.status());
  }
}
