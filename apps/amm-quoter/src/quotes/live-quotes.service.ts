import { liveQuoteSchema, quoteTopic } from '@dex/messages';
import { BusError, NatsBus } from '@dex/service';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Address } from 'viem';
import { CoreChains, type CoreChain } from './core-chains';
import { QuoteService } from './quote.service';

interface Watch {
  readonly chainId: number;
  readonly tokenIn: Address;
  readonly tokenOut: Address;
  amountsIn: bigint[];
  expiresAt: number;
}

export const DEFAULT_WATCH_TTL_SECONDS = 300;

/**
 * Live quote topics: subscribers ask (`core.watch`) for the pairs and amounts they care about, and on every
 * new block of the chain the quoter publishes that block's quotes on `quotes.<chainId>.<tokenIn>.<tokenOut>`.
 * A watch lapses after its TTL unless renewed, so nobody pays for quotes no one reads.
 */
@Injectable()
export class LiveQuotesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LiveQuotes');
  private readonly watches = new Map<string, Watch>();
  private readonly unwatch: (() => void)[] = [];

  constructor(
    @Inject(CoreChains) private readonly chains: CoreChains,
    @Inject(QuoteService) private readonly quotes: QuoteService,
    @Inject(NatsBus) private readonly bus: NatsBus,
  ) {}

  watch(request: { chainId: number; tokenIn: string; tokenOut: string; amountsIn: string[]; ttlSeconds?: number }) {
    this.quotes.chain(request.chainId);
    if (request.tokenIn === request.tokenOut) throw new BusError(400, 'tokenIn and tokenOut must differ');
    const subject = quoteTopic(request.chainId, request.tokenIn, request.tokenOut);
    const expiresAt = Math.floor(Date.now() / 1000) + (request.ttlSeconds ?? DEFAULT_WATCH_TTL_SECONDS);
    const existing = this.watches.get(subject);
    const amounts = [...new Set([...(existing?.amountsIn ?? []), ...request.amountsIn.map(BigInt)])].slice(-100);
    this.watches.set(subject, {
      chainId: request.chainId,
      tokenIn: request.tokenIn as Address,
      tokenOut: request.tokenOut as Address,
      amountsIn: amounts,
      expiresAt,
    });
    this.logger.log({ msg: 'watching', subject, amounts: amounts.length, expiresAt });
    return { subject, expiresAt };
  }

  onApplicationBootstrap(): void {
    for (const chain of this.chains.all()) {
      this.unwatch.push(
        chain.client.watchBlockNumber({
          emitMissed: false,
          onBlockNumber: (blockNumber) => void this.publish(chain, blockNumber),
          onError: (err) => this.logger.warn({ msg: 'block watch failed', chainId: chain.chainId, err: err.message }),
        }),
      );
    }
  }

  onApplicationShutdown(): void {
    for (const stop of this.unwatch.splice(0)) stop();
  }

  /** Publishes this block's quotes for every live watch of the chain. */
  private async publish(chain: CoreChain, blockNumber: bigint): Promise<void> {
    try {
      const block = await chain.client.getBlock({ blockNumber });
      this.quotes.observeBlock(chain.chainId, block.number, Number(block.timestamp));
    } catch (err) {
      this.logger.warn({ msg: 'block read failed', chainId: chain.chainId, err: err instanceof Error ? err.message : String(err) });
    }
    const now = Math.floor(Date.now() / 1000);
    const due = [...this.watches.entries()].filter(([, w]) => w.chainId === chain.chainId);
    await Promise.all(
      due.map(async ([subject, w]) => {
        if (w.expiresAt < now) {
          this.watches.delete(subject);
          this.logger.log({ msg: 'watch lapsed', subject });
          return;
        }
        try {
          const pool = await this.quotes.poolFor(chain, w.tokenIn, w.tokenOut);
          const q = await this.quotes.estimate(chain, pool, w.tokenIn, w.tokenOut, w.amountsIn, blockNumber);
          this.bus.publish(subject, liveQuoteSchema, {
            chainId: chain.chainId,
            tokenIn: w.tokenIn,
            tokenOut: w.tokenOut,
            poolAddress: pool,
            routerAddress: chain.router,
            blockNumber: q.blockNumber.toString(),
            blockTimestamp: q.blockTimestamp,
            reserveOut: q.reserveOut.toString(),
            quotes: w.amountsIn.map((amountIn, i) => ({ amountIn: amountIn.toString(), amountOut: q.amountsOut[i].toString() })),
          });
        } catch (err) {
          this.logger.warn({ msg: 'live quote failed', subject, blockNumber: blockNumber.toString(), err: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
  }
}
