// The devnet app: two fresh chains, the base contracts deployed, the manifest written and served.
import { testERC20Abi, wrappedNativeAbi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { readManifest } from '@dex/devnet-kit';
import { getManifestContract } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, fileNatsUrl, startApp, until, type AppProcess } from '../src';

jest.setTimeout(90_000);

describe('devnet app', () => {
  let dir: string;
  let devnet: AppProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'devnet-e2e-'));
    devnet = await startApp('devnet', {
      NATS_URL: await fileNatsUrl(),
      DEVNET_PORT_999: '0',
      DEVNET_PORT_4663: '0',
      MANIFEST_PATH: join(dir, 'manifest.json'),
      DEVNET_LOG_DIR: join(dir, 'logs'),
      GATEWAY_URL: 'http://127.0.0.1:3999',
    });
    const api = apiClient(devnet.url);
    await until(() => api.request('ready'), (r) => r.status === 200, 60_000);
  });

  afterAll(async () => {
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a manifest with both chains, every deployment, dev accounts and the gateway URL', async () => {
    const manifest = readManifest(join(dir, 'manifest.json'));
    expect(manifest.gatewayUrl).toBe('http://127.0.0.1:3999');
    expect(Object.keys(manifest.chains).sort()).toEqual(['4663', '999']);
    expect(manifest.accounts.map((a) => a.role)).toEqual(expect.arrayContaining(['deployer', 'keeper']));
    expect(manifest.chains['999'].wrappedNative.symbol).toBe('WHYPE');
    expect(manifest.chains['4663'].wrappedNative.symbol).toBe('WETH');

    for (const chain of Object.values(manifest.chains)) {
      const client = createChainClient({ chainId: chain.chainId, rpcUrl: chain.rpcUrl, multicall3: chain.multicall3 });
      expect(await client.getChainId()).toBe(chain.chainId);
      for (const d of chain.deployments) {
        const code = await client.getCode({ address: d.address });
        expect(code && code.length > 2).toBe(true);
      }
      expect(new Set(chain.tokens.map((t) => t.decimals))).toEqual(new Set([6, 18]));
      // One multicall through Multicall3 reads every token's metadata and a dev account's balance.
      const trader = manifest.accounts.find((a) => a.role === 'trader-1')!.address;
      const results = await client.multicall({
        allowFailure: false,
        contracts: chain.tokens.flatMap((t) => [
          { address: t.address, abi: testERC20Abi, functionName: 'decimals' } as const,
          { address: t.address, abi: testERC20Abi, functionName: 'balanceOf', args: [trader] } as const,
        ]),
      });
      chain.tokens.forEach((t, i) => {
        expect(Number(results[2 * i])).toBe(t.decimals);
        expect(results[2 * i + 1]).toBe(1_000_000n * 10n ** BigInt(t.decimals));
      });
      const wrapped = await client.readContract({ address: chain.wrappedNative.address, abi: wrappedNativeAbi, functionName: 'balanceOf', args: [trader] });
      expect(wrapped).toBe(1_000n * 10n ** 18n);
    }
  });

  it('serves the manifest over NATS', async () => {
    const bus = new NatsBus({ url: await fileNatsUrl(), name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    await bus.connect();
    try {
      const reply = await bus.request(getManifestContract, {});
      expect(reply.ok).toBe(true);
      if (reply.ok) expect(reply.data).toEqual(readManifest(join(dir, 'manifest.json')));
    } finally {
      await bus.close();
    }
  });

  it('stops its chains when it stops', async () => {
    const manifest = readManifest(join(dir, 'manifest.json'));
    const code = await devnet.stop('SIGTERM');
    expect([0, 'SIGTERM']).toContain(code);
    for (const chain of Object.values(manifest.chains)) {
      await expect(fetch(chain.rpcUrl, { method: 'POST', body: '{}', signal: AbortSignal.timeout(1_000) })).rejects.toThrow();
    }
  });
});
