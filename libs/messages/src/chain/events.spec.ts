import { chainSourcesSchema } from '../aggregator/sources';
import { isV4PoolId, poolConcentratedEventSchema, poolCreatedEventSchema, poolIdSchema, V4_DYNAMIC_FEE_FLAG } from './events';

const ID = `0x${'ab'.repeat(32)}`;
const POOL = '0x1111111111111111111111111111111111111111';
const TOKEN_A = '0x2222222222222222222222222222222222222222';
const TOKEN_B = '0x3333333333333333333333333333333333333333';
const MANAGER = '0x4444444444444444444444444444444444444444';
const NATIVE = '0x0000000000000000000000000000000000000000';
const base = { chainId: 999, blockNumber: '12', blockHash: `0x${'0'.repeat(64)}`, timestamp: 1 };
const log = { ...base, logIndex: 3, txHash: `0x${'1'.repeat(64)}` };

const v3Created = { ...base, address: POOL, kind: 'uniswap-v3', routerIndex: 5, token0: TOKEN_A, token1: TOKEN_B, stable: false, fee: 500, tickSpacing: 10 };
const v4Created = {
  ...base,
  address: ID,
  kind: 'uniswap-v4',
  routerIndex: 9,
  token0: TOKEN_B,
  token1: TOKEN_A,
  stable: false,
  fee: 3000,
  tickSpacing: 60,
  poolManager: MANAGER,
  currency0: NATIVE,
  currency1: TOKEN_A,
  hooks: NATIVE,
  sqrtPriceX96: '79228162514264337593543950336',
  tick: -1,
};

describe('pool identity', () => {
  it('is an address, or a lowercase 32-byte V4 pool id', () => {
    expect(poolIdSchema.parse(POOL.toUpperCase().replace('0X', '0x'))).toBe(POOL);
    expect(poolIdSchema.parse(ID)).toBe(ID);
    for (const bad of [ID.toUpperCase().replace('0X', '0x'), ID.slice(0, 64), `${ID}00`, 'ab'.repeat(32)]) expect(poolIdSchema.safeParse(bad).success).toBe(false);
    expect([isV4PoolId(ID), isV4PoolId(POOL)]).toEqual([true, false]);
  });
});

describe('pool.created', () => {
  it('takes every kind as before, named by its address', () => {
    expect(poolCreatedEventSchema.parse(v3Created)).toMatchObject({ address: POOL, kind: 'uniswap-v3', fee: 500 });
    expect(poolCreatedEventSchema.parse({ ...v3Created, kind: 'uniswap-v2', fee: undefined, tickSpacing: undefined }).kind).toBe('uniswap-v2');
    // A pool id is not an address for the kinds whose pools are contracts.
    expect(poolCreatedEventSchema.safeParse({ ...v3Created, address: ID }).success).toBe(false);
  });

  it('takes a V4 pool by its PoolId with its key and PoolManager', () => {
    expect(poolCreatedEventSchema.parse(v4Created)).toMatchObject({ address: ID, kind: 'uniswap-v4', currency0: NATIVE, token0: TOKEN_B, hooks: NATIVE, poolManager: MANAGER });
    expect((poolCreatedEventSchema.parse({ ...v4Created, fee: V4_DYNAMIC_FEE_FLAG }) as { fee?: number }).fee).toBe(0x800000);
  });

  it('refuses a V4 pool named by an address, without its key, with a fee no key can have, or marked stable', () => {
    expect(poolCreatedEventSchema.safeParse({ ...v4Created, address: POOL }).success).toBe(false);
    for (const field of ['poolManager', 'currency0', 'currency1', 'hooks', 'fee', 'tickSpacing', 'sqrtPriceX96', 'tick'] as const) {
      const { [field]: _, ...without } = v4Created;
      expect({ field, ok: poolCreatedEventSchema.safeParse(without).success }).toEqual({ field, ok: false });
    }
    for (const fee of [1_000_001, 0x400000, -1]) expect(poolCreatedEventSchema.safeParse({ ...v4Created, fee }).success).toBe(false);
    expect(poolCreatedEventSchema.safeParse({ ...v4Created, tickSpacing: 32_768 }).success).toBe(false);
    expect(poolCreatedEventSchema.safeParse({ ...v4Created, stable: true }).success).toBe(false);
  });
});

describe('pool.concentrated', () => {
  const v3Swap = { ...log, address: POOL, event: 'swap', sqrtPriceX96: '79228162514264337593543950336', tick: 0, liquidity: '10', amount0: '-5', amount1: '6' };
  const v4 = { ...log, address: ID };

  it("takes a pool contract's events as before, and none named by a pool id", () => {
    expect(poolConcentratedEventSchema.parse(v3Swap)).toMatchObject({ address: POOL, event: 'swap' });
    expect(poolConcentratedEventSchema.parse({ ...log, address: POOL, event: 'mint', owner: TOKEN_A, tickLower: -60, tickUpper: 60, liquidity: '1', amount0: '1', amount1: '1' }).event).toBe('mint');
    expect(poolConcentratedEventSchema.safeParse({ ...v3Swap, address: ID }).success).toBe(false);
  });

  it("takes a V4 pool's ModifyLiquidity, Swap (with its fee), Donate and protocol fee by its pool id (its Initialize is its pool.created)", () => {
    expect(poolConcentratedEventSchema.safeParse({ ...v4, event: 'initialize', sqrtPriceX96: '79228162514264337593543950336', tick: 0 }).success).toBe(false);
    const events = [
      { ...v4, event: 'modifyLiquidity', sender: TOKEN_A, tickLower: -120, tickUpper: 60, liquidityDelta: '-1000', salt: `0x${'0'.repeat(64)}` },
      { ...v3Swap, ...v4, event: 'swap', sender: TOKEN_A, fee: 3000 },
      { ...v4, event: 'donate', sender: TOKEN_A, amount0: '1', amount1: '0' },
      { ...v4, event: 'protocolFee', protocolFee: 1000 | (500 << 12) },
    ];
    for (const e of events) expect(poolConcentratedEventSchema.parse(e)).toMatchObject({ address: ID, event: e.event });
  });

  it('refuses a V4 event named by an address, or a V4 swap without its fee', () => {
    expect(poolConcentratedEventSchema.safeParse({ ...log, address: POOL, event: 'donate', sender: TOKEN_A, amount0: '1', amount1: '0' }).success).toBe(false);
    expect(poolConcentratedEventSchema.safeParse({ ...v3Swap, ...v4, sender: TOKEN_A }).success).toBe(false);
    expect(poolConcentratedEventSchema.safeParse({ ...v4, event: 'modifyLiquidity', sender: TOKEN_A, tickLower: -120, tickUpper: 60, liquidityDelta: '1.5', salt: `0x${'0'.repeat(64)}` }).success).toBe(false);
  });
});

describe('sources', () => {
  const v4Source = { name: 'V4', kind: 'uniswap-v4', routerIndex: 9, addresses: { factory: MANAGER } };
  const v3Source = { name: 'V3', kind: 'uniswap-v3', routerIndex: 5, addresses: { factory: POOL } };

  it('take uniswap-v4 among the kinds, each source in its own registry slot', () => {
    expect(chainSourcesSchema.parse([v3Source, v4Source]).map((s) => s.kind)).toEqual(['uniswap-v3', 'uniswap-v4']);
    expect(chainSourcesSchema.safeParse([v3Source, { ...v4Source, routerIndex: 5 }]).success).toBe(false);
  });
});
