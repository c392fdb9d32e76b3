import { getLaunchedTokenContract, launchpadEstimateContract, launchpadTradesContract, listLaunchedTokensContract } from '@dex/messages';
import { ChainServiceModule } from '@dex/chain-service';
import type { ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';
import { LaunchpadHandler } from './tokens/launchpad.handler';
import { LaunchpadReader } from './tokens/launchpad-reader';

/** Launchpad token list, metadata, curve state and estimates. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  serves: [listLaunchedTokensContract, getLaunchedTokenContract, launchpadEstimateContract, launchpadTradesContract],
  module: (config, bus) =>
    ChainServiceModule.forSettings(SERVICE, config, bus, {
      controllers: [LaunchpadHandler],
      providers: [{ provide: LaunchpadReader, useValue: LaunchpadReader.fromConfig(config) }],
    }),
};
