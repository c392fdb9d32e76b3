import type { ServiceDefinition } from '@dex/service';
import { loadGatewayConfig, SERVICE, type GatewayConfig } from './config';
import { gatewayModule } from './gateway.module';

export const gatewayService: ServiceDefinition<GatewayConfig> = {
  name: SERVICE,
  loadConfig: loadGatewayConfig,
  module: (config, bus) => gatewayModule(config, bus),
  accessLog: true,
};
