// ChainLiquidity's load on a chain whose concentrated pools have positions already (the indexer stores no
// ticks): every Uniswap V3 and Algebra pool of the stored state is read whole from the chain at the stored block,
// and routes over it quote what QuoterV2 and the Algebra pool quote, to the wei. Real bytecode on a private anvil.
import type { StoredChainLiquidity } from '@dex/db';
import { CHAIN_FACTS, type SourceConfig } from '@dex/messages';
import type { ChainFactMessage } from '@dex/service';
import { stateOf, swapAlgebra, swapUniswapV3, type AlgebraPoolSnapshot, type UniswapV3PoolSnapshot } from '@dex/routing';
import { quoterV2Abi, startConcentratedChain, type ConcentratedChain } from '@dex/testing';
import type { Address } from 'viem';
import type { ChainEntry } from './chain-config';
import { ChainLiquidity } from './liquidity.service';

jest.setTimeout(300_000);

const Q96 = 2n ** 96n;
const E18 = 10n ** 18n;

interface Position {
  lower: number;
  upper: number;
  liquidity: bigint;
}

/** Every bound of the open positions with its net liquidity, ascending: what the pool's initialized ticks are. */
function ticksOf(positions: readonly Position[]): { index: number; liquidityNet: bigint }[] {
  const net = new Map<number, bigint>();
  for (const p of positions) {
    if (p.liquidity === 0n) continue;
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity);
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity);
  }
  return [...net].sort((a, b) => a[0] - b[0]).map(([index, liquidityNet]) => ({ index, liquidityNet }));
}

describe('ChainLiquidity: concentrated pools with positions before the load', () => {
  let chain: ConcentratedChain;
  /** The sources file's concentrated sources (SOURCE_KINDS gains their kinds with the devnet's concentrated pools). */
  const sources = () =>
    [
      { name: 'V3', kind: 'uniswap-v3', routerIndex: 5, addresses: { factory: chain.v3Factories[0] } },
      { name: 'Algebra', kind: 'algebra', routerIndex: 6, addresses: { factory: chain.algebraFactory } },
    ] as unknown as SourceConfig[];
  const entry = () => ({ wrappedNative: { address: chain.tokens[0], symbol: 'T0', name: 'Token 0', decimals: 18 }, tokens: [], pools: [] }) as unknown as ChainEntry;
  const storedPool = (p: { address: Address; kind: string; token0: Address; token1: Address }, routerIndex: number) => ({
    address: p.address,
    kind: p.kind,
    routerIndex,
    token0: p.token0,
    token1: p.token1,
    createdBlock: 1n,
    reserve0: null,
    reserve1: null,
    reservesBlock: null,
    curve: null,
  });
  const pools: { address: Address; kind: 'uniswap-v3' | 'algebra'; token0: Address; token1: Address; positions: Position[] }[] = [];

  beforeAll(async () => {
    chain = await startConcentratedChain({ chainId: 999, v3Deployments: 1 });
    const [t0, t1, t2] = chain.tokens;
    const sorted = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);
    const v3 = await chain.createPool('createV3', [chain.v3Factories[0], t0, t1, 3000, (Q96 * 6n) / 5n]);
    const algebra = await chain.createPool('createAlgebra', [chain.algebraFactory, t1, t2, (Q96 * 4n) / 5n]);
    pools.push({ address: v3, kind: 'uniswap-v3', token0: sorted(t0, t1)[0], token1: sorted(t0, t1)[1], positions: [] });
    pools.push({ address: algebra, kind: 'algebra', token0: sorted(t1, t2)[0], token1: sorted(t1, t2)[1], positions: [] });
    for (const pool of pools) {
      const algebraPool = pool.kind === 'algebra';
      // Positions sharing bounds (a tick of net 0 at 600), one above and one below the price, one wide.
      const plan: Position[] = [
        { lower: -1200, upper: 600, liquidity: 500n * E18 },
        { lower: 600, upper: 1800, liquidity: 500n * E18 },
        { lower: 2400, upper: 3000, liquidity: 80n * E18 },
        { lower: -6000, upper: -4200, liquidity: 120n * E18 },
        { lower: -60000, upper: 60000, liquidity: 10n * E18 },
        { lower: -600, upper: 300, liquidity: 40n * E18 },
      ];
      for (const p of plan) {
        await chain.act('mint', [pool.address, algebraPool, p.lower, p.upper, p.liquidity]);
        pool.positions.push({ ...p });
      }
      // A burn that uninitializes its ticks (-600 and 300), a partial one, a fee poke; swaps across ticks.
      await chain.act('burn', [pool.address, algebraPool, -600, 300, 40n * E18]);
      pool.positions[5].liquidity = 0n;
      await chain.act('burn', [pool.address, algebraPool, 600, 1800, 200n * E18]);
      pool.positions[1].liquidity -= 200n * E18;
      await chain.act('burn', [pool.address, algebraPool, -1200, 600, 0n]);
      await chain.act('swap', [pool.address, algebraPool, true, 30n * E18]);
      await chain.act('swap', [pool.address, algebraPool, false, 7n * E18]);
    }
    await chain.act('setFee', [algebra, 2500]);
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('reads them at the stored block and routes over them at the pools own prices', async () => {
    const block = await chain.client.getBlockNumber({ cacheTime: 0 });
    const stored: StoredChainLiquidity = {
      block,
      hash: '0x' + '0'.repeat(64),
      pools: pools.map((p, i) => storedPool(p, 5 + i)),
      tokens: chain.tokens.map((address, i) => ({ address, symbol: `T${i}`, name: `Token ${i}`, decimals: 18 })),
    };
    const liquidity = new ChainLiquidity(999, entry(), sources(), chain.client, { load: async () => stored });
    await liquidity.load();
    // A trade after the stored block does not show: the pools are read at that block.
    await chain.act('swap', [pools[0].address, false, true, 50n * E18]);

    const view = liquidity.snapshot!;
    expect(view.blockNumber).toBe(block);
    for (const pool of pools) {
      const snapshot = view.pools.find((s) => s.address === pool.address.toLowerCase()) as UniswapV3PoolSnapshot | AlgebraPoolSnapshot | undefined;
      expect(snapshot).toMatchObject({ kind: pool.kind, fee: pool.kind === 'algebra' ? 2500 : 3000, tickSpacing: 60 });
      expect(snapshot!.ticks).toEqual(ticksOf(pool.positions));
      for (const zeroForOne of [true, false]) {
        for (const amountIn of [10n ** 9n, E18, 100n * E18, 10n ** 24n]) {
          const engine = (pool.kind === 'algebra' ? swapAlgebra : swapUniswapV3)(stateOf(snapshot!), zeroForOne, amountIn).amountOut;
          const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
          const onChain =
            pool.kind === 'algebra'
              ? await chain.quoteAlgebra(pool.address, zeroForOne, amountIn, block)
              : (await chain.client.simulateContract({ address: chain.quoters[0], abi: quoterV2Abi, functionName: 'quoteExactInputSingle', args: [{ tokenIn, tokenOut, amountIn, fee: 3000, sqrtPriceLimitX96: 0n }], blockNumber: block })).result[0];
          expect({ pool: pool.kind, zeroForOne, amountIn, out: engine }).toEqual({ pool: pool.kind, zeroForOne, amountIn, out: onChain });
          expect(onChain).toBeGreaterThan(0n);
        }
      }
    }
  });

  it('reads a stored pool that had no code at the loaded block at the first block processed after it exists', async () => {
    const before = await chain.client.getBlockNumber({ cacheTime: 0 });
    const [t0, , t2] = chain.tokens;
    const address = await chain.createPool('createV3', [chain.v3Factories[0], t0, t2, 500, Q96]);
    await chain.act('mint', [address, false, -100, 200, 9n * E18]);
    const [token0, token1] = BigInt(t0) < BigInt(t2) ? [t0, t2] : [t2, t0];
    const stored: StoredChainLiquidity = { block: before, hash: '0x' + '0'.repeat(64), pools: [storedPool({ address, kind: 'uniswap-v3', token0, token1 }, 5)], tokens: [] };
    const liquidity = new ChainLiquidity(999, entry(), sources(), chain.client, { load: async () => stored });
    await liquidity.load();
    expect(liquidity.snapshot!.pools).toEqual([]);
    expect(liquidity.liquidityState!.statelessConcentratedPools()).toHaveLength(1);
    const head = await chain.client.getBlockNumber({ cacheTime: 0 });
    const blockFact = { chainId: 999, fact: CHAIN_FACTS.block, seq: 1, payload: { chainId: 999, blockNumber: head.toString(), blockHash: '0x' + '1'.repeat(64), parentHash: '0x' + '2'.repeat(64), timestamp: 0 } } as unknown as ChainFactMessage;
    await liquidity.onFact(blockFact);
    expect(liquidity.snapshot!.blockNumber).toBe(head);
    expect(liquidity.snapshot!.pools).toEqual([
      expect.objectContaining({ address: address.toLowerCase(), kind: 'uniswap-v3', fee: 500, tickSpacing: 10, liquidity: 9n * E18, ticks: ticksOf([{ lower: -100, upper: 200, liquidity: 9n * E18 }]) }),
    ]);
  });
});
