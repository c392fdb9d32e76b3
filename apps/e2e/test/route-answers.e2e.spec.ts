// What /v2/route answers beyond the route, end to end on the devnet (gateway -> NATS -> aggregator-router ->
// anvil): a recipient and a deadline executed by RouterV2's executeSwapsWithData (the recipient receives, a passed
// deadline reverts on chain), the maxPriceImpact guard, the simulation from a sender (success, balance, allowance,
// revert), a route that reverts from any payer refused, and the quote id that the services log with the request id, the inputs and the block.
import { blocklistTokenAbi, routerV2Abi } from '@dex/abis';
import { createChainClient, createChainWalletClient, revertName, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { deployContext, send } from '@dex/devnet-kit';
import type { DexClient, LooseParams } from '@dex/sdk';
import { decodeFunctionData, erc20Abi, getAddress, maxUint256, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(180_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('route answers: recipient, deadline, maxPriceImpact, simulation, quote id', () => {
  let stack: TestStack;
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address as Address;
  const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
  const router = () => getAddress(chain().routerV2);
  const route = (params: Omit<LooseParams<'route'>, 'chainId'>, requestId?: string) => api.request('route', { chainId: 999, ...params }, requestId === undefined ? {} : { requestId });
  const balanceOf = (t: Address, owner: Address) => (t === zeroAddress ? client.getBalance({ address: owner }) : client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }));
  const chainTime = async () => (await client.getBlock({ blockTag: 'latest' })).timestamp;
  const rpc = (method: string, params: unknown[]) => client.request({ method: method as never, params: params as never });

  /** The route at the chain's newest block (so that its calldata executes in the state it was quoted in). */
  async function routeAtHead(params: Omit<LooseParams<'route'>, 'chainId'>) {
    const head = await client.getBlockNumber();
    const { value } = await until(() => route(params), (r) => !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
    return bodyOf(value).data;
  }

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['indexer', 'aggregator-router', 'amm-quoter', 'gateway'], env: { BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' } });
    api = apiClient(stack.app('gateway').url);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: trader(), pollingIntervalMs: 50 });
    await until(() => route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' }), (r) => r.status === 200, 30_000);
    const hash = await wallet.writeContract({ address: token('USDC'), abi: erc20Abi, functionName: 'approve', args: [router(), maxUint256] });
    await client.waitForTransactionReceipt({ hash });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('pays the recipient through executeSwapsWithData, with a default deadline 30 minutes after the chain time', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const me = trader().address;
    const data = await routeAtHead({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '125', recipient });
    const now = await chainTime();
    expect(data.execution.details.recipient).toBe(recipient);
    const deadline = BigInt(data.execution.details.deadline!);
    expect(deadline >= now + 1_790n && deadline <= BigInt(Math.max(Number(now), Math.floor(Date.now() / 1000))) + 1_800n).toBe(true);
    const call = decodeFunctionData({ abi: routerV2Abi, data: data.execution.calldata as Hex });
    expect(call.functionName).toBe('executeSwapsWithData');
    expect(call.args.slice(-2)).toEqual([recipient, deadline]);
    const [mineBefore, theirsBefore] = await Promise.all([balanceOf(token('DAI'), me), balanceOf(token('DAI'), recipient)]);
    const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    const [mineAfter, theirsAfter] = await Promise.all([balanceOf(token('DAI'), me), balanceOf(token('DAI'), recipient)]);
    expect(theirsAfter - theirsBefore).toBe(BigInt(data.execution.details.amountOut));
    expect(mineAfter).toBe(mineBefore);
    // Nothing is left in the router.
    expect(await balanceOf(token('DAI'), router())).toBe(0n);
  });

  it('pays the native coin to the recipient when the output is unwrapped', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const data = await routeAtHead({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: '40', recipient, deadline: String((await chainTime()) + 600n) });
    expect(data.execution.details.path.at(-1)).toBe(zeroAddress);
    const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(zeroAddress, recipient)).toBe(BigInt(data.execution.details.amountOut));
  });

  it('encodes a deadline that RouterV2 enforces: once the chain passes it the transaction reverts DeadlineExpired', async () => {
    const deadline = (await chainTime()) + 120n;
    // With a deadline and a sender but no recipient, the sender receives the output.
    const data = await routeAtHead({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '10', deadline: String(deadline), sender: trader().address });
    expect(data.execution.details).toMatchObject({ recipient: trader().address, deadline: String(deadline) });
    expect(data.simulation).toMatchObject({ success: true });
    await rpc('evm_increaseTime', [3_600]);
    await rpc('evm_mine', []);
    const { args } = decodeFunctionData({ abi: routerV2Abi, data: data.execution.calldata as Hex });
    const simulated = await client
      .simulateContract({ address: data.execution.to as Address, abi: routerV2Abi, functionName: 'executeSwapsWithData', args: args as never, account: trader() })
      .then(() => 'executed', (err: unknown) => revertName(err));
    expect(simulated).toBe('DeadlineExpired');
    const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, gas: 2_000_000n });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    // The API refuses the same deadline now.
    const again = await route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '10', deadline: String(deadline), recipient: trader().address });
    expect([again.status, again.body]).toEqual([400, { success: false, error: 'Invalid deadline: already passed', details: expect.stringContaining(`deadline ${deadline} is before the chain's time`) }]);
  });

  it('refuses recipients RouterV2 reverts on and deadlines it cannot meet, in the error shape', async () => {
    const base = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' };
    const cases: [Omit<LooseParams<'route'>, 'chainId'>, string][] = [
      [{ ...base, recipient: router() }, 'Invalid recipient: must be a wallet, not the zero address or the router'],
      [{ ...base, recipient: router().toLowerCase() }, 'Invalid recipient: must be a wallet, not the zero address or the router'],
      [{ ...base, recipient: zeroAddress }, 'Invalid recipient: must be a wallet, not the zero address or the router'],
      [{ ...base, recipient: '0x1234' }, 'Invalid address: recipient'],
      [{ ...base, recipient: trader().address, deadline: '1000' }, 'Invalid deadline: already passed'],
      [{ ...base, recipient: trader().address, deadline: 'tomorrow' }, 'Invalid deadline: must be a unix time in seconds'],
      [{ ...base, recipient: trader().address, deadline: '-5' }, 'Invalid deadline: must be a unix time in seconds'],
      [{ ...base, deadline: '9999999999' }, 'Missing required parameter: recipient'],
      [{ ...base, maxPriceImpact: '101' }, 'Invalid maxPriceImpact: must be a percent in [0, 100]'],
      [{ ...base, maxPriceImpact: 'low' }, 'Invalid maxPriceImpact: must be a percent in [0, 100]'],
      [{ ...base, sender: 'me' }, 'Invalid address: sender'],
    ];
    for (const [params, error] of cases) {
      const r = await route(params);
      expect([params, r.status, (r.body as { error?: string }).error]).toEqual([params, 400, error]);
    }
  });

  it('refuses a route above maxPriceImpact with a 422 naming the impact found, and answers one within it', async () => {
    // A trade far beyond the pools' depth: the first of a few that the devnet's pools still answer.
    let huge: Omit<LooseParams<'route'>, 'chainId'> | undefined;
    let unguarded: { averagePriceImpact: number } | undefined;
    for (const [a, b, amountIn] of [['USDC', 'WHYPE', '5000000'], ['USDC', 'USDT', '100000000'], ['USDC', 'DAI', '1000000']]) {
      const r = await route({ tokenIn: token(a), tokenOut: token(b), amountIn });
      if (r.ok && r.body.data.averagePriceImpact > 0.05) {
        huge = { tokenIn: token(a), tokenOut: token(b), amountIn };
        unguarded = r.body.data;
        break;
      }
    }
    expect(unguarded).toBeDefined();
    const refused = await route({ ...huge, maxPriceImpact: 5 });
    expect(refused.status).toBe(422);
    const { error, details } = refused.body as { error: string; details: string };
    const found = /^Price impact too high: ([\d.]+)% exceeds maxPriceImpact 5%$/.exec(error);
    expect(found).not.toBeNull();
    expect(Number(found![1])).toBeGreaterThan(5);
    expect(Number(found![1])).toBeCloseTo(unguarded!.averagePriceImpact * 100, 0);
    expect(details).toContain('averagePriceImpact');
    const small = await route({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '10', maxPriceImpact: 5 });
    expect(small.status).toBe(200);
    expect(bodyOf(small).data.averagePriceImpact * 100).toBeLessThanOrEqual(5);
    // Zero tolerates no impact at all.
    expect((await route({ ...huge, maxPriceImpact: 0 })).status).toBe(422);
  });

  describe('simulation from a sender', () => {
    const usdcToDai = { tokenIn: () => token('USDC'), tokenOut: () => token('DAI') };

    it('says the transaction succeeds, with what it pays, for a funded and approved sender', async () => {
      const data = await routeAtHead({ tokenIn: usdcToDai.tokenIn(), tokenOut: usdcToDai.tokenOut(), amountIn: '20', sender: trader().address });
      expect(data.simulation).toEqual({
        sender: trader().address,
        blockNumber: data.blockNumber,
        success: true,
        balance: expect.stringMatching(/^\d+$/),
        required: data.execution.details.amountIn,
        allowance: maxUint256.toString(),
        spender: router(),
        amountOut: data.execution.details.amountOut,
      });
    });

    it('says the balance is short for a sender without the input (token or native coin)', async () => {
      const nobody = privateKeyToAccount(generatePrivateKey()).address;
      const data = bodyOf(await route({ tokenIn: usdcToDai.tokenIn(), tokenOut: usdcToDai.tokenOut(), amountIn: '20', sender: nobody })).data;
      expect(data.simulation).toMatchObject({ sender: nobody, success: false, failure: 'insufficientBalance', balance: '0', required: '20000000', message: expect.stringContaining('holds 0 USDC') });
      const native = bodyOf(await route({ tokenIn: zeroAddress, tokenOut: token('USDC'), amountIn: '1', sender: nobody })).data;
      expect(native.simulation).toMatchObject({ success: false, failure: 'insufficientBalance', balance: '0', required: (10n ** 18n).toString() });
      expect(native.simulation).not.toHaveProperty('spender');
      expect(native.simulation).not.toHaveProperty('allowance');
    });

    it('says the allowance is short and which spender to approve; once approved, it succeeds and executes', async () => {
      const fresh = privateKeyToAccount(generatePrivateKey());
      const fund = await wallet.writeContract({ address: token('USDC'), abi: erc20Abi, functionName: 'transfer', args: [fresh.address, 50_000_000n] });
      await client.waitForTransactionReceipt({ hash: fund });
      const gas = await wallet.sendTransaction({ to: fresh.address, value: 10n ** 18n });
      await client.waitForTransactionReceipt({ hash: gas });
      const params = { tokenIn: usdcToDai.tokenIn(), tokenOut: usdcToDai.tokenOut(), amountIn: '20', sender: fresh.address };
      const before = await routeAtHead(params);
      expect(before.simulation).toMatchObject({ success: false, failure: 'insufficientAllowance', balance: '50000000', allowance: '0', required: '20000000', spender: router(), message: expect.stringContaining(`approve ${router()}`) });
      const freshWallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: fresh, pollingIntervalMs: 50 });
      const approve = await freshWallet.writeContract({ address: token('USDC'), abi: erc20Abi, functionName: 'approve', args: [router(), 20_000_000n] });
      await client.waitForTransactionReceipt({ hash: approve });
      const after = await routeAtHead(params);
      expect(after.simulation).toMatchObject({ success: true, allowance: '20000000', amountOut: after.execution.details.amountOut });
      const hash = await freshWallet.sendTransaction({ to: after.execution.to, data: after.execution.calldata as Hex });
      expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
      expect(await balanceOf(token('DAI'), fresh.address)).toBe(BigInt(after.execution.details.amountOut));
    });

    it('gives the revert reason when the call itself fails from the sender', async () => {
      // A token that blocklists the sender: the route executes from any other payer, and the sender's call reverts.
      const block = chain().testTokens!.find((t) => t.kind === 'blocklist')!;
      const params = { tokenIn: getAddress(block.address), tokenOut: token('WHYPE'), amountIn: '5', sender: trader().address };
      await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: getAddress(block.address), abi: erc20Abi, functionName: 'approve', args: [router(), maxUint256] }) });
      await send(deployContext(999, chain().rpcUrl), { address: getAddress(block.address), abi: blocklistTokenAbi as Abi, functionName: 'blockAccount', args: [trader().address] });
      try {
        const data = await routeAtHead(params);
        expect(data.simulation).toMatchObject({ success: false, failure: 'revert', revertReason: `BlockedAccount(${trader().address})` });
        expect(data.simulation!.message).toContain('reverts: BlockedAccount');
      } finally {
        await send(deployContext(999, chain().rpcUrl), { address: getAddress(block.address), abi: blocklistTokenAbi as Abi, functionName: 'unblockAccount', args: [trader().address] });
      }
    });

    it('refuses a route whose transaction reverts from any payer, naming the revert', async () => {
      // The native coin paid to a contract that does not accept it: RouterV2 reverts NativeTransferFailed.
      const r = await route({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: '5', recipient: token('USDT'), sender: trader().address });
      expect([r.status, r.body]).toEqual([422, { success: false, error: 'The route reverts when executed', details: expect.stringMatching(new RegExp(`with NativeTransferFailed\\(${token('USDT')}, \\d+\\)`)) }]);
    });
  });

  it('gives every /v2/route and /core/quote answer a quote id, logged with the request id, the inputs and the block', async () => {
    const requestId = `trace-${Date.now()}`;
    const r = await route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '3.5', slippage: 0.5 }, requestId);
    const data = bodyOf(r).data;
    expect(data.quoteId).toMatch(UUID);
    const again = bodyOf(await route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '3.5', slippage: 0.5 })).data;
    expect(again.quoteId).not.toBe(data.quoteId);
    const logged = (app: string, quoteId: string) =>
      stack
        .app(app)
        .output()
        .split('\n')
        .filter((line) => line.includes(quoteId))
        .map((line) => JSON.parse(line) as { requestId?: string; message: Record<string, unknown> });
    const { value: lines } = await until(async () => logged('aggregator-router', data.quoteId), (l) => l.length > 0, 5_000);
    expect(lines).toEqual([
      expect.objectContaining({
        requestId,
        message: expect.objectContaining({
          msg: 'route quote',
          quoteId: data.quoteId,
          chainId: 999,
          blockNumber: data.blockNumber,
          request: expect.objectContaining({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '3.5', slippageBps: 50 }),
          amountOut: data.execution.details.amountOut,
        }),
      }),
    ]);

    // Identical requests at the same block: one search, re-quote and simulation, the same answer under its own quote id.
    const same = { tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '41.25', recipient: trader().address, deadline: Number(await chainTime()) + 3_600 };
    const together = (await Promise.all(Array.from({ length: 6 }, () => route(same)))).map((res) => bodyOf(res).data);
    expect(new Set(together.map((d) => d.quoteId)).size).toBe(6);
    const byBlock = new Map<string, string[]>();
    for (const { quoteId: _, ...answer } of together) byBlock.set(answer.blockNumber, [...(byBlock.get(answer.blockNumber) ?? []), JSON.stringify(answer)]);
    for (const answers of byBlock.values()) expect(new Set(answers).size).toBe(1);
    // Six requests over fewer than six views: at least one was handed an answer computed for another.
    const { value: reused } = await until(
      async () => together.flatMap((d) => logged('aggregator-router', d.quoteId)).filter((l) => l.message.reused === true),
      (l) => l.length > 0,
      5_000,
    );
    expect(reused.length).toBeGreaterThan(0);

    const coreRequestId = `trace-core-${Date.now()}`;
    const quote = bodyOf(await api.request('coreQuote', { chainId: 999, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1000000' }, { requestId: coreRequestId })).data;
    expect(quote.quoteId).toMatch(UUID);
    const { value: coreLines } = await until(async () => logged('amm-quoter', quote.quoteId), (l) => l.length > 0, 5_000);
    expect(coreLines).toEqual([
      expect.objectContaining({
        requestId: coreRequestId,
        message: expect.objectContaining({ msg: 'core quote', quoteId: quote.quoteId, chainId: 999, amountsIn: ['1000000'], blockNumber: quote.blockNumber, amountsOut: [quote.quotes[0].amountOut] }),
      }),
    ]);
  });
});
