import type { DynamicModule } from '@nestjs/common';
import { loadSourcesConfig, ServiceModule, type NatsBus } from '@dex/service';
import { SERVICE, type AggregatorConfig } from './config';
import { loadChainEntries } from './liquidity/chain-config';
import { LiquidityService } from './liquidity/liquidity.service';
import { RouteHandler } from './routes/route.handler';
import { RouteService } from './routes/route.service';
import { DexesHandler } from './sources/dexes.handler';
import { SourceRegistry } from './sources/source-registry';
import { TokensHandler } from './tokens/tokens.handler';

/** Route search and the chain's liquidity sources, answered over the bus. */
export function aggregatorModule(config: AggregatorConfig, bus: NatsBus): DynamicModule {
  const chainIds = config.chains.map((c) => c.chainId);
  const sources = SourceRegistry.fromFile(SERVICE, config.SOURCES_CONFIG, chainIds);
  const liquidity = LiquidityService.create(
    loadChainEntries(SERVICE, config.SOURCES_CONFIG, chainIds),
    loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, chainIds),
    config.chains,
    config.BLOCK_POLL_MS,
    { bus, stream: config.INDEXER_STREAM },
  );
  return ServiceModule.register({
    service: SERVICE,
    bus,
    chains: config.chains,
    databaseUrl: config.DATABASE_URL,
    controllers: [DexesHandler, RouteHandler, TokensHandler],
    providers: [{ provide: SourceRegistry, useValue: sources }, { provide: LiquidityService, useValue: liquidity }, RouteService],
  });
}
