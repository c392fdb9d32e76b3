import type { DynamicModule } from '@nestjs/common';
import { ServiceModule, type NatsBus } from '@dex/service';
import { SERVICE, type AggregatorConfig } from './config';
import { DexesHandler } from './sources/dexes.handler';
import { SourceRegistry } from './sources/source-registry';

/** Route search and the chain's liquidity sources, answered over the bus. */
export function aggregatorModule(config: AggregatorConfig, bus: NatsBus): DynamicModule {
  const sources = SourceRegistry.fromFile(
    SERVICE,
    config.SOURCES_CONFIG,
    config.chains.map((c) => c.chainId),
  );
  return ServiceModule.register({
    service: SERVICE,
    bus,
    chains: config.chains,
    controllers: [DexesHandler],
    providers: [{ provide: SourceRegistry, useValue: sources }],
  });
}
