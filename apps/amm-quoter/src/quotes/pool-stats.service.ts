import { PoolRepository, type DbClient, type PoolSwapStats } from '@dex/db';
import type { CorePoolData, CorePoolEntry } from '@dex/messages';
import { DB_CLIENT } from '@dex/chain-service';
import { BusError } from '@dex/service';
import { Inject, Injectable } from '@nestjs/common';
import { readCorePools, readCorePoolState, readOraclePrices, readTokenMetadata, shortMessage } from '@dex/chain';
import { formatUnits, getAddress, type Address } from 'viem';
import { CoreChains, type CoreChain } from './core-chains';

const E18 = 10n ** 18n;
const DAYS_PER_YEAR = 365n;

/** A fixed-point value with 18 decimals as a decimal string with `places` decimals (rounded down). */
const fixed = (value: bigint, places = 6): string => {
  const s = formatUnits(value, 18);
  const [i, f = ''] = s.split('.');
  return places === 0 ? i : `${i}.${(f + '0'.repeat(places)).slice(0, places)}`;
};

/** USD value (1e18 fixed point) of `amount` base units at `priceE18` per whole token. */
const usdOf = (amount: bigint, decimals: number, priceE18: bigint): bigint => (amount * priceE18) / 10n ** BigInt(decimals);

interface TokenMeta {
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
}

interface PoolState {
  pool: Address;
  tokens: [TokenMeta, TokenMeta];
  reserves: [bigint, bigint];
  prices: [bigint, bigint];
  fees: [bigint, bigint];
  blockTimestamp: number;
}

/**
 * Pool statistics of the AMM for `/core/pools` and `/core/pool/:address`: reserves, fee rates and oracle prices
 * read from the chain at one block; 24 h volume, fees and swap counts from the indexer's database. USD values
 * use the pools' oracle prices (the same prices the pools trade at). `apr` is the fees of the last 24 h at
 * today's prices, annualised, over the pool's TVL, in percent.
 */
@Injectable()
export class PoolStatsService {
  private readonly metadata = new Map<string, TokenMeta>();
  private readonly repository: PoolRepository;

  constructor(
    @Inject(CoreChains) private readonly chains: CoreChains,
    @Inject(DB_CLIENT) db: DbClient,
  ) {
    this.repository = new PoolRepository(db);
  }

  private chain(chainId: number): CoreChain {
    const chain = this.chains.get(chainId);
    if (!chain) throw new BusError(400, `Unsupported chainId: ${chainId}`);
    return chain;
  }

  private async token(chain: CoreChain, address: Address): Promise<TokenMeta> {
    const key = `${chain.chainId}:${address}`;
    let meta = this.metadata.get(key);
    if (!meta) {
      const read = await readTokenMetadata(chain.client, { token: address });
      // A token whose name, symbol and decimals answer is shown even when other checks fail (totalSupply,
      // balanceOf): the pool's stats need only those three.
      const unreadable = (read.verificationError ?? '').split('; ').filter((p) => /^(name|symbol|decimals)\(\)|^code|^no contract code/.test(p));
      if (unreadable.length) throw new Error(`token ${address}: ${unreadable.join('; ')}`);
      meta = { address, symbol: read.symbol, name: read.name, decimals: read.decimals };
      this.metadata.set(key, meta);
    }
    return meta;
  }

  private async state(chain: CoreChain, pool: Address, blockNumber: bigint, blockTimestamp: number): Promise<PoolState> {
    const { tokens, reserves, fees, oracle } = await readCorePoolState(chain.client, { pool, blockNumber });
    const [meta0, meta1, [price0, price1]] = await Promise.all([
      this.token(chain, tokens[0]),
      this.token(chain, tokens[1]),
      readOraclePrices(chain.client, { oracle, tokens, blockNumber }),
    ]);
    if (price0 === undefined || price1 === undefined) throw new Error(`the oracle ${oracle} has no price for a token of the pool ${pool}`);
    return { pool, tokens: [meta0, meta1], reserves: [reserves[0], reserves[1]], prices: [price0, price1], fees: [fees[0], fees[1]], blockTimestamp };
  }

  private figures(s: PoolState, stats: PoolSwapStats | undefined) {
    const [t0, t1] = s.tokens;
    const [p0, p1] = s.prices;
    const res0Usd = usdOf(s.reserves[0], t0.decimals, p0);
    const res1Usd = usdOf(s.reserves[1], t1.decimals, p1);
    const tvl = res0Usd + res1Usd;
    const v0 = stats?.volume0 ?? 0n;
    const v1 = stats?.volume1 ?? 0n;
    const f0 = stats?.fees0 ?? 0n;
    const f1 = stats?.fees1 ?? 0n;
    // Each swap adds its token0 amount to volume0 and its token1 amount to volume1, so either side's USD value
    // is the traded value (they differ by the fee); the mean of the two is reported.
    const volumeUsd = (usdOf(v0, t0.decimals, p0) + usdOf(v1, t1.decimals, p1)) / 2n;
    const feesUsd = usdOf(f0, t0.decimals, p0) + usdOf(f1, t1.decimals, p1);
    const aprE18 = tvl === 0n ? 0n : (feesUsd * DAYS_PER_YEAR * 100n * E18) / tvl;
    return {
      res0Usd,
      res1Usd,
      tvl,
      volumeUsd,
      feesUsd,
      apr: fixed(aprE18, 4),
      volume: { token0: formatUnits(v0, t0.decimals), token1: formatUnits(v1, t1.decimals), usd: fixed(volumeUsd, 2) },
      fees24: { token0: formatUnits(f0, t0.decimals), token1: formatUnits(f1, t1.decimals), usd: fixed(feesUsd, 2) },
      rate10: p1 === 0n ? 0n : (p0 * E18) / p1,
      rate01: p0 === 0n ? 0n : (p1 * E18) / p0,
    };
  }

  private fail(err: unknown): never {
    if (err instanceof BusError) throw err;
    throw new BusError(500, 'Failed to fetch pool data', shortMessage(err));
  }

  async pools(chainId: number) {
    const chain = this.chain(chainId);
    try {
      const block = await chain.client.getBlock({ blockTag: 'latest' });
      const pools = await readCorePools(chain.client, { router: chain.router, blockNumber: block.number });
      const [states, { stats }] = await Promise.all([
        Promise.all(pools.map((p) => this.state(chain, p, block.number, Number(block.timestamp)))),
        this.repository.swapStats(chainId, { pools: [...pools] }),
      ]);
      let totalTvl = 0n;
      let totalFees = 0n;
      let totalVolume = 0n;
      const entries: CorePoolEntry[] = states.map((s) => {
        const f = this.figures(s, stats.find((x) => x.pool.toLowerCase() === s.pool.toLowerCase()));
        totalTvl += f.tvl;
        totalFees += f.feesUsd;
        totalVolume += f.volumeUsd;
        const [t0, t1] = s.tokens;
        return {
          chainId,
          poolAddress: getAddress(s.pool),
          isPublic: true,
          token0: t0,
          token1: t1,
          poolFees: { token0In: fixed(s.fees[0], 6), token1In: fixed(s.fees[1], 6) },
          exchangeRates: { token1PerToken0: fixed(f.rate10, 8), token0PerToken1: fixed(f.rate01, 8) },
          usdPrices: { token0: fixed(s.prices[0], 8), token1: fixed(s.prices[1], 8) },
          reserves: { token0: formatUnits(s.reserves[0], t0.decimals), token1: formatUnits(s.reserves[1], t1.decimals) },
          reservesUSD: { token0: fixed(f.res0Usd, 2), token1: fixed(f.res1Usd, 2) },
          tvlUSD: fixed(f.tvl, 2),
          fees24h: f.fees24,
          volume24h: f.volume,
          apr: f.apr,
        };
      });
      return { pools: entries, totalTVL: fixed(totalTvl, 2), totals24h: { fees: fixed(totalFees, 2), volume: fixed(totalVolume, 2) } };
    } catch (err) {
      this.fail(err);
    }
  }

  async pool(chainId: number, address: Address): Promise<CorePoolData> {
    const chain = this.chain(chainId);
    try {
      const block = await chain.client.getBlock({ blockTag: 'latest' });
      const pools = await readCorePools(chain.client, { router: chain.router, blockNumber: block.number });
      const pool = pools.find((p) => p.toLowerCase() === address.toLowerCase());
      if (!pool) throw new BusError(404, 'No core pool found at this address', address);
      const [s, { stats }] = await Promise.all([
        this.state(chain, pool, block.number, Number(block.timestamp)),
        this.repository.swapStats(chainId, { pools: [pool] }),
      ]);
      const st = stats[0];
      const f = this.figures(s, st);
      const [t0, t1] = s.tokens;
      return {
        chainId,
        poolAddress: getAddress(pool),
        isPublic: true,
        reserves: {
          token0: { address: t0.address, symbol: t0.symbol, decimals: t0.decimals, amount: formatUnits(s.reserves[0], t0.decimals), usd: fixed(f.res0Usd, 2) },
          token1: { address: t1.address, symbol: t1.symbol, decimals: t1.decimals, amount: formatUnits(s.reserves[1], t1.decimals), usd: fixed(f.res1Usd, 2) },
          totalUSD: fixed(f.tvl, 2),
        },
        volumeToday: f.volume,
        feesToday: f.fees24,
        poolFees: { token0In: fixed(s.fees[0], 6), token1In: fixed(s.fees[1], 6) },
        price: { token1PerToken0: fixed(f.rate10, 8), token0PerToken1: fixed(f.rate01, 8), token0USD: fixed(s.prices[0], 8), token1USD: fixed(s.prices[1], 8) },
        apr: f.apr,
        swapsToday: st?.swaps24h ?? 0,
        totalSwaps: st?.totalSwaps ?? 0,
        lastUpdated: s.blockTimestamp,
      };
    } catch (err) {
      this.fail(err);
    }
  }
}
