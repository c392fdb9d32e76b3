// launchpad.trade: the launchpad's TokensPurchased (a buy) and TokensSold (a sell) on a token's curve, with
// the curve's state after the trade. Declared from the interface specification's events table.
import type { LaunchpadTradeRow } from '@dex/db';
import { CHAIN_FACTS, curveTradeAmounts } from '@dex/messages';
import { parseAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { checksum, decodeArgs } from './log';

export const launchpadTokensPurchasedEvent = factEvent(
  'launchpadTokensPurchased',
  parseAbiItem(
    'event TokensPurchased(address indexed token, address indexed buyer, uint256 hypeIn, uint256 tokensOut, uint256 price, uint256 timestamp, uint256 hypeReserves, uint256 tokenReserves, uint256 totalSupply, string name, string symbol)',
  ) as AbiEvent,
);
export const launchpadTokensSoldEvent = factEvent(
  'launchpadTokensSold',
  parseAbiItem(
    'event TokensSold(address indexed token, address indexed seller, uint256 tokensIn, uint256 hypeOut, uint256 price, uint256 timestamp, uint256 hypeReserves, uint256 tokenReserves, uint256 totalSupply, string name, string symbol)',
  ) as AbiEvent,
);

export const launchpadTradeFact = defineFact({
  name: CHAIN_FACTS.launchpadTrade,
  stage: 'facts',
  events: [launchpadTokensPurchasedEvent, launchpadTokensSoldEvent],
  list: 'launchpadTrades',
  decode(log, ctx, at): LaunchpadTradeRow | undefined {
    if (ctx.announcers.get(log.address)?.kind !== 'launchpad') return undefined;
    const buy = log.topics[0].toLowerCase() === launchpadTokensPurchasedEvent.topic;
    const a = decodeArgs((buy ? launchpadTokensPurchasedEvent : launchpadTokensSoldEvent).abi, log);
    return {
      ...at,
      token: checksum(a.token as string),
      trader: checksum((buy ? a.buyer : a.seller) as string),
      side: buy ? 'buy' : 'sell',
      nativeAmount: (buy ? a.hypeIn : a.hypeOut) as bigint,
      tokenAmount: (buy ? a.tokensOut : a.tokensIn) as bigint,
      price: a.price as bigint,
      nativeReserves: a.hypeReserves as bigint,
      tokenReserves: a.tokenReserves as bigint,
      totalSupply: a.totalSupply as bigint,
    };
  },
  fact: CHAIN_FACTS.launchpadTrade,
  message: (t) =>
    logMessage(t, {
      token: t.token,
      trader: t.trader,
      side: t.side,
      ...curveTradeAmounts(t),
      totalSupply: t.totalSupply.toString(),
    }),
});
