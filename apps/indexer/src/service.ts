import { ServiceModule, type ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';

/** Follows both chains into Postgres and publishes chain facts on JetStream. */
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
