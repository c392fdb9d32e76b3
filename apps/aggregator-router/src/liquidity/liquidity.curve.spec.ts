// ChainLiquidity on a chain with a Curve StableswapNG source: the devnet's stand-in factory and pools (NG's interface
// and maths, libs/contracts/src/devnet/curve) on a private anvil, two pools (3 coins and 2), their coin pairs stored
// by pair id as the indexer stores them. Each pair is routed on its pool's own get_dy samples; at each block every
// pool's state is read in one eth_call and only the pools that moved are sampled again; the legs quote what the
// pool's get_dy does at a sample; a pool that stops answering keeps its last samples.
import {
  curveStableSwapFactoryNGStandInAbi,
  curveStableSwapFactoryNGStandInBytecode,
  curveStableSwapNGStandInAbi,
  curveStableSwapNGStandInBytecode,
  multicall3Abi,
  multicall3Bytecode,
  testERC20Abi,
  testERC20Bytecode,
} from '@dex/abis';
import { blueprintCreationCode, createChainClient, type ChainPublicClient } from '@dex/chain';
import type { StoredChainLiquidity } from '@dex/db';
import { CHAIN_FACTS, chainEventSchemas, curvePairId, type SourceConfig } from '@dex/messages';
import type { CurveStableswapNGPairSnapshot } from '@dex/routing';
import type { ChainFactMessage } from '@dex/service';
import { startOnchainChain, type OnchainChain } from '@dex/testing';
import { createPublicClient, custom, maxUint256, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import type { ChainEntry } from './chain-config';
import { ChainLiquidity } from './liquidity.service';

jest.setTimeout(120_000);

const CHAIN_ID = 999;
const ROUTER_INDEX = 10;
const HASH = `0x${'0'.repeat(64)}`;

let seq = 0;
const blockDone = (block: bigint): ChainFactMessage =>
  ({ chainId: CHAIN_ID, fact: CHAIN_FACTS.block, seq: ++seq, payload: chainEventSchemas[CHAIN_FACTS.block].parse({ chainId: CHAIN_ID, blockNumber: block.toString(), blockHash: HASH, parentHash: HASH, timestamp: 0 }) }) as ChainFactMessage;

describe('ChainLiquidity: Curve StableswapNG pools sampled by their own get_dy', () => {
  let chain: OnchainChain;
  let client: ChainPublicClient;
  let factory: Address;
  let multicall3: Address;
  const coins: Address[] = [];
  const decimals = [18, 6, 6];
  /** The 3-coin pool and the 2-coin pool (coins 0 and 1). */
  const pools: Address[] = [];
  let stored: bigint;
  let calls = 0;

  /** A client whose eth_calls are counted (`calls`). */
  const counting = (): ChainPublicClient => {
    const inner = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, multicall3, pollingIntervalMs: 20 });
    const transport = custom({ request: async (req: { method: string; params?: unknown }) => ((calls += req.method === 'eth_call' ? 1 : 0), inner.request(req as never)) });
    return Object.assign(createPublicClient({ chain: inner.chain, transport }), { chain: inner.chain }) as unknown as ChainPublicClient;
  };

  beforeAll(async () => {
    chain = await startOnchainChain({ chainId: CHAIN_ID });
    multicall3 = await chain.deploy({ abi: multicall3Abi as Abi, bytecode: multicall3Bytecode as Hex });
    client = createChainClient({ chainId: CHAIN_ID, rpcUrl: chain.node.rpcUrl, multicall3, pollingIntervalMs: 20 });
    const me = chain.account.address;
    for (const [k, d] of decimals.entries()) coins.push(await chain.deploy({ abi: testERC20Abi as Abi, bytecode: testERC20Bytecode as Hex }, [`Coin ${k}`, `C${k}`, d]));
    factory = await chain.deploy({ abi: curveStableSwapFactoryNGStandInAbi as Abi, bytecode: curveStableSwapFactoryNGStandInBytecode as Hex }, [me, me]);
    const creation = blueprintCreationCode(curveStableSwapNGStandInBytecode as Hex);
    const hash = await chain.wallet.sendTransaction({ account: chain.account, chain: chain.wallet.chain, data: creation, gas: 15_000_000n });
    const blueprint = (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!;
    await chain.send(factory, curveStableSwapFactoryNGStandInAbi as Abi, 'set_pool_implementations', [0n, blueprint]);
    for (const [n, name] of [[3, 'Three'], [2, 'Two']] as const) {
      const own = coins.slice(0, n);
      await chain.send(factory, curveStableSwapFactoryNGStandInAbi as Abi, 'deploy_plain_pool', [name, name, own, 200n, 4_000_000n, 20_000_000_000n, 866n, 0n, own.map(() => 0), own.map(() => '0x00000000'), own.map(() => zeroAddress)]);
      const pool = (await chain.client.readContract({ address: factory, abi: curveStableSwapFactoryNGStandInAbi, functionName: 'pool_list', args: [BigInt(pools.length)] })) as Address;
      const deposits = own.map((_, k) => parseUnits(String([2_000_000, 1_500_000, 1_000_000][k]), decimals[k]));
      for (const [k, coin] of own.entries()) {
        await chain.send(coin, testERC20Abi as Abi, 'mint', [me, deposits[k] * 10n]);
        await chain.send(coin, testERC20Abi as Abi, 'approve', [pool, maxUint256]);
      }
      await chain.send(pool, curveStableSwapNGStandInAbi as Abi, 'add_liquidity', [deposits, 0n]);
      pools.push(pool);
    }
    stored = await chain.client.getBlockNumber({ cacheTime: 0 });
  });

  afterAll(async () => {
    await chain?.node.stop();
  });

  const pairs = () => [
    ...[
      [0, 1],
      [0, 2],
      [1, 2],
    ].map(([i, j]) => ({ pool: pools[0], i, j })),
    { pool: pools[1], i: 0, j: 1 },
  ];

  /** What the indexer stored: every coin pair of both pools, by pair id. */
  const storedLiquidity = (): StoredChainLiquidity => ({
    block: stored,
    hash: HASH,
    pools: pairs().map(({ pool, i, j }) => ({
      address: curvePairId(pool, i, j),
      kind: 'curve-stableswap-ng',
      routerIndex: ROUTER_INDEX,
      token0: coins[i],
      token1: coins[j],
      createdBlock: stored,
      reserve0: null,
      reserve1: null,
      reservesBlock: null,
      curve: null,
    })),
    tokens: coins.map((address, k) => ({ address, symbol: `C${k}`, name: `Coin ${k}`, decimals: decimals[k] })),
  });

  const sources = (): SourceConfig[] => [{ name: 'Curve StableswapNG', kind: 'curve-stableswap-ng', routerIndex: ROUTER_INDEX, addresses: { factory } }];
  const entry = () => ({ wrappedNative: { address: coins[0], symbol: 'C0', name: 'Coin 0', decimals: 18 }, tokens: [], pools: [] }) as unknown as ChainEntry;

  /** Waits for the view of `block` (built once the block's samples are in). */
  async function viewAt(liquidity: ChainLiquidity, block: bigint): Promise<void> {
    for (let k = 0; k < 200 && liquidity.snapshot?.blockNumber !== block; k++) await new Promise((r) => setTimeout(r, 20));
    expect(liquidity.snapshot?.blockNumber).toBe(block);
    // The samples of the block are in once no sampling is under way.
    await new Promise((r) => setTimeout(r, 50));
  }

  const getDy = (pool: Address, i: number, j: number, dx: bigint, blockNumber: bigint) =>
    chain.client.readContract({ address: pool, abi: curveStableSwapNGStandInAbi, functionName: 'get_dy', args: [BigInt(i), BigInt(j), dx], blockNumber }) as Promise<bigint>;

  it('routes every coin pair on its pool’s get_dy samples, both ways, with what the read found of the pool', async () => {
    const liquidity = new ChainLiquidity(CHAIN_ID, entry(), sources(), client, { load: async () => storedLiquidity() });
    await liquidity.load();
    const routed = liquidity.snapshot!.pools as CurveStableswapNGPairSnapshot[];
    expect(routed.map((p) => p.address).sort()).toEqual(pairs().map(({ pool, i, j }) => curvePairId(pool, i, j)).sort());
    for (const { pool, i, j } of pairs()) {
      const pair = routed.find((p) => p.address === curvePairId(pool, i, j))!;
      expect(pair).toMatchObject({ kind: 'curve-stableswap-ng', pool: pool.toLowerCase(), i, j, token0: coins[i], token1: coins[j], exchangeReceived: true, fee: 4_000_000n, A: 200n, nCoins: pool === pools[0] ? 3 : 2 });
      // Each sample is the pool's own get_dy at the stored block; the ladders run past the pool's holdings.
      for (const [samples, a, b] of [[pair.samples0to1, i, j], [pair.samples1to0, j, i]] as const) {
        expect(samples.length).toBeGreaterThan(30);
        for (const s of [samples[0], samples[20], samples[samples.length - 1]]) expect(s.amountOut).toBe(await getDy(pool, a, b, s.amountIn, stored));
      }
    }
    // The legs quote the pool's get_dy at a sample, to the wei, and are what the graph holds.
    const pair = routed.find((p) => p.address === curvePairId(pools[0], 0, 2))!;
    const leg = liquidity.snapshot!.graph.legs.get(coins[0].toLowerCase())!.get(coins[2].toLowerCase())!.find((l) => l.pool === pair)!;
    const s = pair.samples0to1[25];
    expect(leg.quote(s.amountIn)).toBe(await getDy(pools[0], 0, 2, s.amountIn, stored));
    // Where the output coin runs out (1M of coin 2 in the pool) the curve bends hardest: the refined samples hold the
    // leg within 0.05% of the pool's own get_dy there, at 60 inputs from 0.3M to 3M of coin 0.
    let worst = 0;
    for (let k = 0; k < 60; k++) {
      const amountIn = parseUnits(String(Math.round(300_000 * 10 ** (k / 59))), 18);
      const own = await getDy(pools[0], 0, 2, amountIn, stored);
      worst = Math.max(worst, Number(own - leg.quote(amountIn)) / Number(own));
    }
    expect(worst).toBeGreaterThanOrEqual(0);
    expect(worst).toBeLessThan(5e-4);
  });

  it('reads every pool’s state in one eth_call a block, and samples again only the pool that moved', async () => {
    calls = 0;
    const liquidity = new ChainLiquidity(CHAIN_ID, entry(), sources(), counting(), { load: async () => storedLiquidity() });
    await liquidity.load();
    // The load: one read of both pools, then their 4 pairs sampled both ways (8 directions of 56 inputs: 3 calls of 200),
    // then refined (8 directions of at most 24 more: 1 call).
    expect(calls).toBe(1 + Math.ceil((8 * 56) / 200) + 1);
    const before = liquidity.snapshot!.pools.map((p) => [p.address, p] as const);

    // A block where nothing moved: one read, no sampling; the pairs keep their snapshots.
    await chain.client.request({ method: 'evm_mine' as never, params: [] as never });
    const quiet = await chain.client.getBlockNumber({ cacheTime: 0 });
    calls = 0;
    await liquidity.onFact(blockDone(quiet));
    await viewAt(liquidity, quiet);
    expect(calls).toBe(1);
    for (const [address, p] of before) expect(liquidity.snapshot!.pools.find((q) => q.address === address)).toBe(p);

    // A swap in the 2-coin pool: the next block samples that pool's pair only (2 directions: one call, one to refine).
    await chain.send(pools[1], curveStableSwapNGStandInAbi as Abi, 'exchange', [0n, 1n, parseUnits('50000', 18), 0n]);
    const moved = await chain.client.getBlockNumber({ cacheTime: 0 });
    calls = 0;
    await liquidity.onFact(blockDone(moved));
    await viewAt(liquidity, moved);
    expect(calls).toBe(3);
    expect(liquidity.curveWork).toMatchObject({ poolsSampled: 3 });
    const pair = liquidity.snapshot!.pools.find((p) => p.address === curvePairId(pools[1], 0, 1)) as CurveStableswapNGPairSnapshot;
    expect(pair.samples0to1[20].amountOut).toBe(await getDy(pools[1], 0, 1, pair.samples0to1[20].amountIn, moved));
    for (const [address, p] of before.filter(([a]) => !a.startsWith(pools[1].toLowerCase()))) expect(liquidity.snapshot!.pools.find((q) => q.address === address)).toBe(p);
  });
});
