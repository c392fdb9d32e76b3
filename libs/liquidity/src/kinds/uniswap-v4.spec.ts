import { CHAIN_FACTS, chainEventSchemas } from '@dex/messages';
import { DYNAMIC_FEE_FLAG, legsOf, UNISWAP_V4_LADDER_SIZE, stateOf, swapHookPermissions, swapUniswapV4, type Leg, type UniswapV4PoolSnapshot } from '@dex/routing';
import { ChainLiquidityState, type PoolRecord } from '../chain-state';
import { concentratedFactOf, poolCreatedFactOf } from '../concentrated-messages';
import { tickList } from '../concentrated-state';
import type { LiquidityFact, ManagedPoolRead, PoolCreatedFact } from '../facts';
import { routingView, type RoutingContext } from '../routing-snapshot';
import { kindModule } from './registry';
import { hookExclusion, uniswapV4Exclusion } from './uniswap-v4';

const ID = `0x${'ab'.repeat(32)}`;
const OTHER_ID = `0x${'cd'.repeat(32)}`;
const NATIVE = '0x0000000000000000000000000000000000000000';
const B = '0x2222222222222222222222222222222222222222';
const C = '0x3333333333333333333333333333333333333333';
/** The wrapped native token: it sorts above B, so a native pool's token0 sorts above its token1. */
const W = '0xffffffffffffffffffffffffffffffffffffff00';
const MANAGER = '0x000000000004444c5dc75cb358380d2e3de08a90';
const Q96 = 2n ** 96n;
const L = 10n ** 21n;
const context: RoutingContext = { sources: [{ routerIndex: 9, kind: 'uniswap-v4', name: 'V4' }], wrappedNative: W };

/** A V4 pool's creation at block 1, its key as the pool-created fact carries it. */
const created = (key: Partial<PoolCreatedFact> = {}): PoolCreatedFact => ({
  type: 'poolCreated',
  block: 1n,
  kind: 'uniswap-v4',
  address: ID,
  routerIndex: 9,
  token0: W,
  token1: B,
  fee: 3000,
  tickSpacing: 60,
  poolManager: MANAGER,
  currency0: NATIVE,
  currency1: B,
  hooks: NATIVE,
  sqrtPriceX96: Q96,
  tick: 0,
  ...key,
});

const at = (block: bigint, logIndex: number, pool = ID) => ({ block, logIndex, pool });
const processed = (block: bigint): LiquidityFact => ({ type: 'blockProcessed', block });
const snapshotOf = (state: ChainLiquidityState, id = ID) => routingView(state, context).pools.find((p) => p.address === id) as UniswapV4PoolSnapshot | undefined;

/** A state with the native pool initialized at price 1 (its creation) and two positions, as of block 2. */
function liquidState(key: Partial<PoolCreatedFact> = {}): ChainLiquidityState {
  const state = new ChainLiquidityState(999);
  const facts: LiquidityFact[] = [
    created(key),
    processed(1n),
    { type: 'positionChanged', ...at(2n, 1), tickLower: -600, tickUpper: 600, liquidityDelta: L },
    { type: 'positionChanged', ...at(2n, 2), tickLower: -120, tickUpper: 180, liquidityDelta: 2n * L },
    processed(2n),
  ];
  for (const f of facts) expect(state.apply(f)).toBe('applied');
  return state;
}

describe('uniswap-v4 pools in the liquidity state', () => {
  it('starts from the Initialize (key and first price): the native coin traded as the wrapped token, the tokens in the pool order (token0 above token1)', () => {
    const fresh = new ChainLiquidityState(999);
    fresh.apply(created({ sqrtPriceX96: Q96 * 2n, tick: 13_863 }));
    expect(fresh.pool(ID)!.concentrated).toMatchObject({ sqrtPriceX96: Q96 * 2n, tick: 13_863, liquidity: 0n, fee: 3000, tickSpacing: 60 });
    // Initialized, but no liquidity yet: not routed.
    expect(fresh.apply(processed(1n))).toBe('applied');
    expect(snapshotOf(fresh)).toBeUndefined();
    const pool = snapshotOf(liquidState())!;
    expect(pool).toMatchObject({ kind: 'uniswap-v4', address: ID, poolManager: MANAGER, currency0: NATIVE, currency1: B, token0: W, token1: B, fee: 3000, dynamicFee: false, hooks: NATIVE, protocolFee: 0 });
    expect(BigInt(pool.token0)).toBeGreaterThan(BigInt(pool.token1));
    expect(pool.ticks).toEqual([
      { index: -600, liquidityNet: L },
      { index: -120, liquidityNet: 2n * L },
      { index: 180, liquidityNet: -2n * L },
      { index: 600, liquidityNet: -L },
    ]);
    expect(pool.liquidity).toBe(3n * L);
    // W in is the pool's zeroForOne: the legs quote the PoolManager's swap that way.
    const [leg] = legsOf(pool).filter((l) => l.tokenIn === W);
    expect(leg.quote(10n ** 18n)).toBe(swapUniswapV4(stateOf(pool), true, 10n ** 18n).amountOut);
    // A key without the native coin keeps its currencies.
    expect(snapshotOf(liquidState({ currency0: B, currency1: C, token0: B, token1: C }))).toMatchObject({ token0: B, token1: C, currency0: B });
  });

  it('applies ModifyLiquidity (added and removed), Swap, Donate and the protocol fee; a Swap of a dynamic-fee pool tells its LP fee', () => {
    const state = liquidState({ fee: DYNAMIC_FEE_FLAG, hooks: '0x0000000000000000000000000000000000000010' });
    // A dynamic LP fee is unknown until read or seen: not routed.
    expect(snapshotOf(state)).toBeUndefined();
    const facts: LiquidityFact[] = [
      { type: 'positionChanged', ...at(3n, 0), tickLower: -120, tickUpper: 180, liquidityDelta: -L },
      { type: 'concentratedSwapped', ...at(3n, 1), sqrtPriceX96: Q96 - 10n ** 20n, tick: -1, liquidity: 2n * L, fee: 4500 },
      { type: 'poolDonated', ...at(3n, 2) },
      { type: 'protocolFeeChanged', ...at(3n, 3), protocolFee: 1000 | (200 << 12) },
      processed(3n),
    ];
    for (const f of facts) expect(state.apply(f)).toBe('applied');
    const pool = snapshotOf(state)!;
    expect(pool).toMatchObject({ sqrtPriceX96: Q96 - 10n ** 20n, tick: -1, liquidity: 2n * L, fee: 4500, dynamicFee: true, protocolFee: 1000 | (200 << 12) });
    expect(pool.ticks).toEqual([
      { index: -600, liquidityNet: L },
      { index: -120, liquidityNet: L },
      { index: 180, liquidityNet: -L },
      { index: 600, liquidityNet: -L },
    ]);
    // With a protocol fee on, a swap's fee is not the LP fee: the LP fee stays as it was.
    expect(state.apply({ type: 'concentratedSwapped', ...at(4n, 0), sqrtPriceX96: Q96, tick: 0, liquidity: 2n * L, fee: 5494 })).toBe('applied');
    expect(state.pool(ID)!.concentrated!.fee).toBe(4500);
    // Each direction pays the protocol fee on top: 1000 + 4500 - 4 zeroForOne, 200 + 4500 - 0 oneForZero.
    const latest = snapshotOf(state)!;
    const legs = legsOf(latest);
    expect(legs.find((l) => l.tokenIn === W)!.quote(10n ** 18n)).toBe(swapUniswapV4({ ...stateOf(latest), fee: 5496 }, true, 10n ** 18n).amountOut);
    expect(legs.find((l) => l.tokenIn === B)!.quote(10n ** 18n)).toBe(swapUniswapV4({ ...stateOf(latest), fee: 4700 }, false, 10n ** 18n).amountOut);
  });

  it('undoes a reorg: facts, a whole read and fee reads of the replaced blocks', () => {
    const state = liquidState({ fee: DYNAMIC_FEE_FLAG, hooks: '0x0000000000000000000000000000000000000010' });
    expect(state.managedFeeReads(context).map((p) => p.address)).toEqual([ID]);
    expect(state.setManagedFees(ID, { sqrtPriceX96: Q96, tick: 0, protocolFee: 0, lpFee: 700 }, 2n)).toBe(true);
    const before = structuredClone(state.pool(ID));
    expect(state.apply(created({ address: OTHER_ID, block: 3n }))).toBe('applied');
    expect(state.apply({ type: 'positionChanged', ...at(3n, 0), tickLower: -600, tickUpper: 600, liquidityDelta: -L })).toBe('applied');
    expect(state.apply({ type: 'concentratedSwapped', ...at(3n, 1), sqrtPriceX96: Q96 / 2n, tick: -13_864, liquidity: 0n, fee: 900 })).toBe('applied');
    expect(state.apply(processed(3n))).toBe('applied');
    expect(state.setManagedFees(ID, { sqrtPriceX96: Q96 / 2n, tick: -13_864, protocolFee: 0, lpFee: 1100 }, 3n)).toBe(true);
    expect(state.pool(ID)!.concentrated!.fee).toBe(1100);
    expect(state.apply({ type: 'reorg', ancestor: 2n })).toBe('applied');
    expect(state.pool(ID)).toEqual(before);
    expect(state.pool(OTHER_ID)).toBeUndefined();
    expect(snapshotOf(state)!.fee).toBe(700);
  });

  it('undoes a whole read of a reorged block: the pool is held without its state again', () => {
    const state = new ChainLiquidityState(999);
    // Announced without its key (a pool-created fact of a service that does not pass it): read whole later.
    const { poolManager: _, ...keyless } = created({ block: 2n });
    for (const f of [keyless, processed(2n), processed(3n)]) expect(state.apply(f)).toBe('applied');
    expect(state.statelessManagedPools().map((p) => p.address)).toEqual([ID]);
    const read: ManagedPoolRead = {
      poolManager: MANAGER,
      key: { currency0: NATIVE, currency1: B, fee: 3000, tickSpacing: 60, hooks: NATIVE },
      state: { sqrtPriceX96: Q96, tick: 0, protocolFee: 0, lpFee: 3000, liquidity: L, ticks: [{ index: -60, liquidityNet: L, liquidityGross: L }, { index: 60, liquidityNet: -L, liquidityGross: L }] },
    };
    expect(state.setManagedState(ID, read, 3n)).toBe(true);
    expect(snapshotOf(state)).toBeDefined();
    expect(state.apply({ type: 'reorg', ancestor: 2n })).toBe('applied');
    expect(state.statelessManagedPools().map((p) => p.address)).toEqual([ID]);
    expect(snapshotOf(state)).toBeUndefined();
  });

  it('reads fees only at the processed block, not over a later fact, and not when they are those held', () => {
    const state = liquidState({ fee: DYNAMIC_FEE_FLAG, hooks: '0x0000000000000000000000000000000000000010' });
    const slot0 = { sqrtPriceX96: Q96, tick: 0, protocolFee: 0, lpFee: 700 };
    expect(state.setManagedFees(ID, slot0, 1n)).toBe(false);
    expect(state.setManagedFees(ID, slot0, 2n)).toBe(true);
    expect(state.setManagedFees(ID, slot0, 2n)).toBe(false);
    // A fact of block 3 applied before block 3 is complete: a read of block 2 is older than the pool.
    expect(state.apply({ type: 'concentratedSwapped', ...at(3n, 0), sqrtPriceX96: Q96, tick: 0, liquidity: 3n * L, fee: 800 })).toBe('applied');
    expect(state.setManagedFees(ID, { ...slot0, lpFee: 750 }, 2n)).toBe(false);
    expect(state.pool(ID)!.concentrated!.fee).toBe(800);
    // A static fee never changes without an event: not read.
    expect(liquidState().managedFeeReads(context)).toEqual([]);
  });

  it('keeps a pool whose hook may change swaps, with the reason, and does not route it', () => {
    expect(swapHookPermissions(NATIVE)).toEqual([]);
    expect(swapHookPermissions('0x00000000000000000000000000000000000000c0')).toEqual(['beforeSwap', 'afterSwap']);
    expect(swapHookPermissions('0x000000000000000000000000000000000000000c')).toEqual(['beforeSwapReturnDelta', 'afterSwapReturnDelta']);
    // Every other permission (initialize, liquidity, donate, liquidity return deltas) leaves the swap alone; bits
    // above the 14 flags are the address's.
    expect(swapHookPermissions('0x1234000000000000000000000000000000003f33')).toEqual([]);
    for (const hooks of ['0x0000000000000000000000000000000000000080', '0x0000000000000000000000000000000000000040', '0x0000000000000000000000000000000000000008', '0x0000000000000000000000000000000000000004']) {
      const state = liquidState({ hooks });
      expect(state.pool(ID)).toBeDefined();
      expect(snapshotOf(state)).toBeUndefined();
      expect(state.managedFeeReads(context)).toEqual([]);
      expect(kindModule('uniswap-v4')!.exclusion!(state.pool(ID)!, context)).toBe(hookExclusion(hooks));
    }
    expect(uniswapV4Exclusion(liquidState({ hooks: '0x00000000000000000000000000000000000000c0' }).pool(ID)!, context)).toBe(
      "hook 0x00000000000000000000000000000000000000c0 may change swaps (beforeSwap, afterSwap); not on the source's hook list",
    );
    const routed = liquidState({ hooks: '0x0000000000000000000000000000000000002010' });
    expect(uniswapV4Exclusion(routed.pool(ID)!, context)).toBeUndefined();
    expect(snapshotOf(routed)).toBeDefined();
  });

  it("routes a listed hook's pools as its listing says: exact on the tick maths, sampled on the V4Quoter's samples", () => {
    const QUOTER = '0x9999999999999999999999999999999999999999';
    const SWAP_GUARD = '0x0000000000000000000000000000000000000080';
    const DELTA_FEE = '0x0000000000000000000000000000000000000088';
    const listed: RoutingContext = {
      ...context,
      sources: [
        {
          ...context.sources[0],
          v4Quoter: QUOTER,
          hooks: [
            { address: SWAP_GUARD, name: 'guard', quote: 'exact' },
            { address: DELTA_FEE, name: 'fee taker', quote: 'sampled' },
          ],
        },
      ],
    };
    const snapshotIn = (state: ChainLiquidityState, ctx: RoutingContext) => routingView(state, ctx).pools.find((p) => p.address === ID) as UniswapV4PoolSnapshot | undefined;
    // Exact: the tick maths, as a hookless pool, its swaps quoted again by the source's V4Quoter; not sampled.
    const guarded = liquidState({ hooks: SWAP_GUARD });
    expect(uniswapV4Exclusion(guarded.pool(ID)!, listed)).toBeUndefined();
    expect(snapshotIn(guarded, listed)!.sampled).toBeUndefined();
    expect(snapshotIn(guarded, listed)!.quoter).toBe(QUOTER);
    expect(snapshotIn(liquidState(), listed)!.quoter).toBeUndefined();
    expect(kindModule('uniswap-v4')!.sampling!(guarded.pool(ID)!, listed)).toBeUndefined();
    // Listed exact although it returns deltas: left out, with the fix.
    const misfiled: RoutingContext = { ...listed, sources: [{ ...listed.sources[0], hooks: [{ address: DELTA_FEE, name: 'fee taker', quote: 'exact' }] }] };
    expect(uniswapV4Exclusion(liquidState({ hooks: DELTA_FEE }).pool(ID)!, misfiled)).toBe(
      `hook ${DELTA_FEE} (fee taker) is listed to be quoted exactly but may change a swap's amounts (beforeSwapReturnDelta); list it as sampled`,
    );
    // Sampled: routed only with samples, whose legs are the pool's; ladders laid on the tick legs, increasing.
    const state = liquidState({ hooks: DELTA_FEE });
    expect(uniswapV4Exclusion(state.pool(ID)!, listed)).toBeUndefined();
    expect(snapshotIn(state, listed)).toBeUndefined();
    const sampling = kindModule('uniswap-v4')!.sampling!(state.pool(ID)!, listed)!;
    expect(sampling.quoter).toBe(QUOTER);
    for (const ladder of [sampling.ladder0to1, sampling.ladder1to0]) {
      expect(ladder.length).toBeGreaterThan(4);
      expect(ladder.length).toBeLessThanOrEqual(UNISWAP_V4_LADDER_SIZE);
      expect(ladder.every((a, i) => i === 0 || a > ladder[i - 1])).toBe(true);
    }
    // The top takes 98% of what the positions hold on the output side: more than the narrow position's, less than all.
    const tick = snapshotIn(liquidState(), context)!;
    const [leg01] = legsOf(tick).filter((l) => l.tokenIn === W);
    const top = sampling.ladder0to1[sampling.ladder0to1.length - 1];
    expect(Number(leg01.quote(top))).toBeGreaterThan(0.97 * leg01.approxOut(leg01.maxInApprox));
    expect(top).toBeLessThanOrEqual(leg01.maxIn!);
    const samples = (ladder: readonly bigint[], leg: Leg) => ladder.map((amountIn) => ({ amountIn, amountOut: (leg.quote(amountIn) * 999n) / 1000n }));
    const [leg10] = legsOf(tick).filter((l) => l.tokenIn === B);
    expect(state.setPoolSamples(ID, { block: 2n, samples0to1: samples(sampling.ladder0to1, leg01), samples1to0: samples(sampling.ladder1to0, leg10) })).toBe(true);
    const sampled = snapshotIn(state, listed)!;
    expect(sampled.sampled!.quoter).toBe(QUOTER);
    const [sampledLeg] = legsOf(sampled).filter((l) => l.tokenIn === W);
    expect(sampledLeg.quote(sampling.ladder0to1[3])).toBe((leg01.quote(sampling.ladder0to1[3]) * 999n) / 1000n);
    expect(sampledLeg.maxIn).toBe(top);
    // Not listed at all: no samples are taken, the pool is left out.
    expect(kindModule('uniswap-v4')!.sampling!(state.pool(ID)!, context)).toBeUndefined();
    expect(snapshotIn(state, context)).toBeUndefined();
  });

  it('does not route the native coin against its own wrapped token', () => {
    const state = liquidState({ currency1: W, token1: W });
    expect(snapshotOf(state)).toBeUndefined();
    expect(uniswapV4Exclusion(state.pool(ID)!, context)).toBe(`the native coin against its own wrapped token ${W}`);
  });

  it('reads a pool held without its key and state whole, then follows its facts', () => {
    const stored: PoolRecord = { kind: 'uniswap-v4', address: ID, routerIndex: 9, token0: W, token1: B, createdBlock: 1n, at: { block: 1n, logIndex: Number.MAX_SAFE_INTEGER } };
    const state = new ChainLiquidityState(999, {}, { block: 5n, pools: [stored], tokens: [] });
    expect(state.statelessManagedPools().map((p) => p.address)).toEqual([ID]);
    expect(state.apply({ type: 'positionChanged', ...at(6n, 0), tickLower: -10, tickUpper: 10, liquidityDelta: L })).toBe('unknown');
    const read: ManagedPoolRead = {
      poolManager: MANAGER,
      key: { currency0: NATIVE, currency1: B, fee: 500, tickSpacing: 10, hooks: NATIVE },
      state: { sqrtPriceX96: Q96, tick: 0, protocolFee: 7, lpFee: 500, liquidity: L, ticks: [{ index: -10, liquidityNet: L, liquidityGross: L }, { index: 10, liquidityNet: -L, liquidityGross: L }] },
    };
    expect(state.setManagedState(ID, read, 4n)).toBe(false);
    expect(state.setManagedState(ID, read, 5n)).toBe(true);
    expect(state.setManagedState(ID, read, 5n)).toBe(false);
    expect(state.statelessManagedPools()).toEqual([]);
    expect(state.apply({ type: 'positionChanged', ...at(6n, 1), tickLower: -10, tickUpper: 10, liquidityDelta: L })).toBe('applied');
    expect(state.apply(processed(6n))).toBe('applied');
    expect(snapshotOf(state)).toMatchObject({ token0: W, token1: B, fee: 500, protocolFee: 7, tickSpacing: 10, liquidity: 2n * L, poolManager: MANAGER });
    expect(tickList(state.pool(ID)!.concentrated!.ticks)).toEqual([{ index: -10, liquidityNet: 2n * L }, { index: 10, liquidityNet: -2n * L }]);
  });

  it("maps the PoolManager's published events to the state's facts", () => {
    const log = { chainId: 999, blockNumber: '7', blockHash: `0x${'0'.repeat(64)}`, timestamp: 1, logIndex: 4, txHash: `0x${'1'.repeat(64)}`, address: ID };
    const fact = (payload: object) => concentratedFactOf(chainEventSchemas[CHAIN_FACTS.poolConcentrated].parse({ ...log, ...payload }));
    const position = { block: 7n, logIndex: 4, pool: ID };
    expect(fact({ event: 'modifyLiquidity', sender: B, tickLower: -60, tickUpper: 60, liquidityDelta: '-5', salt: `0x${'0'.repeat(64)}` })).toEqual({ type: 'positionChanged', ...position, tickLower: -60, tickUpper: 60, liquidityDelta: -5n });
    expect(fact({ event: 'swap', sender: B, sqrtPriceX96: '5', tick: -3, liquidity: '9', amount0: '-1', amount1: '2', fee: 3000 })).toEqual({ type: 'concentratedSwapped', ...position, sqrtPriceX96: 5n, tick: -3, liquidity: 9n, fee: 3000 });
    expect(fact({ event: 'donate', sender: B, amount0: '1', amount1: '2' })).toEqual({ type: 'poolDonated', ...position });
    expect(fact({ event: 'protocolFee', protocolFee: 1000 })).toEqual({ type: 'protocolFeeChanged', ...position, protocolFee: 1000 });
  });

  it('maps a published V4 pool creation (its Initialize) to a creation with the key and first price, and starts the pool from it', () => {
    const base = { chainId: 999, blockNumber: '1', blockHash: `0x${'0'.repeat(64)}`, timestamp: 1, routerIndex: 9, token0: W, token1: B, stable: false };
    const payload = { ...base, address: ID, kind: 'uniswap-v4', fee: 3000, tickSpacing: 60, poolManager: MANAGER, currency0: NATIVE, currency1: B, hooks: NATIVE, sqrtPriceX96: Q96.toString(), tick: 0 };
    const mapped = poolCreatedFactOf(chainEventSchemas[CHAIN_FACTS.poolCreated].parse(payload))!;
    // Addresses come checksummed from the schema: the same pool as the fixture's creation, case aside.
    const lower = (fact: object) => Object.fromEntries(Object.entries(fact).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('0x') ? v.toLowerCase() : v]));
    expect(lower(mapped)).toEqual(lower(created()));
    const state = new ChainLiquidityState(999);
    expect(state.apply(mapped)).toBe('applied');
    expect(state.pool(ID)!.uniswapV4).toMatchObject({ currency0: NATIVE, dynamicFee: false, protocolFee: 0 });
    // A pool contract's creation: no V4 fields.
    const v3 = poolCreatedFactOf(chainEventSchemas[CHAIN_FACTS.poolCreated].parse({ ...base, address: B, kind: 'uniswap-v3', fee: 500, tickSpacing: 10 }))!;
    expect(lower(v3)).toEqual({ type: 'poolCreated', block: 1n, kind: 'uniswap-v3', address: B, routerIndex: 9, token0: W, token1: B, fee: 500, tickSpacing: 10 });
  });
});
