import { launchpadAbi, uniswapV2FactoryAbi } from '@dex/abis';
import { readLaunchCurves, readLaunchedTokenCount, readLaunchedTokens, readLaunchpadConfig, revertName, shortMessage } from '@dex/chain';
import { CURVE_SALE_SUPPLY } from '@dex/routing';
import type { GraduationOutcome, GraduationResult, GraduationRun } from '@dex/messages';
import { BusError, MetricsRegistry } from '@dex/service';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { parseEventLogs, type Address, type Hash, type TransactionReceipt } from 'viem';
import { type Config } from '../config';
import { KEEPER_CHAINS, KEEPER_CONFIG } from '../keeper/injection';
import type { KeeperChain } from '../keeper/keeper-chains';
import { SerialQueue } from '../keeper/serial-queue';
import { TxLane } from '../keeper/tx-lane';
import { GraduationBook, graduationGasLimit, tokenFactory, transactionGasCap } from './graduation-book';

/** Tokens listed per read of the launchpad's token list (each comes with its metadata). */
const LIST_PAGE = 100;

interface PendingToken {
  readonly token: Address;
  readonly pair: Address;
}

/** A look's findings: the tokens awaiting `graduate`, and the trading ones whose pair to deploy ahead. */
interface Look {
  readonly pending: PendingToken[];
  readonly ahead: Address[];
}

interface Sent {
  readonly hash: Hash;
  readonly gas: bigint;
  readonly receipt: TransactionReceipt;
}

/**
 * Finishes launchpad graduations. The buy that sells out a token's curve graduates the token only if its DEX pair
 * is already deployed (deploying it costs about 1.6M gas, which does not fit a HyperEVM small block together
 * with the buy); otherwise the curve freezes and the token waits for anyone to call the launchpad's
 * `graduate(token)`. On a schedule (`KEEPER_GRADUATION_INTERVAL_MS`) and on command (`keeper.graduate`), for
 * each chain with a launchpad, the keeper finds the tokens in that state and, for each, deploys the pair through
 * the token's DEX factory (`createPair`) if it has no code yet, then calls `graduate(token)`: two transactions
 * that each fit a small block (1.62M and 0.29M gas), sent with a deliberate gas limit (see `graduationGasLimit`).
 *
 * A look is cheap: the launchpad's token count, the tokens created since the last look, and the curve of each
 * token not yet known to have graduated (one multicall, `readLaunchCurves`: a token awaits `graduate` when its
 * status is `graduating`); graduated tokens are never read again. Every
 * transaction goes through the chain's sending lane shared with the referral-fee distributions (`TxLane`), so the
 * keeper's transactions never race on the nonce and none is sent while one of its transactions is pending. A
 * token someone else graduated first (`GraduationNotPending`, or our `graduate` reverting after theirs) is done.
 *
 * Ahead of the sell-out: once a trading token's curve has sold `KEEPER_PAIR_AHEAD_PROGRESS` of its sale supply
 * (default 80%), the keeper deploys its pair in the same way, once. The buy that sells the curve out then
 * graduates the token itself (0.34M gas, within a small block), and the token never waits in `graduating`. A
 * deployment that fails is not retried ahead: the token graduates through `graduate` after its sell-out.
 */
@Injectable()
export class GraduationService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Graduations');
  private readonly books = new Map<number, GraduationBook>();
  private readonly passes = new SerialQueue();
  private readonly wrappedNatives = new Map<number, Address>();
  /** The last failure of a scheduled look, per chain: logged when it first happens, not at every look. */
  private readonly lookFailures = new Map<number, string>();
  /** Chains whose graduations wait for a pending keeper transaction: logged when the wait begins. */
  private readonly deferred = new Set<number>();
  private timer?: NodeJS.Timeout;
  private readonly outcomes;
  private readonly pendingGauge;
  private readonly pairsAhead;

  constructor(
    @Inject(KEEPER_CONFIG) private readonly config: Config,
    @Inject(KEEPER_CHAINS) private readonly chains: readonly KeeperChain[],
    @Inject(TxLane) private readonly lane: TxLane,
    @Inject(MetricsRegistry) metrics: MetricsRegistry,
  ) {
    this.outcomes = metrics.counter('keeper_graduations_total', 'Launchpad graduations the keeper acted on, by chain and outcome');
    this.pendingGauge = metrics.gauge('keeper_graduations_pending', 'Launched tokens whose curve sold out and that await graduate, at the last look');
    this.pairsAhead = metrics.counter('keeper_pairs_ahead_total', 'DEX pairs of trading launched tokens the keeper dealt with ahead of the sell-out, by chain and outcome');
  }

  onApplicationBootstrap(): void {
    const interval = this.config.KEEPER_GRADUATION_INTERVAL_MS;
    if (interval > 0) {
      this.timer = setInterval(() => this.tick(), interval);
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** A scheduled look on every chain with a launchpad; a chain whose previous look is still running is skipped. */
  private tick(): void {
    for (const chain of this.chains) {
      if (!chain.launchpad || this.passes.busy(chain.chainId)) continue;
      void this.passes.run(chain.chainId, () => this.graduatePending(chain, false)).then(
        () => this.lookSucceeded(chain),
        (err: unknown) => this.lookFailed(chain, err),
      );
    }
  }

  /**
   * `keeper.graduate`: graduates now, on every chain or one, every pending token or only `token`; failed
   * graduations are retried at once. Waits for a look under way on the chain to end first.
   */
  async runAll(chainId?: number, token?: Address): Promise<GraduationRun[]> {
    const chains = chainId === undefined ? this.chains : this.chains.filter((c) => c.chainId === chainId);
    if (chainId !== undefined && chains.length === 0) {
      throw new BusError(400, `Unsupported chainId: ${chainId}`, `served chains: ${this.chains.map((c) => c.chainId).join(', ')}`);
    }
    return Promise.all(
      chains.map((chain) =>
        this.passes.run(chain.chainId, () => (token ? this.graduateToken(chain, token) : this.graduatePending(chain, true))).catch((err: unknown) => {
          if (err instanceof BusError) throw err;
          this.logger.error({ msg: 'launchpad graduation look failed', chainId: chain.chainId, err: shortMessage(err) });
          throw new BusError(502, 'Graduation failed', shortMessage(err));
        }),
      ),
    );
  }

  /** Finds the chain's pending graduations and graduates each one (those the schedule may retry now, unless `force`). */
  private async graduatePending(chain: KeeperChain, force: boolean): Promise<GraduationRun> {
    if (!chain.launchpad) return { chainId: chain.chainId, pending: 0, graduations: [] };
    const { pending, ahead } = await this.look(chain, chain.launchpad);
    this.pendingGauge.set({ chain: chain.chainId }, pending.length);
    const book = this.book(chain);
    const now = Date.now();
    const graduations: GraduationResult[] = [];
    for (const p of pending.filter((p) => force || book.due(p.token, now))) {
      graduations.push(await this.graduateOne(chain, chain.launchpad, p));
    }
    this.pendingGauge.set({ chain: chain.chainId }, pending.filter((p) => !book.isGraduated(p.token)).length);
    for (const token of ahead) await this.deployPairAhead(chain, chain.launchpad, token);
    return { chainId: chain.chainId, pending: pending.length, graduations };
  }

  /**
   * Deploys a trading token's pair ahead of its sell-out, in the chain's sending lane; a pair already deployed is
   * left as it is. Tried once per token: when the keeper has a transaction pending, the next look tries again.
   */
  private deployPairAhead(chain: KeeperChain, launchpad: Address, token: Address): Promise<void> {
    return this.lane.exclusive(chain, async (keeperTxPending) => {
      if (keeperTxPending) return;
      const book = this.book(chain);
      const [{ pair }] = await readLaunchCurves(chain.client, { launchpad, tokens: [token] });
      let outcome: 'deployed' | 'already-deployed' | 'failed' = 'already-deployed';
      try {
        if (!(await this.hasCode(chain, pair))) outcome = (await this.deployPair(chain, launchpad, token, pair, 'ahead of the sell-out')) ? 'deployed' : 'already-deployed';
      } catch (err) {
        outcome = 'failed';
        this.logger.error({ msg: 'launchpad pair not deployed ahead of the sell-out', chainId: chain.chainId, token, pair, err: shortMessage(err) });
      }
      book.markPairHandled(token);
      this.pairsAhead.inc({ chain: chain.chainId, outcome });
    });
  }

  /** One token, named by the command: graduated when it is pending; otherwise says why there is nothing to do. */
  private async graduateToken(chain: KeeperChain, token: Address): Promise<GraduationRun> {
    const launchpad = chain.launchpad;
    if (!launchpad) throw new BusError(404, 'Token not found on the launchpad', `chain ${chain.chainId} has no launchpad`);
    const [curve] = await readLaunchCurves(chain.client, { launchpad, tokens: [token] }).catch((err: unknown) => {
      throw revertName(err) === 'TokenNotFound' ? new BusError(404, 'Token not found on the launchpad', token) : err;
    });
    const pending = { token: curve.token, pair: curve.pair };
    if (curve.status === 'graduated') {
      this.book(chain).markGraduated(token);
      return { chainId: chain.chainId, pending: 0, graduations: [{ ...pending, outcome: 'already-graduated' }] };
    }
    if (curve.status === 'trading') return { chainId: chain.chainId, pending: 0, graduations: [{ ...pending, outcome: 'not-sold-out' }] };
    return { chainId: chain.chainId, pending: 1, graduations: [await this.graduateOne(chain, launchpad, pending)] };
  }

  /**
   * The tokens whose curve sold out and that have not graduated (`graduating`): lists the tokens created since the
   * last look and reads the curve of each one not known to have graduated. Also the trading tokens whose pair to
   * deploy ahead of the sell-out.
   */
  private async look(chain: KeeperChain, launchpad: Address): Promise<Look> {
    const { client } = chain;
    const book = this.book(chain);
    const count = await readLaunchedTokenCount(client, { launchpad });
    while (book.cursor < count) {
      const tokens = await readLaunchedTokens(client, { launchpad, start: book.cursor, count: Math.min(LIST_PAGE, count - book.cursor) });
      if (tokens.length === 0) break;
      book.list(tokens.map((t) => t.address));
    }
    const watched = book.watched();
    if (watched.length === 0) return { pending: [], ahead: [] };
    const curves = await readLaunchCurves(client, { launchpad, tokens: watched });
    const progress = this.config.KEEPER_PAIR_AHEAD_PROGRESS;
    const ahead = progress < 1 ? book.pairsAhead(watched, curves.map((c) => c.tokensForSale), CURVE_SALE_SUPPLY, progress) : [];
    const pending: PendingToken[] = [];
    for (const curve of curves) {
      if (curve.status === 'graduated') book.markGraduated(curve.token);
      else if (curve.status === 'graduating') pending.push({ token: curve.token, pair: curve.pair });
    }
    return { pending, ahead };
  }

  /** Deploys the token's pair if it has no code yet, then graduates the token; in the chain's sending lane. */
  private graduateOne(chain: KeeperChain, launchpad: Address, { token, pair }: PendingToken): Promise<GraduationResult> {
    return this.lane.exclusive(chain, async (keeperTxPending) => {
      if (keeperTxPending) {
        if (!this.deferred.has(chain.chainId)) {
          this.logger.warn({ msg: 'a keeper transaction is still pending; not sending a graduation', chainId: chain.chainId, token });
        }
        this.deferred.add(chain.chainId);
        return this.outcome(chain, { token, pair, outcome: 'in-flight' });
      }
      this.deferred.delete(chain.chainId);
      let step: 'createPair' | 'graduate' = 'createPair';
      let pairTxHash: Hash | undefined;
      try {
        if (!(await this.hasCode(chain, pair))) pairTxHash = await this.deployPair(chain, launchpad, token, pair);
        step = 'graduate';
        return await this.graduate(chain, launchpad, token, pair, pairTxHash);
      } catch (err) {
        const error = shortMessage(err);
        const retryAt = this.book(chain).failed(token, Date.now());
        this.logger.error({ msg: 'launchpad graduation failed', chainId: chain.chainId, token, pair, step, err: error, retryAt: new Date(retryAt).toISOString() });
        return this.outcome(chain, { token, pair, outcome: 'failed', ...(pairTxHash ? { pairTxHash } : {}), error });
      }
    });
  }

  /**
   * `createPair(token, wrappedNative)` on the token's DEX factory; the pair lands at the address the token locked.
   * Returns the transaction, or nothing when someone else deployed the pair meanwhile (ours then reverts).
   */
  private async deployPair(chain: KeeperChain, launchpad: Address, token: Address, pair: Address, when?: string): Promise<Hash | undefined> {
    const factory = tokenFactory(await chain.client.getCode({ address: token }));
    const wrappedNative = await this.wrappedNative(chain, launchpad);
    const call = { address: factory, abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token, wrappedNative] } as const;
    const attempt = await this.attempt(
      chain,
      'createPair',
      () => chain.client.estimateContractGas({ ...call, account: this.config.keeper }),
      (gas) => chain.wallet.writeContract({ ...call, gas }),
      () => this.hasCode(chain, pair),
      { msg: 'launchpad pair deployed by someone else first', token, pair },
    );
    if (!attempt.sent) return undefined;
    const { hash, gas, receipt } = attempt.sent;
    this.logger.log({ msg: when ? `launchpad pair deployed ${when}` : 'launchpad pair deployed', chainId: chain.chainId, token, pair, factory, txHash: hash, gasLimit: gas.toString(), gasUsed: receipt.gasUsed.toString() });
    return hash;
  }

  /** The launchpad's `graduate(token)`; a token someone else graduated first is done. */
  private async graduate(chain: KeeperChain, launchpad: Address, token: Address, pair: Address, pairTxHash: Hash | undefined): Promise<GraduationResult> {
    const call = { address: launchpad, abi: launchpadAbi, functionName: 'graduate', args: [token] } as const;
    const done = (outcome: GraduationOutcome, graduateTxHash?: Hash): GraduationResult => {
      this.book(chain).markGraduated(token);
      return this.outcome(chain, { token, pair, outcome, ...(pairTxHash ? { pairTxHash } : {}), ...(graduateTxHash ? { graduateTxHash } : {}) });
    };
    const attempt = await this.attempt(
      chain,
      'graduate',
      () => chain.client.estimateContractGas({ ...call, account: this.config.keeper }),
      (gas) => chain.wallet.writeContract({ ...call, gas }),
      async (err) => (err !== undefined ? revertName(err) === 'GraduationNotPending' : (await readLaunchCurves(chain.client, { launchpad, tokens: [token] }))[0].graduated),
      { msg: 'launchpad token graduated by someone else first', token, pair },
    );
    if (!attempt.sent) return done('already-graduated', attempt.hash);
    const { hash, gas, receipt } = attempt.sent;
    const [event] = parseEventLogs({ abi: launchpadAbi, eventName: 'TokenGraduated', logs: receipt.logs });
    this.logger.log({
      msg: 'launchpad token graduated',
      chainId: chain.chainId,
      token,
      pair,
      txHash: hash,
      gasLimit: gas.toString(),
      gasUsed: receipt.gasUsed.toString(),
      nativeAmount: event?.args.hypeAmount.toString(),
      tokenAmount: event?.args.tokenAmount.toString(),
    });
    return done('graduated', hash);
  }

  /**
   * Sends one transaction with a deliberate gas limit (the estimate plus a fixed margin, within what a block of
   * the chain takes) and waits until it is mined.
   */
  /**
   * Sends a keeper transaction. When it fails, before it is mined or by reverting, and `doneElsewhere` finds its
   * effect already on chain (someone else was first), logs `first` and answers without `sent` (with the reverted
   * transaction's hash, if one was mined); any other failure throws.
   */
  private async attempt(
    chain: KeeperChain,
    what: string,
    estimate: () => Promise<bigint>,
    write: (gas: bigint) => Promise<Hash>,
    doneElsewhere: (err?: unknown) => Promise<boolean>,
    first: { msg: string } & Record<string, unknown>,
  ): Promise<{ sent?: Sent; hash?: Hash }> {
    let sent: Sent;
    try {
      sent = await this.send(chain, estimate, write);
    } catch (err) {
      if (!(await doneElsewhere(err))) throw err;
      this.logger.log({ ...first, chainId: chain.chainId });
      return {};
    }
    if (sent.receipt.status !== 'success') {
      if (!(await doneElsewhere())) throw new Error(`${what} reverted (tx ${sent.hash})`);
      this.logger.log({ ...first, chainId: chain.chainId, txHash: sent.hash });
      return { hash: sent.hash };
    }
    return { sent };
  }

  private async send(chain: KeeperChain, estimate: () => Promise<bigint>, write: (gas: bigint) => Promise<Hash>): Promise<Sent> {
    const [estimated, block] = await Promise.all([estimate(), chain.client.getBlock({ blockTag: 'latest' })]);
    const gas = graduationGasLimit(estimated, transactionGasCap(block.gasLimit, chain.smallBlockGasLimit));
    const hash = await write(gas);
    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    return { hash, gas, receipt };
  }

  private outcome(chain: KeeperChain, result: GraduationResult): GraduationResult {
    this.outcomes.inc({ chain: chain.chainId, outcome: result.outcome });
    return result;
  }

  private async hasCode(chain: KeeperChain, address: Address): Promise<boolean> {
    const code = await chain.client.getCode({ address });
    return code !== undefined && code !== '0x';
  }

  private async wrappedNative(chain: KeeperChain, launchpad: Address): Promise<Address> {
    let address = this.wrappedNatives.get(chain.chainId);
    if (!address) {
      address = (await readLaunchpadConfig(chain.client, { launchpad })).wrappedNative;
      this.wrappedNatives.set(chain.chainId, address);
    }
    return address;
  }

  private book(chain: KeeperChain): GraduationBook {
    let book = this.books.get(chain.chainId);
    if (!book) {
      book = new GraduationBook(Math.max(this.config.KEEPER_GRADUATION_INTERVAL_MS, 1_000));
      this.books.set(chain.chainId, book);
    }
    return book;
  }

  private lookSucceeded(chain: KeeperChain): void {
    if (this.lookFailures.delete(chain.chainId)) this.logger.log({ msg: 'launchpad graduation looks work again', chainId: chain.chainId });
  }

  private lookFailed(chain: KeeperChain, err: unknown): void {
    const error = shortMessage(err);
    if (this.lookFailures.get(chain.chainId) !== error) this.logger.warn({ msg: 'launchpad graduation look failed', chainId: chain.chainId, err: error });
    this.lookFailures.set(chain.chainId, error);
  }
}
