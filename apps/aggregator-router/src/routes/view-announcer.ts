import { aggregatorViewSchema, aggregatorViewTopic } from '@dex/messages';
import type { NatsBus } from '@dex/service';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { LiquidityService } from '../liquidity/liquidity.service';

/**
 * Announces each chain's new liquidity view on `aggregator.view.<chainId>` (the block routes are now answered at), so
 * that live route streams search their standing requests again once per view, not on a timer. A publish is
 * fire-and-forget: with the bus away, streams wait for the next view.
 */
export class ViewAnnouncer implements OnApplicationBootstrap {
  private readonly logger = new Logger('ViewAnnouncer');

  constructor(
    private readonly liquidity: LiquidityService,
    private readonly bus: NatsBus,
  ) {}

  onApplicationBootstrap(): void {
    for (const chain of this.liquidity.chains?.values() ?? []) {
      chain.onView((view) => {
        try {
          this.bus.publish(aggregatorViewTopic(chain.chainId), aggregatorViewSchema, { chainId: chain.chainId, blockNumber: view.blockNumber.toString() });
        } catch (err) {
          this.logger.warn({ msg: 'view not announced', chainId: chain.chainId, blockNumber: view.blockNumber.toString(), err: String(err) });
        }
      });
    }
  }
}
