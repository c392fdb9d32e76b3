import { balancesContract, listDexesContract, listTokensContract, poolsContract, routeContract } from '@dex/messages';
import type { ServiceDefinition } from '@dex/service';
import { aggregatorModule } from './aggregator.module';
import { loadAggregatorConfig, SERVICE, type AggregatorConfig } from './config';

export const service: ServiceDefinition<AggregatorConfig> = {
  name: SERVICE,
  loadConfig: loadAggregatorConfig,
  module: (config, bus) => aggregatorModule(config, bus),
  serves: [listDexesContract, routeContract, poolsContract, balancesContract, listTokensContract],
};
