import { concentrated, stateAt, uniswapV4 } from '../../test/concentrated-fixtures';
import { core, launchpad, stable, units, v2 } from '../../test/fixtures';
import { VIRTUAL_NATIVE_LIQUIDITY } from './launchpad/launchpad-curve';
import { legsOf } from './legs';
import type { PoolSnapshot } from './pool-snapshot';
import { KINDS_TRADING_WHAT_ARRIVES, poolFeeBps, poolModule, POOL_MODULES, tradesWhatArrives, transfersTokens } from './registry';

const curve = { nativeReserve: VIRTUAL_NATIVE_LIQUIDITY + 10n ** 18n, tokenReserve: 10n ** 15n, tokensForSale: 7n * 10n ** 14n };
const pools = {
  'uniswap-v2': v2('WHYPE', 'USDC', 4000, 100_000, 25),
  stable: stable('USDC', 'DAI', 600_000, 400_000, 4),
  core: core('WHYPE', 'USDC', (x) => (x * 25n) / 10n ** 12n, (x) => (x * 10n ** 12n) / 25n, units('WHYPE', 1000), units('USDC', 25_000)),
  launchpad: launchpad('MEME', curve),
  'uniswap-v3': concentrated('uniswap-v3', 'WHYPE', 'USDC', stateAt(-260_000, [{ lower: -261_000, upper: -259_000, liquidity: 10n ** 15n }], 500, 10)),
  algebra: concentrated('algebra', 'WHYPE', 'USDC', stateAt(-260_000, [{ lower: -261_000, upper: -259_000, liquidity: 10n ** 15n }], 1234, 60)),
  'uniswap-v4': uniswapV4('WHYPE', 'USDC', stateAt(-260_000, [{ lower: -261_000, upper: -259_000, liquidity: 10n ** 15n }], 3000, 60), { native: true }),
  'curve-stableswap-ng': { ...core('USDC', 'DAI', (x) => x * 10n ** 12n, (x) => x / 10n ** 12n, units('USDC', 1e6), units('DAI', 1e6)), kind: 'curve-stableswap-ng', pool: '0x00000000000000000000000000000000000000c1', i: 0, j: 2, exchangeReceived: false, fee: 4_000_000n, A: 200n, nCoins: 3 },
  'curve-twocrypto-ng': { ...core('WHYPE', 'USDC', (x) => (x * 25n) / 10n ** 12n, (x) => (x * 10n ** 12n) / 25n, units('WHYPE', 1000), units('USDC', 25_000)), kind: 'curve-twocrypto-ng', pool: '0x00000000000000000000000000000000000000c2', i: 0, j: 1, exchangeReceived: true },
} satisfies Record<PoolSnapshot['kind'], PoolSnapshot>;

describe('pool modules', () => {
  it('lists one module per kind, under its own kind', () => {
    for (const [kind, module] of Object.entries(POOL_MODULES)) expect(module.kind).toBe(kind);
    for (const pool of Object.values(pools)) expect(poolModule(pool)).toBe(POOL_MODULES[pool.kind]);
  });

  it('gives fixed fees, none for core and Algebra pools (dynamic), the launchpad default of 1%, V3 tiers and V4 static LP fees in bps', () => {
    expect(Object.values(pools).map(poolFeeBps)).toEqual([25, 4, undefined, 100, 5, undefined, 30, undefined, undefined]);
    expect(poolFeeBps({ ...pools['uniswap-v4'], dynamicFee: true })).toBeUndefined();
    expect(poolFeeBps(launchpad('MEME', { ...curve, feeBps: 50n }))).toBe(50);
  });

  it("gives each pool's fee in its own units (pips for the concentrated kinds) and the concentrated kinds' tick spacing", () => {
    const fee = (pool: PoolSnapshot) => poolModule(pool).fee(pool);
    const spacing = (pool: PoolSnapshot) => poolModule(pool).tickSpacing(pool);
    expect(Object.values(pools).map(fee)).toEqual([25, 4, undefined, 100, pools['uniswap-v3'].fee, pools.algebra.fee, 3000, 400, undefined]);
    expect(pools['uniswap-v3'].fee).toBe(500);
    expect(Object.values(pools).map(spacing)).toEqual([undefined, undefined, undefined, undefined, pools['uniswap-v3'].tickSpacing, 60, 60, undefined, undefined]);
  });

  it('marks the stable kind stable, refines and re-quotes core pools on chain', () => {
    const flags = (pool: PoolSnapshot) => {
      const module = poolModule(pool);
      return [module.stable, module.refineSplits(pool), module.quotedOnChain(pool)];
    };
    expect(Object.values(pools).map(flags)).toEqual([
      [false, false, false],
      [true, false, false],
      [false, true, true],
      [false, false, false],
      [false, false, false],
      [false, false, false],
      [false, false, false],
      [false, true, true],
      [false, true, true],
    ]);
  });

  it("calls a Curve pair's pool, paid by exchange_received unless the pool holds a rebasing coin", () => {
    const target = (pool: PoolSnapshot) => poolModule(pool).routerSwap?.(pool);
    expect(target(pools['curve-twocrypto-ng'])).toEqual({ pool: pools['curve-twocrypto-ng'].pool, data: '0x', poolId: pools['curve-twocrypto-ng'].address });
    expect(target(pools['curve-stableswap-ng'])?.data).toBe(`0x${'0'.repeat(63)}1`);
  });

  it('trades what arrives (a fee-on-transfer token) through V2 and stable pools only', () => {
    expect(Object.values(pools).map((pool) => tradesWhatArrives(pool.kind))).toEqual([true, true, false, false, false, false, false, false, false]);
    expect(KINDS_TRADING_WHAT_ARRIVES).toEqual(['uniswap-v2', 'stable']);
    expect(tradesWhatArrives('unknown')).toBe(false);
  });

  it('moves tokens to and from the pool (a V4 pool: its PoolManager) for every kind but launchpad curves', () => {
    expect(Object.fromEntries(Object.values(pools).map((pool) => [pool.kind, transfersTokens(pool.kind)]))).toEqual({
      'uniswap-v2': true,
      stable: true,
      core: true,
      launchpad: false,
      'uniswap-v3': true,
      algebra: true,
      'uniswap-v4': true,
      'curve-stableswap-ng': true,
      'curve-twocrypto-ng': true,
    });
    expect(transfersTokens('unknown')).toBe(false);
  });

  it('has no legs for a direction the pool cannot trade, nor for a kind without a module', () => {
    expect(legsOf({ ...pools['uniswap-v2'], reserve0: 0n })).toEqual([]);
    expect(legsOf(launchpad('MEME', { ...curve, tokensForSale: 0n })).map((l) => l.tokenOut)).toEqual([pools.launchpad.nativeToken]);
    expect(legsOf({ ...pools.stable, kind: 'unknown' } as unknown as PoolSnapshot)).toEqual([]);
    expect(() => poolModule({ ...pools.stable, kind: 'unknown' } as unknown as PoolSnapshot)).toThrow('no module for kind unknown');
  });
});
