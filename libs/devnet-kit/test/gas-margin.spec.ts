// Signing clients pad gas estimates, so a transaction that lands in a later second than its estimate (and
// takes a time-dependent path, like a V2 pair's first update in a new second) does not run out of gas.
import { createChainWalletClient } from '@dex/chain';
import { erc20Abi, encodeFunctionData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployContext, devAccounts, startDevnet, type Devnet } from '../src';

jest.setTimeout(60_000);

describe('gas margin of signing clients', () => {
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await startDevnet({ ports: { 999: 0 }, gatewayUrl: 'http://127.0.0.1:3000' });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('adds 25% and 50,000 to the node estimate', async () => {
    const chain = devnet.manifest.chains['999'];
    const ctx = deployContext(999, chain.rpcUrl);
    const from = devAccounts()[2];
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [devAccounts()[3].address, 1n] });
    const request = { account: from.address, to: chain.tokens[0].address, data } as const;
    const estimate = await ctx.publicClient.estimateGas(request);
    const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain.rpcUrl, account: privateKeyToAccount(from.privateKey) });
    const prepared = await wallet.prepareTransactionRequest({ to: request.to, data });
    expect(prepared.gas).toBe((estimate * 125n) / 100n + 50_000n);
  });
});
