import { corePoolContract, corePoolsContract, coreQuoteContract, coreWatchContract } from '@dex/messages';
import { ChainServiceModule } from '@dex/chain-service';
import type { ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';
import { CoreChains } from './quotes/core-chains';
import { LiveQuotesService } from './quotes/live-quotes.service';
import { PoolStatsService } from './quotes/pool-stats.service';
import { QuoteHandler } from './quotes/quote.handler';
import { QuoteService } from './quotes/quote.service';

/** AMM quotes, pool list and pool stats; publishes live quote topics. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  serves: [coreQuoteContract, coreWatchContract, corePoolsContract, corePoolContract],
  // A quote batch is CPU work on one thread and a read of the node: a few at once, no wait longer than 0.1 s.
  admission: { subjects: { [coreQuoteContract.subject]: { inFlight: 8, queued: 64, maxQueueWaitMs: 100 } } },
  module: (config, bus) =>
    ChainServiceModule.forSettings(SERVICE, config, bus, {
      controllers: [QuoteHandler],
      providers: [{ provide: CoreChains, useValue: CoreChains.fromConfig(config) }, QuoteService, LiveQuotesService, PoolStatsService],
    }),
};
