// Routes signed through Permit2 end to end, on chains 999 and 4663 alike: a fresh wallet that approved Permit2 once
// per token, and never RouterV2, asks `/v2/route` with `permit2=true` and itself as the sender, signs the answer's typed
// data with the SDK's `signPermit2Route`, and sends the transaction to RouterV2Permit2. Each route executes for exactly
// its quoted amount: exact input, exact output, the native coin out, an integrator fee; nothing is left in RouterV2 or
// RouterV2Permit2, and the wallet's allowance to RouterV2 stays zero. Before the approval, the answer's simulation names
// Permit2 as the spender to approve; a signature sent twice is refused by Permit2 (its nonce is spent).
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { DEVNET_PRICES_USD } from '@dex/devnet-kit';
import { signPermit2Route, type ClientParams, type DexClient } from '@dex/sdk';
import { erc20Abi, maxUint256, parseEther, parseUnits, zeroAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

type RouteParams = Omit<ClientParams<'route'>, 'chainId'>;

const CASES = [
  { chainId: 999, native: 'WHYPE' },
  { chainId: 4663, native: 'WETH' },
] as const;

jest.setTimeout(180_000);

describe('routes signed through Permit2', () => {
  let stack: TestStack;
  let api: DexClient;

  beforeAll(async () => {
    const chainIds = CASES.map((c) => c.chainId);
    stack = await startTestStack({
      apps: ['indexer', 'aggregator-router', 'gateway'],
      chainIds,
      env: { CHAIN_IDS: chainIds.join(','), BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' },
    });
    api = apiClient(stack.app('gateway').url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe.each(CASES)('on chain $chainId', ({ chainId, native }) => {
    let client: ChainPublicClient;
    /** A wallet made for the test: it holds tokens and approved Permit2, nothing else. */
    const account = privateKeyToAccount(generatePrivateKey());
    let wallet: ChainWalletClient;
    const chain = () => stack.chains.manifest.chains[String(chainId)];
    const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
    const tokenRecord = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!;
    const token = (symbol: string) => tokenRecord(symbol).address as Address;
    const price = (symbol: string) => Number(DEVNET_PRICES_USD[chainId][symbol] ?? 1);
    const amount = (symbol: string, usd: number) => String(Number((usd / price(symbol)).toPrecision(8)));
    const holding = (t: Address, owner: Address) =>
      t === zeroAddress ? client.getBalance({ address: owner }) : client.readContract({ address: t, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

    async function routeAtHead(params: RouteParams) {
      const head = await client.getBlockNumber();
      const { value } = await until(
        () => api.request('route', { chainId, ...params }),
        (r) => r instanceof Error || !r.ok || BigInt(r.body.data.blockNumber) >= head,
        10_000,
      );
      if (value instanceof Error) throw value;
      return value;
    }

    /**
     * Quotes a signed route at the head, signs it with the SDK and sends it from the wallet; checks it executed for
     * exactly the quote, took exactly the quoted input from the wallet and left nothing behind.
     */
    async function execute(params: Omit<RouteParams, 'sender' | 'permit2'>) {
      const r = await routeAtHead({ ...params, sender: account.address, permit2: true });
      expect(r.status).toBe(200);
      const data = bodyOf(r).data;
      expect(data.execution.to).toBe(chain().routerV2Permit2);
      expect(data.simulation).toMatchObject({ success: true, spender: chain().permit2 });
      // What the recipient gets: the quoted output, less the integrator's fee when there is one.
      const quoted = BigInt(data.simulation!.amountOut!);
      if (!params.feeBps) expect(quoted).toBe(BigInt(data.execution.details.amountOut));
      expect(data.permit2).toMatchObject({ permit2: chain().permit2, spender: chain().routerV2Permit2, signer: account.address });
      expect(data.permit2!.typedData.message.witness.router).toBe(chain().routerV2);

      const tokenIn = params.tokenIn as Address;
      const tokenOut = params.tokenOut as Address;
      const recipient = (params.recipient as Address | undefined) ?? account.address;
      const [inBefore, outBefore] = await Promise.all([holding(tokenIn, account.address), holding(tokenOut, recipient)]);
      const tx = await signPermit2Route(data, account);
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const gasPaid = tokenOut === zeroAddress && recipient === account.address ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
      const received = (await holding(tokenOut, recipient)) - outBefore + gasPaid;
      expect(received).toBe(quoted);
      expect(inBefore - (await holding(tokenIn, account.address))).toBe(BigInt(data.execution.details.amountIn));
      for (const t of [tokenIn, tokenOut === zeroAddress ? token(native) : tokenOut]) {
        expect(await holding(t, chain().routerV2 as Address)).toBe(0n);
        expect(await holding(t, chain().routerV2Permit2 as Address)).toBe(0n);
      }
      expect(await client.readContract({ address: tokenIn, abi: erc20Abi, functionName: 'allowance', args: [account.address, chain().routerV2 as Address] })).toBe(0n);
      return { data, tx, received, gasUsed: receipt.gasUsed };
    }

    beforeAll(async () => {
      const rpcUrl = chain().rpcUrl;
      client = createChainClient({ chainId, rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
      wallet = createChainWalletClient({ chainId, rpcUrl, account, pollingIntervalMs: 50 });
      // The fresh wallet gets gas and tokens from the trader; it approves nothing yet.
      const funder = createChainWalletClient({ chainId, rpcUrl, account: trader(), pollingIntervalMs: 50 });
      await client.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: account.address, value: parseEther('10') }) });
      for (const symbol of ['USDC', 'USDT']) {
        const hash = await funder.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'transfer', args: [account.address, parseUnits('20000', tokenRecord(symbol).decimals)] });
        await client.waitForTransactionReceipt({ hash });
      }
      await until(() => api.request('route', { chainId, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '10' }), (r) => r.status === 200, 60_000);
    });

    it('names Permit2 as the spender to approve, then executes signed routes for exactly their quotes', async () => {
      // Before any approval: the simulation says what to approve, and it is Permit2, not RouterV2.
      const unapproved = await routeAtHead({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '100', sender: account.address, permit2: true });
      expect(unapproved.status).toBe(200);
      const sim = bodyOf(unapproved).data.simulation!;
      expect(sim).toMatchObject({ success: false, failure: 'insufficientAllowance', spender: chain().permit2, allowance: '0' });
      expect(sim.message).toContain(`approve Permit2 ${chain().permit2}`);

      for (const symbol of ['USDC', 'USDT']) {
        const hash = await wallet.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'approve', args: [chain().permit2 as Address, maxUint256] });
        await client.waitForTransactionReceipt({ hash });
      }

      // Exact input, multi-hop allowed.
      const sell = await execute({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: amount('USDC', 1_000), multiHop: true });
      expect(sell.data.permit2!.nonce).toBe('0');
      // Exact output: the signed amount is the quoted input.
      const buy = await execute({ tokenIn: token('USDT'), tokenOut: token('USDC'), amountOut: amount('USDC', 500), multiHop: true });
      expect(buy.data.permit2!.typedData.message.permitted.amount).toBe(buy.data.execution.details.amountIn);
      // The nonce after the first one spent.
      expect(buy.data.permit2!.nonce).toBe('1');
      // The native coin out, to the wallet.
      const out = await execute({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: amount('USDC', 300), multiHop: true });
      expect(out.data.permit2!.typedData.message.witness.tokens.at(-1)).toBe(zeroAddress);
      // An integrator fee, paid to another recipient.
      const feeRecipient = privateKeyToAccount(generatePrivateKey()).address;
      const recipient = privateKeyToAccount(generatePrivateKey()).address;
      const fee = await execute({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: amount('USDC', 700), feeBps: 30, feeRecipient, recipient, multiHop: true });
      expect(fee.data.permit2!.typedData.message.witness).toMatchObject({ feeBps: '30', feeRecipient, recipient });
      expect(fee.received).toBeLessThan(BigInt(fee.data.execution.details.amountOut));
      expect(await holding(token('USDT'), feeRecipient)).toBeGreaterThan(0n);

      // The same signed transaction again: Permit2 has spent its nonce.
      const again = await client.call({ account: account.address, to: fee.tx.to, data: fee.tx.data }).then(
        () => 'executed',
        (err: Error) => err.message,
      );
      expect(again).toMatch(/0x756688fe|InvalidNonce/);
    });
  });
});
