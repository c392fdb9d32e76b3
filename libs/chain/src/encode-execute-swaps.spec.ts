import { routerV2Abi, routerV2Permit2Abi } from '@dex/abis';
import { decodeFunctionData, encodeAbiParameters, encodeFunctionData, getAddress, keccak256, zeroAddress, type Hex } from 'viem';
import { encodeExecuteSwaps, executeSwapsPath, PERMIT2_SIGNATURE_PLACEHOLDER, permit2SignatureOffset, stagesHash, type ExecuteSwapsParameters } from './encode-execute-swaps';

const WRAPPED = '0x5555555555555555555555555555555555555555';
const USDC = '0xb88339cb7199b77e23db6e890353e22632ba630f';
const PURR = '0x9b498c3c8a0b8cd8ba1d9851d40d186f1872b44e';
const POOL_A = '0x1111111111111111111111111111111111111111';
const POOL_B = '0x2222222222222222222222222222222222222222';
const POOL_C = '0x3333333333333333333333333333333333333333';
const RECIPIENT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

const route: ExecuteSwapsParameters = {
  tokens: [WRAPPED, USDC, PURR],
  amountIn: 10n ** 18n,
  minAmountOut: 990n,
  expectedAmountOut: 1_000n,
  hopSwaps: [
    [
      { pool: POOL_A, tokenIn: WRAPPED, tokenOut: USDC, routerIndex: 1, amountIn: 6n * 10n ** 17n, data: '0x' },
      { pool: POOL_B, tokenIn: WRAPPED, tokenOut: USDC, routerIndex: 0, amountIn: 4n * 10n ** 17n, data: '0x' },
    ],
    [{ pool: POOL_C, tokenIn: USDC, tokenOut: PURR, routerIndex: 3, amountIn: 25_000_000n, data: '0xabcd' }],
  ],
  feeBps: 5,
  feeRecipient: RECIPIENT,
};

const decode = (params: ExecuteSwapsParameters) => decodeFunctionData({ abi: routerV2Abi, data: encodeExecuteSwaps(params) });

describe('encodeExecuteSwaps', () => {
  it('encodes executeSwaps with the path, amounts, hops, fee and recipient, checksummed', () => {
    const { functionName, args } = decode(route);
    expect(functionName).toBe('executeSwaps');
    expect(args).toEqual([
      [getAddress(WRAPPED), getAddress(USDC), getAddress(PURR)],
      10n ** 18n,
      990n,
      1_000n,
      route.hopSwaps.map((hop) => hop.map((s) => ({ ...s, pool: getAddress(s.pool), tokenIn: getAddress(s.tokenIn), tokenOut: getAddress(s.tokenOut) }))),
      5n,
      getAddress(RECIPIENT),
    ]);
  });

  it('marks a native input and a native output with the zero address, the swaps keeping the wrapped token', () => {
    const native = decode({ ...route, tokens: [WRAPPED, USDC, WRAPPED], nativeIn: true, unwrapNative: true });
    expect(native.args[0]).toEqual([zeroAddress, getAddress(USDC), zeroAddress]);
    expect(native.args[4]![0][0].tokenIn).toBe(getAddress(WRAPPED));
    expect(decode({ ...route, unwrapNative: true }).args[0]).toEqual([getAddress(WRAPPED), getAddress(USDC), zeroAddress]);
  });

  it('has the zero address as recipient when there is none', () => {
    const { args } = decode({ ...route, feeBps: 0n, feeRecipient: undefined });
    expect(args.slice(5)).toEqual([0n, zeroAddress]);
  });
});

describe('encodeExecuteSwaps with a payout', () => {
  it('encodes executeSwapsWithData with the same arguments, then the recipient and the deadline', () => {
    const plain = decode(route);
    const withData = decode({ ...route, payout: { recipient: POOL_A, deadline: 1_900_000_000n } });
    expect(withData.functionName).toBe('executeSwapsWithData');
    expect(withData.args).toEqual([...plain.args, getAddress(POOL_A), 1_900_000_000n]);
  });
});

describe('executeSwapsPath', () => {
  it('is the path the calldata carries', () => {
    expect(executeSwapsPath(route.tokens, { nativeIn: true })).toEqual([zeroAddress, getAddress(USDC), getAddress(PURR)]);
    expect(executeSwapsPath([USDC, WRAPPED], {})).toEqual([getAddress(USDC), getAddress(WRAPPED)]);
  });
});

describe('encodeExecuteSwaps against viem', () => {
  /** The calldata as viem's ABI encoder gives it for the same parameters. */
  const viemCalldata = (p: ExecuteSwapsParameters): Hex => {
    const args = [
      executeSwapsPath(p.tokens, p),
      p.amountIn,
      p.minAmountOut,
      p.expectedAmountOut,
      p.hopSwaps.map((hop) => hop.map((s) => ({ ...s, pool: getAddress(s.pool), tokenIn: getAddress(s.tokenIn), tokenOut: getAddress(s.tokenOut), data: s.data as Hex }))),
      BigInt(p.feeBps),
      p.feeRecipient === undefined ? zeroAddress : getAddress(p.feeRecipient),
    ] as const;
    return p.payout === undefined
      ? encodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwaps', args })
      : encodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwapsWithData', args: [...args, getAddress(p.payout.recipient), p.payout.deadline] });
  };

  /** A seeded generator of routes: 1-5 stages of 1-4 swaps, data of 0-70 bytes, amounts from 0 to 2^256 - 1. */
  function randomRoute(seed: number): ExecuteSwapsParameters {
    let state = seed;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const hex = (bytes: number) => Array.from({ length: bytes * 2 }, () => '0123456789abcdefABCDEF'[Math.floor(next() * 22)]).join('');
    const address = () => `0x${hex(20)}`;
    const amount = () => (next() < 0.1 ? (next() < 0.5 ? 0n : (1n << 256n) - 1n) : BigInt(`0x${hex(1 + Math.floor(next() * 31))}`));
    const tokens = Array.from({ length: 2 + Math.floor(next() * 4) }, address);
    return {
      tokens,
      amountIn: amount(),
      minAmountOut: amount(),
      expectedAmountOut: amount(),
      hopSwaps: Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        Array.from({ length: 1 + Math.floor(next() * 4) }, () => ({
          pool: address(),
          tokenIn: address(),
          tokenOut: address(),
          routerIndex: Math.floor(next() * 256),
          amountIn: amount(),
          data: `0x${hex(Math.floor(next() * 71))}`,
        })),
      ),
      feeBps: next() < 0.5 ? Math.floor(next() * 100) : BigInt(Math.floor(next() * 100)),
      ...(next() < 0.7 ? { feeRecipient: address() } : {}),
      nativeIn: next() < 0.3,
      unwrapNative: next() < 0.3,
      ...(next() < 0.5 ? { payout: { recipient: address(), deadline: amount() } } : {}),
    };
  }

  it('gives the same bytes as viem for 500 random routes (stages, swaps, data lengths, native ends, payouts)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const params = randomRoute(seed);
      expect(encodeExecuteSwaps(params)).toBe(viemCalldata(params));
    }
    // And for the hand-made route, plain and with a payout.
    expect(encodeExecuteSwaps(route)).toBe(viemCalldata(route));
    const withPayout = { ...route, payout: { recipient: RECIPIENT, deadline: 1_900_000_000n } };
    expect(encodeExecuteSwaps(withPayout)).toBe(viemCalldata(withPayout));
  });

  it('refuses values outside their ABI types, as viem does', () => {
    const swap = route.hopSwaps[0][0];
    const withSwap = (s: Partial<typeof swap>): ExecuteSwapsParameters => ({ ...route, hopSwaps: [[{ ...swap, ...s }]] });
    for (const bad of [
      { ...route, amountIn: -1n },
      { ...route, minAmountOut: 1n << 256n },
      { ...route, feeBps: -5 },
      { ...route, feeBps: 1.5 },
      { ...route, tokens: [WRAPPED, '0x1234'] },
      { ...route, feeRecipient: 'nobody' },
      { ...route, payout: { recipient: RECIPIENT, deadline: -1n } },
      withSwap({ routerIndex: 256 }),
      withSwap({ routerIndex: -1 }),
      withSwap({ amountIn: -2n }),
      withSwap({ pool: `${POOL_A}00` }),
    ]) {
      expect(() => encodeExecuteSwaps(bad)).toThrow();
      expect(() => viemCalldata(bad)).toThrow();
    }
    // Half a byte, or hex without its 0x, is no bytes (viem would encode something of it).
    expect(() => encodeExecuteSwaps(withSwap({ data: '0xabc' }))).toThrow('swap data is not hex bytes');
    expect(() => encodeExecuteSwaps(withSwap({ data: 'abcd' }))).toThrow('swap data is not hex bytes');
  });
});

describe('encodeExecuteSwaps for a route signed through Permit2', () => {
  const signed = { ...route, payout: { recipient: RECIPIENT, deadline: 1_900_000_000n }, permit2: { signer: RECIPIENT, nonce: 258n, signature: PERMIT2_SIGNATURE_PLACEHOLDER } };

  it("encodes RouterV2Permit2's executeSwapsWithPermit2 as viem does, the signature last", () => {
    const data = encodeExecuteSwaps(signed);
    const stages = route.hopSwaps.map((hop) => hop.map((s) => ({ ...s, pool: getAddress(s.pool), tokenIn: getAddress(s.tokenIn), tokenOut: getAddress(s.tokenOut), data: s.data as Hex })));
    const expected = encodeFunctionData({
      abi: routerV2Permit2Abi,
      functionName: 'executeSwapsWithPermit2',
      args: [route.tokens.map((t) => getAddress(t)), route.amountIn, route.minAmountOut, route.expectedAmountOut, stages, BigInt(route.feeBps), getAddress(route.feeRecipient!), getAddress(RECIPIENT), 1_900_000_000n, { signer: getAddress(RECIPIENT), nonce: 258n, signature: PERMIT2_SIGNATURE_PLACEHOLDER }],
    });
    expect(data).toBe(expected);
    // The placeholder sits at the offset the answer names, 31 bytes of padding after it.
    const at = 2 + permit2SignatureOffset(data) * 2;
    expect(data.slice(at, at + 130)).toBe('0'.repeat(130));
    expect(data.length - (at + 130)).toBe(62);
    // RouterV2 reads executeSwapsWithData's arguments from the same words (RouterV2Permit2 forwards them).
    const forwarded = `${encodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwapsWithData', args: [[], 0n, 0n, 0n, [], 0n, zeroAddress, zeroAddress, 0n] }).slice(0, 10)}${data.slice(10)}` as Hex;
    const { args } = decodeFunctionData({ abi: routerV2Abi, data: forwarded });
    expect(args[1]).toBe(route.amountIn);
    expect(args[4]).toEqual(stages);
    expect(args[7]).toBe(getAddress(RECIPIENT));
  });

  it('hashes the stages as abi.encode(hopSwaps)', () => {
    const stages = route.hopSwaps.map((hop) => hop.map((s) => ({ ...s, pool: getAddress(s.pool), tokenIn: getAddress(s.tokenIn), tokenOut: getAddress(s.tokenOut), routerIndex: s.routerIndex, data: s.data as Hex })));
    const swapType = { type: 'tuple[][]', components: [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint8' }, { type: 'uint256' }, { type: 'bytes' }] } as const;
    expect(stagesHash(route.hopSwaps)).toBe(keccak256(encodeAbiParameters([swapType], [stages.map((hop) => hop.map((s) => [s.pool, s.tokenIn, s.tokenOut, s.routerIndex, s.amountIn, s.data] as const))])));
  });

  it('needs a payout and a token input', () => {
    expect(() => encodeExecuteSwaps({ ...signed, payout: undefined })).toThrow('a Permit2 route needs a payout (recipient and deadline)');
    expect(() => encodeExecuteSwaps({ ...signed, nativeIn: true })).toThrow('a Permit2 route cannot start with the native coin');
  });
});
