import { chainSeed, devAccounts, Random, type DevAccount } from '@dex/devnet-kit';
import type { DevnetManifest } from '@dex/messages';
import type { Address } from 'viem';
import { fundSimulatorAccounts, simulatorAccounts } from './accounts';
import { ACTION_KINDS, ChainSimulator, DEFAULT_ACTION_WEIGHTS, type ActionKind, type ActionResult } from './chain-simulator';

/** Where the simulator reports: Nest's Logger fits (one JSON line per call with the service's JSON logger). */
export interface SimulatorLogger {
  log(message: object): void;
  warn(message: object): void;
  debug?(message: object): void;
}

export interface SimulatorOptions {
  readonly manifest: DevnetManifest;
  /** Time between the starts of two ticks; a tick that runs longer delays the next one. */
  readonly intervalMs: number;
  /** Seed of the random choices; each chain draws from its own stream derived from it. */
  readonly seed: number;
  readonly logger: SimulatorLogger;
  /** Relative weights of the actions (missing ones keep their default; 0 turns one off). */
  readonly weights?: Partial<Record<ActionKind, number>>;
  /** The accounts it sends from (default: the simulator dev accounts), funded by `prepareSimulator`. */
  readonly accounts?: readonly DevAccount[];
  /** How often a summary of the activity is logged (default one minute). */
  readonly summaryIntervalMs?: number;
}

type Tally = Record<ActionKind, { ok: number; failed: number }>;

const emptyTally = (): Tally => Object.fromEntries(ACTION_KINDS.map((k) => [k, { ok: 0, failed: 0 }])) as Tally;

/**
 * Funds the simulator accounts on every chain of the manifest (tokens, wrapped native, oracle updater rights).
 * Sends from the deployer, so it must run before anything else does.
 */
export async function prepareSimulator(manifest: DevnetManifest, accounts: readonly DevAccount[] = simulatorAccounts()): Promise<void> {
  await Promise.all(Object.values(manifest.chains).map((chain) => fundSimulatorAccounts(chain, accounts)));
}

/**
 * Activity on the devnet's chains, so what the services serve keeps moving: every tick, on each chain in
 * parallel, one random action (a V2 swap, a stable swap, a core swap, a token transfer, a launchpad buy or
 * sell, now and then a token launch, an oracle price move). A failed action is logged and the next tick runs
 * as usual; nothing the simulator does throws out of it.
 */
export class Simulator {
  readonly accounts: readonly DevAccount[];
  private readonly chains: readonly ChainSimulator[];
  private readonly tally = new Map<number, Tally>();
  private readonly failuresInARow = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> | undefined;
  private stopped = false;
  private ticks = 0;
  private lastSummary = Date.now();

  constructor(private readonly options: SimulatorOptions) {
    this.accounts = options.accounts ?? simulatorAccounts();
    const own = new Set(this.accounts.map((a) => a.address));
    const recipients: Address[] = devAccounts()
      .filter((a) => a.role.startsWith('trader-') && !own.has(a.address))
      .map((a) => a.address);
    const weights = { ...DEFAULT_ACTION_WEIGHTS, ...options.weights };
    this.chains = Object.values(options.manifest.chains).map((chain) => {
      this.tally.set(chain.chainId, emptyTally());
      return new ChainSimulator(chain, this.accounts, recipients, new Random(chainSeed(options.seed, chain.chainId)), weights);
    });
  }

  /** Starts ticking every `intervalMs` until `stop`. */
  start(): void {
    if (this.stopped || this.timer || this.inFlight) return;
    this.options.logger.log({
      msg: 'activity simulator started',
      intervalMs: this.options.intervalMs,
      seed: this.options.seed,
      accounts: this.accounts.map((a) => a.address),
      chains: this.chains.map((c) => c.chainId),
    });
    this.schedule(0);
  }

  /** One action on each chain, in parallel. Never rejects. */
  async tick(): Promise<ActionResult[]> {
    const results = await Promise.all(this.chains.map((c) => c.step()));
    this.ticks += 1;
    for (const r of results) {
      const counts = this.tally.get(r.chainId)![r.kind];
      if (r.ok) {
        counts.ok += 1;
        this.options.logger.debug?.({ msg: 'simulated action', chainId: r.chainId, action: r.kind, txHash: r.txHash, ...r.detail });
        this.failuresInARow.set(r.chainId, 0);
      } else {
        counts.failed += 1;
        // Every failure while they are few; once a chain keeps failing (e.g. its node is gone), one in 30.
        const inARow = (this.failuresInARow.get(r.chainId) ?? 0) + 1;
        this.failuresInARow.set(r.chainId, inARow);
        if (inARow <= 5 || inARow % 30 === 0) {
          this.options.logger.warn({
            msg: 'simulated action failed',
            chainId: r.chainId,
            action: r.kind,
            error: r.error,
            ...(r.revert ? { revert: r.revert } : {}),
            ...(inARow > 1 ? { failuresInARow: inARow } : {}),
          });
        }
      }
    }
    if (Date.now() - this.lastSummary >= (this.options.summaryIntervalMs ?? 60_000)) this.summary('activity simulator');
    return results;
  }

  /** Stops ticking and waits for the tick in flight, if any. */
  async stop(): Promise<void> {
    if (this.stopped) {
      await this.inFlight;
      return;
    }
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
    this.summary('activity simulator stopped');
  }

  /** Successful and failed actions so far, per chain and kind. */
  counts(): Record<number, Tally> {
    return Object.fromEntries([...this.tally].map(([chainId, t]) => [chainId, structuredClone(t)]));
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const started = Date.now();
      this.inFlight = this.tick()
        .catch((err: unknown) => this.options.logger.warn({ msg: 'simulator tick failed', error: String(err) }))
        .finally(() => {
          this.inFlight = undefined;
          if (!this.stopped) this.schedule(Math.max(0, this.options.intervalMs - (Date.now() - started)));
        });
    }, delayMs);
  }

  private summary(msg: string): void {
    this.lastSummary = Date.now();
    const chains = Object.fromEntries(
      [...this.tally].map(([chainId, t]) => [
        chainId,
        Object.fromEntries(
          Object.entries(t)
            .filter(([, c]) => c.ok + c.failed > 0)
            .map(([kind, c]) => [kind, c.failed ? `${c.ok} ok, ${c.failed} failed` : c.ok]),
        ),
      ]),
    );
    this.options.logger.log({ msg, ticks: this.ticks, chains });
  }
}
