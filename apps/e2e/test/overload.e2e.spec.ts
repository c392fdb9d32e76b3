// The stack saturated at the REST API: with each service admitting two requests per subject at once and four
// waiting, bursts of routes, 100-amount core quotes, token lists and pool lists far past that are each answered 200,
// or 503 with `Retry-After` in the API's shape (the service refused it early, or could not answer it within the
// request's deadline); never a 500 or a 504. The refusals are counted in the services' metrics, and once the burst
// is over every endpoint answers again.
import { request as httpRequest, Agent } from 'node:http';
import { startTestStack, until, type TestStack } from '../src';

jest.setTimeout(300_000);

const BUS_TIMEOUT_MS = 2_000;

interface Answer {
  readonly status: number;
  readonly retryAfter?: string;
  readonly body: { success?: boolean; error?: string; details?: string };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1_000 });

function get(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { agent, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const header = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(header) ? header[0] : header, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

describe('the stack under a burst far past what it admits', () => {
  let stack: TestStack;
  let base: string;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address;
  const paths = () => {
    const amounts = Array.from({ length: 100 }, (_, i) => ((BigInt(i) + 1n) * 10n ** 16n).toString()).join(',');
    return {
      route: `/v2/route?chainId=999&tokenIn=${token('USDC')}&tokenOut=${token('WHYPE')}&amountIn=25`,
      quote: `/core/quote?chainId=999&tokenIn=${token('WHYPE')}&tokenOut=${token('USDC')}&amountIn=${amounts}`,
      tokens: '/tokens?chainId=999',
      pools: '/core/pools?chainId=999',
    };
  };

  beforeAll(async () => {
    stack = await startTestStack({
      chainIds: [999],
      apps: ['indexer', 'aggregator-router', 'amm-quoter', 'gateway'],
      // The burst reaches the services' admission: the stack relaxes the gateway's own refusal while its event loop
      // lags (which, on a busy machine, refuses whole the endpoints sent last), left to its spec and bench/overload.
      env: { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS), BUS_MAX_IN_FLIGHT: '2', BUS_MAX_QUEUED: '4', BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' },
    });
    base = stack.app('gateway').url;
    for (const path of Object.values(paths())) await until(() => get(base, path), (a) => a.status === 200, 60_000);
  });

  afterAll(async () => {
    agent.destroy();
    await stack?.stop();
  });

  it('answers every request of the burst 200, or 503 with Retry-After; none 500 or 504', async () => {
    const p = paths();
    const burst: [keyof typeof p, number][] = [
      ['route', 150],
      ['quote', 150],
      ['tokens', 60],
      ['pools', 60],
    ];
    const answers = await Promise.all(burst.flatMap(([name, n]) => Array.from({ length: n }, () => get(base, p[name]).then((a) => ({ name, ...a })))));
    const byStatus = (name: string, status: number) => answers.filter((a) => a.name === name && a.status === status).length;
    for (const [name, n] of burst) expect([name, byStatus(name, 200) + byStatus(name, 503)]).toEqual([name, n]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect({ name: a.name, retryAfter: a.retryAfter, body: a.body }).toEqual({
        name: a.name,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        body: { success: false, error: expect.stringMatching(/^(Service overloaded|Service temporarily unavailable)$/), details: expect.any(String) },
      });
    }
    // The burst was past what the services admit, and they still answered some of it.
    for (const name of ['route', 'quote'] as const) {
      expect([name, byStatus(name, 503)]).not.toEqual([name, 0]);
      expect([name, byStatus(name, 200)]).not.toEqual([name, 0]);
    }
    const metrics = await fetch(`${stack.app('aggregator-router').url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/nats_handler_refused_total\{reason="[a-z_]+",subject="aggregator\.route"\} [1-9]/);

    // Over: each endpoint answers again.
    for (const path of Object.values(p)) await until(() => get(base, path), (a) => a.status === 200, 30_000);
  });
});
