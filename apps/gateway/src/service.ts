import type { ServiceDefinition } from '@dex/service';
import { loadGatewayConfig, SERVICE, type GatewayConfig } from './config';
import { gatewayModule } from './gateway.module';
import { gatewayHttpErrors } from './http/framework-errors';

export const service: ServiceDefinition<GatewayConfig> = {
  name: SERVICE,
  loadConfig: loadGatewayConfig,
  module: (config, bus) => gatewayModule(config, bus),
  accessLog: true,
  guardEventLoop: true,
  httpErrors: gatewayHttpErrors,
};
