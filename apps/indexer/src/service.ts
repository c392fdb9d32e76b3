import { indexerStatusContract } from '@dex/messages';
import { ChainServiceModule, DB_CLIENT } from '@dex/chain-service';
import { createJsonLogger, MetricsRegistry, NatsBus, type ServiceDefinition } from '@dex/service';
import { IndexerStatusHandler } from './indexer.controller';
import { IndexerService } from './indexer.service';
import { loadConfig, SERVICE, type Config } from './config';

/** Follows both chains into Postgres and publishes chain facts on JetStream. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  serves: [indexerStatusContract],
  module: (config, bus) =>
    ChainServiceModule.forSettings(SERVICE, config, bus, {
      controllers: [IndexerStatusHandler],
      providers: [
        {
          provide: IndexerService,
          useFactory: (db: never, natsBus: NatsBus, metrics: MetricsRegistry) =>
            new IndexerService(config, db, natsBus, createJsonLogger(SERVICE, config.LOG_LEVEL), metrics),
          inject: [DB_CLIENT, NatsBus, MetricsRegistry],
        },
      ],
    }),
};
