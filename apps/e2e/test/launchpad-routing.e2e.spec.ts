// Launched tokens are routable through /v2/route within seconds of their creation, on their curve, and on
// their DEX pool once they graduate. A token whose curve sold out before its DEX pair was deployed shows as
// graduating on the launchpad endpoints until the keeper graduates it, within seconds, on its schedule.
import { launchpadAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { DexApiError, type DexClient } from '@dex/sdk';
import { createTestDatabase, startTestChains, type TestChains, type TestDatabase } from '@dex/testing';
import { erc20Abi, parseEther, parseEventLogs, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, fileNatsUrl, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('routing launched tokens', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let apps: AppProcess[] = [];
  let gateway: AppProcess;
  let keeper: AppProcess | undefined;
  let client: ChainPublicClient;
  let api: DexClient;
  let env: Record<string, string>;
  const chain = () => chains.manifest.chains['999'];
  const account = (role: string) => privateKeyToAccount(chains.manifest.accounts.find((a) => a.role === role)!.privateKey as Hex);
  const wallet = (role: string): ChainWalletClient => createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: account(role), pollingIntervalMs: 50 });
  /** A route from the native coin; rejects (DexApiError) while there is none. */
  const route = (tokenOut: string, amountIn: string) => api.route({ chainId: 999, tokenIn: zeroAddress, tokenOut, amountIn });

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
    env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' };
    apps = await Promise.all([startApp('aggregator-router', env), startApp('gateway', env), startApp('launchpad-service', env), startApp('indexer', env)]);
    gateway = apps[1];
    api = apiClient(gateway.url);
    await until(() => route(chain().tokens[0].address, '1'), (r) => r.success === true, 20_000);
  });

  afterAll(async () => {
    await Promise.all([...apps, ...(keeper ? [keeper] : [])].map((a) => a.stop()));
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('routes into a token within seconds of its creation, on its curve, and the calldata pays the quote', async () => {
    const token = await launch('Newborn Owl', 'NOWL');
    const { value } = await until(() => route(token, '2'), (r) => r.success === true, 10_000);
    const data = value.data;
    expect(data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: chain().launchpad.address, routerIndex: 4 });
    expect(data.execution.value).toBe(parseEther('2').toString());
    expect(await execute(data, token)).toBe(BigInt(data.execution.details.amountOut));
  });

  it('routes through the DEX pool once a token graduates', async () => {
    const token = await launch('Fast Hare', 'FHARE');
    await until(() => route(token, '1'), (r) => r.success === true, 10_000);
    // A buy that sells out the curve freezes it; its DevSwap pair is not deployed yet, so `graduate` deploys it
    // and seeds it with the raised coin and the reserved tokens.
    const whale = wallet('liquidity');
    await client.waitForTransactionReceipt({ hash: await whale.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'buyTokens', args: [token], value: parseEther('700') }) });
    expect(await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokensForSale', args: [token] })).toBe(0n);
    expect((await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] })).graduated).toBe(false);
    // Meanwhile the frozen curve is no route either way, and there is no pool yet.
    const sell = () => api.route({ chainId: 999, tokenIn: token, tokenOut: zeroAddress, amountIn: '1000' });
    await until(() => route(token, '1'), (r) => r instanceof DexApiError && r.status === 404, 10_000);
    await until(sell, (r) => r instanceof DexApiError && r.status === 404, 10_000);
    await client.waitForTransactionReceipt({ hash: await whale.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'graduate', args: [token] }) });
    const state = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    expect(state.graduated).toBe(true);
    const { value } = await until(() => route(token, '1'), (r) => r.success === true && r.data.execution.details.hopSwaps[0][0].poolAddress === state.pair, 10_000);
    const data = value.data;
    expect(data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: state.pair, routerIndex: 1 });
    expect(await execute(data, token)).toBe(BigInt(data.execution.details.amountOut));
  });
  it('shows a sold-out token as graduating until the keeper graduates it, within seconds, and then routes through its pair', async () => {
    const token = await launch('Patient Lynx', 'PLYNX');
    const whale = wallet('liquidity');
    await client.waitForTransactionReceipt({ hash: await whale.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'buyTokens', args: [token], value: parseEther('700') }) });
    const { pair } = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    expect(await client.getCode({ address: pair })).toBeUndefined();

    // Sold out, not graduated: the launchpad endpoints say so, estimates are refused as such, and there is no route.
    expect((await api.launchpadToken({ chainId: 999, address: token })).data).toMatchObject({ status: 'graduating', graduated: false, curveProgress: 1, tokensForSale: '0', pair, graduationBlock: null });
    const [newest] = (await api.launchpadTokens({ chainId: 999, limit: 1 })).data.tokens;
    expect(newest).toMatchObject({ symbol: 'PLYNX', status: 'graduating', graduated: false });
    const seeded = (symbol: string) => api.launchpadToken({ chainId: 999, address: chain().launchpad.tokens.find((t) => t.symbol === symbol)!.address });
    expect((await seeded('MDOG')).data).toMatchObject({ status: 'trading', graduated: false });
    expect((await seeded('GFROG')).data).toMatchObject({ status: 'graduated', graduated: true });
    const graduating = 'Token is graduating: its curve has sold out and its DEX pool opens at graduation';
    for (const side of ['buy', 'sell'] as const) {
      const estimate = await api.request('launchpadEstimate', { chainId: 999, token, side, amount: 10n ** 15n });
      expect([estimate.status, estimate.error]).toEqual([409, graduating]);
    }
    await until(() => route(token, '1'), (r) => r instanceof DexApiError && r.status === 404, 10_000);

    // The keeper finishes the graduation on its schedule: it deploys the pair, then calls graduate.
    keeper = await startApp('referral-keeper', {
      ...env,
      KEEPER_PRIVATE_KEY: chains.manifest.accounts.find((a) => a.role === 'keeper')!.privateKey,
      KEEPER_INTERVAL_MS: '0',
      KEEPER_GRADUATION_INTERVAL_MS: '250',
    });
    const graduatedState = () => client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    await until(graduatedState, (s) => s.graduated === true, 15_000);
    // The keeper logs once it has the graduation's receipt, which can come a poll after the chain shows it.
    await until(async () => keeper?.output() ?? '', (out) => out.includes('"msg":"launchpad token graduated"'), 5_000);

    expect((await api.launchpadToken({ chainId: 999, address: token })).data).toMatchObject({ status: 'graduated', graduated: true, curveProgress: 1, pair });
    const estimate = await api.request('launchpadEstimate', { chainId: 999, token, side: 'buy', amount: 10n ** 15n });
    expect([estimate.status, estimate.error]).toEqual([409, 'Token has graduated: it trades on its DEX pool']);
    const { value } = await until(() => route(token, '1'), (r) => r.success === true && r.data.execution.details.hopSwaps[0][0].poolAddress === pair, 10_000);
    expect(value.data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: pair, routerIndex: 1 });
    expect(await execute(value.data, token)).toBe(BigInt(value.data.execution.details.amountOut));
  });

  it("deploys a token's pair once its curve is 80% sold, so the buy that sells it out graduates it at once", async () => {
    // The keeper runs since the test above, with the default KEEPER_PAIR_AHEAD_PROGRESS of 0.8.
    expect(keeper).toBeDefined();
    const token = await launch('Early Heron', 'EHRN');
    const whale = wallet('liquidity');
    const buy = async (ether: string) =>
      client.waitForTransactionReceipt({ hash: await whale.writeContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'buyTokens', args: [token], value: parseEther(ether) }) });
    // 455 of the 606 coins that sell the curve out: about 90% of the sale supply sold.
    await buy('455');
    const { pair } = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    await until(() => client.getCode({ address: pair }), (code) => code !== undefined && code !== '0x', 10_000);
    await until(async () => keeper?.output() ?? '', (out) => out.includes('"msg":"launchpad pair deployed ahead of the sell-out"'), 5_000);
    const trading = (await api.launchpadToken({ chainId: 999, address: token })).data;
    expect(trading).toMatchObject({ status: 'trading', graduated: false, pair });
    expect(trading.curveProgress).toBeGreaterThan(0.8);

    // The buy that sells the curve out graduates the token itself: no `graduating` wait, no keeper transaction.
    const receipt = await buy('200');
    expect(parseEventLogs({ abi: launchpadAbi, eventName: 'TokenGraduated', logs: receipt.logs })).toHaveLength(1);
    expect((await api.launchpadToken({ chainId: 999, address: token })).data).toMatchObject({ status: 'graduated', graduated: true, pair });
  });
});
