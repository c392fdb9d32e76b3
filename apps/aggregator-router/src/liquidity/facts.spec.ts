import { CHAIN_FACTS, chainEventSchemas } from '@dex/messages';
import type { ChainFactMessage } from '@dex/service';
import { getAddress } from 'viem';
import { LIQUIDITY_FACTS, liquidityFact } from './facts';

const POOL = '0x00000000000000000000000000000000000000C3';
const A = '0x00000000000000000000000000000000000000a1';
const B = '0x00000000000000000000000000000000000000b2';
const base = { chainId: 999, blockNumber: '12', blockHash: '0x' + '22'.repeat(32), timestamp: 1_000 };
const log = { ...base, logIndex: 4, txHash: '0x' + '11'.repeat(32), address: POOL };

/** A payload as the subscription hands it over: validated by the fact's schema. */
function message<F extends ChainFactMessage['fact']>(fact: F, payload: object): ChainFactMessage {
  return { chainId: 999, fact, payload: chainEventSchemas[fact].parse(payload), seq: 1 } as ChainFactMessage;
}

describe('concentrated pools in the facts the liquidity state follows', () => {
  it('follows pool.concentrated', () => {
    expect(LIQUIDITY_FACTS).toContain(CHAIN_FACTS.poolConcentrated);
  });

  it('maps a V3 pool created with its fee and tick spacing, and an Algebra pool without', () => {
    const created = { ...base, address: POOL, routerIndex: 5, token0: A, token1: B, stable: false };
    expect(liquidityFact(message(CHAIN_FACTS.poolCreated, { ...created, kind: 'uniswap-v3', fee: 500, tickSpacing: 10 }))).toMatchObject({
      type: 'poolCreated',
      kind: 'uniswap-v3',
      block: 12n,
      fee: 500,
      tickSpacing: 10,
    });
    const algebra = liquidityFact(message(CHAIN_FACTS.poolCreated, { ...created, kind: 'algebra' }));
    expect(algebra).toMatchObject({ type: 'poolCreated', kind: 'algebra' });
    expect(algebra).not.toHaveProperty('fee');
  });

  it('maps each pool event: a mint adds liquidity to its range, a burn removes it', () => {
    const at = { block: 12n, logIndex: 4 };
    const range = { owner: A, tickLower: -120, tickUpper: 60, liquidity: '1000', amount0: '1', amount1: '2' };
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'initialize', sqrtPriceX96: '79228162514264337593543950336', tick: -1 }))).toEqual({
      type: 'poolInitialized',
      ...at,
      pool: POOL,
      sqrtPriceX96: 2n ** 96n,
      tick: -1,
    });
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'mint', ...range }))).toEqual({ type: 'positionChanged', ...at, pool: POOL, tickLower: -120, tickUpper: 60, liquidityDelta: 1000n });
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'burn', ...range }))).toEqual({ type: 'positionChanged', ...at, pool: POOL, tickLower: -120, tickUpper: 60, liquidityDelta: -1000n });
    expect(
      liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'swap', sqrtPriceX96: '5', tick: -887272, liquidity: '7', amount0: '-3', amount1: '4' })),
    ).toEqual({ type: 'concentratedSwapped', ...at, pool: POOL, sqrtPriceX96: 5n, tick: -887272, liquidity: 7n });
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'fee', fee: 2500 }))).toEqual({ type: 'poolFeeChanged', ...at, pool: POOL, fee: 2500 });
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'tickSpacing', tickSpacing: 60 }))).toEqual({ type: 'tickSpacingChanged', ...at, pool: POOL, tickSpacing: 60 });
  });

  it('refuses a pool event its schema does not describe', () => {
    expect(() => message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'mint', owner: A, tickLower: 9_000_000, tickUpper: 60, liquidity: '1', amount0: '0', amount1: '0' })).toThrow();
    expect(() => message(CHAIN_FACTS.poolConcentrated, { ...log, event: 'collect' })).toThrow();
  });
});

describe('Uniswap V4 pools in the facts the liquidity state follows', () => {
  const ID = `0x${'ab'.repeat(32)}`;
  const MANAGER = '0x00000000000000000000000000000000000000d4';
  const HOOK = '0x00000000000000000000000000000000000f0080';
  const initialize = { ...base, address: ID, kind: 'uniswap-v4', routerIndex: 9, token0: A, token1: B, stable: false, fee: 0x800000, tickSpacing: 60, poolManager: MANAGER, currency0: A, currency1: B, hooks: HOOK, sqrtPriceX96: '79228162514264337593543950336', tick: 0 };

  it('maps a pool announced by its Initialize with its PoolManager, key and first price', () => {
    expect(liquidityFact(message(CHAIN_FACTS.poolCreated, initialize))).toEqual({
      type: 'poolCreated',
      block: 12n,
      kind: 'uniswap-v4',
      address: ID,
      routerIndex: 9,
      token0: getAddress(A),
      token1: getAddress(B),
      fee: 0x800000,
      tickSpacing: 60,
      poolManager: getAddress(MANAGER),
      currency0: getAddress(A),
      currency1: getAddress(B),
      hooks: getAddress(HOOK),
      sqrtPriceX96: 2n ** 96n,
      tick: 0,
    });
  });

  it('maps its PoolManager events by its PoolId', () => {
    const at = { block: 12n, logIndex: 4, pool: ID };
    const v4Log = { ...log, address: ID };
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...v4Log, event: 'modifyLiquidity', sender: A, tickLower: -60, tickUpper: 120, liquidityDelta: '-5', salt: ID }))).toEqual({
      type: 'positionChanged',
      ...at,
      tickLower: -60,
      tickUpper: 120,
      liquidityDelta: -5n,
    });
    expect(liquidityFact(message(CHAIN_FACTS.poolConcentrated, { ...v4Log, event: 'protocolFee', protocolFee: 1000 }))).toEqual({ type: 'protocolFeeChanged', ...at, protocolFee: 1000 });
  });
});
