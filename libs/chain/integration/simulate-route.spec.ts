// A route's transaction executed in an eth_call from the virtual payer (simulateRoute), against the devnet's
// contracts on anvil: the payer funded through the token's balance slot (found by findBalanceSlot, with and without
// the node's eth_createAccessList) or its native balance, and what the simulation delivers is what the same
// calldata delivers when sent for real at the next block.
import { routerV2Abi, uniswapV2PairAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, encodeExecuteSwaps, findBalanceSlot, simulateRoute, storedFor, VIRTUAL_PAYER, type ChainPublicClient } from '@dex/chain';
import { startTestChains, type TestChains } from '@dex/testing';
import { createPublicClient, custom, decodeFunctionData, erc20Abi, numberToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

jest.setTimeout(90_000);

describe('simulateRoute on a real chain', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  const chain = () => chains.manifest.chains['999'];
  const router = () => chain().routerV2 as Address;
  const token = (symbol: string) => chain().tokens.find((t) => t.symbol === symbol)!.address as Address;
  const whype = () => chain().wrappedNative.address as Address;
  /** The DevSwap V2 pool of USDC and WHYPE. */
  const pool = () => chain().pools.find((p) => p.kind === 'uniswap-v2' && p.routerIndex === 1 && [p.token0, p.token1].map((t) => t.toLowerCase()).sort().join() === [token('USDC'), whype()].map((t) => t.toLowerCase()).sort().join())!;
  const trader = () => privateKeyToAccount(chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);

  /** The calldata of a one-swap route through the pool. */
  const calldata = (tokenIn: Address, tokenOut: Address, amountIn: bigint, minAmountOut: bigint, native: { nativeIn?: boolean; unwrapNative?: boolean } = {}) =>
    encodeExecuteSwaps({
      tokens: [tokenIn, tokenOut],
      amountIn,
      minAmountOut,
      expectedAmountOut: 0n,
      hopSwaps: [[{ pool: pool().address, tokenIn, tokenOut, routerIndex: 1, amountIn, data: '0x' }]],
      feeBps: 0,
      ...native,
    });

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it("finds the slot of the payer's balance, with the node's access list and without it", async () => {
    const slot = await findBalanceSlot(client, { token: token('USDC') });
    expect(slot).toBeDefined();
    expect(slot!.reported).toBe(slot!.stored);
    const value = storedFor(slot!, 123_456n);
    const { data } = await client.call({
      to: token('USDC'),
      data: `0x70a08231${VIRTUAL_PAYER.slice(2).toLowerCase().padStart(64, '0')}`,
      stateOverride: [{ address: token('USDC'), stateDiff: [{ slot: slot!.slot, value: numberToHex(value, { size: 32 }) }] }],
    });
    expect(BigInt(data!)).toBeGreaterThanOrEqual(123_456n);
    // A node without eth_createAccessList: the usual mapping layouts are tried instead, and the same slot is found.
    const noAccessList = createPublicClient({
      chain: client.chain,
      transport: custom({
        request: ({ method, params }: { method: string; params: unknown }) => {
          if (method === 'eth_createAccessList') return Promise.reject(new Error('the method eth_createAccessList does not exist'));
          return client.request({ method, params } as never);
        },
      }),
    }) as unknown as ChainPublicClient;
    expect((await findBalanceSlot(noAccessList, { token: token('USDC') }))?.slot).toBe(slot!.slot);
    // An account with no code holds no balance slot.
    expect(await findBalanceSlot(client, { token: '0x00000000000000000000000000000000000b0b0b' })).toBeUndefined();
  });

  it('delivers in the simulation exactly what the same calldata delivers on chain, token and native inputs', async () => {
    const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: trader() });
    const usdc = token('USDC');
    const amountIn = 1_000n * 10n ** 6n;
    const approve = await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: 'approve', args: [router(), amountIn] });
    await client.waitForTransactionReceipt({ hash: approve });

    const cases = [
      { tokenIn: usdc, tokenOut: whype(), native: { unwrapNative: true }, value: 0n },
      { tokenIn: whype(), tokenOut: usdc, native: { nativeIn: true }, value: 10n ** 18n },
    ];
    for (const { tokenIn, tokenOut, native, value } of cases) {
      const amount = value > 0n ? value : amountIn;
      const data = calldata(tokenIn, tokenOut, amount, 0n, native);
      const blockNumber = await client.getBlockNumber();
      const balanceSlot = native.nativeIn ? undefined : await findBalanceSlot(client, { token: tokenIn, blockNumber });
      const simulated = await simulateRoute(client, {
        router: router(),
        tokenIn: native.nativeIn ? undefined : tokenIn,
        balanceSlot,
        amountIn: amount,
        tokenOut: native.unwrapNative ? undefined : tokenOut,
        calldata: data,
        blockNumber,
      });
      if (!simulated.ok) throw new Error(`simulation failed: ${JSON.stringify(simulated, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
      expect(simulated.received).toBe(simulated.userAmountOut);
      // The same calldata sent by the trader in the next block.
      const sent = await client.simulateContract({ account: trader(), address: router(), abi: routerV2Abi, functionName: 'executeSwaps', args: decodedArgs(data), value });
      expect(sent.result).toBe(simulated.received);
      const hash = await wallet.sendTransaction({ to: router(), data, value, gas: 1_000_000n });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.blockNumber).toBe(blockNumber + 1n);
      expect(simulated.gasUsed).toBeGreaterThan(50_000n);
    }
  });

  it('says why a transaction reverts, and that a balance override that no longer funds the payer did not', async () => {
    const usdc = token('USDC');
    const blockNumber = await client.getBlockNumber();
    const [r0, r1] = await client.readContract({ address: pool().address as Address, abi: uniswapV2PairAbi, functionName: 'getReserves', blockNumber });
    expect(r0 + r1).toBeGreaterThan(0n);
    const slot = (await findBalanceSlot(client, { token: usdc, blockNumber }))!;
    const tooMuch = calldata(usdc, whype(), 10n ** 6n, 10n ** 30n);
    const reverted = await simulateRoute(client, { router: router(), tokenIn: usdc, balanceSlot: slot, amountIn: 10n ** 6n, tokenOut: whype(), calldata: tooMuch, blockNumber });
    expect(reverted).toMatchObject({ ok: false, reason: 'revert', revertReason: expect.stringMatching(/^InsufficientOutput\(\d+, 1000000000000000000000000000000\)$/) });
    const wrongSlot = { ...slot, slot: numberToHex(7n, { size: 32 }) };
    expect(await simulateRoute(client, { router: router(), tokenIn: usdc, balanceSlot: wrongSlot, amountIn: 10n ** 6n, tokenOut: whype(), calldata: calldata(usdc, whype(), 10n ** 6n, 0n), blockNumber })).toEqual({
      ok: false,
      reason: 'unfunded',
      balance: 0n,
    });
  });
});

/** The arguments of executeSwaps calldata, for the router's own simulation of it. */
const decodedArgs = (data: Hex) => decodeFunctionData({ abi: routerV2Abi, data }).args as never;
