import type { ChainPublicClient } from '@dex/chain';
import type { SourceConfig } from '@dex/messages';
import { ChainLiquidity } from './liquidity.service';
import type { ChainEntry } from './chain-config';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const;
const sources: SourceConfig[] = [
  { name: 'Core', kind: 'core', routerIndex: 0, addresses: {} },
  { name: 'DEX', kind: 'uniswap-v2', routerIndex: 1, addresses: {} },
];
const entry = { pools: [{ routerIndex: 1, kind: 'uniswap-v2', address: address(10), token0: address(1), token1: address(2) }] } as unknown as ChainEntry;

/** A chain's liquidity whose node is at `head` and whose loads only record the block they load. */
function chainAt(head: { block: bigint }) {
  const client = { getBlockNumber: async () => head.block } as unknown as ChainPublicClient;
  const chain = new ChainLiquidity(999, entry, sources, client);
  // Every token is known, so adding a pool reads nothing from the node.
  for (const n of [1, 2, 3]) chain.tokens.set(address(n), { address: address(n), symbol: `T${n}`, name: `T${n}`, decimals: 18 });
  const loaded: bigint[] = [];
  Object.assign(chain, {
    load: async (blockNumber: bigint) => {
      await new Promise((r) => setTimeout(r, 1));
      loaded.push(blockNumber);
      chain.snapshot = { blockNumber, pools: [], graph: {} as never };
    },
  });
  return { chain, loaded };
}

describe('ChainLiquidity.refresh', () => {
  it('loads each new block, also after being told of the block it already has', async () => {
    const head = { block: 123n };
    const { chain, loaded } = chainAt(head);
    await chain.refresh();
    // The block watch's first block is the one the first load read: nothing to do.
    await chain.refresh(123n);
    await chain.refresh(124n);
    await chain.refresh(125n);
    expect(loaded).toEqual([123n, 124n, 125n]);
    expect(chain.snapshot?.blockNumber).toBe(125n);
  });

  it('takes the newest block asked for while a load is under way', async () => {
    const head = { block: 10n };
    const { chain, loaded } = chainAt(head);
    const first = chain.refresh(10n);
    void chain.refresh(11n);
    void chain.refresh(12n);
    await first;
    await chain.refresh(12n);
    expect(loaded).toEqual([10n, 12n]);
  });

  it('reloads the block it has when invalidated, and once more when invalidated during a load', async () => {
    const head = { block: 50n };
    const { chain, loaded } = chainAt(head);
    await chain.refresh();
    await chain.invalidate();
    expect(loaded).toEqual([50n, 50n]);
    // Two invalidations before a load starts make one load; one while it runs makes another after it.
    const during = chain.invalidate();
    void chain.invalidate();
    await new Promise((r) => setImmediate(r));
    void chain.invalidate();
    await during;
    await chain.refresh();
    expect(loaded).toEqual([50n, 50n, 50n, 50n]);
    await chain.refresh(50n);
    expect(loaded).toHaveLength(4);
  });
});

describe('ChainLiquidity.invalidate after a failed reload', () => {
  it('reloads on the next call when the reload failed', async () => {
    const head = { block: 70n };
    const { chain, loaded } = chainAt(head);
    await chain.refresh();
    const load = (chain as unknown as { load: (b: bigint) => Promise<void> }).load;
    let failNext = true;
    Object.assign(chain, {
      load: async (blockNumber: bigint) => {
        if (failNext) {
          failNext = false;
          throw new Error('node unavailable');
        }
        await load(blockNumber);
      },
    });
    await expect(chain.invalidate()).rejects.toThrow('node unavailable');
    await chain.refresh();
    expect(loaded).toEqual([70n, 70n]);
  });
});

describe('ChainLiquidity.addPool', () => {
  it('adds a pool of a listed kind and configured source once, and nothing else', async () => {
    const { chain } = chainAt({ block: 1n });
    const pool = { routerIndex: 0, kind: 'core' as const, address: address(20), token0: address(1), token1: address(3) };
    expect(await chain.addPool(pool)).toBe(true);
    expect(await chain.addPool({ ...pool, address: address(20).toUpperCase().replace('0X', '0x') as `0x${string}` })).toBe(false);
    // Known from the sources file.
    expect(await chain.addPool({ ...pool, routerIndex: 1, kind: 'uniswap-v2', address: address(10) })).toBe(false);
    // A kind its router index does not have, a source not configured, a kind that is not a listed pool.
    expect(await chain.addPool({ ...pool, routerIndex: 1, address: address(21) })).toBe(false);
    expect(await chain.addPool({ ...pool, routerIndex: 7, address: address(22) })).toBe(false);
    expect(await chain.addPool({ ...pool, kind: 'launchpad', address: address(23) })).toBe(false);
  });
});
