// ERC20 Transfer of every followed token. Stored (counters derive from it), not published.
import type { TransferRow } from '@dex/db';
import { parseAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent } from './fact';
import { topicAddress, word } from './log';

export const transferEvent = factEvent('transfer', parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)') as AbiEvent);

export const transferFact = defineFact({
  name: 'transfer',
  stage: 'facts',
  events: [transferEvent],
  list: 'transfers',
  // Decoded by hand (hot path). Four topics is an ERC721 Transfer, not ours.
  decode(log, ctx, at): TransferRow | undefined {
    if (log.topics.length !== 3 || !ctx.tokens.has(log.address)) return undefined;
    return { ...at, token: log.address, from: topicAddress(log.topics[1]), to: topicAddress(log.topics[2]), value: word(log.data, 0) };
  },
});
