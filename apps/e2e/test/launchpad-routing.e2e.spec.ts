// Launched tokens are routable through /v2/route within seconds of their creation, on their curve, and on
// their DEX pool once they graduate.
import { launchpadAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { createTestDatabase, startTestChains, type TestChains, type TestDatabase } from '@dex/testing';
import { erc20Abi, parseEther, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fileNatsUrl, getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('routing launched tokens', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let apps: AppProcess[] = [];
  let gateway: AppProcess;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const account = (role: string) => privateKeyToAccount(chains.manifest.accounts.find((a) => a.role === role)!.privateKey as Hex);
  const wallet = (role: string): ChainWalletClient => createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: account(role), pollingIntervalMs: 50 });
  const route = (tokenOut: string, amountIn: string) =>
    getJson(`${gateway.url}/v2/route?${new URLSearchParams({ chainId: '999', tokenIn: zeroAddress, tokenOut, amountIn })}`);

  async function launch(name: string, symbol: string): Promise<Address> {
    const creator = wallet('trader-3');
    const args = [name, symbol, 'ipfs://x', 'd', 'w', 't', 'tg', 'dc', 0] as const;
    const { result } = await client.simulateContract({ account: account('trader-3'), address: chain().launchpad.address, abi: launchpadAbi, functionName: 'createToken', args, value: parseEther('1') });
    await client.waitForTransactionReceipt({ hash: await creator.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'createToken', args, value: parseEther('1') }) });
    return result;
  }

  /** Sends the route's calldata from trader-2 with its value; returns the tokens received. */
  async function execute(data: any, token: Address): Promise<bigint> {
    const w = wallet('trader-2');
    const me = account('trader-2').address;
    const before = await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [me] });
    const receipt = await client.waitForTransactionReceipt({ hash: await w.sendTransaction({ to: data.execution.to, data: data.execution.calldata, value: BigInt(data.execution.value) }) });
    expect(receipt.status).toBe('success');
    return (await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [me] })) - before;
  }

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains([999]), createTestDatabase()]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
    const env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, BLOCK_POLL_MS: '100' };
    apps = await Promise.all([startApp('aggregator-router', env), startApp('gateway', env)]);
    gateway = apps[1];
    await until(() => route(chain().tokens[0].address, '1'), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('routes into a token within seconds of its creation, on its curve, and the calldata pays the quote', async () => {
    const token = await launch('Newborn Owl', 'NOWL');
    const { value, ms } = await until(() => route(token, '2'), (r) => r.status === 200, 10_000);
    expect(ms).toBeLessThan(5_000);
    const data = value.body.data;
    expect(data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: chain().launchpad.address, routerIndex: 4 });
    expect(data.execution.value).toBe(parseEther('2').toString());
    expect(await execute(data, token)).toBe(BigInt(data.execution.details.amountOut));
  });

  it('routes through the DEX pool once a token graduates', async () => {
    const token = await launch('Fast Hare', 'FHARE');
    await until(() => route(token, '1'), (r) => r.status === 200, 10_000);
    // A buy that sells out the curve graduates the token into its DevSwap pair.
    const whale = wallet('liquidity');
    await client.waitForTransactionReceipt({ hash: await whale.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'buyTokens', args: [token], value: parseEther('700') }) });
    const state = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    expect(state.graduated).toBe(true);
    const { value } = await until(() => route(token, '1'), (r) => r.status === 200 && r.body.data.execution.details.hopSwaps[0][0].poolAddress === state.pair, 10_000);
    const data = value.body.data;
    expect(data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: state.pair, routerIndex: 1 });
    expect(await execute(data, token)).toBe(BigInt(data.execution.details.amountOut));
  });
});
