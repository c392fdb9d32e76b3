// token.created: a token first seen in the batch (announced by a new pool or a launch), with the metadata
// read from the token at the batch's last block. No log of its own: its rows are read from the node.
import { CHAIN_FACTS } from '@dex/messages';
import { defineFact } from './fact';

export const tokenCreatedFact = defineFact({
  name: CHAIN_FACTS.tokenCreated,
  stage: 'node',
  events: [],
  list: 'tokens',
  fact: CHAIN_FACTS.tokenCreated,
  message: (token, _row, { last }) => ({
    blockNumber: token.firstSeenBlock,
    id: `token:${token.address}`,
    payload: {
      timestamp: Number(last.timestamp),
      address: token.address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      isERC20Verified: token.isERC20Verified,
      source: token.source,
    },
  }),
});
