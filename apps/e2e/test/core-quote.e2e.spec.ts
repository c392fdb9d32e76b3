// GET /core/quote end to end: gateway -> NATS -> amm-quoter -> the AMM router on anvil, every error row of the
// specification, batch quotes, calldata that executes, and live quote topics.
import { erc20Abi, keccak256, stringToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { coreWatchContract, liveQuoteSchema, quoteTopic } from '@dex/messages';
import { createChainClient, createChainWalletClient } from '@dex/chain';
import { createJsonLogger, NatsBus } from '@dex/service';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import type { ClientParams, DexClient, LooseParams } from '@dex/sdk';
import { JSONCodec } from 'nats';
import { apiClient, bodyOf, fileNatsUrl, getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('GET /core/quote', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let quoter: AppProcess;
  let gateway: AppProcess;
  let api: DexClient;
  const chain = () => chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address;
  /** Any answer, with its status (parameters may be missing or malformed). */
  const q = (params: Omit<LooseParams<'coreQuote'>, 'chainId'>) => api.request('coreQuote', { chainId: 999, ...params });
  /** A quote: the success body. */
  const quote = (params: Omit<ClientParams<'coreQuote'>, 'chainId'>) => api.coreQuote({ chainId: 999, ...params });

  beforeAll(async () => {
    [chains, db] = await Promise.all([startTestChains(), createTestDatabase()]);
    const env = { ...chains.env, NATS_URL: await fileNatsUrl(), DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, BLOCK_POLL_MS: '100' };
    [quoter, gateway] = await Promise.all([startApp('amm-quoter', env), startApp('gateway', env)]);
    api = apiClient(gateway.url);
    await until(() => q({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1000000' }), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), quoter?.stop()]);
    await Promise.all([chains?.stop(), db?.drop()]);
  });

  it('quotes one amount at a block, with the router and the output reserve', async () => {
    const r = await q({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: 10n ** 18n });
    expect(r.status).toBe(200);
    const body = bodyOf(r);
    expect(body.success).toBe(true);
    const data = body.data;
    expect(data.routerAddress).toBe(chain().core.router);
    expect(data.chainId).toBe(999);
    expect(data.functionSignature).toBe('swap(address,address,uint256,uint256)');
    expect(BigInt(data.reserveOut)).toBeGreaterThan(0n);
    expect(Number(data.blockNumber)).toBeGreaterThan(0);
    expect(data.blockTimestamp).toBeGreaterThan(1_600_000_000);
    expect(data).not.toHaveProperty('refCode');
    expect(data).not.toHaveProperty('slippageBps');
    expect(data.quotes).toHaveLength(1);
    expect(data.quotes[0]).toEqual({ amountIn: '1000000000000000000', amountOut: expect.stringMatching(/^\d+$/) });
    // About 25 USDC for 1 WHYPE at the oracle, less a fee of at most 1%.
    expect(Number(data.quotes[0].amountOut)).toBeGreaterThan(24_700_000);
    expect(Number(data.quotes[0].amountOut)).toBeLessThan(25_000_000);
  });

  it('a batch equals the single quotes', async () => {
    const amounts = ['1000000', '25000000', '999999999'];
    const batch = await q({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: amounts });
    expect(batch.status).toBe(200);
    const singles = await Promise.all(amounts.map((a) => quote({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: a })));
    expect(bodyOf(batch).data.quotes.map((x: any) => x.amountOut)).toEqual(singles.map((s) => s.data.quotes[0].amountOut));
  });

  it('includeCalldata: any value but false, 0 or empty is truthy', async () => {
    const base = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '5000000' };
    for (const v of ['false', '0', '']) {
      const r = await quote({ ...base, includeCalldata: v });
      expect(r.data.quotes[0]).not.toHaveProperty('calldata');
      expect(r.data).not.toHaveProperty('slippageBps');
    }
    for (const v of ['true', '1', 'yes', 'no']) {
      const r = await quote({ ...base, includeCalldata: v });
      expect(r.data.quotes[0].calldata).toMatch(/^0x/);
      expect(r.data.slippageBps).toBe(100);
    }
  });

  it('minAmountOut = amountOut * (10000 - slippageBps) / 10000', async () => {
    const r = await quote({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: [123456789n, 7n], includeCalldata: '1', slippageBps: 37 });
    expect(r.data.slippageBps).toBe(37);
    for (const one of r.data.quotes) {
      expect(BigInt(one.minAmountOut!)).toBe((BigInt(one.amountOut) * 9963n) / 10000n);
    }
  });

  it('normalises refCode: text is hashed, a 32-byte hex is used as is; the 5-argument swap is used', async () => {
    const alpha = chain().core.refCodes.find((r) => r.code === 'ALPHA')!;
    const text = await quote({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1000000', refCode: 'ALPHA', includeCalldata: '1' });
    expect(text.data.refCode).toBe(alpha.refCode.toLowerCase());
    expect(text.data.refCode).toBe(keccak256(stringToHex('ALPHA')));
    expect(text.data.functionSignature).toBe('swap(address,address,uint256,uint256,bytes32)');
    const hex = `0x${'AB'.repeat(32)}`;
    const raw = await quote({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1000000', refCode: hex });
    expect(raw.data.refCode).toBe(hex.toLowerCase());
  });

  it('the calldata executes on the devnet after approval, for at least minAmountOut', async () => {
    const trader = chains.manifest.accounts.find((a) => a.role === 'trader-1')!;
    const account = privateKeyToAccount(trader.privateKey as Hex);
    const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
    const wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account, pollingIntervalMs: 50 });
    const tokenIn = token('USDC') as Address;
    const tokenOut = token('WHYPE') as Address;
    const amountIn = 2_500_000_000n;
    const r = await quote({ tokenIn, tokenOut, amountIn, includeCalldata: '1', refCode: 'ALPHA' });
    const one = r.data.quotes[0];
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: tokenIn, abi: erc20Abi, functionName: 'approve', args: [r.data.routerAddress, amountIn] }) });
    const before = await client.readContract({ address: tokenOut, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
    const receipt = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: r.data.routerAddress, data: one.calldata as Hex }) });
    expect(receipt.status).toBe('success');
    const received = (await client.readContract({ address: tokenOut, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(one.minAmountOut!));
    expect(received).toBe(BigInt(one.amountOut));
  });

  describe('error rows', () => {
    it('400 Missing required parameters', async () => {
      const partial: Omit<LooseParams<'coreQuote'>, 'chainId'>[] = [{ tokenOut: token('USDT'), amountIn: '1' }, { tokenIn: token('USDC'), amountIn: '1' }, { tokenIn: token('USDC'), tokenOut: token('USDT') }];
      for (const params of partial) {
        const r = await q(params);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error: 'Missing required parameters: tokenIn, tokenOut, amountIn' });
      }
      // chainId is one of the required parameters of the specification's table.
      const noChain = await api.request('coreQuote', { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' });
      expect([noChain.status, noChain.body]).toEqual([400, { success: false, error: 'Missing required parameters: tokenIn, tokenOut, amountIn', details: 'missing: chainId' }]);
    });

    it('400 for a refCode given twice; the last includeCalldata and slippageBps win', async () => {
      const base = `${gateway.url}/core/quote?chainId=999&tokenIn=${token('USDC')}&tokenOut=${token('USDT')}&amountIn=1000000`;
      expect(await getJson(`${base}&refCode=a&refCode=b`)).toEqual({ status: 400, body: { success: false, error: 'Invalid refCode: must be given once' } });
      const last = await getJson(`${base}&includeCalldata=0&includeCalldata=1&slippageBps=1&slippageBps=37`);
      expect([last.status, last.body.data.slippageBps]).toEqual([200, 37]);
    });

    it('400 Invalid slippageBps while includeCalldata is set, ignored otherwise', async () => {
      const base = { tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1000' };
      for (const s of ['10000', '-1', '1.5', 'abc']) {
        const r = await q({ ...base, includeCalldata: 'true', slippageBps: s });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error: 'Invalid slippageBps: must be an integer in [0, 10000)' });
      }
      const ignored = await q({ ...base, slippageBps: 'abc' });
      expect(ignored.status).toBe(200);
      expect(bodyOf(ignored).data).not.toHaveProperty('slippageBps');
    });

    it('400 Invalid amountIn', async () => {
      for (const a of ['1.5', 'abc', '1,,2', '-5', '0x10', (2n ** 256n).toString(), '0']) {
        const r = await q({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: a });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error: 'Invalid amountIn: must be a raw uint256 (base units) or comma-separated list' });
      }
    });

    it('400 Insufficient reserve for amounts the pool cannot pay, up to the largest uint256, also in a batch', async () => {
      const max = 2n ** 256n - 1n;
      for (const amountIn of [10n ** 75n, 10n ** 77n, max, [1000000n, max]]) {
        const r = await q({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn });
        expect([String(amountIn), r.status, r.error]).toEqual([String(amountIn), 400, 'Insufficient reserve: amountIn exceeds what the pool can pay']);
      }
    });

    it('400 Invalid address: <param>', async () => {
      const bad = await q({ tokenIn: '0x1234', tokenOut: token('USDT'), amountIn: '1' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, error: 'Invalid address: tokenIn' });
      const badOut = await q({ tokenIn: token('USDC'), tokenOut: 'nope', amountIn: '1' });
      expect(badOut.body).toMatchObject({ success: false, error: 'Invalid address: tokenOut' });
    });

    it('404 No core pool found for this token pair', async () => {
      const r = await q({ tokenIn: token('USDT'), tokenOut: token('DAI'), amountIn: '1000' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: 'No core pool found for this token pair' });
    });
  });

  it('publishes a live quote on the pair topic for each new block', async () => {
    const bus = new NatsBus({ url: await fileNatsUrl(), name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    const nc = await bus.connect();
    try {
      const tokenIn = token('WHYPE');
      const tokenOut = token('USDC');
      const subject = quoteTopic(999, tokenIn, tokenOut);
      const received: { blockNumber: string; quotes: unknown[] }[] = [];
      const codec = JSONCodec<unknown>();
      nc.subscribe(subject, { callback: (_err, msg) => received.push(liveQuoteSchema.parse(codec.decode(msg.data))) });
      await nc.flush();
      const reply = await bus.request(coreWatchContract, { chainId: 999, tokenIn, tokenOut, amountsIn: ['1000000000000000000', '5000000000000000000'], ttlSeconds: 60 });
      expect(reply).toMatchObject({ ok: true, data: { subject } });

      const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl });
      const mined: string[] = [];
      for (let i = 0; i < 3; i++) {
        await client.request({ method: 'evm_mine' as never, params: [] as never });
        mined.push((await client.getBlockNumber()).toString());
        await until(async () => received.map((r) => r.blockNumber), (blocks) => blocks.includes(mined[i]), 10_000);
      }
      for (const b of mined) {
        const quote = received.find((r) => r.blockNumber === b)!;
        expect(quote.quotes).toHaveLength(2);
      }
    } finally {
      await bus.close();
    }
  });
});

describe('GET /core/quote when the chain is unreachable', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let quoter: AppProcess;
  let gateway: AppProcess;

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath };
    [quoter, gateway] = await Promise.all([startApp('amm-quoter', env), startApp('gateway', env)]);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), quoter?.stop()]);
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('answers 503 naming the chain (no RPC provider answers), not a 500', async () => {
    const c = chains.manifest.chains['999'];
    const usdc = c.tokens.find((t) => t.symbol === 'USDC')!.address;
    const usdt = c.tokens.find((t) => t.symbol === 'USDT')!.address;
    const api = apiClient(gateway.url);
    const get = () => api.request('coreQuote', { chainId: 999, tokenIn: usdc, tokenOut: usdt, amountIn: 1000n });
    await until(get, (r) => r.status === 200, 20_000);
    await chains.stop();
    const r = await get();
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ success: false, error: 'Chain 999 unavailable: no RPC provider is giving blocks' });
  });
});
