import { routerV2Abi } from '@dex/abis';
import { decodeFunctionData, getAddress, zeroAddress } from 'viem';
import { encodeExecuteSwaps, executeSwapsPath, type ExecuteSwapsParameters } from './encode-execute-swaps';

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
