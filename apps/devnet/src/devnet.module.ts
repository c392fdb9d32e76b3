import { Controller, Inject, Injectable, Logger, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { createChainClient, probeRpc, shortMessage } from '@dex/chain';
import { startDevnet, writeManifest, type Devnet } from '@dex/devnet-kit';
import { SUBJECTS, type DevnetManifest } from '@dex/messages';
import { ServiceModule, type HealthCheck, type NatsBus } from '@dex/service';
import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import { SERVICE, type Config } from './config';
import { prepareSimulator, ScaleTrader, scaleTraderAccounts, Simulator, simulatorAccounts } from './simulator';

export const DEVNET = Symbol('DEVNET');
const DEVNET_STATE = Symbol('DEVNET_STATE');

interface DevnetState {
  devnet?: Devnet;
  simulator?: Simulator;
  traders?: ScaleTrader[];
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
    await Promise.all([this.state.simulator?.stop(), ...(this.state.traders ?? []).map((t) => t.stop())]);
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

/**
 * The scale profile's traders, one per chain, prepared (approvals) while blocks are still mined per transaction
 * (the chains switch to a block every DEVNET_SCALE_BLOCK_TIME seconds once everything is funded).
 */
async function startScaleTraders(devnet: Devnet, config: Config, accounts: ReturnType<typeof scaleTraderAccounts>, logger: Logger): Promise<ScaleTrader[]> {
  const traders: ScaleTrader[] = [];
  for (const node of devnet.nodes) {
    const chain = devnet.manifest.chains[String(node.chainId)];
    const scale = devnet.scale?.get(node.chainId);
    if (!scale) continue;
    const trader = new ScaleTrader({ chain, scale, accounts, swapsPerBlock: config.DEVNET_SCALE_SWAPS_PER_BLOCK, seed: node.chainId, logger });
    await trader.prepare();
    traders.push(trader);
  }
  return traders;
}

/** Switches every chain from a block per transaction to a block every `seconds`. */
async function mineEvery(devnet: Devnet, seconds: number): Promise<void> {
  for (const node of devnet.nodes) {
    await createChainClient({ chainId: node.chainId, rpcUrl: node.rpcUrl }).request({ method: 'evm_setIntervalMining' as never, params: [seconds] as never });
  }
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
          const scaled = config.DEVNET_SCALE_POOLS > 0;
          const traderAccounts = scaleTraderAccounts();
          const devnet = await startDevnet({
            ports: { 999: config.DEVNET_PORT_999, 4663: config.DEVNET_PORT_4663 },
            host: config.DEVNET_HOST,
            gatewayUrl: config.GATEWAY_URL,
            logDir: config.DEVNET_LOG_DIR,
            blockTime: config.DEVNET_BLOCK_TIME,
            ...(scaled
              ? {
                  scale: {
                    pools: config.DEVNET_SCALE_POOLS,
                    tokens: config.DEVNET_SCALE_TOKENS,
                    traders: traderAccounts.map((a) => a.address),
                    ...(config.DEVNET_SCALE_CACHE_DIR ? { cacheDir: resolve(config.DEVNET_SCALE_CACHE_DIR) } : {}),
                  },
                }
              : {}),
          });
          let manifest = devnet.manifest;
          if (scaled) {
            logger.log({ msg: 'scale profile seeded', chains: Object.values(manifest.chains).map((c) => ({ chainId: c.chainId, ...c.scale?.pools, tokens: c.scale?.tokens.length })), ms: Date.now() - started });
            state.traders = await startScaleTraders(devnet, config, traderAccounts, logger);
            manifest = { ...manifest, accounts: [...manifest.accounts, ...traderAccounts] };
          }
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
          // Scale: a block every few seconds from now on, so each block holds many swaps.
          if (state.traders?.length) await mineEvery(devnet, config.DEVNET_SCALE_BLOCK_TIME);
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
          for (const t of state.traders ?? []) t.start();
          return running;
        },
      },
      { provide: DEVNET_STATE, useValue: state },
      DevnetLifecycle,
    ],
  });
}
