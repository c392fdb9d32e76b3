/**
 * Each configured source checked against its chain before it is routed through (`verifySource`: code at every
 * address, a call only a contract of its kind answers as that kind does; a V4 source's listed hooks have code and are
 * allowed by the chain's RouterV2). At start the service waits for each
 * chain's check (at most `START_WAIT_MS`); a source that fails is left out of every route, logged, counted in the
 * `dex_sources` gauge and shown in `/dexes` with its reason; the service starts all the same. Sources whose check
 * the chain did not answer stay `unchecked` (left out) and are checked again every `RETRY_MS` until it does.
 */
import { shortMessage, verifySource } from '@dex/chain';
import { MetricsRegistry } from '@dex/service';
import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LiquidityService } from '../liquidity/liquidity.service';
import { SourceRegistry } from './source-registry';

const START_WAIT_MS = 15_000;
const RETRY_MS = 10_000;

@Injectable()
export class SourceVerification implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SourceVerification');
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    @Inject(SourceRegistry) private readonly sources: SourceRegistry,
    @Inject(LiquidityService) private readonly liquidity: LiquidityService,
    @Optional() @Inject(MetricsRegistry) private readonly metrics?: MetricsRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const checks = this.sources.chainIds().map((chainId) => this.verifyChain(chainId));
    await Promise.race([Promise.all(checks), new Promise((resolve) => this.timer(resolve, START_WAIT_MS))]);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
  }

  /** Checks every source of the chain not yet checked; schedules another pass while any is unchecked. */
  async verifyChain(chainId: number): Promise<void> {
    const chain = this.liquidity.chains?.get(chainId);
    if (!chain) return;
    const pending = this.sources.sources(chainId).filter((s) => this.sources.state(chainId, s.routerIndex).status === 'unchecked');
    await Promise.all(
      pending.map(async (source) => {
        try {
          // RouterV2 named: a V4 source's listed hooks must be allowed by it.
          const result = await verifySource(chain.client, source, { routerV2: chain.entry.routerV2 });
          this.sources.setState(chainId, source.routerIndex, result.ok ? { status: 'active' } : { status: 'failed', reason: result.reason });
          if (result.ok) this.logger.log({ msg: 'source verified', chainId, routerIndex: source.routerIndex, name: source.name });
          else this.logger.warn({ msg: 'source left out: not what its config says', chainId, routerIndex: source.routerIndex, name: source.name, reason: result.reason });
        } catch (err) {
          this.sources.setState(chainId, source.routerIndex, { status: 'unchecked', reason: `the chain did not answer the check: ${shortMessage(err)}` });
          this.logger.warn({ msg: 'source not checked: the chain did not answer', chainId, routerIndex: source.routerIndex, name: source.name, error: shortMessage(err) });
        }
      }),
    );
    this.count(chainId);
    const left = this.sources.sources(chainId).some((s) => this.sources.state(chainId, s.routerIndex).status === 'unchecked');
    if (left && !this.stopped) this.timer(() => void this.verifyChain(chainId), RETRY_MS);
  }

  private count(chainId: number): void {
    const gauge = this.metrics?.gauge('dex_sources', 'Configured liquidity sources by chain and status (active, failed: not what the config says, unchecked: the chain did not answer)');
    for (const status of ['active', 'failed', 'unchecked'] as const) {
      gauge?.set({ chain: String(chainId), status }, this.sources.sources(chainId).filter((s) => this.sources.state(chainId, s.routerIndex).status === status).length);
    }
  }

  private timer(run: (value?: unknown) => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      run();
    }, ms);
    t.unref();
    this.timers.add(t);
  }
}
