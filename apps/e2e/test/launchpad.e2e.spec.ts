// Launchpad read endpoints: gateway -> NATS -> launchpad-service -> the launchpad on anvil.
import { launchpadAbi, launchpadTokenAbi } from '@dex/abis';
import { createChainClient } from '@dex/chain';
import type { DexClient, EndpointName, RawResponse } from '@dex/sdk';
import { parseAbiItem } from 'viem';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

const graduatedEvent = parseAbiItem('event TokenGraduated(address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity)');

jest.setTimeout(120_000);

describe('GET /launchpad/*', () => {
  let stack: TestStack;
  let api: DexClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const launched = (symbol: string) => chain().launchpad.tokens.find((t) => t.symbol === symbol)!;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['launchpad-service', 'gateway', 'indexer'], env: { INDEXER_POLL_INTERVAL_MS: '200' } });
    api = apiClient(stack.app('gateway').url);
    await until(() => api.request('launchpadTokens', { chainId: 999 }), (r) => r.status === 200, 20_000);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists launched tokens newest first with metadata and curve state', async () => {
    const r = await api.request('launchpadTokens', { chainId: 999 });
    expect(r.status).toBe(200);
    const body = bodyOf(r);
    expect(body.data).toMatchObject({ chainId: 999, launchpad: chain().launchpad.address, count: 3, offset: 0, nextOffset: 3, hasMore: false });
    expect(body.data.tokens.map((t: any) => t.symbol)).toEqual(['GFROG', 'MDOG', 'FCAT']);
    const [gfrog, mdog, fcat] = body.data.tokens;
    expect(gfrog).toMatchObject({ graduated: true, curveProgress: 1, pair: launched('GFROG').pair, decimals: 6, dexIndex: 0 });
    expect(mdog).toMatchObject({ graduated: false, graduationBlock: null, graduationTimestamp: null });
    expect(mdog.curveProgress).toBeGreaterThan(fcat.curveProgress);
    expect(fcat).toMatchObject({ name: 'Fresh Cat', creator: launched('FCAT').creator, image_uri: 'ipfs://devnet/fcat.png', startingLiquidity: (300n * 10n ** 18n).toString() });
    expect(Number(fcat.price)).toBeGreaterThan(0);
  });

  it('reports the block and time of a graduation as the indexer recorded it, only for graduated tokens', async () => {
    const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl });
    const gfrog = launched('GFROG');
    const [log] = await client.getLogs({ address: chain().launchpad.address, event: graduatedEvent, args: { token: gfrog.address }, fromBlock: 0n, toBlock: 'latest' });
    expect(log.args.pair).toBe(gfrog.pair);
    const block = await client.getBlock({ blockNumber: log.blockNumber });
    const expected = { graduated: true, graduationBlock: log.blockNumber.toString(), graduationTimestamp: Number(block.timestamp) };
    // The indexer follows the chain in the background: the graduation shows once it has reached its block.
    const { value } = await until(() => api.launchpadToken({ address: gfrog.address, chainId: 999 }), (r) => r.success === true && r.data.graduationBlock !== null, 30_000);
    expect(value.data).toMatchObject(expected);
    const list = await api.launchpadTokens({ chainId: 999 });
    expect(list.data.tokens.map((t) => [t.symbol, t.graduationBlock, t.graduationTimestamp])).toEqual([
      ['GFROG', expected.graduationBlock, expected.graduationTimestamp],
      ['MDOG', null, null],
      ['FCAT', null, null],
    ]);
  });

  it('pages with offset and limit', async () => {
    const first = await api.launchpadTokens({ chainId: 999, limit: 2 });
    expect(first.data).toMatchObject({ offset: 0, limit: 2, nextOffset: 2, hasMore: true });
    expect(first.data.tokens.map((t: any) => t.symbol)).toEqual(['GFROG', 'MDOG']);
    const second = await api.launchpadTokens({ chainId: 999, limit: 2, offset: 2 });
    expect(second.data.tokens.map((t: any) => t.symbol)).toEqual(['FCAT']);
    expect(second.data.hasMore).toBe(false);
  });

  it('serves one token, and 404 for a token the launchpad does not know', async () => {
    const one = await api.request('launchpadToken', { address: launched('MDOG').address, chainId: 999 });
    expect(one.status).toBe(200);
    expect(bodyOf(one).data.symbol).toBe('MDOG');
    const unknown = await api.request('launchpadToken', { address: '0x000000000000000000000000000000000000dEaD', chainId: 999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: 'Token not found on the launchpad' });
  });

  it("says whether the creator is still locked and until when, as the token enforces it", async () => {
    const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl });
    const { timestamp } = await client.getBlock();
    const r = await api.request('launchpadToken', { address: launched('MDOG').address, chainId: 999 });
    expect(r.status).toBe(200);
    const token = bodyOf(r).data;
    const unlockTime = await client.readContract({ address: token.address, abi: launchpadTokenAbi, functionName: 'creatorUnlockTime' });
    expect(token.creatorUnlockTime).toBe(Number(unlockTime));
    expect(token.creatorUnlockTime).toBe(token.creationTimestamp + 3600);
    // The devnet launched its tokens moments ago: every creator is inside its hour.
    expect(token.creatorLocked).toBe(timestamp < unlockTime);
    expect(token.creatorLocked).toBe(true);
    const list = await api.launchpadTokens({ chainId: 999 });
    for (const t of list.data.tokens) expect(t).toMatchObject({ creatorLocked: true, creatorUnlockTime: t.creationTimestamp + 3600 });
  });

  it('estimates buys and sells as the contract does, and refuses a graduated curve', async () => {
    const client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl });
    const token = launched('MDOG').address;
    const buy = await api.request('launchpadEstimate', { chainId: 999, token, side: 'buy', amount: 10n ** 18n });
    expect(buy.status).toBe(200);
    const onChain = await client.readContract({ address: chain().launchpad.address, abi: launchpadAbi, functionName: 'estimateBuy', args: [token, 10n ** 18n] });
    expect(bodyOf(buy).data).toEqual({ chainId: 999, token, side: 'buy', amountIn: '1000000000000000000', amountOut: onChain.toString() });
    const sell = await api.launchpadEstimate({ chainId: 999, token, side: 'sell', amount: 1_000_000_000n });
    expect(BigInt(sell.data.amountOut)).toBeGreaterThan(0n);
    const frozen = await api.request('launchpadEstimate', { chainId: 999, token: launched('GFROG').address, side: 'buy', amount: 1000n });
    expect(frozen.status).toBe(409);
    expect(frozen.body).toMatchObject({ success: false, error: 'Token has graduated: it trades on its DEX pool' });
  });

  it('answers an amount near 2^256 with a 400, as /core/quote answers its overflow, not a 500', async () => {
    const token = launched('MDOG').address;
    for (const side of ['buy', 'sell'] as const) {
      for (const amount of [2n ** 256n - 1n, 2n ** 255n]) {
        const r = await api.request('launchpadEstimate', { chainId: 999, token, side, amount });
        expect([side, amount, r.status]).toEqual([side, amount, 400]);
        expect(r.body).toMatchObject({ success: false, error: expect.stringMatching(/^(Invalid amount: too large for the curve|Insufficient liquidity on the curve for this amount)$/) });
      }
    }
    const r = await api.request('launchpadEstimate', { chainId: 999, token, side: 'buy', amount: 2n ** 256n - 1n });
    expect(r.body).toEqual({ success: false, error: 'Invalid amount: too large for the curve', details: 'arithmetic overflow: use a smaller amount' });
  });

  it('lists the recent curve trades of a token from the indexer, newest first', async () => {
    const token = launched('MDOG');
    const { value } = await until(() => api.launchpadTrades({ address: token.address, chainId: 999 }), (r) => r.success === true && r.data.trades.length === 4, 30_000);
    const trades = value.data.trades;
    expect(trades.map((t: any) => t.side)).toEqual(['sell', 'buy', 'buy', 'buy']);
    expect(trades[3].trader).toBe(token.creator);
    const blocks = trades.map((t: any) => Number(t.blockNumber));
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    for (const t of trades) expect(BigInt(t.nativeAmount) > 0n && BigInt(t.tokenAmount) > 0n).toBe(true);
    const limited = await api.launchpadTrades({ address: token.address, chainId: 999, limit: 1 });
    expect(limited.data.trades).toHaveLength(1);
  });

  it('answers bad input with 400s naming the parameter', async () => {
    const token = launched('MDOG').address;
    const cases: [() => Promise<RawResponse<EndpointName>>, string][] = [
      [() => api.request('launchpadEstimate', { chainId: 999, token, side: 'hold', amount: 1n }), 'Invalid side: must be buy or sell'],
      [() => api.request('launchpadEstimate', { chainId: 999, token, side: 'buy', amount: 0n }), 'Invalid amount: must be a positive base-unit integer'],
      [() => api.request('launchpadEstimate', { chainId: 999, token: '0x12', side: 'buy', amount: 1n }), 'Invalid address: token'],
      [() => api.request('launchpadTokens', { chainId: 999, limit: 101 }), 'Invalid limit: must be an integer in [1, 100]'],
      [() => api.request('launchpadTokens', { chainId: 999, limit: 0 }), 'Invalid limit: must be an integer in [1, 100]'],
      [() => api.request('launchpadTokens', { chainId: 1 }), 'Unsupported chainId: 1'],
      [() => api.request('launchpadToken', { address: 'nope', chainId: 999 }), 'Invalid address: address'],
    ];
    for (const [send, error] of cases) {
      const r = await send();
      expect([r.url, r.status, r.error]).toEqual([r.url, 400, error]);
    }
  });
});
