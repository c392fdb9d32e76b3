// Tokens that do not behave, end to end on the devnet (gateway -> NATS -> aggregator-router -> anvil): for each
// test token of the weird-ERC20 catalogue (each in a V2 pool of its own against WHYPE), either the route's calldata
// executes on chain for at least minAmountOut with nothing left in RouterV2, or the API refuses the token with a
// 422 naming it. A fee-on-transfer token is routed both ways and across a split, its fee counted per transfer; a
// token paused or blocklisting its pool after it was first routed is refused at the next block, and routed again
// once that is undone; bytes32 metadata is decoded in /tokens and in routes.
import { blocklistTokenAbi, pausableTokenAbi } from '@dex/abis';
import { createChainClient, createChainWalletClient, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import { deployContext, send } from '@dex/devnet-kit';
import type { ManifestTestToken, TestTokenKind } from '@dex/messages';
import type { DexClient, LooseParams } from '@dex/sdk';
import { erc20Abi, getAddress, maxUint256, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiClient, bodyOf, startTestStack, until, type TestStack } from '../src';

jest.setTimeout(240_000);

describe('tokens that do not behave', () => {
  let stack: TestStack;
  let api: DexClient;
  let client: ChainPublicClient;
  let wallet: ChainWalletClient;
  const chain = () => stack.chains.manifest.chains['999'];
  const test = (kind: TestTokenKind): ManifestTestToken => chain().testTokens!.find((t) => t.kind === kind)!;
  const whype = () => getAddress(chain().wrappedNative.address);
  const trader = () => privateKeyToAccount(stack.chains.manifest.accounts.find((a) => a.role === 'trader-1')!.privateKey as Hex);
  const router = () => getAddress(chain().routerV2);
  const route = (params: Omit<LooseParams<'route'>, 'chainId'>) => api.request('route', { chainId: 999, ...params });
  const balanceOf = (token: Address, owner: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const owner = () => deployContext(999, chain().rpcUrl);

  /** The answer at the chain's newest block or later (its calldata executes in the state it was quoted in). */
  async function routeAtHead(params: Omit<LooseParams<'route'>, 'chainId'>) {
    const head = await client.getBlockNumber();
    const { value } = await until(() => route(params), (r) => !r.ok || BigInt(r.body.data.blockNumber) >= head, 15_000);
    return value;
  }

  /** Sends the route's calldata from the trader; checks what arrived against minAmountOut and that the router holds nothing. */
  async function execute(tokenIn: Address, tokenOut: Address, amountIn: string) {
    const r = await routeAtHead({ tokenIn, tokenOut, amountIn });
    const data = bodyOf(r).data;
    const me = trader().address;
    const before = await balanceOf(tokenOut, me);
    const hash = await wallet.sendTransaction({ to: data.execution.to as Address, data: data.execution.calldata as Hex, gas: 3_000_000n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const received = (await balanceOf(tokenOut, me)) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(data.execution.details.minAmountOut));
    expect(await balanceOf(tokenIn, router())).toBe(0n);
    expect(await balanceOf(tokenOut, router())).toBe(0n);
    return { data, received };
  }

  beforeAll(async () => {
    stack = await startTestStack({ apps: ['indexer', 'aggregator-router', 'gateway'], env: { BLOCK_POLL_MS: '100', INDEXER_POLL_INTERVAL_MS: '100' } });
    api = apiClient(stack.app('gateway').url);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, pollingIntervalMs: 50 });
    wallet = createChainWalletClient({ chainId: 999, rpcUrl: chain().rpcUrl, account: trader(), pollingIntervalMs: 50 });
    await until(() => route({ tokenIn: whype(), tokenOut: test('low-decimals').address, amountIn: '1' }), (r) => r.status === 200, 60_000);
    for (const token of [whype(), ...chain().testTokens!.map((t) => getAddress(t.address))]) {
      const hash = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [router(), maxUint256] });
      await client.waitForTransactionReceipt({ hash });
    }
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('routes a fee-on-transfer token both ways, its fee counted in amountOut and minAmountOut, and says so', async () => {
    const fot = test('fee-on-transfer');
    // Buying: the pool pays the router, the router pays the trader: the fee is taken twice.
    const buy = await execute(whype(), getAddress(fot.address), '1');
    expect(buy.data.tokens.tokenOut).toMatchObject({ symbol: 'FOT', transferFeeBps: fot.feeBps });
    expect(buy.data.tokens.tokenIn.transferFeeBps).toBeUndefined();
    // The hop swaps' outputs are what reaches the router (the pools' transfers paid); the router's payout pays again,
    // and amountOut is what the simulation of the calldata delivered: that fee taken once more, to the wei.
    const atRouter = buy.data.execution.details.hopSwaps.at(-1)!.reduce((sum, s) => sum + BigInt(s.amountOut), 0n);
    const amountOut = BigInt(buy.data.execution.details.amountOut);
    expect(amountOut - (atRouter * BigInt(10_000 - fot.feeBps!)) / 10_000n).toBeLessThanOrEqual(2n);
    expect(buy.received).toBe(amountOut);
    // Selling: the trader pays the pool, which receives the amount less the fee.
    const sell = await execute(getAddress(fot.address), whype(), '100');
    expect(sell.data.tokens.tokenIn).toMatchObject({ symbol: 'FOT', transferFeeBps: fot.feeBps });
    expect(sell.received).toBeGreaterThanOrEqual(BigInt(sell.data.execution.details.minAmountOut));
    // What arrived is the quote, to the wei: it is what the same calldata delivered in the simulation.
    expect(sell.received).toBe(BigInt(sell.data.execution.details.amountOut));
  });

  it('answers an exact-output route to a fee-on-transfer token that delivers the amount asked for', async () => {
    const fot = getAddress(test('fee-on-transfer').address);
    const data = bodyOf(await routeAtHead({ tokenIn: whype(), tokenOut: fot, amountOut: '10' })).data;
    expect(BigInt(data.execution.details.amountOut)).toBeGreaterThanOrEqual(parseUnits('10', 18));
    const me = trader().address;
    const before = await balanceOf(fot, me);
    const hash = await wallet.sendTransaction({ to: data.execution.to as Address, data: data.execution.calldata as Hex, gas: 3_000_000n });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect((await balanceOf(fot, me)) - before).toBeGreaterThanOrEqual(parseUnits('10', 18));
  });

  it('routes a fee-on-transfer token across a split, each leg paying the fee', async () => {
    const fot = getAddress(test('fee-on-transfer').address);
    const { data, received } = await execute(fot, whype(), '3000');
    const legs = data.execution.details.hopSwaps.flat();
    expect(legs.length).toBeGreaterThan(1);
    expect(new Set(legs.map((s) => s.poolAddress)).size).toBe(legs.length);
    expect(received).toBeGreaterThanOrEqual(BigInt(data.execution.details.amountOut));
    expect(received - BigInt(data.execution.details.amountOut)).toBeLessThanOrEqual(BigInt(data.execution.details.amountOut) / 10_000n);
  });

  it.each(['no-return', 'revert-on-zero', 'low-decimals', 'high-decimals', 'bytes32-metadata', 'reentrant', 'pausable', 'blocklist'] as const)(
    'routes a %s token both ways on chain',
    async (kind) => {
      const t = test(kind);
      const token = getAddress(t.address);
      const bought = await execute(whype(), token, '0.5');
      expect(bought.data.tokens.tokenOut).toMatchObject({ symbol: t.symbol, name: t.name, decimals: t.decimals, transferFeeBps: 0 });
      const sell = (bought.received / 2n).toString();
      await execute(token, whype(), formatUnitsExact(BigInt(sell), t.decimals));
    },
  );

  it('refuses a token whose transfer answers false with a 422 naming it', async () => {
    const t = test('returns-false');
    for (const params of [{ tokenIn: whype(), tokenOut: t.address }, { tokenIn: t.address, tokenOut: whype() }]) {
      const r = await route({ ...params, amountIn: '1' });
      expect([r.status, r.body]).toEqual([422, { success: false, error: `Token transfers fail: RFALSE (${getAddress(t.address)})`, details: expect.stringContaining('answers false') }]);
    }
  });

  it('refuses a token once it is paused, at the next block, and routes it again once unpaused', async () => {
    const t = test('pausable');
    const params = { tokenIn: whype(), tokenOut: t.address, amountIn: '0.1' };
    expect((await routeAtHead(params)).status).toBe(200);
    await send(owner(), { address: getAddress(t.address), abi: pausableTokenAbi as Abi, functionName: 'pause' });
    const paused = (await until(() => route(params), (r) => r.status !== 200, 15_000)).value;
    expect([paused.status, paused.body]).toEqual([422, { success: false, error: `Token transfers fail: PAUSE (${getAddress(t.address)})`, details: expect.stringContaining('EnforcedPause') }]);
    await send(owner(), { address: getAddress(t.address), abi: pausableTokenAbi as Abi, functionName: 'unpause' });
    // Answered again as soon as the service's snapshot reaches the block that unpaused it.
    await until(() => route(params), (r) => r.status === 200, 15_000);
  });

  it('refuses a token that blocklists its pool, and routes it again once the pool is unblocked', async () => {
    const t = test('blocklist');
    const params = { tokenIn: t.address, tokenOut: whype(), amountIn: '1' };
    expect((await routeAtHead(params)).status).toBe(200);
    await send(owner(), { address: getAddress(t.address), abi: blocklistTokenAbi as Abi, functionName: 'blockAccount', args: [t.pool] });
    const blocked = (await until(() => route(params), (r) => r.status !== 200, 15_000)).value;
    expect([blocked.status, blocked.body]).toEqual([422, { success: false, error: `Token transfers fail: BLOCK (${getAddress(t.address)})`, details: expect.stringContaining(`BlockedAccount(${getAddress(t.pool)})`) }]);
    await send(owner(), { address: getAddress(t.address), abi: blocklistTokenAbi as Abi, functionName: 'unblockAccount', args: [t.pool] });
    await until(() => route(params), (r) => r.status === 200, 15_000);
    await execute(getAddress(t.address), whype(), '1');
  });

  it('lists the tokens with their transfer behaviour and decoded bytes32 metadata in /tokens', async () => {
    const r = await until(
      () => api.request('listTokens', { chainId: 999, metadata: true, limit: 100 }),
      (x) => x.ok && (x.body.data.tokens ?? []).some((t) => t.symbol === 'MKR'),
      30_000,
    );
    const tokens = bodyOf(r.value).data.tokens!;
    const byKind = (kind: TestTokenKind) => tokens.find((t) => getAddress(t.address) === getAddress(test(kind).address));
    expect(byKind('bytes32-metadata')).toMatchObject({ name: 'Maker', symbol: 'MKR', isERC20Verified: true, transferFeeBps: 0 });
    expect(byKind('fee-on-transfer')).toMatchObject({ transferFeeBps: test('fee-on-transfer').feeBps });
    expect(byKind('returns-false')).toMatchObject({ transferFailure: expect.stringContaining('answers false') });
    expect(byKind('returns-false')!.transferFeeBps).toBeUndefined();
  });
});

/** `value` base units as a decimal string with every digit (formatUnits would be the same; kept exact for 24 decimals). */
function formatUnitsExact(value: bigint, decimals: number): string {
  const s = value.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const fraction = s.slice(s.length - decimals).replace(/0+$/, '');
  const out = fraction ? `${whole}.${fraction}` : whole;
  // Round trip check: the API reads it back to the same base units.
  if (parseUnits(out, decimals) !== value) throw new Error(`formatUnitsExact(${value}, ${decimals})`);
  return out;
}
