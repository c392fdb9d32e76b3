// The named chain reads of libs/chain against a real chain (the devnet's contracts on anvil): each action
// answers what the contracts' own functions answer at the same block, in one multicall where it batches, and
// says clearly (undefined, unverified, a thrown revert) what the chain refuses. Plus the client plumbing:
// the RPC probe, the gas margin of signing clients and the revert decoders.
import { ammPoolAbi, launchpadAbi, uniswapV2PairAbi } from '@dex/abis';
import {
  createChainClient,
  createChainWalletClient,
  estimateCoreSwapBatch,
  estimateLaunchTrade,
  isRevert,
  probeRpc,
  readCorePoolForPair,
  readCorePools,
  readCorePoolState,
  readLaunchCurves,
  readLaunchedTokenCount,
  readLaunchedTokenMetadata,
  readLaunchedTokens,
  readLaunchpadConfig,
  readOraclePrices,
  readPairReserves,
  readPendingRefFees,
  readTokenMetadata,
  revertName,
  shortMessage,
  type ChainPublicClient,
} from '@dex/chain';
import { CURVE_SALE_SUPPLY, GRADUATION_TOKEN_RESERVE, LAUNCHPAD_FEE_BPS, VIRTUAL_NATIVE_LIQUIDITY } from '@dex/routing';
import { startTestChains, type TestChains } from '@dex/testing';
import { erc20Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

jest.setTimeout(90_000);

describe('libs/chain actions on a real chain', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const launchpad = () => chain().launchpad.address as Address;
  const launched = () => chain().launchpad.tokens.map((t) => t.address as Address);

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it("reads a token's ERC-20 metadata verified, and calls an account without code unverified without throwing", async () => {
    const usdc = chain().tokens.find((t) => t.symbol === 'USDC')!;
    const meta = await readTokenMetadata(client, { token: usdc.address as Address });
    const supply = await client.readContract({ address: usdc.address as Address, abi: erc20Abi, functionName: 'totalSupply' });
    expect(meta).toEqual({ name: usdc.name, symbol: 'USDC', decimals: usdc.decimals, totalSupply: supply, isERC20Verified: true, verificationError: null });
    const none = await readTokenMetadata(client, { token: '0x00000000000000000000000000000000000b0b0b' });
    expect(none.isERC20Verified).toBe(false);
    expect(none.verificationError).toMatch(/code/i);
  });

  it('reads V2 and stable reserves as each pair reports them, and undefined for an address that is no pair', async () => {
    const pools = chain().pools.filter((p): p is typeof p & { kind: 'uniswap-v2' | 'stable' } => p.kind === 'uniswap-v2' || p.kind === 'stable');
    expect(pools.some((p) => p.kind === 'stable')).toBe(true);
    const blockNumber = await client.getBlockNumber();
    const read = await readPairReserves(client, {
      pools: [...pools.map((p) => ({ address: p.address as Address, kind: p.kind })), { address: launchpad(), kind: 'uniswap-v2' }],
      blockNumber,
    });
    for (const [i, p] of pools.entries()) {
      const [r0, r1] = await client.readContract({ address: p.address as Address, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber });
      expect(read[i]).toEqual({ reserve0: r0, reserve1: r1 });
    }
    expect(read[pools.length]).toBeUndefined();
  });

  it("lists the core router's pools, finds each pair's pool and reads its state as the pool reports it", async () => {
    const router = chain().core.router as Address;
    const pools = await readCorePools(client, { router });
    const manifestCore = chain().pools.filter((p) => p.kind === 'core').map((p) => p.address.toLowerCase());
    expect(pools.map((p) => p.toLowerCase()).sort()).toEqual([...manifestCore].sort());
    const pool = pools[0];
    const state = await readCorePoolState(client, { pool });
    const [t0, t1] = await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'getTokens' });
    expect(state.tokens).toEqual([t0, t1]);
    expect(state.reserves).toEqual(await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'getReserves' }));
    expect(state.oracle.toLowerCase()).toBe(chain().core.oracle.toLowerCase());
    expect(state.fees.every((f) => f > 0n && f < 10n ** 18n)).toBe(true);
    expect((await readCorePoolForPair(client, { router, tokenA: t1, tokenB: t0 }))?.toLowerCase()).toBe(pool.toLowerCase());
    const unpaired = await readCorePoolForPair(client, { router, tokenA: t0, tokenB: '0x00000000000000000000000000000000000b0b0b' });
    expect(unpaired).toBeUndefined();

    // A batch of amounts priced as the router's own estimate prices each, with the pool's reserves at the block.
    const blockNumber = await client.getBlockNumber();
    const amountsIn = [10n ** 3n, state.reserves[0] / 1000n, state.reserves[0] / 10n];
    const batch = await estimateCoreSwapBatch(client, { router, pool, tokenIn: t0, tokenOut: t1, amountsIn, blockNumber });
    expect(batch.reserves).toEqual(state.reserves);
    for (const [i, amountIn] of amountsIn.entries()) {
      expect(batch.amountsOut[i]).toBe(await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'estimateSwap', args: [t0, t1, amountIn], blockNumber }));
    }
  });

  it('reads the oracle price of each core token, undefined for a token it does not price', async () => {
    const pool = chain().pools.find((p) => p.kind === 'core')!;
    const prices = await readOraclePrices(client, { oracle: chain().core.oracle as Address, tokens: [pool.token0 as Address, pool.token1 as Address, '0x00000000000000000000000000000000000b0b0b'] });
    expect(prices[0]).toBeGreaterThan(0n);
    expect(prices[1]).toBeGreaterThan(0n);
    expect(prices[2]).toBeUndefined();
  });

  it("reads the launchpad's configuration and launched tokens, their metadata and curves as the launchpad reports them", async () => {
    const config = await readLaunchpadConfig(client, { launchpad: launchpad() });
    expect(config).toEqual({ wrappedNative: chain().wrappedNative.address, curveSaleSupply: CURVE_SALE_SUPPLY, graduationTokenReserve: GRADUATION_TOKEN_RESERVE, feeBps: LAUNCHPAD_FEE_BPS });

    const count = await readLaunchedTokenCount(client, { launchpad: launchpad() });
    expect(count).toBe(launched().length);
    const listed = await readLaunchedTokens(client, { launchpad: launchpad(), start: 0, count: count + 5 });
    expect(listed.map((t) => t.address.toLowerCase()).sort()).toEqual(launched().map((a) => a.toLowerCase()).sort());
    const metadata = await readLaunchedTokenMetadata(client, { launchpad: launchpad(), tokens: launched() });
    for (const [i, token] of launched().entries()) {
      const own = await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'getTokenMetadata', args: [token] });
      expect(metadata[i]).toEqual(own);
    }

    const curves = await readLaunchCurves(client, { launchpad: launchpad(), tokens: launched() });
    for (const [i, token] of launched().entries()) {
      const stage = chain().launchpad.tokens[i].stage;
      const [nativeReserve, tokenReserve] = await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'getLiquidity', args: [token] });
      const c = curves[i];
      expect(c.token.toLowerCase()).toBe(token.toLowerCase());
      expect(c.status).toBe(stage === 'graduated' ? 'graduated' : 'trading');
      if (c.status === 'trading') {
        expect([c.nativeReserve, c.tokenReserve]).toEqual([nativeReserve, tokenReserve]);
        expect(c.realNativeReserve).toBe(nativeReserve - VIRTUAL_NATIVE_LIQUIDITY);
        expect(c.tokensForSale).toBe(await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'getTokensForSale', args: [token] }));
        expect(c.curve).toMatchObject({ nativeReserve, tokenReserve, tokensForSale: c.tokensForSale });
      } else {
        expect(c.curve).toBeUndefined();
        expect(c.tokensForSale).toBe(0n);
      }
    }
    // A token the launchpad never launched is its revert, decoded.
    const err = await readLaunchCurves(client, { launchpad: launchpad(), tokens: [chain().wrappedNative.address as Address] }).catch((e: unknown) => e);
    expect(isRevert(err)).toBe(true);
    expect(revertName(err)).toBe('TokenNotFound');
  });

  it("estimates curve trades as the launchpad's own estimates, and refuses a graduated token's with its revert", async () => {
    const trading = chain().launchpad.tokens.find((t) => t.stage !== 'graduated')!.address as Address;
    const buy = await estimateLaunchTrade(client, { launchpad: launchpad(), token: trading, side: 'buy', amount: 10n ** 18n });
    expect(buy).toBe(await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'estimateBuy', args: [trading, 10n ** 18n] }));
    expect(buy).toBeGreaterThan(0n);
    const sell = await estimateLaunchTrade(client, { launchpad: launchpad(), token: trading, side: 'sell', amount: 10n ** 9n });
    expect(sell).toBe(await client.readContract({ address: launchpad(), abi: launchpadAbi, functionName: 'estimateSell', args: [trading, 10n ** 9n] }));
    const graduated = chain().launchpad.tokens.find((t) => t.stage === 'graduated');
    if (graduated) {
      const err = await estimateLaunchTrade(client, { launchpad: launchpad(), token: graduated.address as Address, side: 'buy', amount: 10n ** 18n }).catch((e: unknown) => e);
      expect(isRevert(err)).toBe(true);
      expect(revertName(err)).toBeDefined();
    }
  });

  it("reads every pool's pending referral fees: each pool and registered code whose getRefClaimable is not zero", async () => {
    const router = chain().core.router as Address;
    const pending = await readPendingRefFees(client, { router, registry: chain().core.registry as Address });
    const pools = await readCorePools(client, { router });
    expect(chain().core.refCodes.length).toBeGreaterThan(0);
    for (const pool of pools) {
      for (const { refCode } of chain().core.refCodes) {
        const [a0, a1] = await client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'getRefClaimable', args: [refCode as Hex] });
        const entry = pending.find((p) => p.pool.toLowerCase() === pool.toLowerCase() && p.refCode === refCode);
        if (a0 === 0n && a1 === 0n) expect(entry).toBeUndefined();
        else expect(entry).toMatchObject({ amount0: a0, amount1: a1 });
      }
    }
  });

  it('probes the RPC: block and chain id, a wrong chain id and an unreachable node are errors', async () => {
    const probe = await probeRpc(client);
    expect(probe.chainId).toBe(999);
    expect(probe.blockNumber).toBeGreaterThan(0n);
    const wrong = createChainClient({ chainId: 4663, rpcUrl: chain().rpcUrl });
    await expect(probeRpc(wrong)).rejects.toThrow('RPC serves chainId 999, expected 4663');
    const down = createChainClient({ chainId: 999, rpcUrl: 'http://127.0.0.1:9', timeoutMs: 500 });
    const err = await probeRpc(down, 1_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isRevert(err)).toBe(false);
    expect(shortMessage(err)).not.toBe('');
  });

  it("pads a signing client's gas estimates by 25% plus 50,000", async () => {
    const account = privateKeyToAccount(chains.manifest.accounts[0].privateKey as `0x${string}`);
    const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account });
    const usdc = chain().tokens.find((t) => t.symbol === 'USDC')!.address as Address;
    const data: Hex = `0x095ea7b3${'dead'.padStart(64, '0')}${'1'.padStart(64, '0')}`;
    const plain = await client.estimateGas({ account: account.address, to: usdc, data });
    const padded = (await wallet.request({ method: 'eth_estimateGas', params: [{ from: account.address, to: usdc, data }] } as never)) as Hex;
    expect(BigInt(padded)).toBe((plain * 125n) / 100n + 50_000n);
  });
});
