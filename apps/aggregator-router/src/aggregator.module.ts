import type { DynamicModule } from '@nestjs/common';
import type { DbClient } from '@dex/db';
import { ChainServiceModule, DB_CLIENT } from '@dex/chain-service';
import { loadSourcesConfig, type NatsBus } from '@dex/service';
import { SERVICE, type AggregatorConfig } from './config';
import { loadChainEntries } from './liquidity/chain-config';
import { LiquidityController } from './liquidity/liquidity.controller';
import { LiquidityService } from './liquidity/liquidity.service';
import { RouteHandler } from './routes/route.handler';
import { RouteSearcher, searchWorkerScript } from './routes/route-searcher';
import { ROUTE_SERVICE_OPTIONS, RouteService } from './routes/route.service';
import { DexesHandler } from './sources/dexes.handler';
import { SourceRegistry } from './sources/source-registry';
import { SourceVerification } from './sources/source-verification';
import { TokensHandler } from './tokens/tokens.handler';
import { TokenTransfers } from './tokens/token-transfers';
import { ViewAnnouncer } from './routes/view-announcer';

/** Route search and the chain's liquidity sources, answered over the bus. */
export function aggregatorModule(config: AggregatorConfig, bus: NatsBus): DynamicModule {
  const chainIds = config.chains.map((c) => c.chainId);
  const sources = SourceRegistry.fromFile(SERVICE, config.SOURCES_CONFIG, chainIds);
  const entries = loadChainEntries(SERVICE, config.SOURCES_CONFIG, chainIds);
  const chainSources = loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, chainIds);
  return ChainServiceModule.forSettings(SERVICE, config, bus, {
    controllers: [DexesHandler, RouteHandler, TokensHandler, LiquidityController],
    providers: [{ provide: SourceRegistry, useValue: sources }, {
        provide: LiquidityService,
        inject: [DB_CLIENT],
        useFactory: (db: DbClient) =>
          LiquidityService.create(entries, chainSources, config.chains, db, {
            pollMs: config.BLOCK_POLL_MS,
            retainBlocks: config.LIQUIDITY_RETAIN_BLOCKS,
            facts: { bus, stream: config.INDEXER_STREAM },
          }),
      }, TokenTransfers, { provide: RouteSearcher, useFactory: () => new RouteSearcher(config.ROUTE_SEARCH_WORKERS > 0 ? searchWorkerScript() : undefined, config.ROUTE_SEARCH_WORKERS) }, { provide: ROUTE_SERVICE_OPTIONS, useValue: { simulate: config.ROUTE_SIMULATION === 'on' } }, RouteService, SourceVerification, { provide: ViewAnnouncer, inject: [LiquidityService], useFactory: (liquidity: LiquidityService) => new ViewAnnouncer(liquidity, bus) }],
  });
}
