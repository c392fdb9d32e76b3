import {
  createChainClient,
  estimateLaunchTrade,
  readCreatorLocks,
  readLaunchCurves,
  readLaunchedTokenCount,
  readLaunchedTokenMetadata,
  readLaunchedTokens,
  panicCode,
  revertName,
  shortMessage,
  type ChainPublicClient,
  type LaunchedTokenMetadata,
} from '@dex/chain';
import { ESTIMATE_AMOUNT_TOO_LARGE, TOKEN_GRADUATED, TOKEN_GRADUATING, type LaunchedToken } from '@dex/messages';
import { CURVE_SALE_SUPPLY } from '@dex/routing';
import { BusError, loadSourcesConfig, sourceContracts } from '@dex/service';
import { formatEther, getAddress, type Address } from 'viem';
import { SERVICE, type Config } from '../config';

/** Decimals of every launchpad token (TOTAL_SUPPLY = 1e15 base units = 1B tokens). */
const TOKEN_DECIMALS = 6;

/** A launched token as the chain reports it: every field but the indexer's record of the graduation. */
export type ChainLaunchedToken = Omit<LaunchedToken, 'graduationBlock' | 'graduationTimestamp'>;

export interface LaunchpadChain {
  readonly chainId: number;
  readonly launchpad: Address;
  readonly client: ChainPublicClient;
}

/**
 * Reads launched tokens, their curves and estimates from the launchpad contract of each chain, through the chain
 * actions of @dex/chain: a token's status (trading, graduating, graduated) is `readLaunchCurves`'s, its creator's
 * sell lock `readCreatorLocks`'s (the token's own unlock time against the latest block).
 */
export class LaunchpadReader {
  private constructor(private readonly chains: ReadonlyMap<number, LaunchpadChain>) {}

  static fromConfig(config: Config): LaunchpadReader {
    const launchpads = sourceContracts(SERVICE, loadSourcesConfig(SERVICE, config.SOURCES_CONFIG, config.chains.map((c) => c.chainId)), 'launchpad', ['launchpad']);
    const chains = new Map<number, LaunchpadChain>();
    for (const endpoint of config.chains) {
      chains.set(endpoint.chainId, {
        chainId: endpoint.chainId,
        launchpad: launchpads.get(endpoint.chainId)!.launchpad,
        client: createChainClient({ chainId: endpoint.chainId, rpcUrl: endpoint.rpcUrl, providers: endpoint.providers }),
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
    const count = await readLaunchedTokenCount(chain.client, { launchpad: chain.launchpad });
    const end = Math.max(0, count - offset);
    const start = Math.max(0, end - limit);
    let tokens: ChainLaunchedToken[] = [];
    if (end > start) {
      // The page comes with each token's metadata: only the curves are left to read.
      const page = await readLaunchedTokens(chain.client, { launchpad: chain.launchpad, start, count: end - start });
      tokens = (await this.read(chain, page.map((t) => t.address), page.map((t) => t.metadata))).reverse();
    }
    const nextOffset = offset + tokens.length;
    return { chainId, launchpad: chain.launchpad, count, offset, limit, nextOffset, hasMore: nextOffset < count, tokens };
  }

  async token(chainId: number, token: Address): Promise<ChainLaunchedToken> {
    const [read] = await this.read(this.chain(chainId), [token]);
    return read;
  }

  async estimate(chainId: number, token: Address, side: 'buy' | 'sell', amount: bigint) {
    const chain = this.chain(chainId);
    // The gateway's message for a zero amount, so bus clients read the same.
    if (amount === 0n) throw new BusError(400, 'Invalid amount: must be a positive base-unit integer');
    try {
      const amountOut = await estimateLaunchTrade(chain.client, { launchpad: chain.launchpad, token, side, amount });
      return { chainId, token, side, amountIn: amount.toString(), amountOut: amountOut.toString() };
    } catch (err) {
      if (revertName(err) !== 'TokenFrozen') throw this.failure(err, token);
    }
    // The curve is frozen: it sold out, and the token either graduated or awaits `graduate`.
    const [curve] = await readLaunchCurves(chain.client, { launchpad: chain.launchpad, tokens: [token] }).catch((err: unknown) => {
      throw this.failure(err, token);
    });
    throw new BusError(409, curve.graduated ? TOKEN_GRADUATED : TOKEN_GRADUATING, token);
  }

  private failure(err: unknown, token: Address): BusError {
    switch (revertName(err)) {
      case 'TokenNotFound':
        return new BusError(404, 'Token not found on the launchpad', token);
      case 'InsufficientLiquidity':
        return new BusError(400, 'Insufficient liquidity on the curve for this amount', token);
    }
    // The curve's arithmetic overflows on amounts far beyond any reserve (near 2^256 base units).
    const panic = panicCode(err);
    if (panic === 0x11 || panic === 0x12) return new BusError(400, ESTIMATE_AMOUNT_TOO_LARGE, 'arithmetic overflow: use a smaller amount');
    return new BusError(500, 'Failed to read the launchpad', shortMessage(err));
  }

  /** Tokens as the chain reports them: their curves (and metadata, unless given) in one multicall each. */
  private async read(chain: LaunchpadChain, tokens: readonly Address[], metadata?: readonly LaunchedTokenMetadata[]): Promise<ChainLaunchedToken[]> {
    const { client, launchpad } = chain;
    try {
      // All three reads go out at once, but a failure is reported in this order: an address the launchpad does
      // not know fails its reads with `TokenNotFound` and the token read with an undecodable answer, whichever
      // settles first, and the caller must hear the launchpad's 404.
      const settled = await Promise.allSettled([
        metadata ?? readLaunchedTokenMetadata(client, { launchpad, tokens }),
        readLaunchCurves(client, { launchpad, tokens }),
        readCreatorLocks(client, { tokens }),
      ] as const);
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      const [metas, curves, locks] = settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [
        readonly LaunchedTokenMetadata[],
        Awaited<ReturnType<typeof readLaunchCurves>>,
        Awaited<ReturnType<typeof readCreatorLocks>>,
      ];
      return curves.map((curve, i) => {
        const meta = metas[i];
        const sold = CURVE_SALE_SUPPLY - curve.tokensForSale;
        // Native coin per whole token at the curve's reserves: native / (token / 10^decimals).
        const priceWei = curve.tokenReserve === 0n ? 0n : (curve.nativeReserve * 10n ** BigInt(TOKEN_DECIMALS)) / curve.tokenReserve;
        return {
          address: getAddress(curve.token),
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
          creatorLocked: locks[i].locked,
          creatorUnlockTime: locks[i].unlockTime,
          startingLiquidity: meta.startingLiquidity.toString(),
          dexIndex: meta.dexIndex,
          status: curve.status,
          graduated: curve.graduated,
          pair: curve.pair,
          nativeReserve: curve.nativeReserve.toString(),
          tokenReserve: curve.tokenReserve.toString(),
          realNativeReserve: curve.realNativeReserve.toString(),
          tokensForSale: curve.tokensForSale.toString(),
          curveProgress: curve.graduated ? 1 : Number((sold * 1_000_000n) / CURVE_SALE_SUPPLY) / 1_000_000,
          price: formatEther(priceWei),
        };
      });
    } catch (err) {
      throw this.failure(err, tokens.length === 1 ? tokens[0] : chain.launchpad);
    }
  }
}
