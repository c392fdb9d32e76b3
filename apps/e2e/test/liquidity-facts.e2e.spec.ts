// The aggregator's graph follows the indexer's chain facts: a core pool registered on chain after the services
// started (the sources file does not list it, and no per-block counter finds core pools) is announced by the
// indexer as `chain.999.pool.created` on JetStream, and the aggregator routes through it.
import { settablePriceOracleAbi, testERC20Abi, testERC20Bytecode } from '@dex/abis';
import { deploy, deployContext, deployCorePool, send } from '@dex/devnet-kit';
import type { DexClient, LooseParams } from '@dex/sdk';
import { parseUnits, type Abi, type Address } from 'viem';
import { apiClient, startTestStack, until, type AppProcess, type TestStack } from '../src';

jest.setTimeout(120_000);

describe('aggregator liquidity from chain facts', () => {
  let stack: TestStack;
  let router: AppProcess;
  let api: DexClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.symbol === symbol)!.address as Address;
  const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId: 999, ...params });

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['indexer', 'aggregator-router', 'gateway'], env: { INDEXER_POLL_INTERVAL_MS: '200', BLOCK_POLL_MS: '100' } });
    router = stack.app('aggregator-router');
    api = apiClient(stack.app('gateway').url);
    await until(() => route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' }), (r) => r.status === 200, 30_000);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('routes through a core pool registered after the start, found through the pool.created fact', async () => {
    // A new token with an oracle price and no pool anywhere: nothing routes it yet.
    const ctx = deployContext(999, chain().rpcUrl);
    const fresh = await deploy(ctx, testERC20Abi as Abi, testERC20Bytecode, ['Fact Token', 'FACT', 18]);
    const core = chain().core;
    await send(ctx, { address: core.oracle, abi: settablePriceOracleAbi as Abi, functionName: 'setPrices', args: [[fresh], [parseUnits('2', 18)]] });
    const before = await route({ tokenIn: fresh, tokenOut: token('USDC'), amountIn: '1' });
    expect(before.ok).toBe(false);

    const pool = await deployCorePool(
      ctx,
      { router: core.router, registry: core.registry, oracle: core.oracle, wrappedNative: chain().wrappedNative.address },
      { token: { address: fresh }, amount: parseUnits('100000', 18) },
      { token: { address: token('USDC') }, amount: parseUnits('200000', 6) },
    );

    const { value } = await until(() => route({ tokenIn: fresh, tokenOut: token('USDC'), amountIn: '10' }), (r) => r.ok, 30_000);
    if (!value.ok) throw new Error('no route');
    const data = value.body.data;
    expect(data.execution.details.hopSwaps[0][0]).toMatchObject({ poolAddress: pool.address, routerIndex: 0 });
    expect(data.tokens.tokenIn).toMatchObject({ address: fresh, symbol: 'FACT', decimals: 18 });
    // At the oracle price of $2, less the pool's fee: a little under 20 USDC.
    const out = Number(data.amountOut);
    expect(out).toBeGreaterThan(19.5);
    expect(out).toBeLessThan(20);

    const metrics = await (await fetch(`${router.url}/metrics`)).text();
    expect(metrics).toMatch(/chain_facts_received_total\{chain="999",fact="pool.created",outcome="handled"\} [1-9]/);
    await until(async () => router.output(), (out) => out.includes('"msg":"following chain facts"'), 5_000);
  });
});
