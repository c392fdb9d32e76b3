import { launchpadAbi } from '@dex/abis';
import { createChainClient, revertName, shortMessage, type ChainPublicClient } from '@dex/chain';
import { TOKEN_GRADUATED, TOKEN_GRADUATING, type LaunchedToken, type LaunchedTokenStatus } from '@dex/messages';
import { BusError, ConfigError, loadSourcesConfig } from '@dex/service';
import { formatEther, getAddress, type Address, type ContractFunctionReturnType } from 'viem';
import { SERVICE, type Config } from '../config';

/** Decimals of every launchpad token (TOTAL_SUPPLY = 1e15 base units = 1B tokens). */
const TOKEN_DECIMALS = 6;

/** A launched token as the chain reports it: every field but the indexer's record of the graduation. */
export type ChainLaunchedToken = Omit<LaunchedToken, 'graduationBlock' | 'graduationTimestamp'>;

/**
 * Where a token trades: `graduated` once its DEX pool is seeded; `graduating` when its curve sold out (nothing left
 * for sale, the curve frozen) and `graduate(token)` has not run yet; `trading` on its curve before that.
 */
export function tokenStatus(graduated: boolean, tokensForSale: bigint): LaunchedTokenStatus {
  return graduated ? 'graduated' : tokensForSale === 0n ? 'graduating' : 'trading';
}

type TokenMetadata = ContractFunctionReturnType<typeof launchpadAbi, 'view', 'getTokenMetadata'>;

export interface LaunchpadChain {
  readonly chainId: number;
  readonly launchpad: Address;
  readonly client: ChainPublicClient;
}

/** Reads launched tokens, their curves and estimates from the launchpad contract of each chain. */
export class LaunchpadReader {
  private saleSupply?: bigint;

  private constructor(private readonly chains: ReadonlyMap<number, LaunchpadChain>) {}

  static fromConfig(config: Config): LaunchpadReader {
    const sources = loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId));
    const chains = new Map<number, LaunchpadChain>();
    for (const endpoint of config.chains) {
      const launchpad = sources.get(endpoint.chainId)?.find((s) => s.kind === 'launchpad')?.addresses.launchpad;
      if (!launchpad) throw new ConfigError(SERVICE, [`invalid setting SOURCES_CONFIG: chain ${endpoint.chainId} has no launchpad source`]);
      chains.set(endpoint.chainId, {
        chainId: endpoint.chainId,
        launchpad: getAddress(launchpad),
        client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl }),
      });
    }
    return new LaunchpadReader(chains);
  }

  chain(chainId: number): LaunchpadChain {
    const chain = this.chains.get(chainId);
    if (!chain) throw new BusError(400, `Unsupported chainId: ${chainId}`, `served chains: ${[...this.chains.keys()].join(', ')}`);
    return chain;
  }

  /** Tokens newest first: `offset` 0 is the latest launch. */
  async list(chainId: number, offset: number, limit: number) {
    const chain = this.chain(chainId);
    const count = Number(await chain.client.readContract({ address: chain.launchpad, abi: launchpadAbi, functionName: 'getTokenCount' }));
    const end = Math.max(0, count - offset);
    const start = Math.max(0, end - limit);
    let tokens: ChainLaunchedToken[] = [];
    if (end > start) {
      const [addresses, metadata] = await chain.client.readContract({
        address: chain.launchpad,
        abi: launchpadAbi,
        functionName: 'getPaginatedTokensWithMetadata',
        args: [BigInt(start), BigInt(end - start)],
      });
      // The page comes with each token's metadata: only the trading state is left to read.
      tokens = (await Promise.all(addresses.map((a, i) => this.read(chain, a, metadata[i])))).reverse();
    }
    const nextOffset = offset + tokens.length;
    return { chainId, launchpad: chain.launchpad, count, offset, limit, nextOffset, hasMore: nextOffset < count, tokens };
  }

  async token(chainId: number, token: Address): Promise<ChainLaunchedToken> {
    return this.read(this.chain(chainId), token);
  }

  async estimate(chainId: number, token: Address, side: 'buy' | 'sell', amount: bigint) {
    const chain = this.chain(chainId);
    // The gateway's message for a zero amount, so bus clients read the same.
    if (amount === 0n) throw new BusError(400, 'Invalid amount: must be a positive base-unit integer');
    try {
      const amountOut = await chain.client.readContract({
        address: chain.launchpad,
        abi: launchpadAbi,
        functionName: side === 'buy' ? 'estimateBuy' : 'estimateSell',
        args: [token, amount],
      });
      return { chainId, token, side, amountIn: amount.toString(), amountOut: amountOut.toString() };
    } catch (err) {
      if (revertName(err) !== 'TokenFrozen') throw this.failure(err, token);
    }
    // The curve is frozen: it sold out, and the token either graduated or awaits `graduate`.
    const state = await chain.client
      .readContract({ address: chain.launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] })
      .catch((err: unknown) => {
        throw this.failure(err, token);
      });
    throw new BusError(409, state.graduated ? TOKEN_GRADUATED : TOKEN_GRADUATING, token);
  }

  private failure(err: unknown, token: Address): BusError {
    switch (revertName(err)) {
      case 'TokenNotFound':
        return new BusError(404, 'Token not found on the launchpad', token);
      case 'InsufficientLiquidity':
        return new BusError(400, 'Insufficient liquidity on the curve for this amount', token);
    }
    return new BusError(500, 'Failed to read the launchpad', shortMessage(err));
  }

  private async read(chain: LaunchpadChain, token: Address, metadata?: TokenMetadata): Promise<ChainLaunchedToken> {
    const base = { address: chain.launchpad, abi: launchpadAbi } as const;
    try {
      this.saleSupply ??= await chain.client.readContract({ ...base, functionName: 'CURVE_SALE_SUPPLY' });
      const [meta, state, real, forSale] = await Promise.all([
        metadata ?? chain.client.readContract({ ...base, functionName: 'getTokenMetadata', args: [token] }),
        chain.client.readContract({ ...base, functionName: 'getTokenState', args: [token] }),
        chain.client.readContract({ ...base, functionName: 'getRealHypeReserve', args: [token] }),
        chain.client.readContract({ ...base, functionName: 'getTokensForSale', args: [token] }),
      ]);
      const sold = this.saleSupply - forSale;
      // Native coin per whole token at the curve's reserves: hype / (token / 10^decimals).
      const priceWei = state.tokenReserve === 0n ? 0n : (state.hypeReserve * 10n ** BigInt(TOKEN_DECIMALS)) / state.tokenReserve;
      return {
        address: getAddress(token),
        name: meta.name,
        symbol: meta.symbol,
        decimals: TOKEN_DECIMALS,
        image_uri: meta.image_uri,
        description: meta.description,
        website: meta.website,
        twitter: meta.twitter,
        telegram: meta.telegram,
        discord: meta.discord,
        creator: meta.creator,
        creationTimestamp: Number(meta.creationTimestamp),
        startingLiquidity: meta.startingLiquidity.toString(),
        dexIndex: meta.dexIndex,
        status: tokenStatus(state.graduated, forSale),
        graduated: state.graduated,
        pair: state.pair,
        hypeReserve: state.hypeReserve.toString(),
        tokenReserve: state.tokenReserve.toString(),
        realHypeReserve: real.toString(),
        tokensForSale: forSale.toString(),
        curveProgress: state.graduated ? 1 : Number((sold * 1_000_000n) / this.saleSupply) / 1_000_000,
        price: formatEther(priceWei),
      };
    } catch (err) {
      throw this.failure(err, token);
    }
  }
}
