import { ChainLiquidityState, type PoolRecord } from './chain-state';
import { applyConcentrated, newConcentratedState, tickList, type ConcentratedState } from './concentrated-state';
import type { ConcentratedFact, LiquidityFact } from './facts';
import { routingView } from './routing-snapshot';

const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const V3 = '0x' + 'a'.repeat(40);
const ALGEBRA = '0x' + 'b'.repeat(40);
const Q96 = 2n ** 96n;

/** Deterministic random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Position {
  lower: number;
  upper: number;
  liquidity: bigint;
}

/**
 * The reference: the pool as its open positions define it. Net and gross liquidity of each tick and the active
 * liquidity are summed over the positions from scratch, independently of the reducer's incremental updates.
 */
class Reference {
  positions: Position[] = [];
  sqrtPriceX96 = 0n;
  tick = 0;
  fee?: number;
  tickSpacing?: number;

  clone(): Reference {
    const r = Object.assign(new Reference(), this);
    r.positions = this.positions.map((p) => ({ ...p }));
    return r;
  }

  active(tick = this.tick): bigint {
    return this.positions.reduce((sum, p) => (p.lower <= tick && tick < p.upper ? sum + p.liquidity : sum), 0n);
  }

  ticks(): { index: number; liquidityNet: bigint; liquidityGross: bigint }[] {
    const by = new Map<number, { net: bigint; gross: bigint }>();
    const add = (i: number, net: bigint, gross: bigint) => {
      const t = by.get(i) ?? { net: 0n, gross: 0n };
      by.set(i, { net: t.net + net, gross: t.gross + gross });
    };
    for (const p of this.positions) {
      add(p.lower, p.liquidity, p.liquidity);
      add(p.upper, -p.liquidity, p.liquidity);
    }
    return [...by]
      .filter(([, t]) => t.gross > 0n)
      .sort((a, b) => a[0] - b[0])
      .map(([index, t]) => ({ index, liquidityNet: t.net, liquidityGross: t.gross }));
  }
}

const held = (s: ConcentratedState | undefined) => ({
  sqrtPriceX96: s?.sqrtPriceX96,
  tick: s?.tick,
  liquidity: s?.liquidity,
  fee: s?.fee,
  tickSpacing: s?.tickSpacing,
  ticks: [...(s?.ticks ?? [])].sort((a, b) => a[0] - b[0]).map(([index, t]) => ({ index, ...t })),
});
const expected = (r: Reference) => ({ sqrtPriceX96: r.sqrtPriceX96, tick: r.tick, liquidity: r.active(), fee: r.fee, tickSpacing: r.tickSpacing, ticks: r.ticks() });

/** A random block of events on one pool, applied to the reference as it is made. */
function randomBlock(rnd: () => number, ref: Reference, pool: string, block: bigint, algebra: boolean): ConcentratedFact[] {
  const facts: ConcentratedFact[] = [];
  const spacing = ref.tickSpacing ?? 10;
  const n = 1 + Math.floor(rnd() * 6);
  for (let logIndex = 0; logIndex < n; logIndex++) {
    const at = { block, logIndex: logIndex * 3 + 1, pool };
    const r = rnd();
    if (r < 0.4 || ref.positions.length === 0) {
      // A mint around the price, often on bounds other positions use already.
      const base = Math.round(ref.tick / spacing);
      const lower = (base + Math.floor(rnd() * 12) - 8) * spacing;
      const upper = lower + (1 + Math.floor(rnd() * 6)) * spacing;
      const liquidity = BigInt(1 + Math.floor(rnd() * 1e6)) * 10n ** BigInt(Math.floor(rnd() * 12));
      ref.positions.push({ lower, upper, liquidity });
      facts.push({ type: 'positionChanged', ...at, tickLower: lower, tickUpper: upper, liquidityDelta: liquidity });
    } else if (r < 0.65) {
      // A burn of part or all of a position, or a fee poke (0).
      const i = Math.floor(rnd() * ref.positions.length);
      const p = ref.positions[i];
      const k = rnd();
      const amount = k < 0.15 ? 0n : k < 0.55 ? p.liquidity : (p.liquidity * BigInt(Math.floor(rnd() * 100))) / 100n;
      p.liquidity -= amount;
      if (p.liquidity === 0n) ref.positions.splice(i, 1);
      facts.push({ type: 'positionChanged', ...at, tickLower: p.lower, tickUpper: p.upper, liquidityDelta: -amount });
    } else if (r < 0.93) {
      // A swap to a random tick, landing on a bound now and then: the pool reports the liquidity active there.
      const bounds = ref.positions.flatMap((q) => [q.lower, q.upper]);
      const tick = rnd() < 0.3 ? bounds[Math.floor(rnd() * bounds.length)] - (rnd() < 0.5 ? 1 : 0) : ref.tick + Math.floor(rnd() * 10 * spacing) - 5 * spacing;
      ref.tick = tick;
      ref.sqrtPriceX96 = Q96 + BigInt(tick) * 1000n;
      facts.push({ type: 'concentratedSwapped', ...at, sqrtPriceX96: ref.sqrtPriceX96, tick, liquidity: ref.active(tick) });
    } else if (algebra) {
      ref.fee = 100 + Math.floor(rnd() * 9900);
      facts.push({ type: 'poolFeeChanged', ...at, fee: ref.fee });
    }
  }
  return facts;
}

describe('concentrated pools in the liquidity state', () => {
  it('keeps ticks, their gross liquidity and the active liquidity through mints and burns', () => {
    let s = newConcentratedState({ fee: 3000, tickSpacing: 60 });
    const at = { block: 1n, logIndex: 0, pool: V3 };
    s = applyConcentrated(s, { type: 'poolInitialized', ...at, sqrtPriceX96: Q96, tick: 0 });
    s = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: -60, tickUpper: 60, liquidityDelta: 1000n });
    s = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: 60, tickUpper: 120, liquidityDelta: 1000n });
    // Tick 60: net 0, still initialized (gross 2000).
    expect(tickList(s.ticks)).toEqual([
      { index: -60, liquidityNet: 1000n },
      { index: 60, liquidityNet: 0n },
      { index: 120, liquidityNet: -1000n },
    ]);
    expect(s.ticks.get(60)).toEqual({ liquidityNet: 0n, liquidityGross: 2000n });
    expect(s.liquidity).toBe(1000n);
    const poked = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: -60, tickUpper: 60, liquidityDelta: 0n });
    expect(poked).toBe(s);
    s = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: -60, tickUpper: 60, liquidityDelta: -1000n });
    expect(tickList(s.ticks)).toEqual([
      { index: 60, liquidityNet: 1000n },
      { index: 120, liquidityNet: -1000n },
    ]);
    expect(s.liquidity).toBe(0n);
    // The range [60, 120) does not hold tick 0: minting it leaves the active liquidity alone; at tick 60 it is active.
    s = applyConcentrated(s, { type: 'concentratedSwapped', ...at, sqrtPriceX96: Q96 + 1n, tick: 60, liquidity: 1000n });
    s = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: 60, tickUpper: 120, liquidityDelta: 5n });
    expect(s.liquidity).toBe(1005n);
    expect(() => applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: -60, tickUpper: 60, liquidityDelta: -1n })).toThrow(/more liquidity removed/);
  });

  it('a swap shares the tick map (and its sorted list) with the state before it', () => {
    let s = newConcentratedState({ fee: 500, tickSpacing: 10 });
    const at = { block: 1n, logIndex: 0, pool: V3 };
    s = applyConcentrated(s, { type: 'positionChanged', ...at, tickLower: -10, tickUpper: 10, liquidityDelta: 7n });
    const next = applyConcentrated(s, { type: 'concentratedSwapped', ...at, sqrtPriceX96: Q96, tick: 3, liquidity: 7n });
    expect(next.ticks).toBe(s.ticks);
    expect(tickList(next.ticks)).toBe(tickList(s.ticks));
  });

  for (const [kind, pool, seed] of [
    ['uniswap-v3', V3, 1],
    ['algebra', ALGEBRA, 2],
  ] as const) {
    it(`${kind}: random mints, burns, swaps and fee changes equal the reference, with re-deliveries and reorgs`, () => {
      const rnd = random(seed);
      const algebra = kind === 'algebra';
      const state = new ChainLiquidityState(999, { retainBlocks: 16 });
      let ref = new Reference();
      const created: LiquidityFact = { type: 'poolCreated', block: 1n, kind, address: pool, routerIndex: 3, token0: A, token1: B, ...(algebra ? {} : { fee: 500, tickSpacing: 10 }) };
      expect(state.apply(created)).toBe('applied');
      if (!algebra) Object.assign(ref, { fee: 500, tickSpacing: 10 });
      ref.sqrtPriceX96 = Q96;
      ref.tick = 0;
      const init: LiquidityFact[] = [{ type: 'poolInitialized', block: 1n, logIndex: 1, pool, sqrtPriceX96: Q96, tick: 0 }];
      if (algebra) {
        init.push({ type: 'poolFeeChanged', block: 1n, logIndex: 2, pool, fee: 100 }, { type: 'tickSpacingChanged', block: 1n, logIndex: 3, pool, tickSpacing: 10 });
        Object.assign(ref, { fee: 100, tickSpacing: 10 });
      }
      for (const f of init) expect(state.apply(f)).toBe('applied');
      expect(state.apply({ type: 'blockProcessed', block: 1n })).toBe('applied');
      const refs = new Map<bigint, Reference>([[1n, ref.clone()]]);
      let delivered: LiquidityFact[] = [...init];
      let block = 1n;
      for (let round = 0; round < 400; round++) {
        if (round % 25 === 24) {
          // A reorg a few blocks deep: the state is as it was at the ancestor; the new branch continues from there.
          const ancestor = block - BigInt(1 + Math.floor(rnd() * 5));
          expect(state.apply({ type: 'reorg', ancestor })).toBe('applied');
          ref = refs.get(ancestor)!.clone();
          block = ancestor;
          // The replaced blocks' facts are void (the stream does not deliver them again after the reorg).
          delivered = delivered.filter((f) => 'block' in f && f.block <= ancestor);
          expect(held(state.pool(pool)?.concentrated)).toEqual(expected(ref));
        }
        block += 1n;
        const facts = randomBlock(rnd, ref, pool, block, algebra);
        for (const f of facts) {
          expect(state.apply(f)).toBe('applied');
          // JetStream may deliver a fact again: the second delivery is a duplicate.
          if (rnd() < 0.2) expect(state.apply(f)).toBe('duplicate');
        }
        delivered.push(...facts);
        // An earlier fact delivered late, of this block or a processed one, changes nothing.
        const late = delivered[Math.floor(rnd() * delivered.length)];
        expect(state.apply(late)).toBe('duplicate');
        expect(state.apply({ type: 'blockProcessed', block })).toBe('applied');
        refs.set(block, ref.clone());
        expect(held(state.pool(pool)?.concentrated)).toEqual(expected(ref));
      }
      // The engine's snapshot: every initialized tick, ascending, with its net.
      const view = routingView(state, { sources: [{ routerIndex: 3, kind, name: kind }], wrappedNative: A });
      const snapshot = view.pools.find((p) => p.address === pool);
      if (ref.positions.length === 0) expect(snapshot).toBeUndefined();
      else
        expect(snapshot).toMatchObject({
          kind,
          sqrtPriceX96: ref.sqrtPriceX96,
          tick: ref.tick,
          liquidity: ref.active(),
          fee: ref.fee,
          tickSpacing: ref.tickSpacing,
          ticks: ref.ticks().map(({ index, liquidityNet }) => ({ index, liquidityNet })),
        });
    });
  }

  it('an Algebra pool is not routable before its fee and tick spacing are known', () => {
    const state = new ChainLiquidityState(999);
    state.apply({ type: 'poolCreated', block: 1n, kind: 'algebra', address: ALGEBRA, routerIndex: 4, token0: A, token1: B });
    state.apply({ type: 'poolInitialized', block: 1n, logIndex: 0, pool: ALGEBRA, sqrtPriceX96: Q96, tick: 0 });
    state.apply({ type: 'positionChanged', block: 1n, logIndex: 1, pool: ALGEBRA, tickLower: -60, tickUpper: 60, liquidityDelta: 10n ** 18n });
    state.apply({ type: 'blockProcessed', block: 1n });
    const context = { sources: [{ routerIndex: 4, kind: 'algebra', name: 'Algebra' }], wrappedNative: A };
    expect(routingView(state, context).pools).toHaveLength(0);
    state.apply({ type: 'poolFeeChanged', block: 2n, logIndex: 0, pool: ALGEBRA, fee: 3000 });
    state.apply({ type: 'tickSpacingChanged', block: 2n, logIndex: 1, pool: ALGEBRA, tickSpacing: 60 });
    state.apply({ type: 'blockProcessed', block: 2n });
    const pools = routingView(state, context).pools;
    expect(pools).toHaveLength(1);
    expect(pools[0]).toMatchObject({ kind: 'algebra', fee: 3000, tickSpacing: 60, liquidity: 10n ** 18n });
    // A fact of a concentrated kind on a pool of another kind, or on an unknown pool, does not apply.
    expect(state.apply({ type: 'poolFeeChanged', block: 3n, logIndex: 0, pool: V3, fee: 1 })).toBe('unknown');
  });
});

describe('a concentrated pool held without its state', () => {
  const stored = (block: bigint): PoolRecord => ({ kind: 'uniswap-v3', address: V3, routerIndex: 3, token0: A, token1: B, createdBlock: 1n, at: { block, logIndex: Number.MAX_SAFE_INTEGER } });
  const read = (liquidity: bigint): ConcentratedState => ({
    ...newConcentratedState({ fee: 500, tickSpacing: 10 }),
    sqrtPriceX96: Q96,
    liquidity,
    ticks: new Map([
      [-10, { liquidityNet: liquidity, liquidityGross: liquidity }],
      [10, { liquidityNet: -liquidity, liquidityGross: liquidity }],
    ]),
  });

  it('ignores its facts until a read at the processed block gives it a state, which a reorg below that block undoes', () => {
    const state = new ChainLiquidityState(999, {}, { block: 5n, pools: [stored(5n)], tokens: [] });
    expect(state.statelessConcentratedPools().map((p) => p.address)).toEqual([V3]);
    expect(state.apply({ type: 'concentratedSwapped', block: 6n, logIndex: 0, pool: V3, sqrtPriceX96: Q96, tick: 0, liquidity: 1n })).toBe('unknown');
    state.apply({ type: 'blockProcessed', block: 6n });
    // Only at the processed block, and only once.
    expect(state.setConcentratedState(V3, read(100n), 5n)).toBe(false);
    expect(state.setConcentratedState(V3, read(100n), 6n)).toBe(true);
    expect(state.setConcentratedState(V3, read(1n), 6n)).toBe(false);
    expect(state.statelessConcentratedPools()).toEqual([]);
    expect(state.apply({ type: 'positionChanged', block: 7n, logIndex: 0, pool: V3, tickLower: -10, tickUpper: 10, liquidityDelta: 5n })).toBe('applied');
    state.apply({ type: 'blockProcessed', block: 7n });
    expect(state.pool(V3)?.concentrated?.liquidity).toBe(105n);
    expect(state.apply({ type: 'reorg', ancestor: 6n })).toBe('applied');
    expect(state.pool(V3)?.concentrated?.liquidity).toBe(100n);
    expect(state.apply({ type: 'reorg', ancestor: 5n })).toBe('applied');
    expect(state.pool(V3)?.concentrated).toBeUndefined();
    expect(state.statelessConcentratedPools().map((p) => p.address)).toEqual([V3]);
  });
});
