// No user input reaches a 5xx: every endpoint of the endpoint table (`ENDPOINTS`, the table /openapi.json is
// generated from, so a new endpoint or parameter is covered without touching this file), on the whole stack
// over both devnet chains, answers random and adversarial values of each of its parameters with a status below
// 500 and, for HEAD, without a body. Each parameter in turn takes every adversarial value with the others valid;
// then random mixes (a seeded generator, the seed in the failure) of absent, valid, adversarial and repeated values.
import { buildOpenApiDocument, ENDPOINTS, type Endpoint } from '@dex/messages';
import { request as httpRequest } from 'node:http';
import { zeroAddress, type Address } from 'viem';
import { startTestStack, until, type TestStack } from '../src';

jest.setTimeout(900_000);

type Params = Record<string, string | string[]>;

/** Values a careless or hostile client sends: numbers out of every range, non-numbers, odd addresses, odd text. */
function adversarialValues(known: { tokens: readonly string[]; router: string }): string[] {
  return [
    '', ' ', '0', '-0', '-1', '1', '00', '007', '1.5', '.5', '5.', '1.', '1e3', '1e400', '-1e400', '0x10', 'NaN', 'Infinity', '-Infinity',
    'true', 'false', 'null', 'undefined', '[]', '{}', '[object Object]',
    String(2 ** 31), String(2 ** 53 + 1), (2n ** 64n).toString(), (2n ** 255n).toString(), (2n ** 256n - 1n).toString(), (2n ** 256n).toString(),
    (2n ** 256n + 1n).toString(), `-${2n ** 256n}`, '1'.repeat(78), '9'.repeat(200), '0.' + '0'.repeat(60) + '1', '1' + '0'.repeat(90) + '.5',
    '1'.repeat(4000),
    '0x', '0x0', zeroAddress, '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', `0x${'f'.repeat(40)}`, `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`,
    `0x${'a'.repeat(39)}`, `0X${'a'.repeat(40)}`, `0x${'0'.repeat(64)}`, 'a'.repeat(42), known.router, known.router.toLowerCase(), ...known.tokens,
    `${known.tokens[0]},${known.tokens[1]}`, `${known.tokens[0]},,x`,
    '💥', 'é', 'Ω≈ç√', '١٢٣', '１２３', '\u202e1', '\u0000', '\n', '\t1', '%', '%%', '%00', '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>',
    ',', ',,,', '1,2,3', '1,,2', ' 1 ', '1 , 2', '255', '256', '-5,3', '0,'.repeat(300), 'buy', 'sell', 'BUY',
  ];
}

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] };
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request exactly as built (node:http sends the path as written). */
function send(baseUrl: string, method: 'GET' | 'HEAD', path: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out: ${method} ${path.slice(0, 200)}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The request path: path parameters put into the template, the rest as the query (repeated for a list). */
function pathOf(endpoint: Endpoint, params: Params): string {
  let path = endpoint.path;
  const query: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (endpoint.pathParams.includes(name)) {
      path = path.replace(`{${name}}`, encodeURIComponent(Array.isArray(value) ? value[0] : value) || '%20');
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
  }
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

describe('no user input reaches a 5xx', () => {
  let stack: TestStack;
  let gateway: string;
  const failures: string[] = [];
  let sent = 0;

  const doc = buildOpenApiDocument({ version: 'test' }) as { paths: Record<string, { get: { parameters: { name: string; in: string; required: boolean }[] } }> };
  const parametersOf = (e: Endpoint) => doc.paths[e.path].get.parameters.filter((p) => p.in !== 'header');

  /** Valid values of each parameter, by endpoint where they differ: the devnet's real tokens, pools and wallets. */
  let valid: (endpoint: string, param: string) => string;
  let adversarial: string[];

  beforeAll(async () => {
    stack = await startTestStack({
      chainIds: [999, 4663],
      apps: ['indexer', 'aggregator-router', 'amm-quoter', 'launchpad-service', 'gateway'],
      env: { BLOCK_POLL_MS: '200', INDEXER_POLL_INTERVAL_MS: '200', BUS_TIMEOUT_MS: '30000' },
    });
    gateway = stack.app('gateway').url;
    const chain = stack.chains.manifest.chains['999'];
    const token = (symbol: string) => chain.tokens.find((t) => t.symbol === symbol)!.address as Address;
    const wallet = stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.address;
    const launched = chain.launchpad.tokens.find((t) => t.symbol === 'MDOG')!.address;
    // Every service answers once the indexer has recorded the chains.
    await until(() => send(gateway, 'GET', `/v2/route?chainId=999&tokenIn=${token('USDC')}&tokenOut=${token('USDT')}&amountIn=1`), (r) => r.status === 200, 60_000);
    await until(() => send(gateway, 'GET', '/core/pools?chainId=999'), (r) => r.status === 200, 30_000);
    await until(() => send(gateway, 'GET', '/launchpad/tokens?chainId=999'), (r) => r.status === 200, 30_000);
    const corePool = (JSON.parse((await send(gateway, 'GET', '/core/pools?chainId=999')).body) as { data: { poolAddress: string }[] }).data[0].poolAddress;
    const values: Record<string, string> = {
      chainId: '999', tokenIn: token('USDC'), tokenOut: token('USDT'), tokenA: token('USDC'), tokenB: token('USDT'), wallet, tokens: `${token('USDC')},${token('USDT')}`,
      amountIn: '1', amountOut: '1', multiHop: 'true', slippage: '1', unwrapNative: 'false', excludeDexes: '1', includeDexes: '0,1', feeBps: '0', feeRecipient: wallet,
      recipient: wallet, deadline: '4000000000', maxPriceImpact: '50', sender: wallet, search: 'us', limit: '5', offset: '0', metadata: 'true',
      includeCalldata: '1', slippageBps: '100', refCode: 'ALPHA', side: 'buy', amount: '1000000000000000000', token: launched,
    };
    const byEndpoint: Record<string, Record<string, string>> = { coreQuote: { amountIn: '1000000' }, corePool: { address: corePool }, launchpadToken: { address: launched }, launchpadTrades: { address: launched } };
    valid = (endpoint, param) => byEndpoint[endpoint]?.[param] ?? values[param] ?? 'x';
    adversarial = adversarialValues({ tokens: [token('USDC'), token('USDT'), launched, corePool], router: chain.routerV2 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** Sends the request (HEAD too, now and then) and records any answer at 500 or above, or a HEAD with a body. */
  async function check(name: string, endpoint: Endpoint, params: Params, head: boolean) {
    const path = pathOf(endpoint, params);
    for (const method of head ? (['GET', 'HEAD'] as const) : (['GET'] as const)) {
      const answer = await send(gateway, method, path).catch((err: unknown) => ({ status: 0, body: String(err) }));
      sent++;
      if (answer.status >= 500 || answer.status === 0) failures.push(`${name} ${method} ${path.slice(0, 300)} -> ${answer.status} ${answer.body.slice(0, 300)}`);
      else if (method === 'HEAD' && answer.body !== '') failures.push(`${name} HEAD ${path.slice(0, 300)} -> ${answer.status} with a body`);
    }
  }

  /** Runs `tasks` a few at a time (the machine is shared; the services do real chain reads). */
  async function inBatches(tasks: (() => Promise<void>)[], width = 4) {
    for (let i = 0; i < tasks.length; i += width) await Promise.all(tasks.slice(i, i + width).map((t) => t()));
  }

  it('each parameter of each endpoint, with every adversarial value, given once and given twice', async () => {
    const tasks: (() => Promise<void>)[] = [];
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
      const parameters = parametersOf(endpoint);
      const required = Object.fromEntries(parameters.filter((p) => p.required).map((p) => [p.name, valid(name, p.name)]));
      if (parameters.length === 0) {
        for (const value of adversarial.slice(0, 20)) tasks.push(() => check(name, endpoint, { junk: value }, true));
      }
      for (const p of parameters) {
        adversarial.forEach((value, i) => {
          tasks.push(() => check(name, endpoint, { ...required, [p.name]: value }, i % 7 === 0));
          if (i % 5 === 0) tasks.push(() => check(name, endpoint, { ...required, [p.name]: [valid(name, p.name), value] }, false));
        });
      }
    }
    await inBatches(tasks);
    expect(sent).toBeGreaterThan(3_000);
    expect(failures).toEqual([]);
  });

  it('random mixes of absent, valid, adversarial and repeated values over all parameters', async () => {
    const seed = Number(process.env.NO_5XX_SEED ?? Date.now() % 1_000_000);
    const { next, pick } = generator(seed);
    const tasks: (() => Promise<void>)[] = [];
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
      for (let n = 0; n < 60; n++) {
        const params: Params = {};
        for (const p of parametersOf(endpoint)) {
          const roll = next();
          if (roll < 0.25 && !p.required) continue;
          if (roll < 0.6) params[p.name] = valid(name, p.name);
          else if (roll < 0.92) params[p.name] = pick(adversarial);
          else params[p.name] = [pick(adversarial), valid(name, p.name)];
        }
        tasks.push(() => check(name, endpoint, params, n % 5 === 0));
      }
    }
    await inBatches(tasks);
    expect([seed, failures]).toEqual([seed, []]);
  });
});
