// The stack through the faults a deployment sees, at the REST API: NATS going away (the gateway answers 503 at once
// in the API's shape, and again as soon as NATS is back), a service too slow to answer (504 after the bus
// timeout), and the chain's RPC providers failing (RPC_URL_999 lists two proxies in front of the node: one dies
// and nothing fails; both die and /v2/route and /core/quote answer 503 naming the chain; one comes back and
// they answer again).
import type { ClientParams, DexClient } from '@dex/sdk';
import { startRpcProxy, type RpcProxy } from '@dex/testing';
import { apiClient, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(180_000);

const BUS_TIMEOUT_MS = 1_500;
const STALE_AFTER_MS = 2_000;
const CHAIN_UNAVAILABLE = 'Chain 999 unavailable: no RPC provider is giving blocks';

describe('faults at the REST API', () => {
  let stack: TestStack;
  let a: RpcProxy;
  let b: RpcProxy;
  let api: DexClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address;
  const routeParams = (): ClientParams<'route'> => ({ chainId: 999, tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' });
  const quoteParams = (): ClientParams<'coreQuote'> => ({ chainId: 999, tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: (10n ** 18n).toString() });
  const route = () => api.request('route', routeParams());
  const quote = () => api.request('coreQuote', quoteParams());
  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const value = await run();
    return { value, ms: performance.now() - started };
  };

  beforeAll(async () => {
    stack = await startTestStack({
      chainIds: [999],
      apps: [],
      env: { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS), BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' },
    });
    [a, b] = await Promise.all([startRpcProxy(chain().rpcUrl), startRpcProxy(chain().rpcUrl)]);
    // The services that quote read the chain through the two proxies; the indexer reads the node itself.
    const viaProxies = { RPC_URL_999: `${a.url},${b.url}`, RPC_STALE_AFTER_MS: String(STALE_AFTER_MS), RPC_PROBE_INTERVAL_MS: '200' };
    await stack.startApps(['indexer']);
    await stack.startApps(['aggregator-router', 'amm-quoter', 'gateway'], viaProxies);
    api = apiClient(stack.app('gateway').url);
    await until(route, (r) => r.status === 200, 30_000);
    await until(quote, (r) => r.status === 200, 30_000);
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('answers 503 at once while NATS is down (how fast: bench/faults), and again once it is back', async () => {
    await stack.nats.stop();
    // The gateway sees its connection drop at once (the socket closes).
    await until(route, (r) => r.status === 503, 2_000);
    for (let i = 0; i < 20; i++) {
      const { value, ms } = await timed(route);
      expect(value).toMatchObject({ ok: false, status: 503, error: 'Message bus unavailable' });
      expect(ms).toBeLessThan(BUS_TIMEOUT_MS / 3);
    }
    await stack.nats.start();
    await until(route, (r) => r.status === 200, 10_000);
    await until(quote, (r) => r.status === 200, 10_000);
  });

  it('still waits for a service that is slow, then answers 504', async () => {
    const router = stack.app('aggregator-router');
    router.child.kill('SIGSTOP');
    try {
      const { value, ms } = await timed(route);
      expect(value).toMatchObject({ ok: false, status: 504, error: 'Upstream service timed out' });
      expect(ms).toBeGreaterThanOrEqual(BUS_TIMEOUT_MS - 10);
    } finally {
      router.child.kill('SIGCONT');
    }
    await until(route, (r) => r.status === 200, 10_000);
  });

  it('passes over a dead RPC provider, refuses to quote from stale state once all are dead, and recovers', async () => {
    // One of two dies: no request fails.
    await a.kill();
    for (let i = 0; i < 10; i++) {
      expect((await route()).status).toBe(200);
      expect((await quote()).status).toBe(200);
    }

    // Both die. A quote, which reads the chain, answers 503 naming the chain at once, and so does a route not answered
    // at this block yet (its transaction is executed at the node before it is answered; one answered already is the
    // block's answer, kept with its view); once no provider has given a block for longer than the bound, every route
    // is refused before that, saying how long the chain has been silent.
    await b.kill();
    const killed = Date.now();
    expect(await quote()).toMatchObject({ ok: false, status: 503, error: CHAIN_UNAVAILABLE });
    expect(await api.request('route', { ...routeParams(), amountIn: '1.25' })).toMatchObject({ ok: false, status: 503, error: CHAIN_UNAVAILABLE });
    const stale = await until(route, (r) => !r.ok && r.status === 503 && r.details?.startsWith('no usable block') === true, STALE_AFTER_MS + 5_000);
    expect(Date.now() - killed).toBeGreaterThanOrEqual(STALE_AFTER_MS - 500);
    expect(stale.value).toMatchObject({ ok: false, error: CHAIN_UNAVAILABLE, details: expect.stringMatching(/^no usable block from any RPC provider for \d+ s \(bound 2 s\): .* down/) });
    // amm-quoter watches the providers on its own: stale too, within a look of aggregator-router.
    const quoted = await until(quote, (q) => !q.ok && q.details?.startsWith('no usable block') === true, 5_000);
    expect(quoted.value).toMatchObject({ ok: false, status: 503, error: CHAIN_UNAVAILABLE });

    // One comes back: quotes and routes resume within a look or two at the providers.
    await b.revive();
    await until(quote, (q) => q.status === 200, 10_000);
    await until(route, (q) => q.status === 200, 10_000);
    await a.revive();
  });
});
