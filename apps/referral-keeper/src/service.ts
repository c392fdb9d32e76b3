import { distributeContract, graduateContract } from '@dex/messages';
import { ChainServiceModule } from '@dex/chain-service';
import type { ServiceDefinition } from '@dex/service';
import { loadConfig, SERVICE, type Config } from './config';
import { GraduationService } from './graduation/graduation.service';
import { KEEPER_CHAINS, KEEPER_CONFIG } from './keeper/injection';
import { KeeperHandler } from './keeper/keeper.handler';
import { keeperChains } from './keeper/keeper-chains';
import { KeeperService } from './keeper/keeper.service';
import { TxLane } from './keeper/tx-lane';

/**
 * The product's keeper: sends `distributeRefFees` on each chain's AMM router, and finishes the graduation of
 * launched tokens whose curve sold out before their DEX pair was deployed; on a schedule and on command.
 */
export const service: ServiceDefinition<Config> = {
  name: SERVICE,
  loadConfig,
  serves: [distributeContract, graduateContract],
  module: (config, bus) =>
    ChainServiceModule.forSettings(SERVICE, config, bus, {
      controllers: [KeeperHandler],
      providers: [
        { provide: KEEPER_CONFIG, useValue: config },
        { provide: KEEPER_CHAINS, useValue: keeperChains(config) },
        TxLane,
        KeeperService,
        GraduationService,
      ],
    }),
};
