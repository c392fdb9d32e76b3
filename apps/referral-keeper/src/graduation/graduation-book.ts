import { getAddress, hexToBytes, type Address, type Hex } from 'viem';

/** Where a launched token's immutable arguments start in its code: after the 45-byte EIP-1167 proxy. */
const CLONE_ARGS_OFFSET = 45;

/**
 * The DEX factory a launched token graduates on, read from the token's code: every token is an EIP-1167 minimal
 * proxy (45 bytes) followed by its immutable arguments, the first of which is the factory (20 bytes). That is the
 * factory the launchpad's `graduate` deploys the pair through, whatever the launchpad's DEX list says today.
 */
export function tokenFactory(code: Hex | undefined): Address {
  const bytes = code ? hexToBytes(code) : new Uint8Array();
  if (bytes.length < CLONE_ARGS_OFFSET + 20) throw new Error(`not a launchpad token: ${bytes.length} bytes of code`);
  const factory = bytes.slice(CLONE_ARGS_OFFSET, CLONE_ARGS_OFFSET + 20);
  return getAddress(`0x${Buffer.from(factory).toString('hex')}`);
}

/** Gas the keeper adds to a node's estimate for a graduation transaction. */
export const GRADUATION_GAS_MARGIN = 100_000n;

/**
 * The gas limit of a graduation transaction (the DEX factory's `createPair`, the launchpad's `graduate`): the
 * node's estimate plus a fixed margin, never above `cap`, the most gas a transaction may use to fit the chain's
 * blocks (a HyperEVM small block: 2,000,000). The signing client's usual padding (25% + 50,000) would take a
 * 1.62M `createPair` over 2M and out of the small blocks; the estimate of these calls does not depend on the
 * block they land in, so a fixed margin is enough. Throws when even the estimate does not fit.
 */
export function graduationGasLimit(estimate: bigint, cap: bigint, margin: bigint = GRADUATION_GAS_MARGIN): bigint {
  if (estimate > cap) throw new Error(`needs ${estimate} gas, more than the ${cap} a block takes`);
  const padded = estimate + margin;
  return padded < cap ? padded : cap;
}

/** The most gas a transaction may use on a chain: its small blocks' limit where it has them, else a block's. */
export function transactionGasCap(blockGasLimit: bigint, smallBlockGasLimit?: bigint): bigint {
  return smallBlockGasLimit !== undefined && smallBlockGasLimit < blockGasLimit ? smallBlockGasLimit : blockGasLimit;
}

/** The longest the schedule waits before trying a failed graduation again. */
export const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * What the keeper knows of a chain's launched tokens, so that each look stays cheap: how many tokens it has
 * listed (only newer ones are fetched), which of them have graduated (never read again), and the graduations
 * that failed (the schedule retries each after a delay that doubles with every failure, up to 5 minutes; a
 * command retries at once). No I/O.
 */
export class GraduationBook {
  /** Tokens listed so far: the launchpad's token count when last listed. */
  private listed = 0;
  private readonly tokens: Address[] = [];
  private readonly graduated = new Set<Address>();
  private readonly failures = new Map<Address, { count: number; retryAt: number }>();
  /** Tokens whose pair the keeper deployed ahead of the sell-out, found deployed, or failed to deploy (once each). */
  private readonly pairsHandled = new Set<Address>();

  constructor(private readonly retryBaseMs: number) {}

  /** How many tokens are listed: the index to list from next. */
  get cursor(): number {
    return this.listed;
  }

  /** Records the next tokens in creation order, from `cursor` on. */
  list(tokens: readonly Address[]): void {
    for (const t of tokens) this.tokens.push(getAddress(t));
    this.listed += tokens.length;
  }

  /** Tokens not known to have graduated, in creation order. */
  watched(): Address[] {
    return this.tokens.filter((t) => !this.graduated.has(t));
  }

  markGraduated(token: Address): void {
    const t = getAddress(token);
    this.graduated.add(t);
    this.failures.delete(t);
  }

  isGraduated(token: Address): boolean {
    return this.graduated.has(getAddress(token));
  }

  /** Records a failed graduation at `now` (ms); returns when the schedule may try again. */
  failed(token: Address, now: number): number {
    const t = getAddress(token);
    const count = (this.failures.get(t)?.count ?? 0) + 1;
    const retryAt = now + Math.min(this.retryBaseMs * 2 ** count, MAX_RETRY_DELAY_MS);
    this.failures.set(t, { count, retryAt });
    return retryAt;
  }

  /**
   * The watched tokens still trading (some left for sale) whose sold share of `saleSupply` reached `progress`
   * and whose pair the keeper has not dealt with yet; `forSale[i]` is the tokens for sale of `watched[i]`.
   */
  pairsAhead(watched: readonly Address[], forSale: readonly bigint[], saleSupply: bigint, progress: number): Address[] {
    if (progress >= 1 || saleSupply <= 0n) return [];
    const threshold = BigInt(Math.ceil(progress * 1_000_000));
    return watched.filter((token, i) => {
      const left = forSale[i];
      return left > 0n && !this.pairsHandled.has(token) && (saleSupply - left) * 1_000_000n >= threshold * saleSupply;
    });
  }

  markPairHandled(token: Address): void {
    this.pairsHandled.add(getAddress(token));
  }

  /** Whether the schedule may try the token's graduation at `now`. */
  due(token: Address, now: number): boolean {
    const failure = this.failures.get(getAddress(token));
    return failure === undefined || now >= failure.retryAt;
  }
}
