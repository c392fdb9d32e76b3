import { CHAIN_FACTS, chainEventSchemas } from '@dex/messages';
import type { ChainFactMessage } from '@dex/service';
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
