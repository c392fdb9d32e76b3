// Fork mode as a team rehearses a release: `npm start -- --fork <rpc-url> --chain <id> --deploy-config <file>`
// against a second local anvil that stands in for a real chain (built by another account, with history). The
// launcher forks it, deploys our contracts onto the fork with the deploy tool, starts the six services from the
// catalogue and the new record; /dexes shows every source active, a route through the chain's own pool executes on
// the fork for exactly its quote, nothing reaches the real chain, and Ctrl-C stops every process.
import { wrappedNativeAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient } from '@dex/chain';
import { freePort, startAnvil, type AnvilNode } from '@dex/devnet-kit';
import { createTestDatabase, startPrivateNatsServer, type PrivateNatsServer, type TestDatabase } from '@dex/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { erc20Abi, maxUint256, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_TRADER_KEY, apiClient, bodyOf, buildForeignChain, until, WORKSPACE, type ForeignChain } from '../src';

jest.setTimeout(300_000);

const CHAIN = 4663;

describe('fork mode (npm start -- --fork)', () => {
  let real: AnvilNode;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let dir: string;
  let chain: ForeignChain;
  let launcher: ChildProcess;
  let output = '';
  let forkUrl: string;
  let gatewayUrl: string;

  beforeAll(async () => {
    real = await startAnvil({ chainId: CHAIN });
    dir = mkdtempSync(join(tmpdir(), 'fork-mode-'));
    chain = await buildForeignChain(CHAIN, real.rpcUrl, dir);
    [db, nats] = await Promise.all([createTestDatabase(), startPrivateNatsServer()]);
    const [forkPort, otherPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
    forkUrl = `http://127.0.0.1:${forkPort}`;
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    launcher = spawn(process.execPath, [join(WORKSPACE, 'tools/stack/start.mjs'), '--fork', real.rpcUrl, '--chain', String(CHAIN), '--deploy-config', chain.deployConfig], {
      cwd: WORKSPACE,
      env: { ...process.env, STACK_SKIP_BUILD: '1', NATS_URL: nats.url, DATABASE_URL: db.url, GATEWAY_PORT: String(gatewayPort), DEVNET_PORT_4663: String(forkPort), DEVNET_PORT_999: String(otherPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => output,
      (text) => text.includes('The stack is up on a fork') || text.includes('✗') || launcher.exitCode !== null,
      240_000,
    );
    if (!output.includes('The stack is up on a fork')) throw new Error(`fork mode did not come up:\n${output}`);
  });

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher.once('exit', resolve));
      launcher.kill('SIGINT');
      await exited;
    }
    await Promise.all([db?.drop(), nats?.dispose()]);
    await real?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the fork: every source active, a route through the chain’s pool executed on the fork for exactly its quote', async () => {
    const api = apiClient(gatewayUrl);
    const dexes = await until(() => api.request('listDexes', { chainId: CHAIN }), (r) => r.ok && r.body.data.dexes.every((d) => d.status !== 'unchecked'), 30_000);
    expect(bodyOf(dexes.value).data.dexes.map((d) => [d.routerIndex, d.status])).toEqual([
      [0, 'active'],
      [1, 'active'],
      [2, 'active'],
      [3, 'active'],
      [4, 'active'],
    ]);
    const client = createChainClient({ chainId: CHAIN, rpcUrl: forkUrl, pollingIntervalMs: 50 });
    const trader = createChainWalletClient({ chainId: CHAIN, rpcUrl: forkUrl, account: privateKeyToAccount(ANVIL_TRADER_KEY), pollingIntervalMs: 50 });
    const head = await client.getBlockNumber();
    const { value } = await until(() => api.request('route', { chainId: CHAIN, tokenIn: chain.weth, tokenOut: chain.tka, amountIn: '1' }), (r) => r.ok && BigInt(r.body.data.blockNumber) >= head, 60_000);
    const data = bodyOf(value).data;
    await client.waitForTransactionReceipt({ hash: await trader.writeContract({ address: chain.weth, abi: wrappedNativeAbi, functionName: 'deposit', value: parseUnits('2', 18) }) });
    await client.waitForTransactionReceipt({ hash: await trader.writeContract({ address: chain.weth, abi: erc20Abi, functionName: 'approve', args: [data.execution.to as Address, maxUint256] }) });
    // The trader's own transactions moved nothing the route reads: the quote's state.
    const before = await client.readContract({ address: chain.tka, abi: erc20Abi, functionName: 'balanceOf', args: [trader.account.address] });
    const receipt = await client.waitForTransactionReceipt({ hash: await trader.sendTransaction({ to: data.execution.to as Address, data: data.execution.calldata as Hex, gas: 1_000_000n }) });
    expect(receipt.status).toBe('success');
    const after = await client.readContract({ address: chain.tka, abi: erc20Abi, functionName: 'balanceOf', args: [trader.account.address] });
    expect(after - before).toBe(BigInt(data.execution.details.amountOut));
    // Nothing reached the chain that was forked: its RouterV2 address has no code there.
    expect(await createChainClient({ chainId: CHAIN, rpcUrl: real.rpcUrl }).getCode({ address: data.execution.to as Address })).toBeUndefined();
  });

  it('stops every process it started on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('stopped anvil fork');
    expect(output).toContain('stopped gateway');
  });
});
