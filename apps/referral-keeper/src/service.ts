import { distributeContract } from '@dex/messages';
import { ServiceModule, type ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';
import { KeeperHandler } from './keeper/keeper.handler';
import { keeperChains } from './keeper/keeper-chains';
import { KEEPER_CHAINS, KEEPER_CONFIG, KeeperService } from './keeper/keeper.service';

/** Sends `distributeRefFees` on each chain's AMM router on a schedule and on command. */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  serves: [distributeContract],
  module: (config, bus) =>
    ServiceModule.register({
      service: SERVICE,
      bus,
      chains: config.chains,
      controllers: [KeeperHandler],
      providers: [{ provide: KEEPER_CONFIG, useValue: config }, { provide: KEEPER_CHAINS, useValue: keeperChains(config) }, KeeperService],
    }),
};
