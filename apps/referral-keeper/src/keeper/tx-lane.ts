import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';
import { KEEPER_CONFIG } from './injection';
import type { KeeperChain } from './keeper-chains';
import { SerialQueue } from './serial-queue';

/**
 * The keeper's one sending lane per chain, shared by everything that sends (referral-fee distributions,
 * launchpad graduations): a job runs once the chain's earlier jobs are done, and a job waits for each of its
 * transactions to be mined before it ends, so two keeper transactions never race on the account's nonce. Each
 * job is also told whether a keeper transaction is still pending on the chain anyway (sent by an earlier
 * process, or another replica): the account's pending nonce is then above its mined one, and the job must not
 * send.
 */
@Injectable()
export class TxLane {
  private readonly queue = new SerialQueue();

  constructor(@Inject(KEEPER_CONFIG) private readonly config: Config) {}

  exclusive<T>(chain: KeeperChain, job: (keeperTxPending: boolean) => Promise<T>): Promise<T> {
    return this.queue.run(chain.chainId, async () => job(await this.keeperTxPending(chain)));
  }

  private async keeperTxPending(chain: KeeperChain): Promise<boolean> {
    const address = this.config.keeper.address;
    const [latest, pending] = await Promise.all([
      chain.client.getTransactionCount({ address, blockTag: 'latest' }),
      chain.client.getTransactionCount({ address, blockTag: 'pending' }),
    ]);
    return pending > latest;
  }
}
