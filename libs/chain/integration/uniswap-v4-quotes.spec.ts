// The V4Quoter quotes of libs/chain (quoteUniswapV4Swaps, sampleUniswapV4Pools) on the devnet's Uniswap V4 pools,
// on v4-core's and v4-periphery's own bytecode: a pool without swap hooks quotes what RouterV2's swap through the
// PoolManager delivers and what the engine's tick-exact swap says, to the wei; the input-fee hook's pool quotes
// what a RouterV2 swap through it delivers (the hook allowed on the router), the engine's swap of the input less the
// hook's 0.1%; the swap-limit hook's pool samples only up to its limit and refuses the quotes past it; amounts V4
// cannot take are undefined unsent; quotes asking more gas than one call holds are asked again, not refused; and
// every pool's ladders go in one eth_call.
import { routerV2Abi, v4QuoterAbi } from '@dex/abis';
import {
  createChainClient,
  encodeExecuteSwaps,
  findBalanceSlot,
  MAX_V4_QUOTE_AMOUNT,
  quoteUniswapV4Swaps,
  readUniswapV4Pools,
  sampleUniswapV4Pools,
  simulateRoute,
  type ChainPublicClient,
  type UniswapV4Quote,
  type UniswapV4QuoteSample,
} from '@dex/chain';
import { DEVNET_HOOK_SETTINGS, DEVNET_PRICES_USD, deployContext, encodePoolKey, send } from '@dex/devnet-kit';
import type { ManifestUniswapV4Pool } from '@dex/messages';
import { swapUniswapV4, TickTable, type ConcentratedPoolState } from '@dex/routing';
import { startTestChains, type TestChains } from '@dex/testing';
import { createPublicClient, custom, parseUnits, type Abi, type Address, type Hex } from 'viem';

jest.setTimeout(120_000);

/** DevSwap V4's registry slot on the devnet. */
const V4 = 8;
const PIPS = 1_000_000n;

describe('Uniswap V4 quotes through the V4Quoter', () => {
  let chains: TestChains;
  let client: ChainPublicClient;
  let blockNumber: bigint;
  const chain = () => chains.manifest.chains['999'];
  const quoter = () => chain().sources.find((s) => s.routerIndex === V4)!.addresses.v4Quoter as Address;
  const v4Pools = (): readonly ManifestUniswapV4Pool[] => chain().uniswapV4Pools ?? [];
  const v4Pool = (part: string) => v4Pools().find((p) => p.name.includes(part))!;
  const keyOf = (p: ManifestUniswapV4Pool) => ({ currency0: p.currency0 as Address, currency1: p.currency1 as Address, fee: p.fee, tickSpacing: p.tickSpacing, hooks: p.hooks as Address });
  const tokenOf = (address: string) => [chain().wrappedNative, ...chain().tokens].find((t) => t.address.toLowerCase() === address.toLowerCase())!;
  /** `usd` worth of a pool's input (token0 for zeroForOne; the native coin priced as its wrapped token), in units. */
  const unitsOf = (p: ManifestUniswapV4Pool, zeroForOne: boolean, usd: number) => {
    const t = tokenOf(zeroForOne ? p.token0 : p.token1);
    return parseUnits((usd / Number(DEVNET_PRICES_USD[999][t.symbol])).toPrecision(12), t.decimals);
  };
  const quote = (p: ManifestUniswapV4Pool, zeroForOne: boolean, amountIn: bigint) => ({ quoter: quoter(), key: keyOf(p), zeroForOne, amountIn });

  /** The pool as the engine reads it at the block (the PoolManager's storage), its LP fee from slot0. */
  async function engineState(p: ManifestUniswapV4Pool): Promise<ConcentratedPoolState> {
    const [read] = await readUniswapV4Pools(client, { poolManager: p.poolManager as Address, pools: [{ id: p.poolId as Hex, tickSpacing: p.tickSpacing }], blockNumber });
    expect(read?.protocolFee).toBe(0);
    return { sqrtPriceX96: read!.sqrtPriceX96, tick: read!.tick, liquidity: read!.liquidity, fee: read!.lpFee, tickSpacing: p.tickSpacing, ticks: new TickTable(read!.ticks) };
  }

  /** The engine's exact-input amount out; undefined where the pool cannot take the whole input (as the V4Quoter refuses it). */
  const engineOut = (state: ConcentratedPoolState, zeroForOne: boolean, amountIn: bigint) => {
    try {
      const swap = swapUniswapV4(state, zeroForOne, amountIn);
      return swap.amountIn === amountIn ? swap.amountOut : undefined;
    } catch {
      return undefined;
    }
  };

  /** What RouterV2 delivers for a one-swap route through the pool, executed from the virtual payer at the block. */
  async function routerSwap(p: ManifestUniswapV4Pool, zeroForOne: boolean, amountIn: bigint): Promise<bigint> {
    const [tokenIn, tokenOut] = (zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0]) as Address[];
    const calldata = encodeExecuteSwaps({
      tokens: [tokenIn, tokenOut],
      amountIn,
      minAmountOut: 0n,
      expectedAmountOut: 0n,
      hopSwaps: [[{ pool: p.poolManager, tokenIn, tokenOut, routerIndex: V4, amountIn, data: encodePoolKey(keyOf(p)) }]],
      feeBps: 0,
    });
    const balanceSlot = await findBalanceSlot(client, { token: tokenIn, blockNumber });
    const simulated = await simulateRoute(client, { router: chain().routerV2 as Address, tokenIn, balanceSlot, amountIn, tokenOut, calldata, blockNumber });
    if (!simulated.ok) throw new Error(`RouterV2's swap failed: ${JSON.stringify(simulated, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    return simulated.received;
  }

  beforeAll(async () => {
    chains = await startTestChains([999]);
    client = createChainClient({ chainId: 999, rpcUrl: chain().rpcUrl, multicall3: chain().multicall3 as Address });
    // The input-fee hook allowed on RouterV2's V4 source (whether or not the devnet lists it), so that a swap through its pool can be executed.
    const ctx = deployContext(999, chain().rpcUrl);
    await send(ctx, { address: chain().routerV2 as Address, abi: routerV2Abi as Abi, functionName: 'setHookAllowed', args: [V4, v4Pool('input-fee').hooks, true] });
    blockNumber = await client.getBlockNumber();
  });

  afterAll(async () => {
    await chains?.stop();
  });

  it("quotes the pools without swap hooks as RouterV2's swap delivers and as the engine's tick-exact swap says", async () => {
    const pools = v4Pools().filter((p) => p.hook === undefined || p.hook === 'dynamic-fee');
    expect(pools.map((p) => p.currency0)).toContain('0x0000000000000000000000000000000000000000');
    const swaps = pools.flatMap((p) => [true, false].flatMap((zeroForOne) => [0.01, 1, 500, 20_000, 200_000].map((usd) => quote(p, zeroForOne, unitsOf(p, zeroForOne, usd)))));
    const quoted = await quoteUniswapV4Swaps(client, { swaps, blockNumber });
    expect(quoted).toHaveLength(swaps.length);
    const states = new Map(await Promise.all(pools.map(async (p) => [p.poolId, await engineState(p)] as const)));
    let refused = 0;
    for (const [i, s] of swaps.entries()) {
      const p = pools.find((x) => x.hooks === s.key.hooks && x.fee === s.key.fee && x.currency0 === s.key.currency0)!;
      const expected = engineOut(states.get(p.poolId)!, s.zeroForOne, s.amountIn);
      expect({ pool: p.name, zeroForOne: s.zeroForOne, amountIn: s.amountIn, amountOut: quoted[i]?.amountOut }).toEqual({ pool: p.name, zeroForOne: s.zeroForOne, amountIn: s.amountIn, amountOut: expected });
      if (quoted[i] === undefined) refused++;
      else expect(quoted[i]!.gasEstimate).toBeGreaterThan(40_000n);
    }
    expect(refused).toBeLessThan(swaps.length / 4);
    // Executed through RouterV2 and the PoolManager: what the trader receives is the quote.
    const stable = v4Pool('USDC/USDT 0.01%');
    for (const zeroForOne of [true, false]) {
      const amountIn = unitsOf(stable, zeroForOne, 20_000);
      const [q] = await quoteUniswapV4Swaps(client, { swaps: [quote(stable, zeroForOne, amountIn)], blockNumber });
      expect(await routerSwap(stable, zeroForOne, amountIn)).toBe(q!.amountOut);
    }
  });

  it("quotes the input-fee pool as its swap executes: the engine's swap of the input less the hook's 0.1%", async () => {
    const p = v4Pool('input-fee');
    const state = await engineState(p);
    const fee = BigInt(DEVNET_HOOK_SETTINGS.inputFeePips);
    for (const zeroForOne of [true, false]) {
      const amounts = [1, 100, 500, 2_000].map((usd) => unitsOf(p, zeroForOne, usd));
      const quoted = await quoteUniswapV4Swaps(client, { swaps: amounts.map((a) => quote(p, zeroForOne, a)), blockNumber });
      for (const [i, amountIn] of amounts.entries()) {
        const out = quoted[i]!.amountOut;
        const hookless = engineOut(state, zeroForOne, amountIn)!;
        // The hook takes its fee of the input before the swap: the pool swaps the rest.
        expect(out).toBe(engineOut(state, zeroForOne, amountIn - (amountIn * fee) / PIPS));
        // Less than the pool alone would pay, by about the hook's fee (a little less for a trade that moves the price).
        expect(out).toBeLessThan(hookless);
        const short = Number(hookless - out) / Number(hookless);
        expect(short).toBeGreaterThan(0.0008);
        expect(short).toBeLessThan(0.00101);
      }
      // The same swap executed through RouterV2 and the hook pays the quote.
      expect(await routerSwap(p, zeroForOne, amounts[2])).toBe(quoted[2]!.amountOut);
    }
  });

  it('samples the swap-limit pool only up to its limit, and refuses quotes past it', async () => {
    const p = v4Pool('swap-limit');
    const limit = BigInt(DEVNET_HOOK_SETTINGS.swapLimitUnits) * 10n ** BigInt(tokenOf(p.token0).decimals);
    expect(tokenOf(p.token0).decimals).toBe(tokenOf(p.token1).decimals);
    const below = [limit / 1000n, limit / 10n, limit / 2n, limit - 1n, limit];
    const ladder = [10n * limit, limit + 1n, below[2], 0n, limit, 2n * limit, below[0], below[3], below[1], below[1]];
    const [sample] = await sampleUniswapV4Pools(client, { pools: [{ quoter: quoter(), key: keyOf(p), ladder0to1: ladder, ladder1to0: ladder }], blockNumber });
    const state = await engineState(p);
    for (const [zeroForOne, samples] of [[true, sample.samples0to1] as const, [false, sample.samples1to0] as const]) {
      expect(samples.map((s) => s.amountIn)).toEqual(below);
      // Below the limit the hook changes nothing: each sample is the engine's swap and the quote asked alone.
      const alone = await quoteUniswapV4Swaps(client, { swaps: [...below, limit + 1n, 2n * limit].map((a) => quote(p, zeroForOne, a)), blockNumber });
      expect(samples.map((s) => s.amountOut)).toEqual(below.map((a) => engineOut(state, zeroForOne, a)));
      expectSamples(samples, below.map((amountIn, i) => ({ amountIn, ...alone[i]! })));
      expect(alone.slice(below.length)).toEqual([undefined, undefined]);
    }
  });

  it('answers undefined, unsent, for amounts V4 cannot take: the V4Quoter would read 2^127 and more as an exact output', async () => {
    const p = v4Pool('USDC/USDT 0.01%');
    const read = (exactAmount: bigint) =>
      client.simulateContract({ address: quoter(), abi: v4QuoterAbi, functionName: 'quoteExactInputSingle', args: [{ poolKey: keyOf(p), zeroForOne: true, exactAmount, hookData: '0x' }], blockNumber });
    // The V4Quoter itself, asked for 2^128 - 1 in: "1 out", the exact output of 1 its unchecked int128 cast makes of it.
    expect((await read((1n << 128n) - 1n)).result[0]).toBe(1n);
    let calls = 0;
    const counting = countingClient(client, () => calls++);
    const amounts = [0n, MAX_V4_QUOTE_AMOUNT + 1n, (1n << 128n) - 1n, 1n << 200n];
    expect(await quoteUniswapV4Swaps(counting, { swaps: amounts.map((a) => quote(p, true, a)), blockNumber })).toEqual([undefined, undefined, undefined, undefined]);
    expect(calls).toBe(0);
    expect(await sampleUniswapV4Pools(counting, { pools: [{ quoter: quoter(), key: keyOf(p), ladder0to1: amounts, ladder1to0: [] }], blockNumber })).toEqual([{ samples0to1: [], samples1to0: [] }]);
    expect(calls).toBe(0);
    expect(await quoteUniswapV4Swaps(counting, { swaps: [], blockNumber })).toEqual([]);
  });

  it('ends a ladder where the pool runs out of liquidity, asking again the quotes starved of gas inside the call', async () => {
    // The spacing-1 pool: a swap through to its price limit walks the whole tick bitmap (past 10M gas), so a few
    // of them starve the quotes after them inside one call.
    const p = v4Pool('USDC/USDT 0.01%');
    const ladder = [10n ** 6n, 10n ** 9n, 10n ** 12n, 10n ** 15n, 10n ** 18n, 10n ** 21n, 10n ** 24n, 10n ** 30n];
    const alone: (UniswapV4Quote | undefined)[] = [];
    for (const a of ladder) alone.push((await quoteUniswapV4Swaps(client, { swaps: [quote(p, true, a)], blockNumber }))[0]);
    // Alone, each is quoted but the last, which the pool cannot take whole (NotEnoughLiquidity).
    expect(alone.map((q) => q !== undefined)).toEqual([true, true, true, true, true, true, true, false]);
    expect(alone.slice(0, -1).reduce((sum, q) => sum + q!.gasEstimate, 0n)).toBeGreaterThan(30_000_000n);
    let calls = 0;
    const [sample] = await sampleUniswapV4Pools(countingClient(client, () => calls++), { pools: [{ quoter: quoter(), key: keyOf(p), ladder0to1: ladder, ladder1to0: ladder.slice(0, 3) }], blockNumber });
    // More than the one call: the node's 30M gas for a call does not hold the ladder's swaps together.
    expect(calls).toBeGreaterThan(1);
    expectSamples(sample.samples0to1, ladder.slice(0, -1).map((amountIn, i) => ({ amountIn, ...alone[i]! })));
    expect(sample.samples1to0.map((s) => s.amountIn)).toEqual(ladder.slice(0, 3));
  });

  it("samples every pool's ladders in one eth_call", async () => {
    const pools = v4Pools().map((p) => {
      const ladder = (zeroForOne: boolean) => [0.1, 1, 10, 100, 1_000, 5_000, 20_000, 60_000].map((usd) => unitsOf(p, zeroForOne, usd));
      return { quoter: quoter(), key: keyOf(p), ladder0to1: ladder(true), ladder1to0: ladder(false) };
    });
    let calls = 0;
    const counting = countingClient(client, () => calls++);
    const samples = await sampleUniswapV4Pools(counting, { pools, blockNumber });
    expect(calls).toBe(1);
    expect(samples).toHaveLength(pools.length);
    // Each sample is the quote asked on its own (here, the ladders' quotes together in one call again).
    const swaps = pools.flatMap((p) => [true, false].flatMap((zeroForOne) => (zeroForOne ? p.ladder0to1 : p.ladder1to0).map((amountIn) => ({ quoter: p.quoter, key: p.key, zeroForOne, amountIn }))));
    calls = 0;
    const quoted = await quoteUniswapV4Swaps(counting, { swaps, blockNumber });
    expect(calls).toBe(1);
    let k = 0;
    for (const [i, p] of pools.entries()) {
      for (const [ladder, got] of [[p.ladder0to1, samples[i].samples0to1] as const, [p.ladder1to0, samples[i].samples1to0] as const]) {
        const own = ladder.map((amountIn) => ({ amountIn, quote: quoted[k++] }));
        const upTo = own.findIndex((o) => o.quote === undefined);
        expectSamples(got, own.slice(0, upTo < 0 ? own.length : upTo).map((o) => ({ amountIn: o.amountIn, ...o.quote! })));
      }
    }
    // Only the swap-limit pool refuses some of these (60,000 USDC or USDT is past its limit).
    expect(samples.map((s, i) => [v4Pools()[i].hook, s.samples0to1.length, s.samples1to0.length])).toEqual(v4Pools().map((p) => (p.hook === 'swap-limit' ? [p.hook, 7, 7] : [p.hook, 8, 8])));
  });
});

/**
 * Samples equal to the quotes asked otherwise: the amounts to the wei, the V4Quoter's gas within a cold account
 * access (the first quote of a call reaches the PoolManager cold, the others warm).
 */
function expectSamples(got: readonly UniswapV4QuoteSample[], expected: readonly UniswapV4QuoteSample[]) {
  expect(got.map(({ amountIn, amountOut }) => ({ amountIn, amountOut }))).toEqual(expected.map(({ amountIn, amountOut }) => ({ amountIn, amountOut })));
  got.forEach((s, i) => {
    const gap = s.gasEstimate - expected[i].gasEstimate;
    expect(gap < 0n ? -gap : gap).toBeLessThanOrEqual(2_600n);
  });
}

/** A client over the same node that counts its eth_calls. */
function countingClient(client: ChainPublicClient, counted: () => void): ChainPublicClient {
  return createPublicClient({
    chain: client.chain,
    transport: custom({
      request: ({ method, params }: { method: string; params: unknown }) => {
        if (method === 'eth_call') counted();
        return client.request({ method, params } as never);
      },
    }),
  }) as unknown as ChainPublicClient;
}
