import { ServiceModule, type ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';

/** Sends `distributeRefFees` on each chain's AMM router on a schedule and on command. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  module: (config, bus) =>
    ServiceModule.register({
      service: SERVICE,
      bus,
      chains: config.chains,
    }),
};
