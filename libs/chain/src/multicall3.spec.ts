import { decodeFunctionData, encodeFunctionData, encodeFunctionResult, multicall3Abi, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from './clients';
import { CALLS_PER_MULTICALL, decodeAggregate3, encodeAggregate3, forEachCall, returnWord, type Call3 } from './multicall3';

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

/** A client whose Multicall3 answers each call with its own calldata (odd ones fail), chunks after random delays. */
function echoClient(seed: number, failChunk?: number) {
  const r = random(seed);
  const sent: { blockNumber?: bigint; calls: number }[] = [];
  const client = {
    chain: { id: 999, contracts: { multicall3: { address: '0xca11bde05977b3631167028862be2a173976ca11' } } },
    call: async ({ data, blockNumber }: { data: Hex; blockNumber?: bigint }) => {
      const chunk = sent.length;
      const calls = (decodeFunctionData({ abi: multicall3Abi, data }).args![0] as readonly { callData: Hex }[]).map((c) => c.callData);
      sent.push({ blockNumber, calls: calls.length });
      await new Promise((res) => setTimeout(res, r.next() % 5));
      if (chunk === failChunk) throw new Error('node down');
      const results = calls.map((callData) => ({ success: Number.parseInt(callData.slice(-1), 16) % 2 === 0, returnData: callData }));
      return { data: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }) };
    },
  };
  return { client: client as unknown as ChainPublicClient, sent };
}

describe('forEachCall', () => {
  const target = `0x${'a'.repeat(40)}` as Address;
  const callAt = (i: number): Call3 => ({ target, callData: `0x${i.toString(16).padStart(8, '0')}` });

  it('asks every call once in chunks at the block and hands each answer to its index, failures undefined', async () => {
    const { client, sent } = echoClient(3);
    const count = 2 * CALLS_PER_MULTICALL + 345;
    const answers = new Map<number, Hex | undefined>();
    await forEachCall(client, 42n, count, callAt, (i, data) => {
      expect(answers.has(i)).toBe(false);
      answers.set(i, data);
    });
    expect(sent.map((s) => s.calls)).toEqual([CALLS_PER_MULTICALL, CALLS_PER_MULTICALL, 345]);
    expect(sent.every((s) => s.blockNumber === 42n)).toBe(true);
    expect(answers.size).toBe(count);
    for (let i = 0; i < count; i++) expect(answers.get(i)).toBe(i % 2 === 0 ? callAt(i).callData : undefined);
  });

  it('rejects when a chunk fails as a whole, and asks nothing for no calls', async () => {
    await expect(forEachCall(echoClient(4, 1).client, 1n, 3 * CALLS_PER_MULTICALL, callAt, () => undefined)).rejects.toThrow('node down');
    const { client, sent } = echoClient(5);
    await forEachCall(client, 1n, 0, callAt, () => undefined);
    expect(sent).toHaveLength(0);
  });
});
