/**
 * How each token's transfers behave, learnt once per token and pool and kept until it may have changed.
 *
 * The check (`probeTokenTransfers`) is one `eth_call`: the pool that holds the token sends a tenth of its balance to
 * RouterV2 and the router sends it back, both accounts running a probe's code by a state override, so nothing is
 * sent on chain. It finds a transfer that reverts (paused, the pool or the router blocklisted, ...), one that answers
 * false, and the fee a fee-on-transfer token takes. The answer is kept per (token, pool), and checked again when:
 * - the token emitted any event other than Transfer and Approval since it was checked (Paused, Unpaused, a
 *   blocklist entry, an ownership or implementation change): one `eth_getLogs` over the checked tokens per new
 *   block a route is asked at; or
 * - it is older than `maxAgeMs` (default 10 minutes), for changes that emit nothing; or
 * - it found the transfers failing and the block asked for is a later one (a token that paused or blocklisted without
 *   an event may undo it the same way).
 * A route whose simulation reverts forgets the answers of its tokens (`forget`), for the changes that emit nothing.
 * A failure to read the chain is not kept: the next request checks again.
 */
import { findBalanceSlot, probeTokenTransfers, shortMessage, type BalanceSlot, type ChainPublicClient, type ProbeTokenTransfersReturnType } from '@dex/chain';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { LiquidityService } from '../liquidity/liquidity.service';
import { erc20Abi, getAddress, toEventSelector, type Address } from 'viem';

/** What is known of a token's transfers from one pool. */
export interface TransferCheck {
  readonly token: Address;
  readonly pool: Address;
  readonly blockNumber: bigint;
  readonly checkedAtMs: number;
  readonly result: ProbeTokenTransfersReturnType;
}

/** Events that say nothing about how transfers behave. */
const ROUTINE_EVENTS = new Set([toEventSelector(erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')!), toEventSelector(erc20Abi.find((e) => e.type === 'event' && e.name === 'Approval')!)]);

export const DEFAULT_TRANSFER_CHECK_MAX_AGE_MS = 10 * 60_000;

/** The checks of one chain. */
export class ChainTransferChecks {
  private readonly checks = new Map<string, Promise<TransferCheck>>();
  /** Per token (lower-case), where it keeps an account's balance. */
  private readonly balanceSlots = new Map<string, Promise<BalanceSlot | undefined>>();
  /** The answers of `checks` that arrived, readable without awaiting. */
  private readonly settled = new Map<string, TransferCheck>();
  /** The last block whose token events were read (undefined: none yet; the next scan starts at the oldest check). */
  private scannedThrough?: bigint;
  private scanning?: Promise<void>;
  private readonly logger: Logger;

  constructor(
    readonly chainId: number,
    private readonly client: ChainPublicClient,
    private readonly router: Address,
    private readonly maxAgeMs = DEFAULT_TRANSFER_CHECK_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.logger = new Logger(`TokenTransfers:${chainId}`);
  }

  /** How `token`'s transfers from `pool` behave at `blockNumber` (the kept answer while it holds). */
  async check(token: Address, pool: Address, blockNumber: bigint): Promise<TransferCheck> {
    await this.forgetChanged(blockNumber);
    const key = `${token.toLowerCase()}|${pool.toLowerCase()}`;
    const kept = this.checks.get(key);
    if (kept) {
      const check = await kept.catch(() => undefined);
      // A failure holds for its block only: a token that paused or blocklisted without a word may undo it the same way.
      const fresh = check && this.now() - check.checkedAtMs <= this.maxAgeMs && check.blockNumber <= blockNumber && (check.result.ok || check.blockNumber === blockNumber);
      if (fresh) return check;
      if (this.checks.get(key) === kept) {
        this.checks.delete(key);
        this.settled.delete(key);
      }
    }
    const running = probeTokenTransfers(this.client, { token, holder: pool, router: this.router, blockNumber }).then((result): TransferCheck => {
      this.logger.log({ msg: 'token transfers checked', chainId: this.chainId, token, pool, blockNumber: blockNumber.toString(), result });
      const check: TransferCheck = { token: getAddress(token), pool: getAddress(pool), blockNumber, checkedAtMs: this.now(), result };
      if (this.checks.get(key) === running) this.settled.set(key, check);
      return check;
    });
    this.checks.set(key, running);
    running.catch((err: unknown) => {
      if (this.checks.get(key) === running) this.checks.delete(key);
      this.logger.warn({ msg: 'token transfer check failed', chainId: this.chainId, token, pool, error: shortMessage(err) });
    });
    return running;
  }

  /**
   * Forgets what is known of the tokens' transfers, so that the next check reads the chain again: after a route
   * through them failed in its simulation, whatever the kept answers said (a token may pause or blocklist without
   * emitting anything).
   */
  forget(tokens: readonly string[]): void {
    const gone = new Set(tokens.map((t) => t.toLowerCase()));
    for (const key of [...this.checks.keys()]) {
      if (!gone.has(key.split('|')[0])) continue;
      this.checks.delete(key);
      this.settled.delete(key);
    }
  }

  /**
   * `amount` of the token sent from `pool` to the router and back at the block, not kept: what a failed route's
   * own amounts show (a token may refuse a transfer above some size).
   */
  async checkAmount(token: Address, pool: Address, amount: bigint, blockNumber: bigint): Promise<TransferCheck> {
    const result = await probeTokenTransfers(this.client, { token, holder: pool, router: this.router, amount, blockNumber });
    return { token: getAddress(token), pool: getAddress(pool), blockNumber, checkedAtMs: this.now(), result };
  }

  /**
   * Where the token keeps the simulations' payer's balance (`findBalanceSlot`), found once per token; a failure to
   * read the chain is not kept.
   */
  balanceSlot(token: Address, blockNumber: bigint): Promise<BalanceSlot | undefined> {
    const key = token.toLowerCase();
    let found = this.balanceSlots.get(key);
    if (!found) {
      found = findBalanceSlot(this.client, { token, blockNumber });
      this.balanceSlots.set(key, found);
      found.then(
        (slot) => this.logger.log({ msg: 'balance slot found', chainId: this.chainId, token, slot: slot?.slot ?? null }),
        () => this.balanceSlots.get(key) === found && this.balanceSlots.delete(key),
      );
    }
    return found;
  }

  /** Forgets where the token keeps a balance: found again on the next simulation. */
  forgetBalanceSlot(token: string): void {
    this.balanceSlots.delete(token.toLowerCase());
  }

  /** The kept answers of a token (every pool checked), without reading the chain. */
  known(token: string): TransferCheck[] {
    const out: TransferCheck[] = [];
    for (const [key, check] of this.settled) if (key.startsWith(`${token.toLowerCase()}|`)) out.push(check);
    return out;
  }

  /** Drops the answers of tokens that emitted anything but transfers and approvals since the last scan. */
  private forgetChanged(blockNumber: bigint): Promise<void> {
    if (this.scannedThrough !== undefined && blockNumber <= this.scannedThrough) return Promise.resolve();
    this.scanning ??= this.scan(blockNumber).finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  private async scan(blockNumber: bigint): Promise<void> {
    const tokens = [...new Set([...this.checks.keys()].map((k) => k.split('|')[0]))];
    const from = this.scannedThrough === undefined ? undefined : this.scannedThrough + 1n;
    if (tokens.length === 0 || from === undefined) {
      this.scannedThrough = blockNumber;
      return;
    }
    if (from > blockNumber) return;
    try {
      const logs = await this.client.getLogs({ address: tokens as Address[], fromBlock: from, toBlock: blockNumber });
      const changed = new Set(logs.filter((log) => !ROUTINE_EVENTS.has(log.topics[0] ?? '0x')).map((log) => log.address.toLowerCase()));
      for (const key of [...this.checks.keys()]) {
        const token = key.split('|')[0];
        if (!changed.has(token)) continue;
        this.checks.delete(key);
        this.settled.delete(key);
        this.logger.log({ msg: 'token changed; its transfers will be checked again', chainId: this.chainId, token, throughBlock: blockNumber.toString() });
      }
      this.scannedThrough = blockNumber;
    } catch (err) {
      // Not advanced: the next request reads these blocks again.
      this.logger.warn({ msg: 'token events not read', chainId: this.chainId, error: shortMessage(err) });
    }
  }
}

/** The transfer checks of every chain the service routes on. */
@Injectable()
export class TokenTransfers {
  private readonly chains = new Map<number, ChainTransferChecks>();

  constructor(@Inject(LiquidityService) private readonly liquidity: LiquidityService) {}

  /** The chain's checks (the chain must be served: `LiquidityService.chain` answers a 400 otherwise). */
  chain(chainId: number): ChainTransferChecks {
    let checks = this.chains.get(chainId);
    if (!checks) {
      const chain = this.liquidity.chain(chainId);
      checks = new ChainTransferChecks(chainId, chain.client, getAddress(chain.entry.routerV2));
      this.chains.set(chainId, checks);
    }
    return checks;
  }
}
