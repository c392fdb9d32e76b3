// Going live on a chain the product did not build, rehearsed at a small size: a bare anvil chain set up by another
// account (its wrapped native, Multicall3, real @uniswap/v2-core, @uniswap/v3-core and Algebra Integral factories
// with their position managers, tokens, pools and a history of swaps),
// reached only through an RPC that limits eth_getLogs as public providers do. With no devnet app: the deploy tool
// puts our contracts on it, a catalogue names its DEX, the services start from a production-style sources file (the
// catalogue plus the deployment record), the indexer starts at the head, every source checks out, and a route through
// the chain's own pool executes for exactly its quote.
import { wrappedNativeAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { runDeployCli } from '@dex/deploy';
import { startAnvil, type AnvilNode } from '@dex/devnet-kit';
import type { DexClient } from '@dex/sdk';
import { createTestDatabase, startPrivateNatsServer, startRpcProxy, type PrivateNatsServer, type RpcProxy, type TestDatabase } from '@dex/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { erc20Abi, getAddress, maxUint256, parseAbiItem, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEPLOYER_KEY, ANVIL_TRADER_KEY, apiClient, bodyOf, buildForeignChain, startApp, until, type AppProcess } from '../src';

jest.setTimeout(240_000);

const CHAIN = 4663;

describe('going live on a chain someone else built', () => {
  let node: AnvilNode;
  let proxy: RpcProxy;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let client: ChainPublicClient;
  let trader: ChainWalletClient;
  let dir: string;
  const apps: AppProcess[] = [];
  let api: DexClient;
  let weth: Address;
  let tka: Address;
  let tkb: Address;
  let tkc: Address;
  let pair: Address;
  let v3Pool: Address;
  let algebraPool: Address;
  let routerV2: Address;

  beforeAll(async () => {
    node = await startAnvil({ chainId: CHAIN });
    client = createChainClient({ chainId: CHAIN, rpcUrl: node.rpcUrl, pollingIntervalMs: 50, multicallBatching: false });
    dir = mkdtempSync(join(tmpdir(), 'go-live-'));

    // The chain as its builder set it up, with history; its catalogue and our deploy config.
    ({ weth, tka, tkb, tkc, pair, v3Pool, algebraPool } = await buildForeignChain(CHAIN, node.rpcUrl, dir));
    proxy = await startRpcProxy(node.rpcUrl);
    proxy.limit({ maxLogRange: 500, maxLogRequestsPerSecond: 50 });
    const out: string[] = [];
    const code = await runDeployCli(['--config', join(dir, 'deploy.json'), '--rpc-url', proxy.url, '--out', join(dir, `${CHAIN}.json`)], { DEPLOYER_PRIVATE_KEY: ANVIL_DEPLOYER_KEY }, { out: (l) => out.push(l), err: (l) => out.push(l) });
    if (code !== 0) throw new Error(`deploy failed:\n${out.join('\n')}`);
    routerV2 = getAddress(JSON.parse(readFileSync(join(dir, `${CHAIN}.json`), 'utf8')).contracts.routerV2.address);

    // The services, from a production-style sources file, through the limited RPC.
    writeFileSync(join(dir, 'sources.json'), JSON.stringify({ chains: { [CHAIN]: { catalogue: 'catalogue.json', deployment: `${CHAIN}.json`, nativeSymbol: 'ETH' } } }));
    [db, nats] = await Promise.all([createTestDatabase(), startPrivateNatsServer()]);
    // The indexer starts at the head: the pools from their factory's logs, their reserves read at one block.
    const env = { CHAIN_IDS: String(CHAIN), [`RPC_URL_${CHAIN}`]: proxy.url, NATS_URL: nats.url, DATABASE_URL: db.url, SOURCES_CONFIG: join(dir, 'sources.json'), BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100', [`INDEXER_START_BLOCK_${CHAIN}`]: 'head' };
    apps.push(await startApp('indexer', env));
    apps.push(...(await Promise.all([startApp('aggregator-router', env), startApp('gateway', env)])));
    api = apiClient(apps[2].url);
    trader = createChainWalletClient({ chainId: CHAIN, rpcUrl: node.rpcUrl, account: privateKeyToAccount(ANVIL_TRADER_KEY), pollingIntervalMs: 50 });
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await Promise.all([proxy?.close(), db?.drop(), nats?.dispose()]);
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('checks every source against the chain: ours and the catalogue’s enabled one active, the disabled one not listed', async () => {
    const { value } = await until(() => api.request('listDexes', { chainId: CHAIN }), (r) => r.ok && r.body.data.dexes.every((d) => d.status !== 'unchecked'), 30_000);
    expect(bodyOf(value).data.dexes.map((d) => [d.routerIndex, d.kind, d.status])).toEqual([
      [0, 'core', 'active'],
      [1, 'uniswap-v2', 'active'],
      [2, 'uniswap-v3', 'active'],
      [3, 'algebra', 'active'],
      [4, 'launchpad', 'active'],
    ]);
  });

  it("routes through each of the chain's own pools and executes for exactly the quote", async () => {
    await trader.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: 'deposit', value: parseUnits('3', 18) }).then((hash) => client.waitForTransactionReceipt({ hash }));
    await trader.writeContract({ address: weth, abi: erc20Abi, functionName: 'approve', args: [routerV2, maxUint256] }).then((hash) => client.waitForTransactionReceipt({ hash }));
    for (const [tokenOut, pool] of [
      [tka, pair],
      [tkb, v3Pool],
      [tkc, algebraPool],
    ] as const) {
      const head = await client.getBlockNumber();
      const { value } = await until(() => api.request('route', { chainId: CHAIN, tokenIn: weth, tokenOut, amountIn: '1' }), (r) => r.ok && BigInt(r.body.data.blockNumber) >= head, 60_000);
      const data = bodyOf(value).data;
      expect(data.execution.to).toBe(routerV2);
      expect(data.execution.details.hopSwaps.flat().map((s) => s.poolAddress)).toEqual([pool]);
      const before = await client.readContract({ address: tokenOut, abi: erc20Abi, functionName: 'balanceOf', args: [trader.account.address] });
      const receipt = await client.waitForTransactionReceipt({ hash: await trader.sendTransaction({ to: routerV2, data: data.execution.calldata as Hex, gas: 1_000_000n }) });
      expect(receipt.status).toBe('success');
      const received = (await client.readContract({ address: tokenOut, abi: erc20Abi, functionName: 'balanceOf', args: [trader.account.address] })) - before;
      expect([tokenOut, received]).toEqual([tokenOut, BigInt(data.execution.details.amountOut)]);
    }
    // The indexer read the factories' history through the limited RPC: its requests cut to the range the provider
    // allows, and started at the head; the transfers of the day before it (all of this young chain's) read afterwards.
    expect(proxy.refused.range).toBeLessThanOrEqual(2);
    expect(apps[0].output()).toContain('started at the head');
    const deployedAt = BigInt(JSON.parse(readFileSync(join(dir, `${CHAIN}.json`), 'utf8')).contracts.refCodeRegistry.blockNumber);
    const chainTransfers = await client.getLogs({ address: [weth, tka, tkb, tkc], event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), fromBlock: 0n, toBlock: deployedAt - 1n });
    expect(chainTransfers.length).toBeGreaterThan(10);
    await until(() => db.client.tokenTransfer.count({ where: { chainId: CHAIN, blockNumber: { lt: deployedAt } } }), (n) => n === chainTransfers.length, 30_000);
    expect(await db.client.pool.count({ where: { chainId: CHAIN, address: { in: [pair, v3Pool, algebraPool] } } })).toBe(3);
  });
});
