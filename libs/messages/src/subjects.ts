/**
 * Every bus subject and queue group. Request/reply subjects are `<domain>.<verb>`; chain facts are
 * `chain.<chainId>.<fact>`; live quotes are `quotes.<chainId>.<tokenIn>.<tokenOut>`.
 */
export const SUBJECTS = {
  aggregatorDexes: 'aggregator.dexes',
  devnetManifest: 'devnet.manifest',
} as const;

/** Queue groups: each service subscribes in a group named after itself, so replicas share the load. */
export const QUEUE_GROUPS = {
  gateway: 'gateway',
  aggregatorRouter: 'aggregator-router',
  ammQuoter: 'amm-quoter',
  launchpadService: 'launchpad-service',
  indexer: 'indexer',
  referralKeeper: 'referral-keeper',
  devnet: 'devnet',
} as const;

export type ServiceName = (typeof QUEUE_GROUPS)[keyof typeof QUEUE_GROUPS];

export const chainSubject = (chainId: number, fact: string): string => `chain.${chainId}.${fact}`;

/** Request/reply subjects the indexer serves. */
export const INDEXER_SUBJECTS = {
  status: 'indexer.status',
} as const;

/** Facts the indexer publishes on JetStream as `chain.<chainId>.<fact>`. */
export const CHAIN_FACTS = {
  block: 'block',
  reorg: 'reorg',
  tokenCreated: 'token.created',
  poolCreated: 'pool.created',
  poolUpdated: 'pool.updated',
  swap: 'swap',
  referralClaimed: 'referral.claimed',
  launchpadTokenCreated: 'launchpad.token.created',
  launchpadTrade: 'launchpad.trade',
  launchpadMetadataUpdated: 'launchpad.metadata.updated',
  launchpadTokenGraduated: 'launchpad.token.graduated',
} as const;

export type ChainFact = (typeof CHAIN_FACTS)[keyof typeof CHAIN_FACTS];

/** JetStream stream holding every `chain.>` fact. */
export const CHAIN_EVENTS_STREAM = 'CHAIN_EVENTS';

/** Subject filter of every fact of a chain (`chain.<chainId>.>`), or of all chains. */
export const chainFactsFilter = (chainId?: number): string => (chainId === undefined ? 'chain.>' : `chain.${chainId}.>`);
