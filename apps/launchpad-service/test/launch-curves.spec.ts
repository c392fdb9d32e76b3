// The launchpad chain actions of libs/chain, as launchpad-service and the keeper read the launchpad, on a real
// chain: readLaunchCurves answers what the launchpad's own getters answer at the same block, with the status of
// the one rule (trading, graduating once a buy sells the curve out, graduated), and the routing constants the
// rule stands on are the launchpad's; readCreatorLocks answers the creator's sell lock as the token enforces it.
import { launchpadAbi, launchpadTokenAbi } from '@dex/abis';
import {
  createChainClient,
  createChainWalletClient,
  estimateLaunchTrade,
  readCreatorLocks,
  readLaunchCurves,
  readLaunchedTokenCount,
  readLaunchedTokenMetadata,
  readLaunchedTokens,
  readLaunchpadConfig,
  revertName,
  type ChainPublicClient,
} from '@dex/chain';
import { devAccounts } from '@dex/devnet-kit';
import { CURVE_SALE_SUPPLY, GRADUATION_TOKEN_RESERVE, LAUNCHPAD_FEE_BPS } from '@dex/routing';
import { startTestChains, type TestChains } from '@dex/testing';
import { parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

jest.setTimeout(90_000);

describe('launchpad chain actions', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const launchpad = () => chain().launchpad!.address as Address;
  const tokens = () => chain().launchpad!.tokens;

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  /** What the launchpad's getters answer for a token at a block. */
  async function getters(token: Address, blockNumber: bigint) {
    const base = { address: launchpad(), abi: launchpadAbi, blockNumber } as const;
    const [state, forSale, real] = await Promise.all([
      client.readContract({ ...base, functionName: 'getTokenState', args: [token] }),
      client.readContract({ ...base, functionName: 'getTokensForSale', args: [token] }),
      client.readContract({ ...base, functionName: 'getRealHypeReserve', args: [token] }),
    ]);
    return { state, forSale, real };
  }

  it("has the launchpad's curve constants in @dex/routing", async () => {
    const config = await readLaunchpadConfig(client, { launchpad: launchpad() });
    expect(config).toEqual({ wrappedNative: chain().wrappedNative.address, curveSaleSupply: CURVE_SALE_SUPPLY, graduationTokenReserve: GRADUATION_TOKEN_RESERVE, feeBps: LAUNCHPAD_FEE_BPS });
  });

  it('lists the launched tokens with their metadata', async () => {
    const count = await readLaunchedTokenCount(client, { launchpad: launchpad() });
    expect(count).toBe(tokens().length);
    const page = await readLaunchedTokens(client, { launchpad: launchpad(), start: 0, count });
    expect(page.map((t) => t.address)).toEqual(tokens().map((t) => t.address));
    expect(page.map((t) => t.metadata.symbol)).toEqual(tokens().map((t) => t.symbol));
    expect(await readLaunchedTokenMetadata(client, { launchpad: launchpad(), tokens: page.map((t) => t.address) })).toEqual(page.map((t) => t.metadata));
    expect(await readLaunchedTokens(client, { launchpad: launchpad(), start: 1, count: 1 })).toEqual([page[1]]);
  });

  it("answers the launchpad's getters at the block, with each token's status", async () => {
    const blockNumber = await client.getBlockNumber();
    const curves = await readLaunchCurves(client, { launchpad: launchpad(), tokens: tokens().map((t) => t.address as Address), blockNumber });
    for (const [i, token] of tokens().entries()) {
      const c = curves[i];
      const { state, forSale, real } = await getters(token.address as Address, blockNumber);
      expect(c).toMatchObject({ token: token.address, nativeReserve: state.hypeReserve, tokenReserve: state.tokenReserve, graduated: state.graduated, pair: token.pair, tokensForSale: forSale, realNativeReserve: real });
      expect(c.status).toBe(token.stage === 'graduated' ? 'graduated' : 'trading');
      if (c.status === 'trading') expect(c.curve).toMatchObject({ nativeReserve: state.hypeReserve, tokenReserve: state.tokenReserve, tokensForSale: forSale, realNativeReserve: real });
      else expect(c.curve).toBeUndefined();
    }
  });

  it('is graduating once a buy sells the curve out before the pair is deployed, trading at the block before', async () => {
    const fresh = tokens().find((t) => t.stage === 'fresh')!.address as Address;
    const buyer = devAccounts().find((a) => a.role === 'liquidity')!;
    const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: privateKeyToAccount(buyer.privateKey as Hex), pollingIntervalMs: 100 });
    const before = await client.getBlockNumber();
    const hash = await wallet.writeContract({ address: launchpad(), abi: launchpadAbi, functionName: 'buyTokens', args: [fresh], value: parseEther('700') });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');

    const [now] = await readLaunchCurves(client, { launchpad: launchpad(), tokens: [fresh] });
    const { forSale, real } = await getters(fresh, await client.getBlockNumber());
    expect(now).toMatchObject({ status: 'graduating', graduated: false, tokenReserve: GRADUATION_TOKEN_RESERVE, tokensForSale: 0n, realNativeReserve: real, curve: undefined });
    expect(forSale).toBe(0n);
    // The launchpad agrees the curve is frozen.
    const frozen = await estimateLaunchTrade(client, { launchpad: launchpad(), token: fresh, side: 'buy', amount: parseEther('1') }).catch((err: unknown) => revertName(err));
    expect(frozen).toBe('TokenFrozen');

    const [then] = await readLaunchCurves(client, { launchpad: launchpad(), tokens: [fresh], blockNumber: before });
    expect(then.status).toBe('trading');
    expect(await estimateLaunchTrade(client, { launchpad: launchpad(), token: fresh, side: 'buy', amount: parseEther('1'), blockNumber: before })).toBe(
      await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'estimateBuy', args: [fresh, parseEther('1')], blockNumber: before }),
    );
  });

  it('throws the TokenNotFound revert for a token the launchpad does not know', async () => {
    const stranger = chain().wrappedNative.address as Address;
    const name = (p: Promise<unknown>) => p.then(() => 'answered', (err: unknown) => revertName(err));
    expect(await name(readLaunchCurves(client, { launchpad: launchpad(), tokens: [stranger] }))).toBe('TokenNotFound');
    expect(await name(readLaunchedTokenMetadata(client, { launchpad: launchpad(), tokens: [stranger] }))).toBe('TokenNotFound');
  });

  // Last: it moves the chain's clock past the unlock time.
  it("reads the creator's sell lock as the token enforces it, locked until creation + 1 hour and free from then", async () => {
    const launched = tokens().find((t) => t.stage === 'trading')!;
    const token = launched.address as Address;
    const creator = devAccounts().find((a) => a.address === launched.creator)!;
    const other = devAccounts().find((a) => a.role === 'trader-1')!.address as Address;
    const [meta] = await readLaunchedTokenMetadata(client, { launchpad: launchpad(), tokens: [token] });
    const unlockTime = Number(meta.creationTimestamp) + 3600;
    // The creator's transfer, as the token answers it at the latest block.
    const transfer = () =>
      client
        .simulateContract({ account: privateKeyToAccount(creator.privateKey as Hex), address: token, abi: launchpadTokenAbi, functionName: 'transfer', args: [other, 1n] })
        .then(() => 'transferred', (err: unknown) => revertName(err));

    const before = await client.getBlockNumber();
    const [locked] = await readCreatorLocks(client, { tokens: [token] });
    expect(locked).toMatchObject({ token, unlockTime, locked: true });
    expect(locked.blockTimestamp).toBeLessThan(unlockTime);
    expect(await transfer()).toBe('CreatorTokensLocked');

    // One second short of the unlock time, then at it.
    const rpc = (method: string, params: unknown[]) => client.request({ method: method as never, params: params as never });
    await rpc('evm_mine', [unlockTime - 1]);
    expect((await readCreatorLocks(client, { tokens: [token] }))[0]).toMatchObject({ locked: true, blockTimestamp: unlockTime - 1 });
    await rpc('evm_mine', [unlockTime]);
    expect((await readCreatorLocks(client, { tokens: [token] }))[0]).toMatchObject({ unlockTime, locked: false, blockTimestamp: unlockTime });
    expect(await transfer()).toBe('transferred');
    // At an earlier block it was locked.
    expect((await readCreatorLocks(client, { tokens: [token], blockNumber: before }))[0]).toMatchObject({ locked: true, blockNumber: before });
  });
});
