// launchpad.metadata.updated: the launchpad's TokenMetadataUpdated (the creator changed a token's image,
// description or links). Declared from the interface specification's events table.
import type { LaunchpadMetadataRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { parseAbiItem, type AbiEvent, type Address } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { checksum, decodeArgs } from './log';

/** The updatable metadata of a launch, from a decoded TokenCreated or TokenMetadataUpdated. */
export function metadataOf(a: Record<string, unknown>) {
  return {
    imageUri: a.image_uri as string,
    description: a.description as string,
    website: a.website as string,
    twitter: a.twitter as string,
    telegram: a.telegram as string,
    discord: a.discord as string,
  };
}

/** The updatable metadata as the published facts spell it. */
export function metadataPayload(m: ReturnType<typeof metadataOf>) {
  return { image_uri: m.imageUri, description: m.description, website: m.website, twitter: m.twitter, telegram: m.telegram, discord: m.discord };
}

export const launchpadTokenMetadataUpdatedEvent = factEvent(
  'launchpadTokenMetadataUpdated',
  parseAbiItem(
    'event TokenMetadataUpdated(address indexed token, address indexed creator, string name, string symbol, string image_uri, string description, string website, string twitter, string telegram, string discord, uint256 timestamp)',
  ) as AbiEvent,
);

/** A metadata update, with the creator (published, not stored). */
export type LaunchpadMetadataUpdate = LaunchpadMetadataRow & { creator: Address };

export const launchpadMetadataFact = defineFact<'launchpadMetadata', LaunchpadMetadataUpdate>({
  name: CHAIN_FACTS.launchpadMetadataUpdated,
  stage: 'facts',
  events: [launchpadTokenMetadataUpdatedEvent],
  list: 'launchpadMetadata',
  decode(log, ctx, at) {
    if (ctx.announcers.get(log.address)?.kind !== 'launchpad') return undefined;
    const a = decodeArgs(launchpadTokenMetadataUpdatedEvent.abi, log);
    return {
      ...at,
      token: checksum(a.token as string),
      creator: checksum(a.creator as string),
      ...metadataOf(a),
    };
  },
  fact: CHAIN_FACTS.launchpadMetadataUpdated,
  message: (_stored, m) =>
    logMessage(m, {
      token: m.token,
      creator: m.creator,
      ...metadataPayload(m),
    }),
});
