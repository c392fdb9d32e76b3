// Turns raw eth_getLogs entries into the rows and events of a batch. Pure: no I/O. Hot events (Transfer,
// Sync, Swap) are decoded by hand from their fixed layout; events with strings go through viem.
import type {
  AmmSwapRow,
  LaunchpadGraduationRow,
  LaunchpadMetadataRow,
  LaunchpadTokenRow,
  LaunchpadTradeRow,
  PoolRow,
  ReferralClaimRow,
  ReserveUpdate,
  TransferRow,
} from '@dex/db';
import { decodeEventLog, getAddress, type Address, type Hex } from 'viem';
import { EVENT_BY_TOPIC, EVENTS, type EventName } from './events';
import type { SourceRef } from './watch-list';

/** An eth_getLogs entry with numbers parsed. */
export interface ChainLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  txHash: Hex;
  logIndex: number;
  /** Block time, when the node includes it in the log. */
  timestamp?: bigint;
}

export interface RpcLogEntry {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string | null;
  blockHash: string | null;
  transactionHash: string | null;
  logIndex: string | null;
  blockTimestamp?: string | null;
  removed?: boolean;
}

const checksums = new Map<string, Address>();
/** EIP-55 form of an address, memoised (checksumming hashes the address). */
export function checksum(address: string): Address {
  const lower = address.toLowerCase();
  let value = checksums.get(lower);
  if (!value) {
    value = getAddress(lower);
    if (checksums.size > 200_000) checksums.clear();
    checksums.set(lower, value);
  }
  return value;
}

export function parseRpcLog(raw: RpcLogEntry): ChainLog | undefined {
  if (raw.removed || raw.blockNumber === null || raw.blockHash === null || raw.transactionHash === null || raw.logIndex === null) return undefined;
  return {
    address: checksum(raw.address),
    topics: raw.topics as Hex[],
    data: raw.data as Hex,
    blockNumber: BigInt(raw.blockNumber),
    blockHash: raw.blockHash.toLowerCase() as Hex,
    txHash: raw.transactionHash.toLowerCase() as Hex,
    logIndex: Number(raw.logIndex),
    timestamp: raw.blockTimestamp ? BigInt(raw.blockTimestamp) : undefined,
  };
}

const word = (data: Hex, i: number): bigint => {
  const chunk = data.slice(2 + 64 * i, 2 + 64 * (i + 1));
  if (chunk.length !== 64) throw new Error(`log data has no word ${i}`);
  return BigInt('0x' + chunk);
};
const wordAddress = (data: Hex, i: number): Address => checksum('0x' + data.slice(2 + 64 * i + 24, 2 + 64 * (i + 1)));
const topicAddress = (topic: Hex | undefined): Address => {
  if (!topic || topic.length !== 66) throw new Error('missing indexed address');
  return checksum('0x' + topic.slice(26));
};

export const eventOf = (log: ChainLog): EventName | undefined => (log.topics[0] ? EVENT_BY_TOPIC.get(log.topics[0].toLowerCase()) : undefined);

function decodeStrings(name: EventName, log: ChainLog): Record<string, unknown> {
  const decoded = decodeEventLog({ abi: [EVENTS[name]], data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
  return decoded.args as Record<string, unknown>;
}

/** What the addresses of a chain are to the indexer. */
export interface DecodeContext {
  chainId: number;
  tokens: ReadonlySet<Address>;
  pools: ReadonlyMap<Address, PoolRow>;
  announcers: ReadonlyMap<Address, SourceRef>;
  wrappedNative: Address | null;
}

export interface Discoveries {
  pools: PoolRow[];
  launchpadTokens: LaunchpadTokenRow[];
  /** Tokens first seen in these logs, with how they were found. */
  tokens: Map<Address, { source: 'pool' | 'launchpad'; block: bigint }>;
}

/** Pass one: pools and launches announced in the logs that the context does not know yet. */
export function discover(logs: readonly ChainLog[], ctx: DecodeContext, timestampOf: (log: ChainLog) => bigint): Discoveries {
  const found: Discoveries = { pools: [], launchpadTokens: [], tokens: new Map() };
  const seenPools = new Set<Address>();
  const addToken = (address: Address, source: 'pool' | 'launchpad', block: bigint) => {
    if (!ctx.tokens.has(address) && !found.tokens.has(address)) found.tokens.set(address, { source, block });
  };
  for (const log of logs) {
    const source = ctx.announcers.get(log.address);
    if (!source) continue;
    const name = eventOf(log);
    try {
      let pool: PoolRow | undefined;
      if (name === 'v2PairCreated' && source.kind === 'uniswap-v2') {
        pool = poolRow(wordAddress(log.data, 0), topicAddress(log.topics[1]), topicAddress(log.topics[2]), false, source, log);
      } else if (name === 'stablePoolCreated' && source.kind === 'stable') {
        pool = poolRow(wordAddress(log.data, 0), topicAddress(log.topics[1]), topicAddress(log.topics[2]), BigInt(log.topics[3] ?? '0x0') !== 0n, source, log);
      } else if (name === 'coreRouterPoolAdded' && source.kind === 'core') {
        pool = poolRow(topicAddress(log.topics[1]), topicAddress(log.topics[2]), topicAddress(log.topics[3]), false, source, log);
      } else if (name === 'launchpadTokenCreated' && source.kind === 'launchpad') {
        const a = decodeStrings(name, log);
        const token = checksum(a.token as string);
        found.launchpadTokens.push({
          blockNumber: log.blockNumber,
          logIndex: log.logIndex,
          txHash: log.txHash,
          timestamp: timestampOf(log),
          address: token,
          launchpad: log.address,
          creator: checksum(a.creator as string),
          name: a.name as string,
          symbol: a.symbol as string,
          imageUri: a.image_uri as string,
          description: a.description as string,
          website: a.website as string,
          twitter: a.twitter as string,
          telegram: a.telegram as string,
          discord: a.discord as string,
          creationTimestamp: a.creationTimestamp as bigint,
          startingLiquidity: a.startingLiquidity as bigint,
          initialPurchaseAmount: a.initialPurchaseAmount as bigint,
          hypeReserves: a.currentHypeReserves as bigint,
          tokenReserves: a.currentTokenReserves as bigint,
          totalSupply: a.totalSupply as bigint,
          price: a.currentPrice as bigint,
        });
        addToken(token, 'launchpad', log.blockNumber);
        if (ctx.wrappedNative) {
          const [t0, t1] = BigInt(token) < BigInt(ctx.wrappedNative) ? [token, ctx.wrappedNative] : [ctx.wrappedNative, token];
          pool = { ...poolRow(token, t0, t1, false, source, log) };
        }
      }
      const poolAddress = pool ? checksum(pool.address) : undefined;
      if (pool && poolAddress && !ctx.pools.has(poolAddress) && !seenPools.has(poolAddress)) {
        seenPools.add(poolAddress);
        found.pools.push(pool);
        if (pool.kind !== 'launchpad') {
          addToken(checksum(pool.token0), 'pool', log.blockNumber);
          addToken(checksum(pool.token1), 'pool', log.blockNumber);
        }
      }
    } catch {
      // A malformed announcement from a followed contract is skipped, never fatal.
    }
  }
  // A launch's DEX pair may be created in the same batch (with the token, or by anyone right after): the
  // token is the launchpad's either way.
  for (const launched of found.launchpadTokens) {
    const entry = found.tokens.get(checksum(launched.address));
    if (entry) entry.source = 'launchpad';
  }
  return found;
}

function poolRow(address: Address, token0: Address, token1: Address, stable: boolean, source: SourceRef, log: ChainLog): PoolRow {
  return {
    address,
    kind: source.kind,
    routerIndex: source.routerIndex,
    source: source.name,
    discoveredBy: log.address,
    token0,
    token1,
    stable,
    feeBps: source.feeBps,
    createdBlock: log.blockNumber,
  };
}

export interface Facts {
  transfers: TransferRow[];
  /** Core swaps without their transaction sender yet (filled in from the transaction). */
  swaps: Omit<AmmSwapRow, 'sender'>[];
  referralClaims: ReferralClaimRow[];
  launchpadTrades: LaunchpadTradeRow[];
  launchpadMetadata: (LaunchpadMetadataRow & { creator: Address })[];
  launchpadGraduations: LaunchpadGraduationRow[];
  /** Last reserves of each pool, with the log that set them. */
  reserves: Map<Address, ReserveUpdate & { log: ChainLog }>;
  /** Logs that could not be decoded (skipped). */
  malformed: number;
}

/** Pass two: the facts of every followed contract. `logs` must be in chain order. */
export function decodeFacts(logs: readonly ChainLog[], ctx: DecodeContext, timestampOf: (log: ChainLog) => bigint): Facts {
  const facts: Facts = {
    transfers: [],
    swaps: [],
    referralClaims: [],
    launchpadTrades: [],
    launchpadMetadata: [],
    launchpadGraduations: [],
    reserves: new Map(),
    malformed: 0,
  };
  const distributions = new Set<string>();
  for (const log of logs) {
    if (eventOf(log) === 'coreRouterRefFeesDistributed' && ctx.announcers.get(log.address)?.kind === 'core') {
      distributions.add(`${log.txHash}:${topicAddress(log.topics[1])}:${log.topics[2]}`);
    }
  }
  for (const log of logs) {
    const name = eventOf(log);
    if (!name) continue;
    const base = { blockNumber: log.blockNumber, logIndex: log.logIndex, txHash: log.txHash, timestamp: timestampOf(log) };
    try {
      switch (name) {
        case 'transfer':
          if (log.topics.length === 3 && ctx.tokens.has(log.address)) {
            facts.transfers.push({ ...base, token: log.address, from: topicAddress(log.topics[1]), to: topicAddress(log.topics[2]), value: word(log.data, 0) });
          }
          break;
        case 'v2Sync':
        case 'stableSync': {
          const pool = ctx.pools.get(log.address);
          if (pool && (pool.kind === 'uniswap-v2' || pool.kind === 'stable')) {
            facts.reserves.set(log.address, { pool: log.address, reserve0: word(log.data, 0), reserve1: word(log.data, 1), blockNumber: log.blockNumber, log });
          }
          break;
        }
        case 'ammSwap':
          if (ctx.pools.get(log.address)?.kind === 'core') {
            facts.swaps.push({
              ...base,
              pool: log.address,
              user: topicAddress(log.topics[1]),
              tokenIn: topicAddress(log.topics[2]),
              tokenOut: topicAddress(log.topics[3]),
              amountIn: word(log.data, 0),
              amountOut: word(log.data, 1),
              fee: word(log.data, 2),
              refCode: null,
              refFee: null,
            });
          }
          break;
        case 'ammSwapWithRef':
          if (ctx.pools.get(log.address)?.kind === 'core') {
            facts.swaps.push({
              ...base,
              pool: log.address,
              user: topicAddress(log.topics[1]),
              tokenIn: topicAddress(log.topics[2]),
              refCode: (log.topics[3] ?? '').toLowerCase() || null,
              tokenOut: wordAddress(log.data, 0),
              amountIn: word(log.data, 1),
              amountOut: word(log.data, 2),
              fee: word(log.data, 3),
              refFee: word(log.data, 4),
            });
          }
          break;
        case 'ammRefFeesClaimed':
          if (ctx.pools.get(log.address)?.kind === 'core') {
            const refCode = (log.topics[1] ?? '').toLowerCase();
            facts.referralClaims.push({
              ...base,
              pool: log.address,
              refCode,
              wallet: topicAddress(log.topics[2]),
              amount0: word(log.data, 0),
              amount1: word(log.data, 1),
              kind: distributions.has(`${log.txHash}:${log.address}:${refCode}`) ? 'distribution' : 'claim',
            });
          }
          break;
        case 'launchpadTokensPurchased':
        case 'launchpadTokensSold':
          if (ctx.announcers.get(log.address)?.kind === 'launchpad') {
            const a = decodeStrings(name, log);
            const buy = name === 'launchpadTokensPurchased';
            facts.launchpadTrades.push({
              ...base,
              token: checksum(a.token as string),
              trader: checksum((buy ? a.buyer : a.seller) as string),
              side: buy ? 'buy' : 'sell',
              nativeAmount: (buy ? a.hypeIn : a.hypeOut) as bigint,
              tokenAmount: (buy ? a.tokensOut : a.tokensIn) as bigint,
              price: a.price as bigint,
              hypeReserves: a.hypeReserves as bigint,
              tokenReserves: a.tokenReserves as bigint,
              totalSupply: a.totalSupply as bigint,
            });
          }
          break;
        case 'launchpadTokenMetadataUpdated':
          if (ctx.announcers.get(log.address)?.kind === 'launchpad') {
            const a = decodeStrings(name, log);
            facts.launchpadMetadata.push({
              ...base,
              token: checksum(a.token as string),
              creator: checksum(a.creator as string),
              imageUri: a.image_uri as string,
              description: a.description as string,
              website: a.website as string,
              twitter: a.twitter as string,
              telegram: a.telegram as string,
              discord: a.discord as string,
            });
          }
          break;
        case 'launchpadTokenGraduated':
          if (ctx.announcers.get(log.address)?.kind === 'launchpad') {
            facts.launchpadGraduations.push({
              ...base,
              token: topicAddress(log.topics[1]),
              pair: topicAddress(log.topics[2]),
              hypeAmount: word(log.data, 0),
              tokenAmount: word(log.data, 1),
              liquidity: word(log.data, 2),
            });
          }
          break;
        default:
          break;
      }
    } catch {
      facts.malformed += 1;
    }
  }
  return facts;
}
