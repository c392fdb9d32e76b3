/**
 * Curve's NG pools (StableswapNG, TwocryptoNG): each coin pair i < j of a pool is a record of its own, named by its
 * pair id (`curvePairId`: the pool, then i and j), token0 and token1 the pool's coins i and j. No fact moves them: a
 * pool's price is its own maths at its own state (rates, ramps, repegging), read at each block the pool changed by its
 * `get_dy` (`setPoolSamples`, with what the read found of the pool: `PoolSamples.curve`). A pair is routed while it
 * has samples.
 */
import { parseCurvePairId, type CurveKind } from '@dex/messages';
import type { LiquidityKindModule } from './kind-module';

function curveKind<K extends CurveKind>(kind: K, flavor: 'stableswap-ng' | 'twocrypto-ng'): LiquidityKindModule<K> {
  return {
    kind,
    created: () => ({}),
    apply: () => undefined,
    snapshot(pool, inputs) {
      const pair = parseCurvePairId(pool.address);
      const s = inputs.samples();
      if (!pair || !s?.curve || (s.samples0to1.length === 0 && s.samples1to0.length === 0)) return undefined;
      const { exchangeReceived, fee, A, nCoins } = s.curve;
      return { kind, ...inputs.identity, pool: pair.pool, i: pair.i, j: pair.j, samples0to1: s.samples0to1, samples1to0: s.samples1to0, exchangeReceived, fee, A, nCoins } as never;
    },
    sampled: true,
    curve: flavor,
    concentrated: false,
    reserves: false,
    restored: () => ({}),
  };
}

export const curveStableswapNGKind = curveKind('curve-stableswap-ng', 'stableswap-ng');
export const curveTwocryptoNGKind = curveKind('curve-twocrypto-ng', 'twocrypto-ng');
