import { GRADUATION_TOKEN_RESERVE, legsOf, poolModule, SWAP_GAS_BY_KIND, VIRTUAL_NATIVE_LIQUIDITY, type PoolSnapshot, type QuoteSample } from '@dex/routing';
import { newConcentratedState, type ConcentratedState } from '../concentrated-state';
import type { PoolFact } from '../facts';
import type { PoolSamples, PoolKindState, PoolRecord } from '../pool-record';
import type { SnapshotInputs } from './kind-module';
import { isConcentratedKind, isManagedKind, KIND_MODULES, kindModule } from './registry';

const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const W = '0x' + 'f'.repeat(40);
const LAUNCHPAD = '0x' + 'd'.repeat(40);
const MANAGER = '0x' + 'e'.repeat(40);
const NO_HOOK = '0x' + '0'.repeat(40);
const Q96 = 2n ** 96n;
const KINDS = Object.keys(KIND_MODULES) as (keyof typeof KIND_MODULES)[];

/** The engine's module of a kind (it throws for a kind it does not route). */
const engineModule = (kind: string) => poolModule({ kind, address: A } as unknown as PoolSnapshot);

/** One fact of each type that moves a pool, all of block 2. */
const at = { block: 2n, logIndex: 0, pool: A };
const FACTS: readonly PoolFact[] = [
  { type: 'reservesSynced', ...at, reserve0: 5n, reserve1: 7n },
  { type: 'curveTraded', block: 2n, logIndex: 0, token: A, nativeReserve: 5n, tokenReserve: 7n },
  { type: 'tokenGraduated', block: 2n, logIndex: 0, token: A },
  { type: 'poolInitialized', ...at, sqrtPriceX96: Q96, tick: 0 },
  { type: 'positionChanged', ...at, tickLower: -60, tickUpper: 60, liquidityDelta: 10n },
  { type: 'concentratedSwapped', ...at, sqrtPriceX96: Q96, tick: 1, liquidity: 10n },
  { type: 'poolFeeChanged', ...at, fee: 100 },
  { type: 'tickSpacingChanged', ...at, tickSpacing: 10 },
  { type: 'poolDonated', ...at },
  { type: 'protocolFeeChanged', ...at, protocolFee: 1000 },
];
const CONCENTRATED_FACTS = ['poolInitialized', 'positionChanged', 'concentratedSwapped', 'poolFeeChanged', 'tickSpacingChanged'];
/** A V4 pool's key as its pool-created fact carries it (the other kinds' creations name no PoolManager). */
const V4_KEY = { poolManager: MANAGER, currency0: A, currency1: B, hooks: NO_HOOK };
/** A V4 pool's first price, as its Initialize (its pool-created fact) carries it. */
const V4_PRICE = { sqrtPriceX96: Q96, tick: 0 };

const record = (kind: PoolRecord['kind'], state: PoolKindState = {}): PoolRecord => ({
  kind,
  address: A,
  routerIndex: 1,
  token0: A,
  token1: B,
  createdBlock: 1n,
  at: { block: 1n, logIndex: -1 },
  ...state,
});

const ladder = (rate: bigint): QuoteSample[] => [1n, 10n, 100n, 1_000n].map((n) => ({ amountIn: n * 10n ** 18n, amountOut: n * rate * 10n ** 17n }));
const SAMPLES: PoolSamples = { block: 1n, samples0to1: ladder(20n), samples1to0: ladder(5n) };
const LIQUID: ConcentratedState = {
  ...newConcentratedState({ fee: 3000, tickSpacing: 60 }),
  sqrtPriceX96: Q96,
  liquidity: 10n ** 20n,
  ticks: new Map([
    [-60, { liquidityNet: 10n ** 20n, liquidityGross: 10n ** 20n }],
    [60, { liquidityNet: -(10n ** 20n), liquidityGross: 10n ** 20n }],
  ]),
};
/** A state with something to trade, by kind. */
const TRADING: Record<PoolRecord['kind'], PoolKindState> = {
  'uniswap-v2': { reserves: { reserve0: 10n ** 24n, reserve1: 2n * 10n ** 24n } },
  stable: { reserves: { reserve0: 10n ** 24n, reserve1: 10n ** 24n } },
  core: {},
  launchpad: { curve: { nativeReserve: VIRTUAL_NATIVE_LIQUIDITY + 10n ** 18n, tokenReserve: GRADUATION_TOKEN_RESERVE + 10n ** 22n, graduated: false } },
  'uniswap-v3': { concentrated: LIQUID },
  algebra: { concentrated: LIQUID },
  'uniswap-v4': { concentrated: LIQUID, uniswapV4: { poolManager: MANAGER, currency0: A, currency1: B, dynamicFee: false, hooks: NO_HOOK, protocolFee: 0 } },
  // Curve pairs trade once sampled (their record is named by its pair id: `curveRecord`).
  'curve-stableswap-ng': {},
  'curve-twocrypto-ng': {},
};
/** A Curve pool's pair 0/2 as its record names it, and the samples with what the read found of the pool. */
const CURVE_PAIR = `${A}:0:2`;
const CURVE_SAMPLES: PoolSamples = { ...SAMPLES, curve: { exchangeReceived: true, fee: 4_000_000n, A: 200n, nCoins: 3 } };

const inputs = (pool: PoolRecord, samples?: PoolSamples): SnapshotInputs => ({
  identity: { address: pool.address, routerIndex: 1, routerName: pool.kind, token0: pool.token0, token1: pool.token1, decimals0: 18, decimals1: 18 },
  source: { routerIndex: 1, kind: pool.kind, name: pool.kind },
  context: { sources: [], wrappedNative: W, launchpad: LAUNCHPAD },
  decimals: () => 18,
  samples: () => samples,
});

describe('liquidity kind modules', () => {
  it('lists one module per kind, under its own kind; none for another kind', () => {
    for (const kind of KINDS) expect(kindModule(kind)).toBe(KIND_MODULES[kind]);
    for (const kind of KINDS) expect(KIND_MODULES[kind].kind).toBe(kind);
    expect(kindModule('unknown')).toBeUndefined();
    expect(kindModule('toString')).toBeUndefined();
  });

  it("keeps every kind the engine routes and no other (the registry's type says so too)", () => {
    for (const kind of KINDS) expect(engineModule(kind).kind).toBe(kind);
    // The engine's swap kinds (every kind's gas) all come from the modules of the kinds kept here.
    const swaps = new Set(KINDS.flatMap((kind) => Object.keys(engineModule(kind).gas.swaps)));
    expect(new Set(Object.keys(SWAP_GAS_BY_KIND))).toEqual(swaps);
  });

  it("starts a pool with its kind's state", () => {
    const created = (kind: PoolRecord['kind']) =>
      KIND_MODULES[kind].created({ type: 'poolCreated', block: 1n, kind, address: A, routerIndex: 1, token0: A, token1: B, fee: 500, tickSpacing: 10 });
    expect(Object.fromEntries(KINDS.map((kind) => [kind, created(kind)]))).toEqual({
      'uniswap-v2': { reserves: { reserve0: 0n, reserve1: 0n } },
      stable: { reserves: { reserve0: 0n, reserve1: 0n } },
      core: {},
      launchpad: {},
      'uniswap-v3': { concentrated: newConcentratedState({ fee: 500, tickSpacing: 10 }) },
      algebra: { concentrated: newConcentratedState({ fee: 500, tickSpacing: 10 }) },
      // Announced without its key: read whole through its PoolManager later.
      'uniswap-v4': {},
      'curve-stableswap-ng': {},
      'curve-twocrypto-ng': {},
    });
    expect(KIND_MODULES['uniswap-v4'].created({ type: 'poolCreated', block: 1n, kind: 'uniswap-v4', address: A, routerIndex: 1, token0: A, token1: B, fee: 500, tickSpacing: 10, ...V4_KEY, ...V4_PRICE })).toEqual({
      uniswapV4: { ...V4_KEY, dynamicFee: false, protocolFee: 0 },
      concentrated: { ...newConcentratedState({ fee: 500, tickSpacing: 10 }), ...V4_PRICE },
    });
  });

  it('applies to a pool the facts of its kind only', () => {
    const applied = (kind: PoolRecord['kind']) => {
      const pool = record(kind, KIND_MODULES[kind].created({ type: 'poolCreated', block: 1n, kind, address: A, routerIndex: 1, token0: A, token1: B, ...(kind === 'uniswap-v4' ? { ...V4_KEY, ...V4_PRICE, fee: 500, tickSpacing: 10 } : {}) }));
      return FACTS.filter((fact) => KIND_MODULES[kind].apply(pool, fact) !== undefined).map((fact) => fact.type);
    };
    expect(Object.fromEntries(KINDS.map((kind) => [kind, applied(kind)]))).toEqual({
      'uniswap-v2': ['reservesSynced'],
      stable: ['reservesSynced'],
      core: [],
      launchpad: ['curveTraded', 'tokenGraduated'],
      'uniswap-v3': CONCENTRATED_FACTS,
      algebra: CONCENTRATED_FACTS,
      'uniswap-v4': ['positionChanged', 'concentratedSwapped', 'poolDonated', 'protocolFeeChanged'],
      'curve-stableswap-ng': [],
      'curve-twocrypto-ng': [],
    });
    // A concentrated pool held without its state takes none of its facts.
    expect(FACTS.filter((fact) => KIND_MODULES.algebra.apply(record('algebra'), fact))).toEqual([]);
    expect(FACTS.filter((fact) => KIND_MODULES['uniswap-v4'].apply(record('uniswap-v4'), fact))).toEqual([]);
  });

  it('routes a pool with something to trade, as a snapshot of its kind the engine trades both ways', () => {
    for (const kind of KINDS) {
      const curve = KIND_MODULES[kind].curve !== undefined;
      const pool = { ...record(kind, TRADING[kind]), ...(curve ? { address: CURVE_PAIR } : {}) };
      const snapshot = KIND_MODULES[kind].snapshot(pool, inputs(pool, curve ? CURVE_SAMPLES : SAMPLES));
      expect(snapshot?.kind).toBe(kind);
      expect(legsOf(snapshot!)).toHaveLength(2);
      // Nothing to trade yet: not routed.
      expect(KIND_MODULES[kind].snapshot(record(kind), inputs(record(kind)))).toBeUndefined();
    }
  });

  it("names a Curve pair's pool and coins, and routes it only once sampled with what the read found of its pool", () => {
    const pool = { ...record('curve-stableswap-ng'), address: CURVE_PAIR };
    expect(KIND_MODULES['curve-stableswap-ng'].snapshot(pool, inputs(pool, CURVE_SAMPLES))).toMatchObject({ pool: A, i: 0, j: 2, exchangeReceived: true, fee: 4_000_000n, A: 200n, nCoins: 3 });
    expect(KIND_MODULES['curve-stableswap-ng'].snapshot(pool, inputs(pool, SAMPLES))).toBeUndefined();
    // A record not named by a pair id is no Curve pair.
    expect(KIND_MODULES['curve-twocrypto-ng'].snapshot(record('curve-twocrypto-ng'), inputs(record('curve-twocrypto-ng'), CURVE_SAMPLES))).toBeUndefined();
  });

  it('samples the core pools and Curve pairs, keeps a concentrated state for the concentrated kinds', () => {
    expect(KINDS.filter((kind) => KIND_MODULES[kind].sampled)).toEqual(['core', 'curve-stableswap-ng', 'curve-twocrypto-ng']);
    expect(KINDS.filter((kind) => KIND_MODULES[kind].curve)).toEqual(['curve-stableswap-ng', 'curve-twocrypto-ng']);
    expect(KINDS.filter((kind) => KIND_MODULES[kind].concentrated)).toEqual(['uniswap-v3', 'algebra']);
    expect(KINDS.filter(isConcentratedKind)).toEqual(['uniswap-v3', 'algebra']);
    expect(isConcentratedKind('unknown')).toBe(false);
    expect(KINDS.filter((kind) => KIND_MODULES[kind].reserves)).toEqual(['uniswap-v2', 'stable']);
    // V4 pools keep a concentrated state too, read through their PoolManager.
    expect(KINDS.filter(isManagedKind)).toEqual(['uniswap-v4']);
  });

  it('restores from a store what each kind keeps', () => {
    const stored = { reserves: { reserve0: 1n, reserve1: 2n }, curve: { nativeReserve: 3n, tokenReserve: 4n, graduated: false } };
    expect(Object.fromEntries(KINDS.map((kind) => [kind, KIND_MODULES[kind].restored(stored)]))).toEqual({
      'uniswap-v2': { reserves: stored.reserves },
      stable: { reserves: stored.reserves },
      core: {},
      launchpad: { curve: stored.curve },
      'uniswap-v3': {},
      algebra: {},
      'uniswap-v4': {},
      'curve-stableswap-ng': {},
      'curve-twocrypto-ng': {},
    });
    expect(KIND_MODULES['uniswap-v2'].restored({})).toEqual({});
    expect(KIND_MODULES.launchpad.restored({})).toEqual({});
  });
});
