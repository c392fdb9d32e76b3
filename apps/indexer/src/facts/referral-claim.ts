// referral.claimed: a core pool's RefFeesClaimed, a payout of a referral code's fees. It is a
// `distribution` when the core router's RefFeesDistributed pushed it in the same transaction, else a `claim`.
import { ammPoolAbi, ammRouterAbi } from '@dex/abis';
import type { ReferralClaimRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { getAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { topicAddress, word } from './log';

export const ammRefFeesClaimedEvent = factEvent('ammRefFeesClaimed', getAbiItem({ abi: ammPoolAbi, name: 'RefFeesClaimed' }) as AbiEvent);
export const coreRouterRefFeesDistributedEvent = factEvent('coreRouterRefFeesDistributed', getAbiItem({ abi: ammRouterAbi, name: 'RefFeesDistributed' }) as AbiEvent);

export const referralClaimFact = defineFact<'referralClaims', ReferralClaimRow, ReadonlySet<string>>({
  name: CHAIN_FACTS.referralClaimed,
  stage: 'facts',
  events: [ammRefFeesClaimedEvent],
  context: [coreRouterRefFeesDistributedEvent],
  list: 'referralClaims',
  /** The router's distributions in the batch: `<tx>:<pool>:<refCode>`. */
  scan(logs, ctx) {
    const distributions = new Set<string>();
    for (const log of logs) {
      if (log.topics[0]?.toLowerCase() === coreRouterRefFeesDistributedEvent.topic && ctx.announcers.get(log.address)?.kind === 'core') {
        distributions.add(`${log.txHash}:${topicAddress(log.topics[1])}:${log.topics[2]}`);
      }
    }
    return distributions;
  },
  decode(log, ctx, at, distributions) {
    if (ctx.pools.get(log.address)?.kind !== 'core') return undefined;
    const refCode = (log.topics[1] ?? '').toLowerCase();
    return {
      ...at,
      pool: log.address,
      refCode,
      wallet: topicAddress(log.topics[2]),
      amount0: word(log.data, 0),
      amount1: word(log.data, 1),
      kind: distributions.has(`${log.txHash}:${log.address}:${refCode}`) ? 'distribution' : 'claim',
    };
  },
  fact: CHAIN_FACTS.referralClaimed,
  message: (c) =>
    logMessage(c, {
      pool: c.pool,
      refCode: c.refCode,
      wallet: c.wallet,
      amount0: c.amount0.toString(),
      amount1: c.amount1.toString(),
      kind: c.kind,
    }),
});
