// launchpad.token.graduated: the launchpad's TokenGraduated (declared from its interface, ILaunchpad): the
// token's curve sold out and its DEX pair was seeded with `nativeAmount` native coin (wrapped) and
// `tokenAmount` tokens, minting `liquidity` LP tokens to the launchpad. Decoded by hand (fixed layout).
import type { LaunchpadGraduationRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { parseAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { topicAddress, word } from './log';

export const launchpadTokenGraduatedEvent = factEvent(
  'launchpadTokenGraduated',
  parseAbiItem('event TokenGraduated(address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity)') as AbiEvent,
);

export const launchpadGraduatedFact = defineFact({
  name: CHAIN_FACTS.launchpadTokenGraduated,
  stage: 'facts',
  events: [launchpadTokenGraduatedEvent],
  list: 'launchpadGraduations',
  decode(log, ctx, at): LaunchpadGraduationRow | undefined {
    if (ctx.announcers.get(log.address)?.kind !== 'launchpad') return undefined;
    return {
      ...at,
      token: topicAddress(log.topics[1]),
      pair: topicAddress(log.topics[2]),
      nativeAmount: word(log.data, 0),
      tokenAmount: word(log.data, 1),
      liquidity: word(log.data, 2),
    };
  },
  fact: CHAIN_FACTS.launchpadTokenGraduated,
  message: (g) =>
    logMessage(g, {
      token: g.token,
      pair: g.pair,
      nativeAmount: g.nativeAmount.toString(),
      tokenAmount: g.tokenAmount.toString(),
      liquidity: g.liquidity.toString(),
    }),
});
