// GET /tokens: the indexer's token list through aggregator-router, sorted by transfers in the last 24 hours.
import { testERC20Abi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { deployContext, send, type DevAccount } from '@dex/devnet-kit';
import { listTokensContract } from '@dex/messages';
import { createJsonLogger, NatsBus } from '@dex/service';
import type { DexClient, LooseParams } from '@dex/sdk';
import type { Abi } from 'viem';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(120_000);

describe('GET /tokens', () => {
  let stack: TestStack;
  let api: DexClient;
  const chain = () => stack.chains.manifest.chains['999'];
  /** GET /tokens on chain 999: any answer, with its status. */
  const get = (params: Omit<LooseParams<'listTokens'>, 'chainId'> = {}) => api.request('listTokens', { chainId: 999, ...params });

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['indexer', 'aggregator-router', 'gateway'],
      env: { INDEXER_POLL_INTERVAL_MS: '200' },
      // Extra transfers of DAI so that it leads the 24 h ranking.
      beforeApps: async (chains) => {
        const c = chains.manifest.chains['999'];
        const ctx = deployContext(999, c.rpcUrl);
        const trader = chains.manifest.accounts.find((a) => a.role === 'trader-1')! as DevAccount;
        const dai = c.tokens.find((t) => t.symbol === 'DAI')!.address;
        for (let i = 0; i < 48; i++) await send(ctx, { address: dai, abi: testERC20Abi as Abi, functionName: 'transfer', args: [chains.manifest.accounts[i % 6].address, 1n] }, trader);
      },
    });
    api = apiClient(stack.app('gateway').url);
    const head = await createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl }).getBlockNumber();
    await until(() => get(), (r) => r.ok && BigInt(r.body.data.lastProcessedBlock) >= head, 60_000);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists tokens sorted by transfers in the last 24 hours, with the envelope fields', async () => {
    const r = await get();
    expect(r.status).toBe(200);
    const d = bodyOf(r).data;
    expect(d).toMatchObject({ chainId: 999, offset: 0, searchApplied: false, limitApplied: false, serviceStatus: 'running', hasMore: false });
    expect(d.count).toBeGreaterThanOrEqual(chain().tokens.length + 1);
    expect(d.limitedCount).toBe(d.tokens!.length);
    expect(d.nextOffset).toBe(d.tokens!.length);
    const tokens = d.tokens!;
    const counts = tokens.map((t: any) => t.transfers24h);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(tokens[0].symbol).toBe('DAI');
    for (const t of tokens) {
      // Beside the spec's fields, how the token's transfers behave: one of transferFeeBps and transferFailure, for
      // every token a pool (not a launchpad curve) trades but the wrapped native.
      const keys = ['address', 'decimals', 'isERC20Verified', 'name', 'symbol', 'totalTransfers', 'transfers24h'];
      const extra = Object.keys(t).filter((k) => !keys.includes(k));
      expect(keys.every((k) => k in t)).toBe(true);
      expect([[], ['transferFeeBps'], ['transferFailure']]).toContainEqual(extra);
      if (t.symbol === 'WHYPE') expect(extra).toEqual([]);
      if (chain().tokens.some((c) => c.address === t.address)) expect(t.transferFeeBps).toBe(0);
      expect(t.totalTransfers).toBeGreaterThanOrEqual(t.transfers24h);
    }
    const usdc = tokens.find((t: any) => t.symbol === 'USDC');
    expect(usdc).toMatchObject({ name: 'USD Coin', decimals: 6, isERC20Verified: true });
  });

  it('searches by symbol, name or address and pages with limit and offset', async () => {
    const list = (params: Omit<LooseParams<'listTokens'>, 'chainId'> = {}) => get(params).then((r) => bodyOf(r).data);
    const usd = await list({ search: 'usd' });
    expect(usd.searchApplied).toBe(true);
    expect(usd.tokens!.map((t: any) => t.symbol).sort()).toEqual(['USDC', 'USDT', 'crvUSD']);
    const byName = await list({ search: 'dai stable' });
    expect(byName.tokens!.map((t: any) => t.symbol)).toEqual(['DAI']);
    const address = chain().tokens.find((t) => t.symbol === 'PURR')!.address;
    const byAddress = await list({ search: address.toLowerCase() });
    expect(byAddress.tokens!.map((t: any) => t.address)).toEqual([address]);

    const all = (await list()).tokens!.map((t: any) => t.address);
    const page1 = await list({ limit: 2 });
    expect(page1).toMatchObject({ limitApplied: true, limitedCount: 2, nextOffset: 2, hasMore: true });
    const page2 = await list({ limit: 2, offset: 2 });
    expect([...page1.tokens!, ...page2.tokens!].map((t: any) => t.address)).toEqual(all.slice(0, 4));
  });

  it('returns only addresses with metadata=false', async () => {
    const { data } = bodyOf(await get({ metadata: false, limit: 3 }));
    expect(data.tokens).toBeUndefined();
    expect(data.addresses).toHaveLength(3);
    expect(data.addresses![0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('answers bad parameters with a 400 naming them', async () => {
    const cases: [Omit<LooseParams<'listTokens'>, 'chainId'>, string][] = [
      [{ limit: 0 }, 'Invalid limit: must be an integer in [1, 1000]'],
      [{ limit: 1001 }, 'Invalid limit: must be an integer in [1, 1000]'],
      [{ offset: '-1' }, 'Invalid offset: must be an integer in [0, 9007199254740991]'],
      [{ metadata: 'maybe' }, 'Invalid metadata: must be true or false'],
      [{ search: '\u0000' }, 'Invalid search: must not contain control characters'],
      [{ search: 'us\nd' }, 'Invalid search: must not contain control characters'],
    ];
    for (const [params, error] of cases) {
      const r = await get(params);
      expect([params, r.status, r.error]).toEqual([params, 400, error]);
    }
  });

  it('answers a NUL in search sent over the bus with a 400, not a database failure', async () => {
    const bus = new NatsBus({ url: stack.nats.url, name: 'e2e', logger: createJsonLogger('e2e', 'fatal') });
    await bus.connect();
    try {
      const reply = await bus.request(listTokensContract, { chainId: 999, search: 'us\u0000', offset: 0, metadata: true });
      expect(reply).toEqual({ ok: false, error: { status: 400, message: 'Invalid search: must not contain control characters', details: 'got "us\\u0000"' } });
    } finally {
      await bus.close();
    }
  });
});
