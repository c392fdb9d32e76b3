import { decodeFunctionData, encodeAbiParameters, keccak256, parseAbi, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import {
  decodeV4Slot0,
  readUniswapV4PoolKeys,
  readUniswapV4Pools,
  readUniswapV4Slot0s,
  SLOTS_PER_CALL,
  v4BitmapSlot,
  v4PoolStateSlot,
  v4TickSlot,
} from './read-uniswap-v4-pools';

const MANAGER: Address = '0x000000000004444c5dc75cb358380d2e3de08a90';
const extsloadAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])']);
const idOf = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** A PoolManager's storage as a map, answering `extsload(bytes32[])` calls; every call recorded. */
function fakeManager() {
  const storage = new Map<bigint, bigint>();
  const calls: { to: Address; slots: number; blockNumber?: bigint }[] = [];
  let failAt = Infinity;
  const client = {
    call: async ({ to, data, blockNumber }: { to: Address; data: Hex; blockNumber?: bigint }) => {
      if (calls.length >= failAt) throw new Error('the node is gone');
      const { args } = decodeFunctionData({ abi: extsloadAbi, data });
      calls.push({ to, slots: args[0].length, blockNumber });
      return { data: encodeAbiParameters([{ type: 'bytes32[]' }], [args[0].map((slot) => `0x${(storage.get(BigInt(slot)) ?? 0n).toString(16).padStart(64, '0')}` as Hex)]) };
    },
  };
  return { storage, calls, client: client as unknown as ChainPublicClient, failAfter: (n: number) => (failAt = n) };
}

/** Writes a pool into the fake storage as v4-core lays it out: slot0, liquidity, the ticks and their bitmap bits. */
function writePool(storage: Map<bigint, bigint>, id: Hex, spacing: number, pool: { sqrtPriceX96: bigint; tick: number; protocolFee: number; lpFee: number; liquidity: bigint; ticks: [number, bigint, bigint][] }) {
  const state = v4PoolStateSlot(id);
  storage.set(state, pool.sqrtPriceX96 | (BigInt.asUintN(24, BigInt(pool.tick)) << 160n) | (BigInt(pool.protocolFee) << 184n) | (BigInt(pool.lpFee) << 208n));
  storage.set(state + 3n, pool.liquidity);
  for (const [tick, gross, net] of pool.ticks) {
    storage.set(v4TickSlot(state, tick), gross | (BigInt.asUintN(128, net) << 128n));
    const compressed = Math.floor(tick / spacing);
    const word = Math.floor(compressed / 256);
    const slot = v4BitmapSlot(state, word);
    storage.set(slot, (storage.get(slot) ?? 0n) | (1n << BigInt(compressed - word * 256)));
  }
}

describe('reading Uniswap V4 pools through extsload', () => {
  it("finds a pool's slots where v4-core's StateLibrary puts them (abi.encode of the key and the mapping's slot)", () => {
    const id = keccak256('0x1234');
    const state = BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [id, 6n])));
    expect(v4PoolStateSlot(id)).toBe(state);
    expect(v4TickSlot(state, -10)).toBe(BigInt(keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [-10n, state + 4n]))));
    expect(v4BitmapSlot(state, -3466)).toBe(BigInt(keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [-3466n, state + 5n]))));
  });

  it("decodes slot0: price, a negative tick, the protocol fee's two halves, the LP fee", () => {
    const value = 123456789n | (BigInt.asUintN(24, -887_000n) << 160n) | (BigInt(1000 | (250 << 12)) << 184n) | (3000n << 208n);
    expect(decodeV4Slot0(value)).toEqual({ sqrtPriceX96: 123456789n, tick: -887_000, protocolFee: 1000 | (250 << 12), lpFee: 3000 });
  });

  it('reads a pool whole: slot0, liquidity, every initialized tick over the whole range in calls of at most SLOTS_PER_CALL slots', async () => {
    const { storage, calls, client } = fakeManager();
    const ticks: [number, bigint, bigint][] = [
      [-887_272, 5n, 5n],
      [-10, 7n * 10n ** 20n, 7n * 10n ** 20n],
      [0, 3n, 0n],
      [20, 7n * 10n ** 20n, -(7n * 10n ** 20n)],
      [887_272, 5n, -5n],
    ];
    writePool(storage, idOf(1), 1, { sqrtPriceX96: 2n ** 96n - 5n, tick: -1, protocolFee: 1000, lpFee: 3000, liquidity: 7n * 10n ** 20n + 5n, ticks });
    writePool(storage, idOf(2), 60, { sqrtPriceX96: 2n ** 96n, tick: 0, protocolFee: 0, lpFee: 500, liquidity: 0n, ticks: [[-120, 1n, 1n], [60, 1n, -1n]] });
    const reads = await readUniswapV4Pools(client, {
      poolManager: MANAGER,
      blockNumber: 77n,
      pools: [
        { id: idOf(1), tickSpacing: 1 },
        { id: idOf(3), tickSpacing: 10 },
        { id: idOf(2), tickSpacing: 60 },
        { id: idOf(4), tickSpacing: 0 },
      ],
    });
    expect(reads[0]).toEqual({ sqrtPriceX96: 2n ** 96n - 5n, tick: -1, protocolFee: 1000, lpFee: 3000, liquidity: 7n * 10n ** 20n + 5n, ticks: ticks.map(([index, liquidityGross, liquidityNet]) => ({ index, liquidityGross, liquidityNet })) });
    // Not initialized: zeros, no ticks (its bitmap is not read).
    expect(reads[1]).toEqual({ sqrtPriceX96: 0n, tick: 0, protocolFee: 0, lpFee: 0, liquidity: 0n, ticks: [] });
    expect(reads[2]!.ticks).toEqual([
      { index: -120, liquidityGross: 1n, liquidityNet: 1n },
      { index: 60, liquidityGross: 1n, liquidityNet: -1n },
    ]);
    expect(reads[3]).toBeUndefined();
    // Headers, 6,932 + 116 bitmap words, 7 ticks: every call to the manager at the block, none over the limit.
    expect(calls.every((c) => c.to === MANAGER && c.blockNumber === 77n && c.slots <= SLOTS_PER_CALL)).toBe(true);
    expect(calls.reduce((n, c) => n + c.slots, 0)).toBe(8 + 6_932 + 116 + 7);
  });

  it('reads no pool when a call fails, and reads slot0s alone in one round', async () => {
    const { storage, client, failAfter, calls } = fakeManager();
    writePool(storage, idOf(1), 10, { sqrtPriceX96: 2n ** 96n, tick: 0, protocolFee: 0, lpFee: 123, liquidity: 1n, ticks: [[-10, 1n, 1n]] });
    expect(await readUniswapV4Slot0s(client, { poolManager: MANAGER, ids: [idOf(1), idOf(9)], blockNumber: 5n })).toEqual([
      { sqrtPriceX96: 2n ** 96n, tick: 0, protocolFee: 0, lpFee: 123 },
      { sqrtPriceX96: 0n, tick: 0, protocolFee: 0, lpFee: 0 },
    ]);
    expect(calls).toHaveLength(1);
    failAfter(2);
    expect(await readUniswapV4Pools(client, { poolManager: MANAGER, blockNumber: 5n, pools: [{ id: idOf(1), tickSpacing: 10 }] })).toEqual([undefined]);
    expect(await readUniswapV4Slot0s(client, { poolManager: MANAGER, ids: [idOf(1)], blockNumber: 5n })).toEqual([undefined]);
  });

  it("reads keys from the pools' Initialize events, asked by creation block with the pools' ids", async () => {
    const asked: { fromBlock: bigint; toBlock: bigint; ids: Hex[] }[] = [];
    const key = (n: number) => ({ currency0: `0x${'0'.repeat(40)}` as Address, currency1: `0x${n.toString(16).padStart(40, '0')}` as Address, fee: 0x800000, tickSpacing: n, hooks: `0x${'0'.repeat(36)}4080` as Address });
    const client = {
      getLogs: async ({ args, fromBlock, toBlock }: { args: { id: Hex[] }; fromBlock: bigint; toBlock: bigint }) => {
        asked.push({ fromBlock, toBlock, ids: args.id });
        return args.id.filter((id) => id !== idOf(3)).map((id) => ({ args: { id: id.toUpperCase().replace('0X', '0x'), ...key(Number(BigInt(id))) } }));
      },
    } as unknown as ChainPublicClient;
    const keys = await readUniswapV4PoolKeys(client, { poolManager: MANAGER, pools: [{ id: idOf(1), block: 10n }, { id: idOf(2), block: 12n }, { id: idOf(3), block: 10n }] });
    expect(keys).toEqual([key(1), key(2), undefined]);
    expect(asked).toEqual([
      { fromBlock: 10n, toBlock: 10n, ids: [idOf(1), idOf(3)] },
      { fromBlock: 12n, toBlock: 12n, ids: [idOf(2)] },
    ]);
  });
});
