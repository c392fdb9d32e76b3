// Live routes end to end: streams of `/v2/route/stream` opened through the SDK's `routeStream` while the market moves
// (a trader's swaps, each a block). Each stream gets its first answer at once and then one per block in which the
// answer changed; each answer's calldata executes, in an `eth_call` at its block, for exactly its amount; identical
// requests share one search per block (their streams carry the same quote ids); a refused route is an error event in
// the API's shape; the limit per client is a 429; a client that goes is forgotten; a stream ends at its maximum
// duration. A raw connection shows the wire format: `retry:`, `event:`/`id:`/`data:` and heartbeat comments.
import { createChainClient, createChainWalletClient, simulateRouterCall, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { TOO_MANY_STREAMS } from '@dex/messages';
import { DexApiError, type ClientParams, type DexClient, type RouteStreamEvent } from '@dex/sdk';
import { erc20Abi, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(180_000);

const CHAIN_ID = 999;
const MAX_SECONDS = 12;

type RouteParams = ClientParams<'route'>;

/** A stream read in the background: its events as they came, and its end. */
interface Watched {
  readonly events: RouteStreamEvent[];
  readonly done: Promise<unknown>;
  readonly abort: AbortController;
}

describe('live routes (GET /v2/route/stream)', () => {
  let stack: TestStack;
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => stack.chains.manifest.chains[String(CHAIN_ID)];
  const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address as Address;

  function watch(params: RouteParams): Watched {
    const abort = new AbortController();
    const events: RouteStreamEvent[] = [];
    const done = (async () => {
      for await (const event of api.routeStream(params, { signal: abort.signal })) events.push(event);
    })().catch((err: unknown) => err);
    return { events, done, abort };
  }

  const routes = (w: Watched) => w.events.filter((e): e is Extract<RouteStreamEvent, { type: 'route' }> => e.type === 'route');

  /** Moves the market: the trader sells USDT for USDC through the API's route on the given sources (one block). */
  async function moveMarket(amountIn: string, includeDexes: number[]): Promise<bigint> {
    const r = await api.request('route', { chainId: CHAIN_ID, tokenIn: token('USDT'), tokenOut: token('USDC'), amountIn, includeDexes, multiHop: false });
    expect(r.status).toBe(200);
    const data = bodyOf(r).data;
    const hash = await wallet.sendTransaction({ to: data.execution.to, data: data.execution.calldata as Hex, value: 0n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt.blockNumber;
  }

  async function metric(name: string): Promise<number> {
    const text = await (await fetch(`${stack.app('gateway').url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{}`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  }

  beforeAll(async () => {
    stack = await startTestStack({
      apps: ['indexer', 'aggregator-router', 'gateway'],
      chainIds: [CHAIN_ID],
      env: { CHAIN_IDS: String(CHAIN_ID), BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100', ROUTE_STREAMS_PER_CLIENT: '5', ROUTE_STREAM_MAX_SECONDS: String(MAX_SECONDS), ROUTE_STREAM_HEARTBEAT_MS: '1000' },
    });
    api = apiClient(stack.app('gateway').url);
    client = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: CHAIN_ID, rpcUrl: chain().rpcUrl, account: trader(), pollingIntervalMs: 50 });
    for (const symbol of ['USDC', 'USDT']) {
      const hash = await wallet.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash });
    }
    await until(() => api.request('route', { chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '10' }), (r) => r.status === 200, 60_000);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers at once, then at each block whose answer changed, each executing for exactly its amount at its block; identical requests share one search', async () => {
    const params: RouteParams = { chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '2500', multiHop: true };
    const a = watch(params);
    const b = watch(params);
    const other = watch({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '100', multiHop: true });
    // The first answer at once.
    await until(async () => [a, b, other].map((w) => routes(w).length), (n) => n.every((x) => x >= 1), 10_000);

    // The market moves three times, on the sources the answer trades on: each move is a block in which it changed.
    const sources = [...new Set(routes(a)[0].data.execution.details.hopSwaps.flat().map((s) => s.routerIndex))];
    for (const size of ['40000', '25000', '60000']) {
      const before = routes(a).length;
      const block = await moveMarket(size, sources);
      await until(async () => routes(a).at(-1)!, (e) => routes(a).length > before && BigInt(e.blockNumber) >= block, 15_000);
      await until(async () => routes(b).length, (n) => n === routes(a).length, 5_000);
    }
    const events = routes(a);
    expect(events.length).toBeGreaterThanOrEqual(4);
    // Identical requests: one search served both, the same answers with the same quote ids.
    expect(routes(b).map((e) => e.data.quoteId)).toEqual(events.map((e) => e.data.quoteId));
    // One event per block at most, blocks rising, and each event a change.
    for (let i = 1; i < events.length; i++) {
      expect(BigInt(events[i].blockNumber)).toBeGreaterThan(BigInt(events[i - 1].blockNumber));
      expect(events[i].data.amountOut).not.toBe(events[i - 1].data.amountOut);
    }
    // Each answer's transaction at its block: exactly the amount it announced.
    for (const { data } of events) {
      const result = await simulateRouterCall(client, {
        router: chain().routerV2 as Address,
        sender: trader().address,
        tokenIn: token('USDC'),
        amountIn: BigInt(data.execution.details.amountIn),
        calldata: data.execution.calldata as Hex,
        value: 0n,
        blockNumber: BigInt(data.blockNumber),
      });
      expect(result).toMatchObject({ ok: true, amountOut: BigInt(data.execution.details.amountOut) });
    }
    // The other pair's stream has its own answers.
    expect(routes(other).length).toBeGreaterThanOrEqual(1);
    expect(routes(other)[0].data.tokens.tokenOut.symbol).toBe('WHYPE');

    // The clients go: the gateway forgets their streams.
    for (const w of [a, b, other]) w.abort.abort();
    await Promise.all([a.done, b.done, other.done]);
    await until(() => metric('route_streams_open'), (n) => n === 0, 5_000);
    expect(await metric('route_streams_standing')).toBe(0);
  });

  it('sends a refused route as an error event, refuses bad input with a 400 and a client past its limit with a 429', async () => {
    // A size no pool can fill: the route is refused, as an event in the API's error shape.
    const refused = watch({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountOut: '1000000000000', multiHop: false });
    const { value: first } = await until(async () => refused.events[0], (e) => e !== undefined, 10_000);
    expect(first).toMatchObject({ type: 'error', status: 404, error: 'No route found' });

    // A request the aggregator refuses (not the gateway's checks): its 400 as the stream's error event.
    const same = watch({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDC'), amountIn: '1' });
    const { value: refusal } = await until(async () => same.events[0], (e) => e !== undefined, 10_000);
    expect(refusal).toMatchObject({ type: 'error', status: 400, error: 'Invalid tokenOut: must differ from tokenIn' });
    same.abort.abort();
    await same.done;

    // Bad input the gateway checks: the 400 of /v2/route, before any event.
    const bad = await (async () => {
      for await (const _ of api.routeStream({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '-1' })) return 'opened';
      return 'ended';
    })().catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(DexApiError);
    expect(bad).toMatchObject({ status: 400, error: 'Invalid amountIn: must be a positive decimal number' });

    // Five streams per client (this test's setting): the sixth is a 429.
    const more = [1, 2, 3, 4].map((i) => watch({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: String(i) }));
    await until(async () => more.map((w) => w.events.length), (n) => n.every((x) => x >= 1), 10_000);
    const sixth = await (async () => {
      for await (const _ of api.routeStream({ chainId: CHAIN_ID, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '9' })) return 'opened';
      return 'ended';
    })().catch((err: unknown) => err);
    expect(sixth).toMatchObject({ status: 429, error: TOO_MANY_STREAMS });
    expect(await metric('route_streams_open')).toBe(5);
    for (const w of [refused, ...more]) w.abort.abort();
    await Promise.all([refused.done, ...more.map((w) => w.done)]);
    await until(() => metric('route_streams_open'), (n) => n === 0, 5_000);
  });

  it('speaks Server-Sent Events on the wire, with heartbeats, and ends a stream at its maximum duration', async () => {
    const url = `${stack.app('gateway').url}/v2/route/stream?chainId=${CHAIN_ID}&tokenIn=${token('USDC')}&tokenOut=${token('USDT')}&amountIn=77`;
    const started = performance.now();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    const seconds = (performance.now() - started) / 1000;
    // The gateway ended it after its maximum duration.
    expect(seconds).toBeGreaterThanOrEqual(MAX_SECONDS - 1);
    expect(text.startsWith('retry: 1000\n\n')).toBe(true);
    expect(text).toMatch(/event: route\nid: \d+\ndata: \{"success":true,"data":\{"quoteId":/);
    expect(text).toMatch(/\n: heartbeat\n/);
    expect(text.endsWith(`event: end\ndata: {"reason":"maxDuration","maxDurationSeconds":${MAX_SECONDS}}\n\n`)).toBe(true);
  });
});
