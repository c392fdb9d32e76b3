// The events the indexer follows and their topic0 selectors. Launchpad events are declared here from the
// interface specification's events table (TokenGraduated from the launchpad's interface, ILaunchpad), so
// the indexer does not depend on the launchpad's build.
import { ammPoolAbi, ammRouterAbi, stablePoolAbi, stablePoolFactoryAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@dex/abis';
import { getAbiItem, parseAbiItem, toEventSelector, type AbiEvent, type Hex } from 'viem';

export const erc20TransferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export const launchpadEvents = {
  tokenCreated: parseAbiItem(
    'event TokenCreated(address indexed token, address indexed creator, string name, string symbol, string image_uri, string description, string website, string twitter, string telegram, string discord, uint256 creationTimestamp, uint256 startingLiquidity, uint256 currentHypeReserves, uint256 currentTokenReserves, uint256 totalSupply, uint256 currentPrice, uint256 initialPurchaseAmount)',
  ),
  tokensPurchased: parseAbiItem(
    'event TokensPurchased(address indexed token, address indexed buyer, uint256 hypeIn, uint256 tokensOut, uint256 price, uint256 timestamp, uint256 hypeReserves, uint256 tokenReserves, uint256 totalSupply, string name, string symbol)',
  ),
  tokensSold: parseAbiItem(
    'event TokensSold(address indexed token, address indexed seller, uint256 tokensIn, uint256 hypeOut, uint256 price, uint256 timestamp, uint256 hypeReserves, uint256 tokenReserves, uint256 totalSupply, string name, string symbol)',
  ),
  tokenMetadataUpdated: parseAbiItem(
    'event TokenMetadataUpdated(address indexed token, address indexed creator, string name, string symbol, string image_uri, string description, string website, string twitter, string telegram, string discord, uint256 timestamp)',
  ),
  tokenGraduated: parseAbiItem('event TokenGraduated(address indexed token, address indexed pair, uint256 hypeAmount, uint256 tokenAmount, uint256 liquidity)'),
} as const;

const event = (abi: readonly unknown[], name: string) => getAbiItem({ abi: abi as never, name: name as never }) as unknown as AbiEvent;

export const EVENTS = {
  transfer: erc20TransferEvent as AbiEvent,
  v2PairCreated: event(uniswapV2FactoryAbi, 'PairCreated'),
  v2Sync: event(uniswapV2PairAbi, 'Sync'),
  stablePoolCreated: event(stablePoolFactoryAbi, 'PoolCreated'),
  stableSync: event(stablePoolAbi, 'Sync'),
  ammSwap: event(ammPoolAbi, 'Swap'),
  ammSwapWithRef: event(ammPoolAbi, 'SwapWithRef'),
  ammRefFeesClaimed: event(ammPoolAbi, 'RefFeesClaimed'),
  coreRouterPoolAdded: event(ammRouterAbi, 'PoolAdded'),
  coreRouterRefFeesDistributed: event(ammRouterAbi, 'RefFeesDistributed'),
  launchpadTokenCreated: launchpadEvents.tokenCreated as AbiEvent,
  launchpadTokensPurchased: launchpadEvents.tokensPurchased as AbiEvent,
  launchpadTokensSold: launchpadEvents.tokensSold as AbiEvent,
  launchpadTokenMetadataUpdated: launchpadEvents.tokenMetadataUpdated as AbiEvent,
  launchpadTokenGraduated: launchpadEvents.tokenGraduated as AbiEvent,
} as const;

export type EventName = keyof typeof EVENTS;

export const TOPICS = Object.fromEntries(Object.entries(EVENTS).map(([name, e]) => [name, toEventSelector(e)])) as Record<EventName, Hex>;

/** topic0 -> event name (the V2 and stable Sync events differ in their parameter types, so in topic0). */
export const EVENT_BY_TOPIC = new Map<string, EventName>(Object.entries(TOPICS).map(([name, topic]) => [topic, name as EventName]));

/** Every topic0 the indexer asks eth_getLogs for. */
export const ALL_TOPICS: Hex[] = [...new Set(Object.values(TOPICS))];

/** Events that announce new contracts to follow. */
export const DISCOVERY_EVENTS: ReadonlySet<EventName> = new Set(['v2PairCreated', 'stablePoolCreated', 'coreRouterPoolAdded', 'launchpadTokenCreated']);
