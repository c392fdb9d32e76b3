import { decodeFunctionData, encodeFunctionData, encodeFunctionResult, multicall3Abi, type Address, type Hex } from 'viem';
import { decodeAggregate3, encodeAggregate3, returnWord, type Call3 } from './multicall3';

/** Seeded random calls and answers: addresses in any case, calldata and return data of 0 to 200 bytes. */
function random(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  const hex = (bytes: number) => Array.from({ length: bytes * 2 }, () => (next() % 16).toString(16)).join('');
  const address = (): Address => {
    const a = hex(20);
    return `0x${next() % 2 ? a : a.toUpperCase()}` as Address;
  };
  return { next, hex, address };
}

describe('aggregate3 codec', () => {
  it("encodes calls as viem's encodeFunctionData does, every call allowed to fail", () => {
    const r = random(5);
    for (let round = 0; round < 200; round++) {
      const calls: Call3[] = Array.from({ length: r.next() % 12 }, () => ({ target: r.address(), callData: `0x${r.hex(r.next() % 200)}` as Hex }));
      const ours = encodeAggregate3(calls);
      const viems = encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls.map((c) => ({ ...c, allowFailure: true }))] });
      expect(ours).toBe(viems);
      const decoded = decodeFunctionData({ abi: multicall3Abi, data: ours });
      expect(decoded.functionName).toBe('aggregate3');
      const sent = decoded.args![0] as readonly { callData: Hex }[];
      expect(sent.map((c) => c.callData)).toEqual(calls.map((c) => c.callData.toLowerCase()));
    }
  });

  it("reads answers as viem's encodeFunctionResult writes them, a failed call undefined", () => {
    const r = random(9);
    for (let round = 0; round < 200; round++) {
      const results = Array.from({ length: r.next() % 12 }, () => ({ success: r.next() % 4 !== 0, returnData: `0x${r.hex(r.next() % 200)}` as Hex }));
      const data = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results });
      expect(decodeAggregate3(data, results.length)).toEqual(results.map((x) => (x.success ? x.returnData : undefined)));
    }
  });

  it('refuses an answer of another count or cut short', () => {
    const data = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: [{ success: true, returnData: '0x1234' }] });
    expect(() => decodeAggregate3(data, 2)).toThrow('answered 1 results for 2 calls');
    expect(() => decodeAggregate3(data.slice(0, data.length - 64) as Hex, 1)).toThrow('cut short');
    expect(() => encodeAggregate3([{ target: '0x12' as Address, callData: '0x' }])).toThrow('not an address');
    expect(() => encodeAggregate3([{ target: `0x${'1'.repeat(40)}`, callData: '0x123' }])).toThrow('odd length');
  });

  it('reads the words of return data', () => {
    const data = `0x${'0'.repeat(63)}7${'f'.repeat(64)}` as Hex;
    expect(returnWord(data, 0)).toBe(7n);
    expect(returnWord(data, 1)).toBe(2n ** 256n - 1n);
    expect(returnWord(data, 2)).toBeUndefined();
  });
});
