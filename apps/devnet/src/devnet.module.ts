import { Controller, Inject, Injectable, Logger, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { createChainClient, probeRpc } from '@dex/chain';
import { startDevnet, writeManifest, type Devnet } from '@dex/devnet-kit';
import { SUBJECTS, type DevnetManifest } from '@dex/messages';
import { ServiceModule, type HealthCheck, type NatsBus } from '@dex/service';
import { resolve } from 'node:path';
import { SERVICE, type Config } from './config';

export const DEVNET = Symbol('DEVNET');

@Injectable()
class DevnetLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger(SERVICE);

  constructor(@Inject(DEVNET) private readonly devnet: Devnet) {}

  async onApplicationShutdown(): Promise<void> {
    await this.devnet.stop();
    this.logger.log({ msg: 'chains stopped' });
  }
}

@Controller()
class ManifestHandler {
  constructor(@Inject(DEVNET) private readonly devnet: Devnet) {}

  /** `devnet.manifest`: the manifest of the running devnet. */
  @MessagePattern(SUBJECTS.devnetManifest)
  manifest(): DevnetManifest {
    return this.devnet.manifest;
  }
}

/** Every chain of the devnet answers and serves its chain id. */
function chainsCheck(state: { devnet?: Devnet }): HealthCheck {
  return {
    name: 'chains',
    run: async () => {
      if (!state.devnet) throw new Error('chains are starting');
      const heads = await Promise.all(
        state.devnet.nodes.map(async (n) => [n.chainId, (await probeRpc(createChainClient({ chainId: n.chainId, rpcUrl: n.rpcUrl }))).blockNumber.toString()]),
      );
      return { blockNumbers: Object.fromEntries(heads) };
    },
  };
}

/** Starts the local chains, deploys and seeds them, writes the manifest and serves it. */
export function devnetModule(config: Config, bus: NatsBus): DynamicModule {
  const state: { devnet?: Devnet } = {};
  const logger = new Logger(SERVICE);
  return ServiceModule.register({
    service: SERVICE,
    bus,
    controllers: [ManifestHandler],
    extraChecks: [chainsCheck(state)],
    providers: [
      {
        provide: DEVNET,
        useFactory: async () => {
          const started = Date.now();
          const devnet = await startDevnet({
            ports: { 999: config.DEVNET_PORT_999, 4663: config.DEVNET_PORT_4663 },
            host: config.DEVNET_HOST,
            gatewayUrl: config.GATEWAY_URL,
            logDir: config.DEVNET_LOG_DIR,
            blockTime: config.DEVNET_BLOCK_TIME,
          });
          const path = resolve(config.MANIFEST_PATH);
          writeManifest(path, devnet.manifest);
          state.devnet = devnet;
          logger.log({
            msg: 'devnet ready',
            manifest: path,
            chains: devnet.nodes.map((n) => ({ chainId: n.chainId, rpcUrl: n.rpcUrl })),
            ms: Date.now() - started,
          });
          return devnet;
        },
      },
      DevnetLifecycle,
    ],
  });
}
