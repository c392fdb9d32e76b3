import { Controller, Inject, Injectable, Logger, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { createChainClient, probeRpc, shortMessage } from '@dex/chain';
import { startDevnet, writeManifest, type Devnet } from '@dex/devnet-kit';
import { SUBJECTS, type DevnetManifest } from '@dex/messages';
import { ServiceModule, type HealthCheck, type NatsBus } from '@dex/service';
import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import { SERVICE, type Config } from './config';
import { prepareSimulator, Simulator, simulatorAccounts } from './simulator';

export const DEVNET = Symbol('DEVNET');
const DEVNET_STATE = Symbol('DEVNET_STATE');

interface DevnetState {
  devnet?: Devnet;
  simulator?: Simulator;
}

@Injectable()
class DevnetLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger(SERVICE);

  constructor(
    @Inject(DEVNET) private readonly devnet: Devnet,
    @Inject(DEVNET_STATE) private readonly state: DevnetState,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The simulator first: its tick in flight finishes while the chains still answer.
    await this.state.simulator?.stop();
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
function chainsCheck(state: DevnetState): HealthCheck {
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
  const state: DevnetState = {};
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
          let manifest = devnet.manifest;
          if (config.DEVNET_SIMULATE) {
            // Funded before the devnet reports ready, so no other sender races the deployer; a failure here
            // leaves the devnet running without activity.
            try {
              const accounts = simulatorAccounts();
              await prepareSimulator(manifest, accounts);
              state.simulator = new Simulator({
                manifest,
                accounts,
                intervalMs: config.DEVNET_SIMULATE_INTERVAL_MS,
                seed: config.DEVNET_SIMULATE_SEED ?? randomInt(0, 2 ** 32),
                logger,
              });
              manifest = { ...manifest, accounts: [...manifest.accounts, ...accounts] };
            } catch (err) {
              logger.error({ msg: 'activity simulator could not start; the devnet runs without it', error: shortMessage(err) });
            }
          }
          const running: Devnet = { ...devnet, manifest };
          const path = resolve(config.MANIFEST_PATH);
          writeManifest(path, manifest);
          state.devnet = running;
          logger.log({
            msg: 'devnet ready',
            manifest: path,
            chains: devnet.nodes.map((n) => ({ chainId: n.chainId, rpcUrl: n.rpcUrl })),
            simulator: state.simulator ? 'on' : 'off',
            ms: Date.now() - started,
          });
          state.simulator?.start();
          return running;
        },
      },
      { provide: DEVNET_STATE, useValue: state },
      DevnetLifecycle,
    ],
  });
}
