// Real anvil chains for tests: fresh processes on free ports with the devnet's base contracts.
import { startDevnet, writeManifest, type Devnet } from '@dex/devnet-kit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestChains extends Devnet {
  /** A sources file / manifest on disk for services that read one. */
  readonly manifestPath: string;
  /** `RPC_URL_<chainId>` and `CHAIN_IDS` settings for a service under test. */
  readonly env: Record<string, string>;
}

/** Starts chains 999 and 4663 (or the given ones) on free ports and deploys the devnet's base set. */
export async function startTestChains(chainIds: readonly number[] = [999, 4663]): Promise<TestChains> {
  const dir = mkdtempSync(join(tmpdir(), 'devnet-test-'));
  const devnet = await startDevnet({
    ports: Object.fromEntries(chainIds.map((id) => [id, 0])),
    gatewayUrl: 'http://127.0.0.1:3000',
  });
  
  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, devnet.manifest);
  const env: Record<string, string> = { CHAIN_IDS: chainIds.join(',') };
  for (const node of devnet.nodes) env[`RPC_URL_${node.chainId}`] = node.rpcUrl;
  return {
    ...devnet,
    manifestPath,
    env,
    stop: async () => {
      await devnet.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
