import type { ChainPublicClient } from '@dex/chain';
import { encodeAbiParameters, encodeEventTopics, getAddress, type Address, type Hex } from 'viem';
import { EVENTS, type ChainLog } from '../facts';
import { curveFactoriesToRead, readCurveDeployments, readCurveFactories } from './curve-pools';
import type { SourceRef } from './watch-list';

const NG = getAddress('0x00000000000000000000000000000000000000f8');
const NG_META_ONLY = getAddress('0x00000000000000000000000000000000000000fa');
const TWO = getAddress('0x00000000000000000000000000000000000000f9');
const V2 = getAddress('0x00000000000000000000000000000000000000f4');
const [A, B, C, USER] = ['a1', 'b2', 'cc', 'd6'].map((x) => getAddress('0x' + x.padStart(40, '0')));
const pool = (n: number) => getAddress('0xabcdef' + n.toString(16).padStart(34, '0'));

const SOURCES: Record<string, SourceRef> = {
  ng: { name: 'Curve NG', kind: 'curve-stableswap-ng', routerIndex: 10, feeBps: null },
  two: { name: 'Curve Twocrypto', kind: 'curve-twocrypto-ng', routerIndex: 11, feeBps: null },
  v2: { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, feeBps: 30 },
};
const announcers = new Map<Address, SourceRef>([
  [NG, SOURCES.ng],
  [NG_META_ONLY, SOURCES.ng],
  [TWO, SOURCES.two],
  [V2, SOURCES.v2],
]);

const eventLog = (address: Address, name: string, args: Record<string, unknown>, blockNumber: bigint, logIndex: number): ChainLog => {
  const event = EVENTS[name];
  const data = event.inputs.filter((i) => !i.indexed);
  return {
    address,
    topics: encodeEventTopics({ abi: [event], args } as never) as Hex[],
    data: encodeAbiParameters(data, data.map((i) => args[i.name!])),
    blockNumber,
    blockHash: ('0x' + '22'.repeat(32)) as Hex,
    txHash: ('0x' + '11'.repeat(32)) as Hex,
    logIndex,
  };
};
const plain = (coins: Address[], blockNumber: bigint, logIndex: number, factory = NG) => eventLog(factory, 'curvePlainPoolDeployed', { coins, A: 200n, fee: 1n, deployer: USER }, blockNumber, logIndex);
const meta = (blockNumber: bigint, logIndex: number, factory = NG) => eventLog(factory, 'curveMetaPoolDeployed', { coin: C, base_pool: pool(1), A: 200n, fee: 1n, deployer: USER }, blockNumber, logIndex);

/**
 * A node whose factories have `lists` as their pool_list, every pool's coins in `coins`; records each multicall. A
 * contract has code where `lists` names it (a factory) and nowhere else.
 */
function fakeNode(lists: Record<Address, Address[]>, coins: Record<Address, Address[]> = {}, options: { pruned?: boolean } = {}) {
  const calls: { blockNumber: bigint; functions: string[] }[] = [];
  // A pruned node keeps no past state: a read at a block number fails, one at its newest block answers.
  const refuse = (blockNumber: bigint | undefined) => {
    if (options.pruned && blockNumber !== undefined) throw new Error('missing trie node: state not available');
  };
  const client = {
    getCode: async ({ address, blockNumber }: { address: Address; blockNumber?: bigint }) => (refuse(blockNumber), lists[address] ? '0x6080' : '0x'),
    multicall: async ({ contracts, blockNumber }: { contracts: { address: Address; functionName: string; args?: readonly unknown[] }[]; blockNumber: bigint }) => {
      refuse(blockNumber);
      calls.push({ blockNumber, functions: contracts.map((c) => `${c.functionName}(${(c.args ?? []).join()})`) });
      return contracts.map((c) => {
        if (c.functionName === 'pool_count') return BigInt(lists[c.address].length);
        if (c.functionName === 'pool_list') return lists[c.address][Number(c.args![0])];
        return coins[c.args![0] as Address];
      });
    },
  } as unknown as ChainPublicClient;
  return { client, calls };
}

describe('reading the pools of StableswapNG PlainPoolDeployed logs', () => {
  it('names each pool by the count at the batch’s last block less the deployments logged after it (a metapool’s too), in two calls', async () => {
    // Two pools from before the batch; in it, a plain pool at block 6, then at block 7 a plain pool, a metapool and a plain pool.
    const node = fakeNode({ [NG]: [pool(1), pool(2), pool(3), pool(4), pool(5), pool(6)], [NG_META_ONLY]: [pool(9)] });
    const logs = [plain([A, B], 6n, 1), plain([A, B, C], 7n, 0), meta(7n, 2), meta(7n, 3, NG_META_ONLY), plain([B, C], 7n, 4), plain([A, B], 7n, 5, V2)];
    const deployments = await readCurveDeployments(node.client, { logs, announcers, blockNumber: 8n });
    expect([...deployments]).toEqual([
      ['6:1', pool(3)],
      ['7:0', pool(4)],
      ['7:4', pool(6)],
    ]);
    // The factory with a metapool only is not read; the metapool's pool_list entry is not asked for.
    expect(node.calls).toEqual([
      { blockNumber: 8n, functions: ['pool_count()'] },
      { blockNumber: 8n, functions: ['pool_list(2)', 'pool_list(3)', 'pool_list(5)'] },
    ]);
  });

  it('on a node without the batch’s state, matches each log to the next pool_list entry not followed with its coins, at the newest block', async () => {
    // pool(1) is followed already; in the batch, a 3-coin pool then a 2-coin pool; pool(4) was deployed after the batch.
    const lists = { [NG]: [pool(1), pool(2), pool(3), pool(4)] };
    const node = fakeNode(lists, { [pool(1)]: [A, B], [pool(2)]: [C, A, B], [pool(3)]: [A, B], [pool(4)]: [A, B] }, { pruned: true });
    const known = (p: Address) => p.toLowerCase() === pool(1).toLowerCase();
    const deployments = await readCurveDeployments(node.client, { logs: [plain([C, A, B], 7n, 0), plain([A, B], 7n, 1)], announcers, blockNumber: 8n, known });
    expect([...deployments]).toEqual([
      ['7:0', pool(2)],
      ['7:1', pool(3)],
    ]);
    expect(node.calls.every((c) => c.blockNumber === undefined)).toBe(true);
    // A log no entry matches (the node behind the logs) fails the batch, which is tried again.
    await expect(readCurveDeployments(node.client, { logs: [plain([B, C], 7n, 0)], announcers, blockNumber: 8n, known })).rejects.toThrow(/no pool of pool_list matches/);
  });

  it('reads nothing without deployments, and throws when the count does not account for the logs', async () => {
    const node = fakeNode({ [NG]: [pool(1)] });
    expect(await readCurveDeployments(node.client, { logs: [meta(7n, 2)], announcers, blockNumber: 8n })).toEqual(new Map());
    expect(node.calls).toEqual([]);
    await expect(readCurveDeployments(node.client, { logs: [plain([A, B], 7n, 0), plain([A, C], 7n, 1)], announcers, blockNumber: 8n })).rejects.toThrow(/below its 2 deployments/);
  });
});

describe('the Curve factories followed for the first time', () => {
  const withBlocks = new Map<Address, SourceRef>([
    [NG, { ...SOURCES.ng, deploymentBlock: 100 }],
    [TWO, SOURCES.two],
    [V2, SOURCES.v2],
  ]);

  it('are the Curve announcers without a known pool, not seen yet; read unless the batch starts at 0 or at or before their deployment', () => {
    const pick = (from: bigint, pools: { discoveredBy: string | null }[] = [], done = new Set<Address>()) => curveFactoriesToRead(withBlocks, pools, done, from).map((f) => [f.address, f.read]);
    expect(pick(0n)).toEqual([
      [NG, false],
      [TWO, false],
    ]);
    expect(pick(100n)).toEqual([
      [NG, false],
      [TWO, true],
    ]);
    expect(pick(101n)).toEqual([
      [NG, true],
      [TWO, true],
    ]);
    expect(pick(101n, [{ discoveredBy: TWO.toLowerCase() }, { discoveredBy: null }])).toEqual([[NG, true]]);
    expect(pick(101n, [], new Set([NG, TWO]))).toEqual([]);
  });

  it('are read whole at the batch’s last block: every pool, its coin pairs created at that block', async () => {
    const node = fakeNode({ [NG]: [pool(1), pool(2)], [TWO]: [pool(3)] }, { [pool(1)]: [A, B], [pool(2)]: [C, A, B], [pool(3)]: [B, C] });
    const factories = [
      { address: NG, source: SOURCES.ng, read: true },
      { address: TWO, source: SOURCES.two, read: true },
      { address: V2, source: SOURCES.v2, read: true },
      // A factory with no code at the block (deployed later): no pool there, and nothing asked of it.
      { address: pool(77), source: SOURCES.ng, read: true },
    ];
    const rows = await readCurveFactories(node.client, { factories: [...factories, { address: NG_META_ONLY, source: SOURCES.ng, read: false }], blockNumber: 42n });
    const id = (n: number, i: number, j: number) => `${pool(n).toLowerCase()}:${i}:${j}`;
    expect(rows.map((r) => [r.address, r.kind, r.token0, r.token1, r.stable, r.discoveredBy, r.createdBlock])).toEqual([
      [id(1, 0, 1), 'curve-stableswap-ng', A, B, true, NG, 42n],
      [id(2, 0, 1), 'curve-stableswap-ng', C, A, true, NG, 42n],
      [id(2, 0, 2), 'curve-stableswap-ng', C, B, true, NG, 42n],
      [id(2, 1, 2), 'curve-stableswap-ng', A, B, true, NG, 42n],
      [id(3, 0, 1), 'curve-twocrypto-ng', B, C, false, TWO, 42n],
    ]);
    expect(node.calls.map((c) => c.functions)).toEqual([
      ['pool_count()'],
      ['pool_list(0)', 'pool_list(1)'],
      [`get_coins(${pool(1)})`, `get_coins(${pool(2)})`],
      ['pool_count()'],
      ['pool_list(0)'],
      [`get_coins(${pool(3)})`],
    ]);
  });

  it('on a node without the block’s state, are read at its newest block, still created at the batch’s block', async () => {
    const node = fakeNode({ [NG]: [pool(1)] }, { [pool(1)]: [A, B] }, { pruned: true });
    const rows = await readCurveFactories(node.client, { factories: [{ address: NG, source: SOURCES.ng, read: true }], blockNumber: 42n });
    expect(rows.map((r) => [r.address, r.createdBlock])).toEqual([[`${pool(1).toLowerCase()}:0:1`, 42n]]);
    expect(node.calls.map((c) => c.blockNumber)).toEqual([undefined, undefined, undefined]);
  });
});
