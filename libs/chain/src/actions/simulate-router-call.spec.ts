import { routerV2Abi } from '@dex/abis';
import { BaseError, encodeErrorResult, getAddress } from 'viem';
import { describeRevert, revertData } from './simulate-router-call';

const USDT = getAddress('0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9');

describe('describeRevert', () => {
  it('names a custom error of the router, the tokens or the pools with its arguments', () => {
    const data = encodeErrorResult({ abi: routerV2Abi, errorName: 'InsufficientOutput', args: [990n, 1000n] });
    expect(describeRevert(data)).toBe('InsufficientOutput(990, 1000)');
    expect(describeRevert(encodeErrorResult({ abi: routerV2Abi, errorName: 'NativeTransferFailed', args: [USDT, 5n] }))).toBe(`NativeTransferFailed(${USDT}, 5)`);
  });

  it('reads Error(string) and panics, and says so when nothing matches', () => {
    expect(describeRevert('0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000024b21000000000000000000000000000000000000000000000000000000000000')).toBe('Error(K!)');
    expect(describeRevert('0xdeadbeef')).toBe('reverted with unknown error data 0xdeadbeef');
    expect(describeRevert('0x')).toBe('reverted without a reason');
  });
});

describe('revertData', () => {
  it('takes the data of a cause, or the data the node spelled out in its message', () => {
    const withCause = new BaseError('call failed', { cause: Object.assign(new Error('inner'), { data: '0xa5b05eec' }) });
    expect(revertData(withCause)).toBe('0xa5b05eec');
    const spelled = new BaseError('Execution reverted with reason: custom error 0xa5b05eec: 00ff.');
    expect(revertData(spelled)).toBe('0xa5b05eec00ff');
    expect(revertData(new BaseError('connection refused'))).toBeUndefined();
  });
});
