// GET /tokens: the indexer's token list through aggregator-router, sorted by transfers in the last 24 hours.
import { testERC20Abi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { deployContext, send, type DevAccount } from '@dex/devnet-kit';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import type { Abi } from 'viem';
import { getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('GET /tokens', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let apps: AppProcess[] = [];
  let gateway: AppProcess;
  const chain = () => chains.manifest.chains['999'];
  const get = (qs: string) => getJson(`${gateway.url}/tokens?chainId=999${qs}`);

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    // Extra transfers of DAI so that it leads the 24 h ranking.
    const ctx = deployContext(999, chain().rpcUrl);
    const trader = chains.manifest.accounts.find((a) => a.role === 'trader-1')! as DevAccount;
    const dai = chain().tokens.find((t) => t.symbol === 'DAI')!.address;
    for (let i = 0; i < 12; i++) await send(ctx, { address: dai, abi: testERC20Abi as Abi, functionName: 'transfer', args: [chains.manifest.accounts[i % 6].address, 1n] }, trader);
    const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, INDEXER_POLL_INTERVAL_MS: '200' };
    apps = await Promise.all([startApp('indexer', env), startApp('aggregator-router', env), startApp('gateway', env)]);
    gateway = apps[2];
    const head = await createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl }).getBlockNumber();
    await until(() => get(''), (r) => r.status === 200 && BigInt(r.body.data.lastProcessedBlock) >= head, 60_000);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('lists tokens sorted by transfers in the last 24 hours, with the envelope fields', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    const d = body.data;
    expect(d).toMatchObject({ chainId: 999, offset: 0, searchApplied: false, limitApplied: false, serviceStatus: 'running', hasMore: false });
    expect(d.count).toBeGreaterThanOrEqual(chain().tokens.length + 1);
    expect(d.limitedCount).toBe(d.tokens.length);
    expect(d.nextOffset).toBe(d.tokens.length);
    const counts = d.tokens.map((t: any) => t.transfers24h);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(d.tokens[0].symbol).toBe('DAI');
    for (const t of d.tokens) {
      expect(Object.keys(t).sort()).toEqual(['address', 'decimals', 'isERC20Verified', 'name', 'symbol', 'totalTransfers', 'transfers24h']);
      expect(t.totalTransfers).toBeGreaterThanOrEqual(t.transfers24h);
    }
    const usdc = d.tokens.find((t: any) => t.symbol === 'USDC');
    expect(usdc).toMatchObject({ name: 'USD Coin', decimals: 6, isERC20Verified: true });
  });

  it('searches by symbol, name or address and pages with limit and offset', async () => {
    const usd = await get('&search=usd');
    expect(usd.body.data.searchApplied).toBe(true);
    expect(usd.body.data.tokens.map((t: any) => t.symbol).sort()).toEqual(['USDC', 'USDT']);
    const byName = await get('&search=dai%20stable');
    expect(byName.body.data.tokens.map((t: any) => t.symbol)).toEqual(['DAI']);
    const address = chain().tokens.find((t) => t.symbol === 'PURR')!.address;
    const byAddress = await get(`&search=${address.toLowerCase()}`);
    expect(byAddress.body.data.tokens.map((t: any) => t.address)).toEqual([address]);

    const all = (await get('')).body.data.tokens.map((t: any) => t.address);
    const page1 = await get('&limit=2');
    expect(page1.body.data).toMatchObject({ limitApplied: true, limitedCount: 2, nextOffset: 2, hasMore: true });
    const page2 = await get('&limit=2&offset=2');
    expect([...page1.body.data.tokens, ...page2.body.data.tokens].map((t: any) => t.address)).toEqual(all.slice(0, 4));
  });

  it('returns only addresses with metadata=false', async () => {
    const { body } = await get('&metadata=false&limit=3');
    expect(body.data.tokens).toBeUndefined();
    expect(body.data.addresses).toHaveLength(3);
    expect(body.data.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('answers bad parameters with a 400 naming them', async () => {
    for (const [qs, error] of [
      ['&limit=0', 'Invalid limit: must be an integer in [1, 1000]'],
      ['&limit=1001', 'Invalid limit: must be an integer in [1, 1000]'],
      ['&offset=-1', 'Invalid offset: must be an integer in [0, 9007199254740991]'],
      ['&metadata=maybe', 'Invalid metadata: must be true or false'],
    ]) {
      const r = await get(qs);
      expect([qs, r.status, r.body.error]).toEqual([qs, 400, error]);
    }
  });
});
