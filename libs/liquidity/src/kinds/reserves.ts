/**
 * What the kinds priced on their two reserves share (Uniswap V2 pairs, stable pools): a pool starts with none, each
 * Sync sets them, and it is routed while both are above 0, at its source's fee.
 */
import type { PoolSnapshot } from '@dex/routing';
import type { KindSnapshot, LiquidityKindModule } from './kind-module';

/** The kinds whose engine snapshot is their reserves and their source's fee. */
export type ReservesKind = Extract<PoolSnapshot, { readonly reserve0: bigint; readonly reserve1: bigint; readonly feeBps: number }>['kind'];

/** A source's fee when its configuration gives none, basis points. */
const DEFAULT_FEE_BPS = 30;

/** The module of a kind priced on its reserves. */
export function reservesModule<K extends ReservesKind>(kind: K): LiquidityKindModule<K> {
  return {
    kind,
    created: () => ({ reserves: { reserve0: 0n, reserve1: 0n } }),
    apply: (_pool, fact) => (fact.type === 'reservesSynced' ? { reserves: { reserve0: fact.reserve0, reserve1: fact.reserve1 } } : undefined),
    snapshot(pool, inputs) {
      const r = pool.reserves;
      if (!r || r.reserve0 === 0n || r.reserve1 === 0n) return undefined;
      return { kind, ...inputs.identity, reserve0: r.reserve0, reserve1: r.reserve1, feeBps: inputs.source.feeBps ?? DEFAULT_FEE_BPS } as KindSnapshot<K>;
    },
    sampled: false,
    concentrated: false,
    reserves: true,
    restored: (stored) => (stored.reserves ? { reserves: stored.reserves } : {}),
  };
}
