// From the indexer's published facts and stored rows to the liquidity state's facts and starting point.
import type { StoredChainLiquidity } from '@dex/db';
import { concentratedFactOf, kindModule, poolCreatedFactOf, type LiquidityFact, type PoolRecord, type StoredLiquidity } from '@dex/liquidity';
import { CHAIN_FACTS } from '@dex/messages';
import type { ChainFactMessage } from '@dex/service';
import { getAddress } from 'viem';

/** The indexer's facts the liquidity state is built from. */
export { LIQUIDITY_FACTS } from '@dex/messages';

/** The state's fact for a published one; undefined for a fact the state has no use for. */
export function liquidityFact(message: ChainFactMessage): LiquidityFact | undefined {
  switch (message.fact) {
    case CHAIN_FACTS.poolCreated:
      // A V3 pool's fee and tick spacing; a V4 pool's PoolManager, key and first price (its Initialize).
      return poolCreatedFactOf(message.payload);
    case CHAIN_FACTS.poolConcentrated:
      return concentratedFactOf(message.payload);
    case CHAIN_FACTS.poolUpdated: {
      const p = message.payload;
      return { type: 'reservesSynced', block: BigInt(p.blockNumber), logIndex: p.logIndex, pool: p.address, reserve0: BigInt(p.reserve0), reserve1: BigInt(p.reserve1) };
    }
    case CHAIN_FACTS.tokenCreated: {
      const p = message.payload;
      return { type: 'tokenListed', address: getAddress(p.address), symbol: p.symbol, name: p.name, decimals: p.decimals };
    }
    case CHAIN_FACTS.launchpadTokenCreated:
    case CHAIN_FACTS.launchpadTrade: {
      const p = message.payload;
      return { type: 'curveTraded', block: BigInt(p.blockNumber), logIndex: p.logIndex, token: p.token, nativeReserve: BigInt(p.nativeReserves), tokenReserve: BigInt(p.tokenReserves) };
    }
    case CHAIN_FACTS.launchpadTokenGraduated: {
      const p = message.payload;
      return { type: 'tokenGraduated', block: BigInt(p.blockNumber), logIndex: p.logIndex, token: p.token };
    }
    case CHAIN_FACTS.block:
      return { type: 'blockProcessed', block: BigInt(message.payload.blockNumber) };
    case CHAIN_FACTS.reorg:
      return { type: 'reorg', ancestor: BigInt(message.payload.ancestor) };
    default:
      return undefined;
  }
}

/** A log index past every log of a block: a stored state is as of the end of its block. */
const END_OF_BLOCK = Number.MAX_SAFE_INTEGER;

/**
 * The state the indexer stored at its checkpoint, as the liquidity state's starting point. Concentrated pools
 * come without their state (the indexer publishes their events but stores no ticks), Uniswap V4 pools without their
 * key and state (stored by PoolId alone): the service reads them from the chain at the checkpoint.
 */
export function storedLiquidity(stored: StoredChainLiquidity): StoredLiquidity {
  const pools: PoolRecord[] = [];
  for (const p of stored.pools) {
    // The kinds the liquidity state keeps (`kindModule`), each with what it keeps of the stored state.
    const module = kindModule(p.kind);
    if (!module) continue;
    pools.push({
      kind: module.kind,
      address: p.address.toLowerCase(),
      routerIndex: p.routerIndex,
      token0: p.token0,
      token1: p.token1,
      createdBlock: p.createdBlock,
      at: { block: p.reservesBlock ?? p.createdBlock, logIndex: END_OF_BLOCK },
      ...module.restored({
        ...(p.reserve0 !== null && p.reserve1 !== null ? { reserves: { reserve0: p.reserve0, reserve1: p.reserve1 } } : {}),
        ...(p.curve ? { curve: { nativeReserve: p.curve.nativeReserves, tokenReserve: p.curve.tokenReserves, graduated: p.curve.graduated } } : {}),
      }),
    });
  }
  return { block: stored.block, pools, tokens: stored.tokens.map((t) => ({ ...t, address: getAddress(t.address) })) };
}
