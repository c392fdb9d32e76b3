/**
 * Every name on the bus, defined here once: the request/reply subjects (`<domain>.<verb>`), each service's
 * health subject (`<service>.health`), the live quote topics (`quotes.<chainId>.<tokenIn>.<tokenOut>`), the
 * chain facts (`chain.<chainId>.<fact>`) and the JetStream stream that holds them, and the queue groups. The
 * contracts, the apps and the tests take them from here.
 */

/** Request/reply subjects, one per contract. */
export const SUBJECTS = {
  aggregatorRoute: 'aggregator.route',
  aggregatorPools: 'aggregator.pools',
  aggregatorBalances: 'aggregator.balances',
  aggregatorTokens: 'aggregator.tokens',
  aggregatorDexes: 'aggregator.dexes',
  coreQuote: 'core.quote',
  coreWatch: 'core.watch',
  corePools: 'core.pools',
  corePool: 'core.pool',
  launchpadTokens: 'launchpad.tokens',
  launchpadToken: 'launchpad.token',
  launchpadEstimate: 'launchpad.estimate',
  launchpadTrades: 'launchpad.trades',
  keeperDistribute: 'keeper.distribute',
  keeperGraduate: 'keeper.graduate',
  indexerStatus: 'indexer.status',
  devnetManifest: 'devnet.manifest',
} as const;

export type Subject = (typeof SUBJECTS)[keyof typeof SUBJECTS];

/**
 * The services by name. Each service's name is its queue group (replicas share the load), its NATS connection
 * name and the first token of its health subject.
 */
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

/** Where a service answers with its readiness report: `<service>.health`. */
export const healthSubject = (service: string): string => `${service}.health`;

/** Topic of the live quotes of a pair, `quotes.<chainId>.<tokenIn>.<tokenOut>`; addresses lower-case. */
export const quoteTopic = (chainId: number, tokenIn: string, tokenOut: string): string =>
  `quotes.${chainId}.${tokenIn.toLowerCase()}.${tokenOut.toLowerCase()}`;

/**
 * Topic on which aggregator-router announces each new liquidity view of a chain (`aggregatorViewSchema`): the block
 * its routes are now answered at. Live route streams search their standing requests again on it.
 */
export const aggregatorViewTopic = (chainId: number): string => `aggregator.view.${chainId}`;

/** Facts the indexer publishes on JetStream as `chain.<chainId>.<fact>`. */
export const CHAIN_FACTS = {
  block: 'block',
  reorg: 'reorg',
  tokenCreated: 'token.created',
  poolCreated: 'pool.created',
  poolUpdated: 'pool.updated',
  /** A concentrated-liquidity pool's own events (Initialize, Mint, Burn, Swap, Algebra's Fee and TickSpacing). */
  poolConcentrated: 'pool.concentrated',
  swap: 'swap',
  referralClaimed: 'referral.claimed',
  launchpadTokenCreated: 'launchpad.token.created',
  launchpadTrade: 'launchpad.trade',
  launchpadMetadataUpdated: 'launchpad.metadata.updated',
  launchpadTokenGraduated: 'launchpad.token.graduated',
} as const;

export type ChainFact = (typeof CHAIN_FACTS)[keyof typeof CHAIN_FACTS];

/** The facts aggregator-router's liquidity state is built from. */
export const LIQUIDITY_FACTS = [
  CHAIN_FACTS.poolCreated,
  CHAIN_FACTS.poolUpdated,
  CHAIN_FACTS.poolConcentrated,
  CHAIN_FACTS.tokenCreated,
  CHAIN_FACTS.launchpadTokenCreated,
  CHAIN_FACTS.launchpadTrade,
  CHAIN_FACTS.launchpadTokenGraduated,
  CHAIN_FACTS.block,
  CHAIN_FACTS.reorg,
] as const satisfies readonly ChainFact[];

const CHAIN_FACT_NAMES: ReadonlySet<string> = new Set(Object.values(CHAIN_FACTS));

/** JetStream stream holding every `chain.>` fact. */
export const CHAIN_EVENTS_STREAM = 'CHAIN_EVENTS';

/** Subject of a fact of a chain, `chain.<chainId>.<fact>`; `*` for the fact of every chain (a filter). */
export const chainFactSubject = (chainId: number | '*', fact: ChainFact): string => `chain.${chainId}.${fact}`;

/** Subject filter of every fact of a chain (`chain.<chainId>.>`), or of all chains. */
export const chainFactsFilter = (chainId?: number): string => (chainId === undefined ? 'chain.>' : `chain.${chainId}.>`);

/** The fact a `chain.<chainId>.<fact>` subject carries, or undefined for another subject. */
export function parseChainSubject(subject: string): { chainId: number; fact: ChainFact } | undefined {
  const match = /^chain\.(\d+)\.(.+)$/.exec(subject);
  if (!match || !CHAIN_FACT_NAMES.has(match[2])) return undefined;
  return { chainId: Number(match[1]), fact: match[2] as ChainFact };
}
