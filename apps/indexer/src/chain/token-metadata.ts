// A token's row from its metadata (readTokenMetadata in @dex/chain reads and verifies it).
import type { TokenMetadata } from '@dex/chain';
import type { TokenRow, TokenSource } from '@dex/db';
import type { Address } from 'viem';

export function tokenRow(address: Address, meta: TokenMetadata, source: TokenSource, firstSeenBlock: bigint): TokenRow {
  return { address, ...meta, source, firstSeenBlock };
}
