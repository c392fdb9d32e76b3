import { readOraclePrices, readPendingRefFees, readTokenMetadata, type PendingRefFee } from '@dex/chain';
import { formatUnits, type Address } from 'viem';
import type { KeeperChain } from './keeper-chains';

export interface PendingFees {
  /** Active codes with something claimable, per pool. */
  readonly entries: PendingRefFee[];
  /** USD value of everything pending, at the oracle prices (a token without a price counts as 0). */
  readonly totalUsd: number;
}

/** Every active code's claimable referral fees in every pool of the chain (readPendingRefFees), and their USD value. */
export async function readPendingFees(chain: KeeperChain): Promise<PendingFees> {
  const { client } = chain;
  const entries = await readPendingRefFees(client, { router: chain.router, registry: chain.registry });
  const byToken = new Map<Address, bigint>();
  for (const e of entries) {
    byToken.set(e.token0, (byToken.get(e.token0) ?? 0n) + e.amount0);
    byToken.set(e.token1, (byToken.get(e.token1) ?? 0n) + e.amount1);
  }
  const list = [...byToken.keys()];
  const [prices, metas] = await Promise.all([
    readOraclePrices(client, { oracle: chain.oracle, tokens: list }),
    Promise.all(list.map((token) => readTokenMetadata(client, { token }))),
  ]);
  let totalUsd = 0;
  list.forEach((token, i) => {
    // A token whose metadata does not verify is counted with 18 decimals.
    const decimals = metas[i].isERC20Verified ? metas[i].decimals : 18;
    totalUsd += Number(formatUnits(byToken.get(token)!, decimals)) * Number(formatUnits(prices[i] ?? 0n, 18));
  });
  return { entries, totalUsd };
}
