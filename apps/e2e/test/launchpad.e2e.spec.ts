// Launchpad read endpoints: gateway -> NATS -> launchpad-service -> the launchpad on anvil.
import { launchpadAbi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import { createTestDatabase, startPrivateNatsServer, startTestChains, type PrivateNatsServer, type TestChains, type TestDatabase } from '@dex/testing';
import { getJson, startApp, until, type AppProcess } from '../src';

jest.setTimeout(120_000);

describe('GET /launchpad/*', () => {
  let chains: TestChains;
  let db: TestDatabase;
  let nats: PrivateNatsServer;
  let service: AppProcess;
  let gateway: AppProcess;
  let indexer: AppProcess;
  const chain = () => chains.manifest.chains['999'];
  const launched = (symbol: string) => chain().launchpad.tokens.find((t) => t.symbol === symbol)!;
  const get = (path: string) => getJson(`${gateway.url}${path}`);

  beforeAll(async () => {
    [chains, db, nats] = await Promise.all([startTestChains([999]), createTestDatabase(), startPrivateNatsServer()]);
    const env = { ...chains.env, NATS_URL: nats.url, DATABASE_URL: db.url, SOURCES_CONFIG: chains.manifestPath, INDEXER_POLL_INTERVAL_MS: '200' };
    [service, gateway, indexer] = await Promise.all([startApp('launchpad-service', env), startApp('gateway', env), startApp('indexer', env)]);
    await until(() => get('/launchpad/tokens?chainId=999'), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), service?.stop(), indexer?.stop()]);
    await Promise.all([chains?.stop(), db?.drop(), nats?.dispose()]);
  });

  it('lists launched tokens newest first with metadata and curve state', async () => {
    const { status, body } = await get('/launchpad/tokens?chainId=999');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ chainId: 999, launchpad: chain().launchpad.address, count: 3, offset: 0, nextOffset: 3, hasMore: false });
    expect(body.data.tokens.map((t: any) => t.symbol)).toEqual(['GFROG', 'MDOG', 'FCAT']);
    const [gfrog, mdog, fcat] = body.data.tokens;
    expect(gfrog).toMatchObject({ graduated: true, curveProgress: 1, pair: launched('GFROG').pair, decimals: 6, dexIndex: 0 });
    expect(mdog.graduated).toBe(false);
    expect(mdog.curveProgress).toBeGreaterThan(fcat.curveProgress);
    expect(fcat).toMatchObject({ name: 'Fresh Cat', creator: launched('FCAT').creator, image_uri: 'ipfs://devnet/fcat.png', startingLiquidity: (300n * 10n ** 18n).toString() });
    expect(Number(fcat.price)).toBeGreaterThan(0);
  });

  it('pages with offset and limit', async () => {
    const first = await get('/launchpad/tokens?chainId=999&limit=2');
    expect(first.body.data).toMatchObject({ offset: 0, limit: 2, nextOffset: 2, hasMore: true });
    expect(first.body.data.tokens.map((t: any) => t.symbol)).toEqual(['GFROG', 'MDOG']);
    const second = await get('/launchpad/tokens?chainId=999&limit=2&offset=2');
    expect(second.body.data.tokens.map((t: any) => t.symbol)).toEqual(['FCAT']);
    expect(second.body.data.hasMore).toBe(false);
  });

  it('serves one token, and 404 for a token the launchpad does not know', async () => {
    const one = await get(`/launchpad/tokens/${launched('MDOG').address}?chainId=999`);
    expect(one.status).toBe(200);
    expect(one.body.data.symbol).toBe('MDOG');
    const unknown = await get(`/launchpad/tokens/0x000000000000000000000000000000000000dEaD?chainId=999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: 'Token not found on the launchpad' });
  });

  it('estimates buys and sells as the contract does, and refuses a graduated curve', async () => {
    const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl });
    const token = launched('MDOG').address;
    const buy = await get(`/launchpad/estimate?chainId=999&token=${token}&side=buy&amount=1000000000000000000`);
    expect(buy.status).toBe(200);
    const onChain = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'estimateBuy', args: [token, 10n ** 18n] });
    expect(buy.body.data).toEqual({ chainId: 999, token, side: 'buy', amountIn: '1000000000000000000', amountOut: onChain.toString() });
    const sell = await get(`/launchpad/estimate?chainId=999&token=${token}&side=sell&amount=1000000000`);
    expect(BigInt(sell.body.data.amountOut)).toBeGreaterThan(0n);
    const frozen = await get(`/launchpad/estimate?chainId=999&token=${launched('GFROG').address}&side=buy&amount=1000`);
    expect(frozen.status).toBe(409);
    expect(frozen.body).toMatchObject({ success: false, error: 'Token has graduated: it trades on its DEX pool' });
  });

  it('lists the recent curve trades of a token from the indexer, newest first', async () => {
    const token = launched('MDOG');
    const { value } = await until(() => get(`/launchpad/tokens/${token.address}/trades?chainId=999`), (r) => r.status === 200 && r.body.data.trades.length === 4, 30_000);
    const trades = value.body.data.trades;
    expect(trades.map((t: any) => t.side)).toEqual(['sell', 'buy', 'buy', 'buy']);
    expect(trades[3].trader).toBe(token.creator);
    const blocks = trades.map((t: any) => Number(t.blockNumber));
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    for (const t of trades) expect(BigInt(t.nativeAmount) > 0n && BigInt(t.tokenAmount) > 0n).toBe(true);
    const limited = await get(`/launchpad/tokens/${token.address}/trades?chainId=999&limit=1`);
    expect(limited.body.data.trades).toHaveLength(1);
  });

  it('answers bad input with 400s naming the parameter', async () => {
    const token = launched('MDOG').address;
    const cases: [string, string][] = [
      [`/launchpad/estimate?chainId=999&token=${token}&side=hold&amount=1`, 'Invalid side: must be buy or sell'],
      [`/launchpad/estimate?chainId=999&token=${token}&side=buy&amount=0`, 'Invalid amount: must be a positive base-unit integer'],
      [`/launchpad/estimate?chainId=999&token=0x12&side=buy&amount=1`, 'Invalid address: token'],
      ['/launchpad/tokens?chainId=999&limit=101', 'Invalid limit: must be an integer in [1, 100]'],
      ['/launchpad/tokens?chainId=999&limit=0', 'Invalid limit: must be an integer in [1, 100]'],
      ['/launchpad/tokens?chainId=1', 'Unsupported chainId: 1'],
      ['/launchpad/tokens/nope?chainId=999', 'Invalid address: address'],
    ];
    for (const [path, error] of cases) {
      const r = await get(path);
      expect([path, r.status, r.body.error]).toEqual([path, 400, error]);
    }
  });
});
