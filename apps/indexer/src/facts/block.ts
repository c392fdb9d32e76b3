// block: the indexer committed blocks up to the batch's last block. No log of its own; published once per
// batch, after every other fact of the batch (consumers rely on it coming last).
import type { BlockRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import type { FactMessage } from './fact';

export const blockFact = {
  fact: CHAIN_FACTS.block,
  message: (last: BlockRow): FactMessage => ({ blockNumber: last.number, id: 'block', payload: { timestamp: Number(last.timestamp), parentHash: last.parentHash } }),
} as const;
