/**
 * Core (oracle-validated AMM) pools: they price at an oracle, so no fact moves them; the state holds the samples of
 * their `estimateSwapBatch` read at each block (`setPoolSamples`), and a pool is routed while it has some.
 */
import type { LiquidityKindModule } from './kind-module';

export const coreKind: LiquidityKindModule<'core'> = {
  kind: 'core',
  created: () => ({}),
  apply: () => undefined,
  snapshot(_pool, inputs) {
    const s = inputs.samples();
    if (!s || (s.samples0to1.length === 0 && s.samples1to0.length === 0)) return undefined;
    return { kind: 'core', ...inputs.identity, samples0to1: s.samples0to1, samples1to0: s.samples1to0 };
  },
  sampled: true,
  concentrated: false,
  reserves: false,
  restored: () => ({}),
};
