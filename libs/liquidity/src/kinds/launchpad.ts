/**
 * Launchpad curves: a launched token's bonding curve against the wrapped native token, set by each trade (the
 * creator's purchase included) until the token graduates to its DEX pair. The record's address is the launched
 * token; RouterV2 trades the curve through the launchpad contract, which the engine's snapshot names. A curve is
 * routed while it still trades (`curveFromReserves`), and only on a chain with a launchpad.
 */
import { curveFromReserves, LAUNCHPAD_FEE_BPS } from '@dex/routing';
import type { LiquidityKindModule } from './kind-module';

export const launchpadKind: LiquidityKindModule<'launchpad'> = {
  kind: 'launchpad',
  created: () => ({}),
  apply(pool, fact) {
    switch (fact.type) {
      case 'curveTraded':
        return { curve: { nativeReserve: fact.nativeReserve, tokenReserve: fact.tokenReserve, graduated: pool.curve?.graduated ?? false } };
      case 'tokenGraduated':
        return { curve: pool.curve ? { ...pool.curve, graduated: true } : { nativeReserve: 0n, tokenReserve: 0n, graduated: true } };
      default:
        return undefined;
    }
  },
  snapshot(pool, inputs) {
    const { context, source } = inputs;
    if (!pool.curve || !context.launchpad) return undefined;
    const curve = curveFromReserves(pool.curve, source.feeBps === undefined ? LAUNCHPAD_FEE_BPS : BigInt(source.feeBps));
    if (!curve) return undefined;
    const token = pool.address;
    const native = context.wrappedNative;
    const [token0, token1] = BigInt(token) < BigInt(native) ? [token, native] : [native, token];
    return {
      kind: 'launchpad',
      ...inputs.identity,
      address: context.launchpad,
      token0,
      token1,
      decimals0: inputs.decimals(token0),
      decimals1: inputs.decimals(token1),
      nativeToken: native,
      curve,
    };
  },
  sampled: false,
  concentrated: false,
  reserves: false,
  restored: (stored) => (stored.curve ? { curve: stored.curve } : {}),
};
