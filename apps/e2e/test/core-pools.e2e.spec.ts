// GET /core/pools and /core/pool/:address: chain reads by amm-quoter plus the indexer's 24 h statistics,
// through the gateway, on a devnet with real swaps.
import { ammRouterAbi, testERC20Abi } from '@dex/abis';
import { deployContext, send, type DevAccount } from '@dex/devnet-kit';
import type { DexClient } from '@dex/sdk';
import { parseUnits, type Abi } from 'viem';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(120_000);

describe('GET /core/pools and /core/pool/:address', () => {
  let stack: TestStack;
  let api: DexClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address;
  const corePool = (name: string) => chain().pools.find((p) => p.name === name)!;

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['indexer', 'amm-quoter', 'gateway'], env: { INDEXER_POLL_INTERVAL_MS: '200' } });
    api = apiClient(stack.app('gateway').url);

    // Two swaps on the WHYPE/USDC pool, one each way, with a referral code.
    const ctx = deployContext(999, chain().rpcUrl);
    const trader = stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')! as DevAccount;
    const ref = chain().core.refCodes[0].refCode;
    for (const [tokenIn, tokenOut, amount] of [
      [token('USDC'), token('WHYPE'), parseUnits('5000', 6)],
      [token('WHYPE'), token('USDC'), parseUnits('100', 18)],
    ] as const) {
      await send(ctx, { address: tokenIn, abi: testERC20Abi as Abi, functionName: 'approve', args: [chain().core.router, amount] }, trader);
      await send(ctx, { address: chain().core.router, abi: ammRouterAbi as Abi, functionName: 'swap', args: [tokenIn, tokenOut, amount, 0n, ref] }, trader);
    }
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves one pool with reserves, prices, fees and the 24 h statistics from the indexer', async () => {
    const pool = corePool('Core WHYPE/USDC');
    const { value } = await until(() => api.corePool({ address: pool.address, chainId: 999 }), (r) => r.success === true && r.data.swapsToday === 2, 30_000);
    const d = value.data;
    expect(d).toMatchObject({ chainId: 999, poolAddress: pool.address, isPublic: true, swapsToday: 2, totalSwaps: 2 });
    const sides = [d.reserves.token0, d.reserves.token1];
    expect(sides.map((s: any) => s.symbol).sort()).toEqual(['USDC', 'WHYPE']);
    expect(Number(d.reserves.totalUSD)).toBeCloseTo(Number(sides[0].usd) + Number(sides[1].usd), 1);
    const usdc = sides.find((s: any) => s.symbol === 'USDC')!;
    const usdcIs0 = d.reserves.token0.symbol === 'USDC';
    expect(Number(usdcIs0 ? d.price.token0USD : d.price.token1USD)).toBe(1);
    expect(Number(usdcIs0 ? d.price.token1USD : d.price.token0USD)).toBe(25);
    expect(Number(usc(d))).toBeGreaterThan(0);
    // Volume: 5,000 USDC in plus about 2,500 USDC out on the USDC side.
    const usdcVolume = Number(usdcIs0 ? d.volumeToday.token0 : d.volumeToday.token1);
    expect(usdcVolume).toBeGreaterThan(7_000);
    expect(usdcVolume).toBeLessThan(7_600);
    expect(Number(d.volumeToday.usd)).toBeGreaterThan(7_000);
    expect(Number(d.feesToday.usd)).toBeGreaterThan(0);
    expect(Number(d.apr)).toBeGreaterThan(0);
    expect(Number(d.poolFees.token0In)).toBeGreaterThan(0);
    expect(Number(d.poolFees.token0In)).toBeLessThanOrEqual(0.01);
    expect(d.lastUpdated).toBeGreaterThan(1_600_000_000);
    expect(usdc.amount).toMatch(/^\d+(\.\d+)?$/);

    function usc(x: any) {
      return x.reserves.totalUSD;
    }
  });

  it('lists every pool with totals beside data', async () => {
    const r = await api.request('corePools', { chainId: 999 });
    expect(r.status).toBe(200);
    const body = bodyOf(r);
    expect(body.success).toBe(true);
    const core = chain().pools.filter((p) => p.kind === 'core');
    expect(body.data.map((p: any) => p.poolAddress).sort()).toEqual(core.map((p) => p.address).sort());
    const sumTvl = body.data.reduce((a: number, p: any) => a + Number(p.tvlUSD), 0);
    expect(Number(body.totalTVL)).toBeCloseTo(sumTvl, 0);
    expect(Number(body.totals24h.volume)).toBeGreaterThan(7_000);
    expect(Number(body.totals24h.fees)).toBeGreaterThan(0);
    const entry = body.data.find((p: any) => p.poolAddress === corePool('Core WHYPE/USDC').address)!;
    expect(Object.keys(entry).sort()).toEqual(
      ['apr', 'chainId', 'exchangeRates', 'fees24h', 'isPublic', 'poolAddress', 'poolFees', 'reserves', 'reservesUSD', 'token0', 'token1', 'tvlUSD', 'usdPrices', 'volume24h'].sort(),
    );
    const rates = entry.exchangeRates;
    expect(Number(rates.token1PerToken0) * Number(rates.token0PerToken1)).toBeCloseTo(1, 5);
    const quiet = body.data.find((p: any) => p.poolAddress === corePool('Core USDC/USDT').address)!;
    expect(quiet.volume24h.usd).toBe('0.00');
    expect(quiet.apr).toBe('0.0000');
  });

  it('answers 404 for an address that is not a core pool and 400 for a malformed one', async () => {
    const other = chain().pools.find((p) => p.kind === 'uniswap-v2')!.address;
    const r = await api.request('corePool', { address: other, chainId: 999 });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: 'No core pool found at this address' });
    const bad = await api.request('corePool', { address: '0x12', chainId: 999 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: 'Invalid address: address' });
    const noChain = await api.request('corePools', {});
    expect(noChain.body).toEqual({ success: false, error: 'Missing required parameter: chainId' });
  });
});
