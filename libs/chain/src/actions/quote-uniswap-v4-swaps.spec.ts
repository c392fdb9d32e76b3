import { multicall3Abi, v4QuoterAbi } from '@dex/abis';
import { BaseError, decodeFunctionData, encodeAbiParameters, encodeErrorResult, encodeFunctionData, encodeFunctionResult, parseAbi, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import {
  isStarvedQuote,
  MAX_V4_QUOTE_AMOUNT,
  quoteUniswapV4Swaps,
  sampleUniswapV4Pools,
  v4LadderSamples,
  v4QuoteCalldata,
  v4SampleInputs,
  V4_QUOTES_PER_MULTICALL,
  type UniswapV4Quote,
} from './quote-uniswap-v4-swaps';

const QUOTER: Address = `0x${'9'.repeat(40)}`;
const KEY = { currency0: '0x0000000000000000000000000000000000000000', currency1: `0x${'1'.repeat(40)}`, fee: 0x800000, tickSpacing: -60, hooks: `0x${'a'.repeat(36)}4088` };
const quoterErrors = parseAbi(['error UnexpectedRevertBytes(bytes revertData)', 'error WrappedError(address target, bytes4 selector, bytes reason, bytes details)']);

/** A V4Quoter's refusal: a hook's revert as the PoolManager wraps it and the quoter wraps that. */
const REFUSED = encodeErrorResult({
  abi: quoterErrors,
  errorName: 'UnexpectedRevertBytes',
  args: [encodeErrorResult({ abi: quoterErrors, errorName: 'WrappedError', args: [KEY.hooks as Address, '0x575e24b4', '0x12345678', '0xa9e35b2f'] })],
});
/** The quoter's answer when the swap inside it ran out of gas. */
const STARVED = encodeErrorResult({ abi: quoterErrors, errorName: 'UnexpectedRevertBytes', args: ['0x'] });

/**
 * A node whose Multicall3 runs each quote of `amount` for `gasOf(amount)` of `budget` gas: each call given 63/64 of
 * what is left (one that needs more fails starved, as the V4Quoter's swap does), amounts above `limit` refused, the
 * call out of gas as a whole when less than `reserve` is left at its end.
 */
function fakeNode(options: { budget?: bigint; gasOf?: (amount: bigint) => bigint; limit?: bigint; reserve?: bigint; fail?: Error; halt?: string } = {}) {
  const { budget = 1_000_000n, gasOf = () => 1_000n, limit = 1n << 100n, reserve = 1_000n } = options;
  const sent: bigint[][] = [];
  const client = {
    chain: { id: 999, contracts: { multicall3: { address: '0xca11bde05977b3631167028862be2a173976ca11' } } },
    call: async ({ data, blockNumber }: { data: Hex; blockNumber?: bigint }) => {
      expect(blockNumber).toBe(7n);
      const calls = decodeFunctionData({ abi: multicall3Abi, data }).args[0] as readonly { target: Address; allowFailure: boolean; callData: Hex }[];
      const amounts = calls.map((c) => {
        expect(c).toMatchObject({ target: QUOTER, allowFailure: true });
        const { functionName, args } = decodeFunctionData({ abi: v4QuoterAbi, data: c.callData });
        expect(functionName).toBe('quoteExactInputSingle');
        return (args[0] as { exactAmount: bigint }).exactAmount;
      });
      sent.push(amounts);
      if (options.fail) throw options.fail;
      let left = budget;
      const results = amounts.map((amount) => {
        const given = (left * 63n) / 64n;
        const gas = gasOf(amount);
        if (gas > given) {
          left -= given;
          return { success: false, returnData: STARVED };
        }
        left -= gas;
        if (amount > limit) return { success: false, returnData: REFUSED };
        return { success: true, returnData: encodeFunctionResult({ abi: v4QuoterAbi, functionName: 'quoteExactInputSingle', result: [amount * 2n, gas] }) };
      });
      if (left < reserve) throw new BaseError('An internal error was received.', { details: `EVM error ${options.halt ?? 'OutOfGas'}` });
      return { data: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }) };
    },
  };
  return { client: client as unknown as ChainPublicClient, sent };
}

const swap = (amountIn: bigint, zeroForOne = true) => ({ quoter: QUOTER, key: KEY, zeroForOne, amountIn });
const quoteOf = (amountIn: bigint, gas = 1_000n): UniswapV4Quote => ({ amountOut: amountIn * 2n, gasEstimate: gas });

describe('V4Quoter calldata', () => {
  it("is viem's quoteExactInputSingle encoding with empty hookData, for any amount V4 takes", () => {
    for (const [key, zeroForOne] of [
      [KEY, true],
      [{ ...KEY, fee: 3000, tickSpacing: 8_388_607 }, false],
      [{ ...KEY, tickSpacing: -8_388_608 }, true],
    ] as const) {
      const calldata = v4QuoteCalldata(key, zeroForOne);
      for (const exactAmount of [1n, 12_345n, 10n ** 30n, MAX_V4_QUOTE_AMOUNT]) {
        const poolKey = { ...key, currency0: key.currency0 as Address, currency1: key.currency1 as Address, hooks: key.hooks as Address };
        expect(calldata(exactAmount)).toBe(encodeFunctionData({ abi: v4QuoterAbi, functionName: 'quoteExactInputSingle', args: [{ poolKey, zeroForOne, exactAmount, hookData: '0x' }] }));
      }
    }
  });

  it('refuses amounts V4 does not take as an exact input, and keys viem does not encode', () => {
    const calldata = v4QuoteCalldata(KEY, true);
    for (const amount of [0n, -1n, MAX_V4_QUOTE_AMOUNT + 1n, (1n << 128n) - 1n]) expect(() => calldata(amount)).toThrow(RangeError);
    expect(() => v4QuoteCalldata({ ...KEY, currency1: '0x1234' }, true)).toThrow();
    expect(() => v4QuoteCalldata({ ...KEY, fee: 1 << 24 }, true)).toThrow();
  });

  it("tells a quote starved of gas from the quoter's refusals", () => {
    expect(isStarvedQuote(STARVED)).toBe(true);
    expect(isStarvedQuote(STARVED.toUpperCase().replace('0X', '0x') as Hex)).toBe(true);
    expect(isStarvedQuote('0x')).toBe(true);
    expect(isStarvedQuote(REFUSED)).toBe(false);
    // NotEnoughLiquidity(poolId), wrapped by the quoter.
    const notEnough = encodeErrorResult({ abi: quoterErrors, errorName: 'UnexpectedRevertBytes', args: [`0x7a5ed734${'ab'.repeat(32)}`] });
    expect(isStarvedQuote(notEnough)).toBe(false);
    expect(isStarvedQuote(encodeAbiParameters([{ type: 'uint256' }], [0n]))).toBe(false);
  });
});

describe('ladders', () => {
  it('quotes the inputs ascending, each once, dropping those V4 does not take', () => {
    expect(v4SampleInputs([5n, 1n, 0n, 3n, 5n, -2n, MAX_V4_QUOTE_AMOUNT + 1n, MAX_V4_QUOTE_AMOUNT, 2n])).toEqual([1n, 2n, 3n, 5n, MAX_V4_QUOTE_AMOUNT]);
    expect(v4SampleInputs([])).toEqual([]);
  });

  it('ends a direction at its first refused input, and at the first whose output falls', () => {
    const inputs = [1n, 2n, 3n, 4n, 5n];
    const q = (amountOut: bigint): UniswapV4Quote => ({ amountOut, gasEstimate: 60_000n });
    expect(v4LadderSamples(inputs, [q(0n), q(0n), q(7n), undefined, q(9n)])).toEqual([
      { amountIn: 1n, amountOut: 0n, gasEstimate: 60_000n },
      { amountIn: 2n, amountOut: 0n, gasEstimate: 60_000n },
      { amountIn: 3n, amountOut: 7n, gasEstimate: 60_000n },
    ]);
    expect(v4LadderSamples(inputs, [q(5n), q(7n), q(7n), q(6n), q(9n)]).map((s) => s.amountIn)).toEqual([1n, 2n, 3n]);
    expect(v4LadderSamples(inputs, [undefined, q(1n), q(2n), q(3n), q(4n)])).toEqual([]);
    expect(v4LadderSamples(inputs, inputs.map(q)).map((s) => s.amountOut)).toEqual(inputs);
  });
});

describe('quoteUniswapV4Swaps', () => {
  it('answers every swap in one call at the block, refusals and amounts V4 does not take undefined', async () => {
    const { client, sent } = fakeNode({ limit: 1_000n });
    const amounts = [10n, 0n, 2_000n, MAX_V4_QUOTE_AMOUNT + 1n, 999n];
    expect(await quoteUniswapV4Swaps(client, { swaps: amounts.map((a) => swap(a)), blockNumber: 7n })).toEqual([quoteOf(10n), undefined, undefined, undefined, quoteOf(999n)]);
    expect(sent).toEqual([[10n, 2_000n, 999n]]);
    expect(await quoteUniswapV4Swaps(client, { swaps: [swap(0n)], blockNumber: 7n })).toEqual([undefined]);
    expect(await quoteUniswapV4Swaps(client, { swaps: [], blockNumber: 7n })).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('answers undefined for a success of another shape (no code at the quoter)', async () => {
    const client = {
      chain: { id: 999, contracts: { multicall3: { address: '0xca11bde05977b3631167028862be2a173976ca11' } } },
      call: async () => ({ data: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: [{ success: true, returnData: '0x' }, { success: true, returnData: `0x${'00'.repeat(32)}` }] }) }),
    } as unknown as ChainPublicClient;
    expect(await quoteUniswapV4Swaps(client, { swaps: [swap(1n), swap(2n)], blockNumber: 7n })).toEqual([undefined, undefined]);
  });

  it('sends more than V4_QUOTES_PER_MULTICALL quotes in several calls', async () => {
    const { client, sent } = fakeNode({ budget: 10n ** 12n });
    const amounts = Array.from({ length: 2 * V4_QUOTES_PER_MULTICALL + 3 }, (_, i) => BigInt(i + 1));
    expect(await quoteUniswapV4Swaps(client, { swaps: amounts.map((a) => swap(a)), blockNumber: 7n })).toEqual(amounts.map((a) => quoteOf(a)));
    expect(sent.map((s) => s.length)).toEqual([V4_QUOTES_PER_MULTICALL, V4_QUOTES_PER_MULTICALL, 3]);
  });

  it('asks again the quotes starved of gas inside a call, and halves a call out of gas as a whole', async () => {
    // 400,000 gas for the call: the 300,000-gas quotes starve what follows them.
    const gasOf = (a: bigint) => (a >= 100n ? 300_000n : 10_000n);
    const starving = fakeNode({ budget: 400_000n, gasOf, reserve: 100n });
    const amounts = [1n, 2n, 100n, 3n, 101n, 4n];
    expect(await quoteUniswapV4Swaps(starving.client, { swaps: amounts.map((a) => swap(a)), blockNumber: 7n })).toEqual(amounts.map((a) => quoteOf(a, gasOf(a))));
    expect(starving.sent[0]).toEqual(amounts);
    expect(starving.sent.length).toBeGreaterThan(1);
    // A call that keeps too little for its end fails as a whole: halved until each part fits.
    const tight = fakeNode({ budget: 400_000n, gasOf, reserve: 50_000n });
    expect(await quoteUniswapV4Swaps(tight.client, { swaps: amounts.map((a) => swap(a)), blockNumber: 7n })).toEqual(amounts.map((a) => quoteOf(a, gasOf(a))));
    expect(tight.sent.length).toBeGreaterThan(2);
    // anvil halts a call whose results outgrow the memory its gas pays for with MemoryOOG: the same.
    const memory = fakeNode({ budget: 400_000n, gasOf, reserve: 50_000n, halt: 'MemoryOOG' });
    expect(await quoteUniswapV4Swaps(memory.client, { swaps: amounts.map((a) => swap(a)), blockNumber: 7n })).toEqual(amounts.map((a) => quoteOf(a, gasOf(a))));
    // A quote that needs more than a call holds is undefined, the others answered.
    const huge = fakeNode({ budget: 400_000n, gasOf: (a) => (a === 5n ? 10n ** 9n : 1_000n), reserve: 100n });
    expect(await quoteUniswapV4Swaps(huge.client, { swaps: [1n, 5n, 2n].map((a) => swap(a)), blockNumber: 7n })).toEqual([quoteOf(1n), undefined, quoteOf(2n)]);
    const alone = fakeNode({ budget: 400_000n, gasOf: (a) => (a === 7n ? 5_000n : 1_000n), reserve: 399_000n });
    expect(await quoteUniswapV4Swaps(alone.client, { swaps: [1n, 7n].map((a) => swap(a)), blockNumber: 7n })).toEqual([quoteOf(1n), undefined]);
    expect(alone.sent).toEqual([[1n, 7n], [1n], [7n]]);
  });

  it('throws when a call fails as a whole otherwise (the node, the transport)', async () => {
    const { client } = fakeNode({ fail: new BaseError('HTTP request failed.', { details: 'socket hang up' }) });
    await expect(quoteUniswapV4Swaps(client, { swaps: [swap(1n), swap(2n)], blockNumber: 7n })).rejects.toThrow('HTTP request failed');
    const noMulticall = { chain: { id: 5, contracts: {} } } as unknown as ChainPublicClient;
    await expect(quoteUniswapV4Swaps(noMulticall, { swaps: [swap(1n)], blockNumber: 7n })).rejects.toThrow('no Multicall3');
  });
});

describe('sampleUniswapV4Pools', () => {
  it("quotes every pool's ladders in one call, each direction ascending up to its first refusal", async () => {
    const { client, sent } = fakeNode({ limit: 50n });
    const pools = [
      { quoter: QUOTER, key: KEY, ladder0to1: [40n, 10n, 60n, 20n, 45n], ladder1to0: [5n, 0n, 5n] },
      { quoter: QUOTER, key: { ...KEY, fee: 500 }, ladder0to1: [], ladder1to0: [100n, 1n] },
    ];
    const sample = (amountIn: bigint) => ({ amountIn, ...quoteOf(amountIn) });
    expect(await sampleUniswapV4Pools(client, { pools, blockNumber: 7n })).toEqual([
      { samples0to1: [10n, 20n, 40n, 45n].map(sample), samples1to0: [sample(5n)] },
      { samples0to1: [], samples1to0: [sample(1n)] },
    ]);
    // In one call: pool 0's zeroForOne ladder then its other, pool 1's (its empty one asks nothing).
    expect(sent).toEqual([[10n, 20n, 40n, 45n, 60n, 5n, 1n, 100n]]);
    expect(await sampleUniswapV4Pools(client, { pools: [], blockNumber: 7n })).toEqual([]);
    expect(sent).toHaveLength(1);
  });
});
