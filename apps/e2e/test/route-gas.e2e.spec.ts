// The gas estimate of /v2/route against the gas the API's calldata uses on chain, end to end on the devnet (gateway ->
// NATS -> aggregator-router -> anvil): a single swap on each source kind, multi-hop, a hop split across pools, the
// native coin in and out, an integrator fee, executeSwapsWithData to a recipient and to a new one. Each answer's gasEstimate is within
// 10% of the receipt's gasUsed; each route's error is logged. Its cost is the estimate at the answer's gas price.
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import type { DexClient, LooseParams } from '@dex/sdk';
import { erc20Abi, formatUnits, maxUint256, zeroAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(240_000);

type RouteParams = Omit<LooseParams<'route'>, 'chainId'>;

describe('route gas estimates', () => {
  let stack: TestStack;
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const token = (symbol: string) => [chain().wrappedNative, ...chain().tokens, ...chain().launchpad.tokens].find((t) => t.symbol === symbol)!.address as Address;
  const account = (role: string) => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === role)!.privateKey as Hex);
  const route = (params: RouteParams) => api.request('route', { chainId: 999, ...params });
  const errors: { name: string; gasEstimate: number; gasUsed: number; error: number }[] = [];

  async function routeAtHead(params: RouteParams) {
    const head = await client.getBlockNumber();
    const { value } = await until(() => route(params), (r) => !r.ok || BigInt(r.body.data.blockNumber) >= head, 10_000);
    return bodyOf(value).data;
  }

  async function execute(params: RouteParams) {
    const data = await routeAtHead(params);
    const hash = await wallet.sendTransaction({ to: data.execution.to as Address, data: data.execution.calldata as Hex, value: BigInt(data.execution.value), gas: 3_000_000n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return { data, gasUsed: Number(receipt.gasUsed) };
  }

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['indexer', 'aggregator-router', 'amm-quoter', 'gateway'], env: { BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' } });
    api = apiClient(stack.app('gateway').url);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: account('trader-1'), pollingIntervalMs: 50 });
    await until(() => route({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '1' }), (r) => r.status === 200, 30_000);
    // Each block 2 seconds after the last, as the calibration's: a pool's oracle writes once per block timestamp, and
    // a swap on a live chain is most often the first on its pool in its block (back-to-back transactions mined in the
    // same second would skip that write, about 13,000 gas on the stable pools).
    await client.request({ method: 'anvil_setBlockTimestampInterval' as never, params: [2] as never });
    for (const symbol of ['USDC', 'USDT', 'DAI', 'PURR', 'WHYPE']) {
      const hash = await wallet.writeContract({ address: token(symbol), abi: erc20Abi, functionName: 'approve', args: [chain().routerV2 as Address, maxUint256] });
      await client.waitForTransactionReceipt({ hash });
    }
    // Every pool traded each way, as a pool on a live chain has been: a V2 pair's first swap after it is seeded sets
    // its price accumulators from zero (about 34,000 gas more, once in the pair's life), and a concentrated pool's fee
    // growth of a token stays zero until a swap pays that token in (a tick crossed then writes one token's fee growth
    // outside instead of both's, about 18,000 less).
    for (const pool of chain().pools) {
      for (const [from, to] of [
        [pool.token0, pool.token1],
        [pool.token1, pool.token0],
      ]) {
        const meta = [chain().wrappedNative, ...chain().tokens].find((t) => t.address.toLowerCase() === from.toLowerCase());
        if (!meta) continue;
        // The wrapped native token paid as the native coin, which the trader holds.
        const tokenIn = from.toLowerCase() === chain().wrappedNative.address.toLowerCase() ? zeroAddress : from;
        await execute({ tokenIn, tokenOut: to, amountIn: meta.decimals === 6 ? '1' : '0.01', includeDexes: [pool.routerIndex] }).catch(() => undefined);
      }
    }
    await acrossTicksAndBack();
  });

  // Each concentrated pool traded about $10k across its ticks near the price, each way, and back: on a live pool the
  // ticks a swap crosses were crossed before (a tick's first crossing in its life sets its values outside from zero,
  // about 35,000 gas more, which the model does not count).
  async function acrossTicksAndBack() {
    const wn = chain().wrappedNative.address.toLowerCase();
    const asInput = (t: string) => (t.toLowerCase() === wn ? zeroAddress : t);
    for (const pool of chain().pools.filter((p) => p.kind === 'uniswap-v3' || p.kind === 'algebra')) {
      for (const [from, to] of [
        [pool.token0, pool.token1],
        [pool.token1, pool.token0],
      ]) {
        const usdc = token('USDC');
        const amount = from.toLowerCase() === usdc.toLowerCase() ? '10000' : await routeAtHead({ tokenIn: usdc, tokenOut: from, amountIn: '10000' }).then((d) => d.amountOut, () => undefined);
        if (amount === undefined) continue;
        const there = await execute({ tokenIn: asInput(from), tokenOut: to, amountIn: amount, includeDexes: [pool.routerIndex] }).catch(() => undefined);
        if (there) await execute({ tokenIn: to, tokenOut: from, amountIn: there.data.amountOut, includeDexes: [pool.routerIndex] }).catch(() => undefined);
      }
    }
  }

  afterAll(async () => {
    const worst = errors.reduce((w, e) => (Math.abs(e.error) > Math.abs(w.error) ? e : w), errors[0]);
    if (worst) console.log(`gas estimate vs gasUsed, ${errors.length} routes:\n${errors.map((e) => `  ${e.name.padEnd(48)} estimate ${e.gasEstimate}  used ${e.gasUsed}  ${(e.error * 100).toFixed(2)}%`).join('\n')}\n  worst ${(worst.error * 100).toFixed(2)}% (${worst.name})`);
    await stack?.stop();
  });

  const cases: [string, () => RouteParams][] = [
    ['core USDC -> USDT', () => ({ tokenIn: token('USDC'), tokenOut: token('USDT'), amountIn: '500', includeDexes: [0] })],
    ['V2 (DevSwap) USDC -> WHYPE', () => ({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '200', includeDexes: [1] })],
    ['V2 (LiteSwap) USDT -> WHYPE', () => ({ tokenIn: token('USDT'), tokenOut: token('WHYPE'), amountIn: '200', includeDexes: [2] })],
    ['stable USDC -> DAI', () => ({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '300', includeDexes: [3] })],
    ['launchpad buy, native in', () => ({ tokenIn: zeroAddress, tokenOut: token('MDOG'), amountIn: '0.5', includeDexes: [4] })],
    ['uniswap-v3 WHYPE -> USDC', () => ({ tokenIn: token('WHYPE'), tokenOut: token('USDC'), amountIn: '2', includeDexes: [5] })],
    ['uniswap-v3 (LiteSwap) USDT -> WHYPE', () => ({ tokenIn: token('USDT'), tokenOut: token('WHYPE'), amountIn: '150', includeDexes: [6] })],
    ['algebra USDC -> WHYPE', () => ({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '150', includeDexes: [7] })],
    ['multi-hop USDT -> PURR', () => ({ tokenIn: token('USDT'), tokenOut: token('PURR'), amountIn: '400', multiHop: true })],
    ['split USDC -> WHYPE, all sources', () => ({ tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '20000', multiHop: true })],
    ['native in, split, -> USDC', () => ({ tokenIn: zeroAddress, tokenOut: token('USDC'), amountIn: '20', multiHop: true })],
    ['native out USDC ->', () => ({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: '300', multiHop: true })],
    ['fee 30 bps USDC -> PURR', () => ({ tokenIn: token('USDC'), tokenOut: token('PURR'), amountIn: '800', multiHop: true, feeBps: 30, feeRecipient: account('integrator').address })],
    ['executeSwapsWithData to a recipient', () => ({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '250', multiHop: true, recipient: account('trader-2').address })],
    // A recipient holding none of the output: its balance set from zero (a new account for the native coin), read by
    // the service and counted.
    ['to a new recipient', () => ({ tokenIn: token('USDC'), tokenOut: token('DAI'), amountIn: '250', multiHop: true, recipient: privateKeyToAccount(generatePrivateKey()).address })],
    ['native out to a new recipient', () => ({ tokenIn: token('USDC'), tokenOut: zeroAddress, amountIn: '30', recipient: privateKeyToAccount(generatePrivateKey()).address })],
  ];

  it.each(cases)('%s: the estimate is within 10%% of the gas used', async (name, params) => {
    const { data, gasUsed } = await execute(params());
    const error = data.gasEstimate / gasUsed - 1;
    errors.push({ name: `${name} (${data.execution.details.hopSwaps.map((s) => s.length).join('+')} swaps)`, gasEstimate: data.gasEstimate, gasUsed, error });
    expect(Math.abs(error)).toBeLessThanOrEqual(0.1);
    // The cost is the estimate at the answer's gas price; USD at the oracle's price of the native coin.
    expect(data.gasCostNative).toBe(formatUnits(BigInt(data.gasEstimate) * BigInt(data.gasPrice), 18));
    expect(BigInt(data.gasPrice)).toBeGreaterThan(0n);
    expect(Number(data.gasCostUsd)).toBeGreaterThan(0);
  });

  it('chooses the route net of gas: fewer swaps for a small trade where gas aside it takes more, a split for a large one', async () => {
    type Data = Awaited<ReturnType<typeof routeAtHead>>;
    const swaps = (d: Data) => d.execution.details.hopSwaps.flat().length;
    // WHYPE is the wrapped native coin: the gas cost in wei is in WHYPE base units.
    const net = (d: Data) => BigInt(d.execution.details.amountOut) - BigInt(d.gasEstimate) * BigInt(d.gasPrice);
    // Gas at 1,000 gwei (a swap about $2 at the devnet's $25 HYPE): a congested chain, where an extra hop or pool
    // for a few dollars' gain is a loss.
    const small = { tokenIn: token('USDC'), tokenOut: token('WHYPE'), amountIn: '20', multiHop: true };
    // The service prices gas at the last block it read it at while the new block's read is in flight, and an answer
    // chooses its route at the price it reports: the second block at the high fee is answered at it.
    const high = (d: Data) => BigInt(d.gasPrice) >= 500n * 10n ** 9n;
    for (let block = 0; block < 2; block++) {
      await client.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [`0x${(1_000n * 10n ** 9n).toString(16)}`] as never });
      await client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
      await routeAtHead(small);
    }
    await until(() => routeAtHead(small), high, 10_000);
    const [aside, chosen] = [await routeAtHead({ ...small, gasAware: false }), await routeAtHead(small)];
    expect(high(chosen)).toBe(true);
    expect(swaps(aside)).toBeGreaterThan(1);
    expect(swaps(chosen)).toBeLessThan(swaps(aside));
    expect(net(chosen)).toBeGreaterThan(net(aside));
    expect(BigInt(chosen.execution.details.amountOut)).toBeLessThanOrEqual(BigInt(aside.execution.details.amountOut));
    // Large against every pool of the pair (the Curve TwocryptoNG pool holds $1.5M a side): a split pays its gas.
    const large = await routeAtHead({ ...small, amountIn: '200000' });
    expect(swaps(large)).toBeGreaterThan(1);
    // The route chosen executes for what was quoted.
    const before = await client.readContract({ address: token('WHYPE'), abi: erc20Abi, functionName: 'balanceOf', args: [wallet.account!.address] });
    const { data } = await execute(small);
    const after = await client.readContract({ address: token('WHYPE'), abi: erc20Abi, functionName: 'balanceOf', args: [wallet.account!.address] });
    expect(swaps(data)).toBeLessThan(swaps(aside));
    expect(after - before).toBe(BigInt(data.execution.details.amountOut));
  });
});
