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
