import { balancesContract, listDexesContract, listTokensContract, poolsContract, routeContract } from '@dex/messages';
import type { ServiceDefinition } from '@dex/service';
import { aggregatorModule } from './aggregator.module';
import { loadAggregatorConfig, SERVICE, type AggregatorConfig } from './config';

export const service: ServiceDefinition<AggregatorConfig> = {
  name: SERVICE,
  loadConfig: loadAggregatorConfig,
  module: (config, bus) => aggregatorModule(config, bus),
  serves: [listDexesContract, routeContract, poolsContract, balancesContract, listTokensContract],
  // A route is CPU work on one thread: a few at once keep the node busy while one waits for its simulation, and
  // a short queue keeps an answered route's latency near its own time; past that, a 503 at once.
  admission: { subjects: { [routeContract.subject]: { inFlight: 4, queued: 64, maxQueueWaitMs: 100 } } },
};
