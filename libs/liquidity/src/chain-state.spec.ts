import { GRADUATION_TOKEN_RESERVE, VIRTUAL_NATIVE_LIQUIDITY } from '@dex/routing';
import { ChainLiquidityState, type PoolRecord } from './chain-state';
import type { LiquidityFact } from './facts';
import { RoutingViewBuilder, routingView, type RoutingContext } from './routing-snapshot';

const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const W = '0x' + 'f'.repeat(40);
const PAIR = '0x' + 'a'.repeat(40);
const PAIR2 = '0x' + 'b'.repeat(40);
const CORE = '0x' + 'c'.repeat(40);
const TOKEN = '0x' + '3'.repeat(40);
const LAUNCHPAD = '0x' + 'd'.repeat(40);

const created = (block: bigint, address: string, kind: PoolRecord['kind'] = 'uniswap-v2', routerIndex = 1, token0 = A, token1 = B): LiquidityFact => ({
  type: 'poolCreated',
  block,
  kind,
  address,
  routerIndex,
  token0,
  token1,
});
const sync = (block: bigint, logIndex: number, pool: string, reserve0: bigint, reserve1: bigint): LiquidityFact => ({ type: 'reservesSynced', block, logIndex, pool, reserve0, reserve1 });
const done = (block: bigint): LiquidityFact => ({ type: 'blockProcessed', block });
const reorg = (ancestor: bigint): LiquidityFact => ({ type: 'reorg', ancestor });
const trade = (block: bigint, logIndex: number, nativeReserve: bigint, tokenReserve: bigint): LiquidityFact => ({ type: 'curveTraded', block, logIndex, token: TOKEN, nativeReserve, tokenReserve });

/** What a fresh read would see of each pool: kind, tokens and state, by address. */
function view(state: ChainLiquidityState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of [...state.allPools()].sort((a, b) => a.address.localeCompare(b.address))) out[p.address] = { kind: p.kind, reserves: p.reserves, curve: p.curve };
  return out;
}

function run(state: ChainLiquidityState, facts: readonly LiquidityFact[]): string[] {
  return facts.map((f) => state.apply(f));
}

describe('ChainLiquidityState', () => {
  it('builds pool states from creation and Sync facts, block by block', () => {
    const state = new ChainLiquidityState(999);
    run(state, [created(1n, PAIR), sync(1n, 2, PAIR, 100n, 200n), done(1n), sync(2n, 0, PAIR, 110n, 182n), done(2n)]);
    expect(state.block).toBe(2n);
    expect(state.pool(PAIR)).toMatchObject({ reserves: { reserve0: 110n, reserve1: 182n }, at: { block: 2n, logIndex: 0 }, createdBlock: 1n });
  });

  it('applies a fact that arrives twice once, and never lets an older fact overwrite a newer one', () => {
    const state = new ChainLiquidityState(999);
    expect(run(state, [created(1n, PAIR), created(1n, PAIR), sync(1n, 5, PAIR, 100n, 200n), sync(1n, 5, PAIR, 100n, 200n), sync(1n, 3, PAIR, 1n, 1n)])).toEqual([
      'applied',
      'duplicate',
      'applied',
      'duplicate',
      'duplicate',
    ]);
    run(state, [done(1n)]);
    // A fact of a processed block is a re-delivery.
    expect(state.apply(sync(1n, 9, PAIR, 5n, 5n))).toBe('duplicate');
    expect(state.apply(done(1n))).toBe('duplicate');
    expect(state.pool(PAIR)?.reserves).toEqual({ reserve0: 100n, reserve1: 200n });
  });

  it('names facts of pools it does not hold, and of the wrong kind, unknown', () => {
    const state = new ChainLiquidityState(999);
    run(state, [created(1n, CORE, 'core')]);
    expect(state.apply(sync(2n, 0, PAIR, 1n, 1n))).toBe('unknown');
    expect(state.apply(sync(2n, 1, CORE, 1n, 1n))).toBe('unknown');
  });

  it('undoes a reorg of several blocks exactly: changes, creations and graduations above the ancestor', () => {
    const state = new ChainLiquidityState(999);
    const base = [
      created(1n, PAIR),
      sync(1n, 1, PAIR, 1_000n, 2_000n),
      created(1n, TOKEN, 'launchpad', 3, TOKEN, W),
      trade(1n, 4, VIRTUAL_NATIVE_LIQUIDITY + 10n, 1_000_000_000_000_000n),
      done(1n),
      sync(2n, 0, PAIR, 1_100n, 1_820n),
      done(2n),
    ];
    run(state, base);
    const atTwo = view(state);
    // Three blocks of another branch's past: a swap per block, a new pool, a graduation, a trade.
    run(state, [
      sync(3n, 0, PAIR, 1_200n, 1_670n),
      created(3n, PAIR2, 'uniswap-v2', 2),
      sync(3n, 2, PAIR2, 5n, 5n),
      done(3n),
      trade(4n, 0, VIRTUAL_NATIVE_LIQUIDITY + 20n, 900_000_000_000_000n),
      sync(4n, 1, PAIR, 1_300n, 1_545n),
      done(4n),
      { type: 'tokenGraduated', block: 5n, logIndex: 0, token: TOKEN },
      sync(5n, 3, PAIR, 1_400n, 1_440n),
      done(5n),
    ]);
    expect(state.pool(PAIR2)).toBeDefined();
    expect(state.apply(reorg(2n))).toBe('applied');
    expect(state.block).toBe(2n);
    expect(view(state)).toEqual(atTwo);
    // The new branch's facts for the same heights apply again.
    expect(run(state, [sync(3n, 0, PAIR, 999n, 2_222n), done(3n)])).toEqual(['applied', 'applied']);
    expect(state.pool(PAIR)?.reserves).toEqual({ reserve0: 999n, reserve1: 2_222n });
  });

  it('equals, after a reorg and the new branch, the state built from the new branch alone', () => {
    const shared = [created(1n, PAIR), sync(1n, 0, PAIR, 10n, 10n), done(1n)];
    const oldBranch = [sync(2n, 0, PAIR, 11n, 9n), done(2n), created(3n, PAIR2), sync(3n, 1, PAIR2, 7n, 7n), done(3n), sync(4n, 0, PAIR, 12n, 8n), done(4n)];
    const newBranch = [sync(2n, 4, PAIR, 9n, 11n), done(2n), sync(3n, 0, PAIR, 8n, 13n), done(3n)];
    const followed = new ChainLiquidityState(999);
    run(followed, [...shared, ...oldBranch, reorg(1n), ...newBranch]);
    const fresh = new ChainLiquidityState(999);
    run(fresh, [...shared, ...newBranch]);
    expect(view(followed)).toEqual(view(fresh));
    expect(followed.block).toBe(fresh.block);
  });

  it('says a reorg deeper than its undo log is incomplete, and one below its restored block too', () => {
    const state = new ChainLiquidityState(999, { retainBlocks: 2 });
    run(state, [created(1n, PAIR), done(1n)]);
    for (let b = 2n; b <= 6n; b++) run(state, [sync(b, 0, PAIR, b, b), done(b)]);
    expect(state.apply(reorg(3n))).toBe('incomplete');
    expect(state.apply(reorg(4n))).toBe('applied');
    expect(state.pool(PAIR)?.reserves).toEqual({ reserve0: 4n, reserve1: 4n });

    const restored = new ChainLiquidityState(999, {}, { block: 50n, pools: [{ ...state.pool(PAIR)!, at: { block: 49n, logIndex: 0 } }], tokens: [] });
    expect(restored.apply(sync(50n, 1, PAIR, 1n, 1n))).toBe('duplicate');
    expect(restored.apply(reorg(48n))).toBe('incomplete');
    expect(restored.apply(reorg(50n))).toBe('applied');
  });

  it('shows the pools as of the processed block, without the facts of a block still coming in', () => {
    const state = new ChainLiquidityState(999);
    run(state, [created(1n, PAIR), sync(1n, 0, PAIR, 10n, 10n), done(1n), sync(2n, 0, PAIR, 11n, 9n), created(2n, PAIR2), sync(3n, 0, PAIR, 12n, 8n)]);
    expect(state.committedPools()).toEqual([expect.objectContaining({ address: PAIR, reserves: { reserve0: 10n, reserve1: 10n } })]);
    run(state, [done(3n)]);
    expect(state.committedPools().map((p) => p.reserves)).toEqual([{ reserve0: 12n, reserve1: 8n }, { reserve0: 0n, reserve1: 0n }]);
  });

  it('keeps token metadata from the first listing', () => {
    const state = new ChainLiquidityState(999);
    expect(state.apply({ type: 'tokenListed', address: A, symbol: 'AAA', name: 'A', decimals: 6 })).toBe('applied');
    expect(state.apply({ type: 'tokenListed', address: A.toUpperCase().replace('0X', '0x'), symbol: 'X', name: 'X', decimals: 1 })).toBe('duplicate');
    expect(state.token(A)?.decimals).toBe(6);
  });

  it('keeps the newest core samples of a core pool only', () => {
    const state = new ChainLiquidityState(999);
    run(state, [created(1n, CORE, 'core'), created(1n, PAIR)]);
    const samples = (block: bigint) => ({ block, samples0to1: [{ amountIn: 1n, amountOut: block }], samples1to0: [] });
    expect(state.setPoolSamples(CORE, samples(5n))).toBe(true);
    expect(state.setPoolSamples(CORE, samples(4n))).toBe(false);
    expect(state.setPoolSamples(PAIR, samples(6n))).toBe(false);
    expect(state.poolSamples(CORE)?.block).toBe(5n);
    // A reorg voids the samples of the blocks it replaced; the new branch's lower blocks are sampled again.
    run(state, [done(5n), reorg(3n)]);
    expect(state.poolSamples(CORE)).toBeUndefined();
    expect(state.setPoolSamples(CORE, samples(4n))).toBe(true);
  });
});

describe('routingView', () => {
  const context: RoutingContext = {
    wrappedNative: W,
    launchpad: LAUNCHPAD,
    sources: [
      { routerIndex: 1, kind: 'uniswap-v2', name: 'V2', feeBps: 30 },
      { routerIndex: 3, kind: 'launchpad', name: 'Launchpad', feeBps: 100 },
      { routerIndex: 4, kind: 'core', name: 'Core' },
    ],
  };

  it('routes pools with liquidity of configured sources, curves still selling, sampled core pools', () => {
    const state = new ChainLiquidityState(999);
    run(state, [
      { type: 'tokenListed', address: A, symbol: 'A', name: 'A', decimals: 6 },
      created(1n, PAIR),
      sync(1n, 0, PAIR, 1_000_000n, 2_000_000n),
      // Empty, and of a source not configured: neither routes.
      created(1n, PAIR2),
      created(1n, '0x' + '9'.repeat(40), 'uniswap-v2', 7),
      created(1n, TOKEN, 'launchpad', 3, TOKEN, W),
      trade(1n, 2, VIRTUAL_NATIVE_LIQUIDITY + 10n ** 18n, GRADUATION_TOKEN_RESERVE + 10n ** 12n),
      created(1n, CORE, 'core', 4),
      done(1n),
    ]);
    let routable = routingView(state, context);
    expect(routable.pools.map((p) => p.kind).sort()).toEqual(['launchpad', 'uniswap-v2']);
    const v2 = routable.pools.find((p) => p.kind === 'uniswap-v2')!;
    expect(v2).toMatchObject({ routerName: 'V2', decimals0: 6, decimals1: 18, feeBps: 30 });
    const curve = routable.pools.find((p) => p.kind === 'launchpad')!;
    expect(curve).toMatchObject({ address: LAUNCHPAD, nativeToken: W, curve: { tokensForSale: 10n ** 12n, realNativeReserve: 10n ** 18n, feeBps: 100n } });

    state.setPoolSamples(CORE, { block: 1n, samples0to1: [{ amountIn: 10n, amountOut: 9n }], samples1to0: [{ amountIn: 10n, amountOut: 9n }] });
    // The curve sells out: it trades no more (it waits for its graduation).
    run(state, [trade(2n, 0, VIRTUAL_NATIVE_LIQUIDITY + 10n ** 20n, GRADUATION_TOKEN_RESERVE), done(2n)]);
    routable = routingView(state, context);
    expect(routable.pools.map((p) => p.kind).sort()).toEqual(['core', 'uniswap-v2']);
    expect(routable.blockNumber).toBe(2n);
    expect(routable.graph.poolCount).toBe(2);
  });

  it('builds block after block the same view as from scratch, building again only the pools that changed', () => {
    const state = new ChainLiquidityState(999);
    const builder = new RoutingViewBuilder(context);
    run(state, [created(1n, PAIR), sync(1n, 0, PAIR, 1_000_000n, 2_000_000n), created(1n, PAIR2, 'uniswap-v2', 1, A, W), sync(1n, 1, PAIR2, 5_000n, 7_000n), done(1n)]);
    const first = builder.build(state);
    const legOf = (view: ReturnType<typeof routingView>, pool: string) => view.graph.legs.get(A.toLowerCase())?.get((pool === PAIR ? B : W).toLowerCase())?.[0];
    run(state, [sync(2n, 0, PAIR, 1_100_000n, 1_820_000n), done(2n)]);
    const second = builder.build(state);
    // The pool that did not change keeps its leg; the one that did has a new one.
    expect(legOf(second, PAIR2)).toBe(legOf(first, PAIR2));
    expect(legOf(second, PAIR)).not.toBe(legOf(first, PAIR));
    expect(legOf(second, PAIR)?.quote(1_000n)).toBe(legOf(routingView(state, context), PAIR)?.quote(1_000n));
    // Decimals learnt later build the pool again.
    run(state, [{ type: 'tokenListed', address: W, symbol: 'W', name: 'W', decimals: 6 }]);
    const third = builder.build(state);
    expect(third.pools.find((p) => p.address === PAIR2)?.decimals1).toBe(6);
    expect(third.pools.map((p) => p.address).sort()).toEqual(routingView(state, context).pools.map((p) => p.address).sort());
  });

  it('patches the graph of the previous block when a block changes few pools, to what a build from scratch gives', () => {
    const state = new ChainLiquidityState(999);
    const builder = new RoutingViewBuilder(context);
    const token = (n: number) => '0x' + n.toString(16).padStart(40, '0');
    const pair = (n: number) => '0x' + (0xaa00 + n).toString(16).padStart(40, '0');
    for (let n = 0; n < 16; n++) run(state, [created(1n, pair(n), 'uniswap-v2', 1, token(n + 1), token(n + 2)), sync(1n, n, pair(n), 1_000_000n + BigInt(n), 2_000_000n)]);
    run(state, [done(1n)]);
    const shape = (view: ReturnType<typeof routingView>) =>
      [...view.graph.legs].sort().map(([from, inner]) => [from, [...inner].sort().map(([to, list]) => [to, list.map((l) => `${l.pool.address}:${l.quote(1_000n)}`)])]);
    builder.build(state);
    // One pool moves, one is created (a reorg could also remove one: the reducer's rollback deletes it).
    run(state, [sync(2n, 0, pair(3), 900_000n, 2_300_000n), created(2n, pair(40), 'uniswap-v2', 1, token(1), token(9)), sync(2n, 1, pair(40), 5_000n, 5_000n), done(2n)]);
    const patched = builder.build(state);
    expect(shape(patched)).toEqual(shape(routingView(state, context)));
    run(state, [reorg(1n)]);
    expect(shape(builder.build(state))).toEqual(shape(routingView(state, context)));
    expect(builder.build(state).graph.poolCount).toBe(16);
  });
});
