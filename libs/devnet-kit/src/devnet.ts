import { devnetManifestSchema, type DevnetManifest } from '@dex/messages';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { devAccounts } from './accounts';
import { startAnvil, type AnvilNode } from './anvil';
import { deployBase, deployContext } from './deploy';
import { deployAmm } from './amm';
import { deployLaunchpad } from './launchpad';
import { deployRouter } from './router';
import { deploySources } from './sources';

export interface DevnetOptions {
  /** chainId -> port; 0 picks a free port. */
  readonly ports: Readonly<Record<number, number>>;
  readonly host?: string;
  readonly gatewayUrl: string;
  /** Where anvil logs go (one file per chain); discarded when unset. */
  readonly logDir?: string;
  /** Seconds between blocks; unset mines a block per transaction. */
  readonly blockTime?: number;
}

export interface Devnet {
  readonly manifest: DevnetManifest;
  readonly nodes: readonly AnvilNode[];
  stop(): Promise<void>;
}

/** Starts one fresh anvil chain per entry of `ports` and deploys the base contracts on each, in parallel. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const nodes: AnvilNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    if (options.logDir) mkdirSync(options.logDir, { recursive: true });
    const chainIds = Object.keys(options.ports).map(Number);
    const started = await Promise.all(
      chainIds.map((chainId) =>
        startAnvil({
          chainId,
          port: options.ports[chainId],
          host: options.host,
          blockTime: options.blockTime,
          logFile: options.logDir ? join(options.logDir, `anvil-${chainId}.log`) : undefined,
        }),
      ),
    );
    nodes.push(...started);
    const chains = await Promise.all(nodes.map((node) => deployContext(node.chainId, node.rpcUrl)).map(async (ctx) => deployRouter(ctx, await deployLaunchpad(ctx, await deployAmm(ctx, await deploySources(ctx, await deployBase(ctx)))))));
    const manifest = devnetManifestSchema.parse({
      version: 1,
      createdAt: new Date().toISOString(),
      gatewayUrl: options.gatewayUrl,
      accounts: devAccounts(),
      chains: Object.fromEntries(chains.map((c) => [String(c.chainId), c])),
    });
    return { manifest, nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Writes the manifest atomically (a reader never sees half a file). */
export function writeManifest(path: string, manifest: DevnetManifest): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, path);
}

export function readManifest(path: string): DevnetManifest {
  return devnetManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
