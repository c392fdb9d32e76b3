// launchpad.token.created: the launchpad's TokenCreated. Declared from the interface specification's events
// table (not taken from the launchpad's build). The launched token is followed from this batch on, with its
// curve: a pool of kind `launchpad` at the token's address, paired with the wrapped native.
import type { LaunchpadTokenRow } from '@dex/db';
import { CHAIN_FACTS } from '@dex/messages';
import { parseAbiItem, type AbiEvent } from 'viem';
import { defineFact, factEvent, logMessage } from './fact';
import { checksum, decodeArgs } from './log';
import { metadataOf, metadataPayload } from './launchpad-metadata';
import { poolRow } from './pool-created';

export const launchpadTokenCreatedEvent = factEvent(
  'launchpadTokenCreated',
  parseAbiItem(
    'event TokenCreated(address indexed token, address indexed creator, string name, string symbol, string image_uri, string description, string website, string twitter, string telegram, string discord, uint256 creationTimestamp, uint256 startingLiquidity, uint256 currentHypeReserves, uint256 currentTokenReserves, uint256 totalSupply, uint256 currentPrice, uint256 initialPurchaseAmount)',
  ) as AbiEvent,
);

export const launchpadTokenCreatedFact = defineFact({
  name: CHAIN_FACTS.launchpadTokenCreated,
  stage: 'discovery',
  events: [launchpadTokenCreatedEvent],
  list: 'launchpadTokens',
  decode(log, ctx, at): LaunchpadTokenRow | undefined {
    if (ctx.announcers.get(log.address)?.kind !== 'launchpad') return undefined;
    const a = decodeArgs(launchpadTokenCreatedEvent.abi, log);
    return {
      ...at,
      address: checksum(a.token as string),
      launchpad: log.address,
      creator: checksum(a.creator as string),
      name: a.name as string,
      symbol: a.symbol as string,
      ...metadataOf(a),
      creationTimestamp: a.creationTimestamp as bigint,
      startingLiquidity: a.startingLiquidity as bigint,
      initialPurchaseAmount: a.initialPurchaseAmount as bigint,
      nativeReserves: a.currentHypeReserves as bigint,
      tokenReserves: a.currentTokenReserves as bigint,
      totalSupply: a.totalSupply as bigint,
      price: a.currentPrice as bigint,
    };
  },
  // The token is the launchpad's (even when a new pool of the same batch found it too), and so is its curve.
  announces(row, ctx) {
    const token = checksum(row.address);
    const launchpad = ctx.announcers.get(checksum(row.launchpad))!;
    if (!ctx.wrappedNative) return { tokens: [{ address: token, source: 'launchpad' }] };
    const [t0, t1] = BigInt(token) < BigInt(ctx.wrappedNative) ? [token, ctx.wrappedNative] : [ctx.wrappedNative, token];
    const log = { address: checksum(row.launchpad), blockNumber: row.blockNumber };
    return { tokens: [{ address: token, source: 'launchpad' }], pools: [poolRow(token, t0, t1, false, launchpad, log)] };
  },
  fact: CHAIN_FACTS.launchpadTokenCreated,
  message: (t) =>
    logMessage(t, {
      token: t.address,
      creator: t.creator,
      name: t.name,
      symbol: t.symbol,
      ...metadataPayload(t),
      creationTimestamp: t.creationTimestamp.toString(),
      startingLiquidity: t.startingLiquidity.toString(),
      nativeReserves: t.nativeReserves.toString(),
      tokenReserves: t.tokenReserves.toString(),
      totalSupply: t.totalSupply.toString(),
      price: t.price.toString(),
      initialPurchaseAmount: t.initialPurchaseAmount.toString(),
    }),
});
