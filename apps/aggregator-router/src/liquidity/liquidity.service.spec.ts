import type { ChainPublicClient } from '@dex/chain';
import { ChainLiquidity } from './liquidity.service';
import type { ChainEntry } from './chain-config';

/** A chain's liquidity whose node is at `head` and whose loads only record the block they load. */
function chainAt(head: { block: bigint }) {
  const client = { getBlockNumber: async () => head.block } as unknown as ChainPublicClient;
  const chain = new ChainLiquidity(999, {} as ChainEntry, [], client);
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
});
