import { ammRouterAbi } from '@dex/abis';
import type { DistributionResult } from '@dex/messages';
import { BusError, MetricsRegistry } from '@dex/service';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { formatUnits, parseEventLogs } from 'viem';
import { type Config } from '../config';
import { KEEPER_CHAINS, KEEPER_CONFIG } from './injection';
import type { KeeperChain } from './keeper-chains';
import { readPendingFees } from './pending';
import { TxLane } from './tx-lane';

/**
 * Pays pending referral fees to the codes' claim wallets by calling the AMM router's `distributeRefFees`, on a
 * schedule when a chain's pending fees are worth at least the threshold, and on command. One run per chain at a
 * time, in the chain's sending lane (`TxLane`, shared with the launchpad graduations); a run never sends while a
 * keeper transaction is still pending (after a restart too: it looks at the account's pending nonce), and once a
 * distribution is mined nothing is pending any more, so the same distribution is never sent twice.
 */
@Injectable()
export class KeeperService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReferralKeeper');
  private readonly running = new Map<number, Promise<DistributionResult>>();
  private timer?: NodeJS.Timeout;
  private readonly runs;
  private readonly payouts;
  private readonly pending;

  constructor(
    @Inject(KEEPER_CONFIG) private readonly config: Config,
    @Inject(KEEPER_CHAINS) private readonly chains: readonly KeeperChain[],
    @Inject(TxLane) private readonly lane: TxLane,
    @Inject(MetricsRegistry) metrics: MetricsRegistry,
  ) {
    this.runs = metrics.counter('keeper_distribution_runs_total', 'Distribution runs by chain and outcome');
    this.payouts = metrics.counter('keeper_payouts_total', 'Referral fees paid to claim wallets, in token base units, by chain and token');
    this.pending = metrics.gauge('keeper_pending_usd', 'USD value of pending referral fees at the last look');
  }

  onApplicationBootstrap(): void {
    this.logger.log({
      msg: 'keeper ready',
      account: this.config.keeper.address,
      intervalMs: this.config.KEEPER_INTERVAL_MS,
      minPendingUsd: this.config.KEEPER_MIN_PENDING_USD,
      graduationIntervalMs: this.config.KEEPER_GRADUATION_INTERVAL_MS,
    });
    if (this.config.KEEPER_INTERVAL_MS > 0) {
      this.timer = setInterval(() => void this.runAll(false).catch(() => undefined), this.config.KEEPER_INTERVAL_MS);
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async runAll(force: boolean, chainId?: number): Promise<DistributionResult[]> {
    const chains = chainId === undefined ? this.chains : this.chains.filter((c) => c.chainId === chainId);
    if (chainId !== undefined && chains.length === 0) {
      throw new BusError(400, `Unsupported chainId: ${chainId}`, `served chains: ${this.chains.map((c) => c.chainId).join(', ')}`);
    }
    return Promise.all(chains.map((c) => this.run(c, force)));
  }

  /** One run on a chain; a run already in progress is joined rather than started twice. */
  run(chain: KeeperChain, force: boolean): Promise<DistributionResult> {
    const current = this.running.get(chain.chainId);
    if (current) return current;
    const next = this.distribute(chain, force)
      .catch((err: unknown) => {
        this.runs.inc({ chain: chain.chainId, outcome: 'failed' });
        this.logger.error({ msg: 'distribution failed', chainId: chain.chainId, err: err instanceof Error ? err.message : String(err) });
        throw new BusError(502, 'Distribution failed', err instanceof Error ? err.message.split('\n')[0] : String(err));
      })
      .finally(() => this.running.delete(chain.chainId));
    this.running.set(chain.chainId, next);
    return next;
  }

  private distribute(chain: KeeperChain, force: boolean): Promise<DistributionResult> {
    return this.lane.exclusive(chain, (keeperTxPending) => this.distributeNow(chain, force, keeperTxPending));
  }

  private async distributeNow(chain: KeeperChain, force: boolean, keeperTxPending: boolean): Promise<DistributionResult> {
    const { entries, totalUsd } = await readPendingFees(chain);
    this.pending.set({ chain: chain.chainId }, totalUsd);
    const result = (status: DistributionResult['status']): DistributionResult => ({ chainId: chain.chainId, status, pendingUsd: totalUsd, payouts: [] });
    if (keeperTxPending) {
      this.runs.inc({ chain: chain.chainId, outcome: 'in-flight' });
      this.logger.warn({ msg: 'a keeper transaction is still pending; not sending another', chainId: chain.chainId });
      return result('in-flight');
    }
    if (entries.length === 0 || (!force && totalUsd < this.config.KEEPER_MIN_PENDING_USD)) {
      this.runs.inc({ chain: chain.chainId, outcome: 'skipped' });
      return result('skipped');
    }

    const hash = await chain.wallet.writeContract({ address: chain.router, abi: ammRouterAbi, functionName: 'distributeRefFees', args: [] });
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`distributeRefFees reverted (tx ${hash})`);
    const events = parseEventLogs({ abi: ammRouterAbi, eventName: 'RefFeesDistributed', logs: receipt.logs });
    const payouts = events.map((e) => ({
      pool: e.args.pool,
      refCode: e.args.refCode,
      claimWallet: e.args.claimWallet,
      amount0: e.args.amount0.toString(),
      amount1: e.args.amount1.toString(),
    }));
    for (const e of events) {
      const entry = entries.find((x) => x.pool === e.args.pool && x.refCode === e.args.refCode);
      if (!entry) continue;
      this.payouts.inc({ chain: chain.chainId, token: entry.token0 }, Number(formatUnits(e.args.amount0, 0)));
      this.payouts.inc({ chain: chain.chainId, token: entry.token1 }, Number(formatUnits(e.args.amount1, 0)));
    }
    this.runs.inc({ chain: chain.chainId, outcome: 'sent' });
    this.logger.log({ msg: 'referral fees distributed', chainId: chain.chainId, txHash: hash, payouts: payouts.length, pendingUsd: totalUsd });
    return { chainId: chain.chainId, status: 'sent', pendingUsd: totalUsd, txHash: hash, payouts };
  }
}
