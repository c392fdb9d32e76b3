import { ServiceModule, type ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';

/** Launchpad token list, metadata, curve state and estimates; feeds curve states to the aggregator. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  module: (config, bus) =>
    ServiceModule.register({
      service: SERVICE,
      bus,
      chains: config.chains,
      databaseUrl: config.DATABASE_URL,
    }),
};
