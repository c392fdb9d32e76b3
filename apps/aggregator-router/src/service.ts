import { balancesContract, listDexesContract, listTokensContract, poolsContract, routeContract } from '@dex/messages';
import type { ServiceDefinition } from '@dex/service';
import { aggregatorModule } from './aggregator.module';
import { loadAggregatorConfig, SERVICE, type AggregatorConfig } from './config';

export const service: ServiceDefinition<AggregatorConfig> = {
  name: SERVICE,
  loadConfig: loadAggregatorConfig,
  module: (config, bus) => aggregatorModule(config, bus),
  serves: [listDexesContract, routeContract, poolsContract, balancesContract, listTokensContract],
  // A route's search is CPU work on the search worker, the rest waits on the node (re-quotes, the simulation):
  // enough at once to keep both busy, and no wait for a slot longer than a tenth of a second.
  admission: { subjects: { [routeContract.subject]: { inFlight: 16, queued: 64, maxQueueWaitMs: 100 } } },
};
