import type { ChainPublicClient } from '@dex/chain';
import type { StoredChainLiquidity } from '@dex/db';
import { CHAIN_FACTS, type SourceConfig } from '@dex/messages';
import type { ChainFactMessage } from '@dex/service';
import type { ChainEntry } from './chain-config';
import { ChainLiquidity } from './liquidity.service';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const hash = '0x' + '0'.repeat(64);
const sources: SourceConfig[] = [{ name: 'DEX', kind: 'uniswap-v2', routerIndex: 1, addresses: {}, feeBps: 30 }];
const entry = { wrappedNative: { address: address(99), symbol: 'W', name: 'W', decimals: 18 }, tokens: [], pools: [] } as unknown as ChainEntry;
const PAIR = address(10);
const NEW_PAIR = address(11);

/** What the indexer stored at `block`: one pair with reserves. */
const stored = (block: bigint, reserve0: bigint): StoredChainLiquidity => ({
  block,
  hash,
  pools: [{ address: PAIR, kind: 'uniswap-v2', routerIndex: 1, token0: address(1), token1: address(2), createdBlock: 1n, reserve0, reserve1: 1_000n, reservesBlock: block, curve: null }],
  tokens: [1, 2].map((n) => ({ address: address(n), symbol: `T${n}`, name: `T${n}`, decimals: 18 })),
});

let seq = 0;
const base = (block: bigint) => ({ chainId: 999, blockNumber: block.toString(), blockHash: hash, timestamp: 0 });
const message = (fact: ChainFactMessage['fact'], payload: object): ChainFactMessage => ({ chainId: 999, fact, payload, seq: ++seq }) as ChainFactMessage;
const synced = (block: bigint, logIndex: number, pool: string, reserve0: bigint) =>
  message(CHAIN_FACTS.poolUpdated, { ...base(block), logIndex, txHash: hash, address: pool, reserve0: reserve0.toString(), reserve1: '1000' });
const blockDone = (block: bigint) => message(CHAIN_FACTS.block, { ...base(block), parentHash: hash });
const created = (block: bigint, pool: string) =>
  message(CHAIN_FACTS.poolCreated, { ...base(block), address: pool, kind: 'uniswap-v2', routerIndex: 1, token0: address(1), token1: address(3), stable: false });

/** A chain whose store answers `stores` in turn (the last one again); its node is never asked (no core pools). */
function chainWith(...stores: (StoredChainLiquidity | null)[]) {
  const loads: bigint[] = [];
  const repository = {
    load: async () => {
      const s = stores.length > 1 ? stores.shift()! : stores[0];
      if (s) loads.push(s.block);
      return s;
    },
  };
  const chain = new ChainLiquidity(999, entry, sources, {} as ChainPublicClient, repository, { retainBlocks: 4 });
  return { chain, loads };
}

const reserve0 = (chain: ChainLiquidity, pool = PAIR) => {
  const p = chain.snapshot?.pools.find((x) => x.address.toLowerCase() === pool);
  return p && 'reserve0' in p ? p.reserve0 : undefined;
};

describe('ChainLiquidity', () => {
  it('starts from the stored state and moves block by block with the facts after it', async () => {
    const { chain } = chainWith(stored(5n, 500n));
    await chain.load();
    expect(chain.snapshot?.blockNumber).toBe(5n);
    expect(reserve0(chain)).toBe(500n);
    // A fact the stored state covers (published before the load, delivered after it) changes nothing.
    await chain.onFact(synced(5n, 0, PAIR, 1n));
    await chain.onFact(synced(6n, 3, PAIR, 600n));
    // The view moves when the block is complete, not fact by fact.
    expect(reserve0(chain)).toBe(500n);
    await chain.onFact(created(7n, NEW_PAIR));
    await chain.onFact(synced(7n, 1, NEW_PAIR, 70n));
    await chain.onFact(blockDone(7n));
    expect(chain.snapshot?.blockNumber).toBe(7n);
    expect(reserve0(chain)).toBe(600n);
    expect(reserve0(chain, NEW_PAIR)).toBe(70n);
  });

  it('answers 503 while the indexer has stored nothing, and loads with the first fact after', async () => {
    const { chain } = chainWith(null, stored(8n, 800n));
    await expect(chain.current()).rejects.toMatchObject({ status: 503 });
    await chain.onFact(blockDone(8n));
    expect((await chain.current()).blockNumber).toBe(8n);
    expect(reserve0(chain)).toBe(800n);
  });

  it('rolls a reorg back itself, and reloads from the store when it reaches below what it can undo', async () => {
    const { chain, loads } = chainWith(stored(5n, 500n), stored(9n, 900n));
    await chain.load();
    for (const [b, r] of [
      [6n, 600n],
      [7n, 700n],
    ] as const) {
      await chain.onFact(synced(b, 0, PAIR, r));
      await chain.onFact(blockDone(b));
    }
    await chain.onFact(message(CHAIN_FACTS.reorg, { chainId: 999, ancestor: '6', ancestorHash: hash, previousBlock: '7' }));
    expect(chain.snapshot?.blockNumber).toBe(6n);
    expect(reserve0(chain)).toBe(600n);
    expect(loads).toEqual([5n]);
    // Below the block it was loaded at: the store (rewound by the indexer) has the answer.
    await chain.onFact(message(CHAIN_FACTS.reorg, { chainId: 999, ancestor: '4', ancestorHash: hash, previousBlock: '6' }));
    expect(loads).toEqual([5n, 9n]);
    expect(chain.snapshot?.blockNumber).toBe(9n);
    expect(reserve0(chain)).toBe(900n);
  });

  it('applies facts one at a time in arrival order, loads included', async () => {
    const { chain } = chainWith(stored(5n, 500n));
    const order = [chain.load(), chain.onFact(synced(6n, 0, PAIR, 601n)), chain.onFact(synced(6n, 1, PAIR, 602n)), chain.onFact(blockDone(6n))];
    await Promise.all(order);
    expect(reserve0(chain)).toBe(602n);
  });

  it('serves a block once its core pools are sampled at it, unless the view falls two blocks behind', async () => {
    const CORE = address(20);
    const withCore: StoredChainLiquidity = {
      ...stored(5n, 500n),
      pools: [...stored(5n, 500n).pools, { address: CORE, kind: 'core', routerIndex: 0, token0: address(1), token1: address(2), createdBlock: 1n, reserve0: 10n ** 21n, reserve1: 10n ** 21n, reservesBlock: 5n, curve: null }],
    };
    // The node answers the samples' reads only when let through.
    let open = true;
    const waiting: (() => void)[] = [];
    const client = {
      multicall: async ({ contracts }: { contracts: unknown[] }) => {
        if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
        return contracts.map(() => ({ status: 'failure', error: new Error('not sampled here') }));
      },
    } as unknown as ChainPublicClient;
    const chain = new ChainLiquidity(999, entry, [...sources, { name: 'Core', kind: 'core', routerIndex: 0, addresses: {} }], client, { load: async () => withCore }, { retainBlocks: 8 });
    await chain.load();
    expect(chain.snapshot?.blockNumber).toBe(5n);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

    open = false;
    await chain.onFact(synced(6n, 0, PAIR, 600n));
    await chain.onFact(blockDone(6n));
    await settle();
    // Block 6 is processed, its samples not in: the view stays at block 5, whole.
    expect([chain.snapshot?.blockNumber, reserve0(chain)]).toEqual([5n, 500n]);
    open = true;
    for (const resume of waiting.splice(0)) resume();
    await settle();
    expect([chain.snapshot?.blockNumber, reserve0(chain)]).toEqual([6n, 600n]);

    // A node that does not answer: the view waits two blocks, then moves with the last samples.
    open = false;
    await chain.onFact(blockDone(7n));
    await chain.onFact(blockDone(8n));
    await settle();
    expect(chain.snapshot?.blockNumber).toBe(6n);
    await chain.onFact(blockDone(9n));
    expect(chain.snapshot?.blockNumber).toBe(9n);
    open = true;
    for (const resume of waiting.splice(0)) resume();
  });
});
