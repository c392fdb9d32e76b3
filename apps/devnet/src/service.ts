import { getManifestContract } from '@dex/messages';
import type { ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';
import { devnetModule } from './devnet.module';

export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  module: (config, bus) => devnetModule(config, bus),
  serves: [getManifestContract],
};
