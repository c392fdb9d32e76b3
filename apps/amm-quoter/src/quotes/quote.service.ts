import { randomUUID } from 'node:crypto';
import { ammRouterAbi } from '@dex/abis';
import { minAmountOut } from '@dex/fee-math';
import { SWAP_SIGNATURE, SWAP_WITH_REF_SIGNATURE, type CoreQuoteRequest, type CoreQuoteResponse } from '@dex/messages';
import { chainFreshness, staleChainDetails } from '@dex/chain-service';
import { BusError } from '@dex/service';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { estimateCoreSwapBatch, isRevert, isUnreachable, panicCode, readCorePoolForPair, readCorePoolState, revertName, shortMessage } from '@dex/chain';
import { encodeFunctionData, type Address } from 'viem';
import { CoreChains, type CoreChain } from './core-chains';

/** How long the pool found for a pair is trusted before asking the router again. */
const POOL_TTL_MS = 15_000;

export const DEFAULT_SLIPPAGE_BPS = 100;

/** How long the watcher's newest block is quoted at before asking the node again. */
const HEAD_FRESH_MS = 1_000;

/** A pool-level failure, as the REST API reports it; no RPC provider answering is the chain's failure. */
function failure(err: unknown, chainId: number): BusError {
  if (isUnreachable(err)) return new BusError(503, `Chain ${chainId} unavailable: no RPC provider is giving blocks`, shortMessage(err));
  const name = revertName(err);
  switch (name) {
    case 'NoPoolForPair':
      return new BusError(404, 'No core pool found for this token pair');
    case 'InsufficientReserve':
      return new BusError(400, 'Insufficient reserve: amountIn exceeds what the pool can pay', 'InsufficientReserve: use a smaller amount');
    case 'ZeroAmountOut':
      return new BusError(400, 'Invalid amountIn: too small for the pool to pay anything', 'ZeroAmountOut');
    case 'ZeroAmount':
      return new BusError(400, 'Invalid amountIn: must be a raw uint256 (base units) or comma-separated list', 'amounts must be greater than zero');
    case 'StalePrice':
    case 'PriceUnavailable':
      return new BusError(503, 'Oracle price unavailable: quotes for this pool are paused', name);
    case 'EnforcedPause':
      return new BusError(503, 'The pool is paused', name);
    case 'InvalidToken':
      return new BusError(400, 'Invalid token for this pool', name);
    case 'Panic':
      // The pool's arithmetic overflows on amounts far beyond any reserve (from about 10^76 base units).
      if (panicCode(err) === 0x11) return new BusError(400, 'Insufficient reserve: amountIn exceeds what the pool can pay', 'arithmetic overflow: use a smaller amount');
      break;
  }
  return new BusError(500, 'Failed to fetch quote', shortMessage(err));
}

/**
 * Quotes on the AMM through the chain's router, at one block: the pool of the pair, `estimateSwapBatch` for
 * every amount in one call, the pool's reserve of the output token, and the router calldata when asked for.
 * Pricing is never replicated here: the contract's estimate is the quote.
 */
@Injectable()
export class QuoteService {
  private readonly logger = new Logger('QuoteService');
  private readonly pools = new Map<string, { pool: Address; until: number }>();
  /** Pool tokens never change. */
  private readonly poolTokens = new Map<string, readonly [Address, Address]>();
  /** The newest block seen per chain (set by the block watcher), so a quote needs one round trip. */
  private readonly heads = new Map<number, { number: bigint; timestamp: number; seenAt: number }>();

  constructor(@Inject(CoreChains) private readonly chains: CoreChains) {}

  chain(chainId: number): CoreChain {
    const chain = this.chains.get(chainId);
    if (!chain) throw new BusError(400, `Unsupported chainId: ${chainId}`, `supported chains: ${this.chains.all().map((c) => c.chainId).join(', ')}`);
    return chain;
  }

  /** The pool of a pair; 404 when the router has none (zero address or a revert). */
  async poolFor(chain: CoreChain, tokenIn: Address, tokenOut: Address): Promise<Address> {
    const key = `${chain.chainId}:${[tokenIn, tokenOut].sort().join(':')}`;
    const cached = this.pools.get(key);
    if (cached && cached.until > Date.now()) return cached.pool;
    let pool: Address | undefined;
    try {
      pool = await readCorePoolForPair(chain.client, { router: chain.router, tokenA: tokenIn, tokenB: tokenOut });
    } catch (err) {
      // The router reverting (for any reason) means it has no pool for the pair; anything else is a fault.
      if (isRevert(err)) {
        throw new BusError(404, 'No core pool found for this token pair');
      }
      throw failure(err, chain.chainId);
    }
    if (!pool) throw new BusError(404, 'No core pool found for this token pair');
    this.pools.set(key, { pool, until: Date.now() + POOL_TTL_MS });
    return pool;
  }

  /** Records a new block of a chain (from the block watcher). */
  observeBlock(chainId: number, number: bigint, timestamp: number): void {
    const head = this.heads.get(chainId);
    if (!head || number >= head.number) this.heads.set(chainId, { number, timestamp, seenAt: Date.now() });
  }

  /** The block to quote at: the watcher's newest block while it is fresh, otherwise asked for. */
  private async block(chain: CoreChain, blockNumber?: bigint): Promise<{ number: bigint; timestamp: number }> {
    const head = this.heads.get(chain.chainId);
    if (blockNumber === undefined && head && Date.now() - head.seenAt < HEAD_FRESH_MS) return head;
    if (blockNumber !== undefined && head?.number === blockNumber) return head;
    const block = blockNumber === undefined ? await chain.client.getBlock({ blockTag: 'latest' }) : await chain.client.getBlock({ blockNumber });
    this.observeBlock(chain.chainId, block.number, Number(block.timestamp));
    return { number: block.number, timestamp: Number(block.timestamp) };
  }

  private async tokensOf(chain: CoreChain, pool: Address): Promise<readonly [Address, Address]> {
    const key = `${chain.chainId}:${pool}`;
    let tokens = this.poolTokens.get(key);
    if (!tokens) {
      tokens = (await readCorePoolState(chain.client, { pool })).tokens;
      this.poolTokens.set(key, tokens);
    }
    return tokens;
  }

  /** Amounts out for `amountsIn` at `blockNumber` (latest when unset), with the block and the output reserve. */
  async estimate(chain: CoreChain, pool: Address, tokenIn: Address, tokenOut: Address, amountsIn: readonly bigint[], blockNumber?: bigint) {
    try {
      const [block, tokens] = await Promise.all([this.block(chain, blockNumber), this.tokensOf(chain, pool)]);
      // One round trip: the estimate and the reserves in one Multicall3 call at the block.
      const { amountsOut, reserves } = await estimateCoreSwapBatch(chain.client, { router: chain.router, pool, tokenIn, tokenOut, amountsIn, blockNumber: block.number });
      const reserveOut = tokens[0] === tokenOut ? reserves[0] : reserves[1];
      return { amountsOut, reserveOut, blockNumber: block.number, blockTimestamp: block.timestamp };
    } catch (err) {
      throw failure(err, chain.chainId);
    }
  }

  /** 503 naming the chain when none of its RPC providers has given a block within the staleness bound. */
  assertFresh(chain: CoreChain): void {
    const freshness = chainFreshness(chain.endpoint);
    if (freshness.stale) throw new BusError(503, `Chain ${chain.chainId} unavailable: no RPC provider is giving blocks`, staleChainDetails(freshness));
  }

  async quote(request: CoreQuoteRequest): Promise<CoreQuoteResponse> {
    const chain = this.chain(request.chainId);
    const tokenIn = request.tokenIn as Address;
    const tokenOut = request.tokenOut as Address;
    if (tokenIn === tokenOut) throw new BusError(404, 'No core pool found for this token pair', 'tokenIn and tokenOut are the same token');
    this.assertFresh(chain);
    const pool = await this.poolFor(chain, tokenIn, tokenOut);
    const amountsIn = request.amountsIn.map(BigInt);
    const { amountsOut, reserveOut, blockNumber, blockTimestamp } = await this.estimate(chain, pool, tokenIn, tokenOut, amountsIn);

    const slippageBps = request.includeCalldata ? (request.slippageBps ?? DEFAULT_SLIPPAGE_BPS) : request.slippageBps;
    const refCode = request.refCode;
    const quotes = amountsIn.map((amountIn, i) => {
      const amountOut = amountsOut[i];
      if (!request.includeCalldata) return { amountIn: amountIn.toString(), amountOut: amountOut.toString() };
      const min = minAmountOut(amountOut, BigInt(slippageBps!));
      const calldata = refCode
        ? encodeFunctionData({ abi: ammRouterAbi, functionName: 'swap', args: [tokenIn, tokenOut, amountIn, min, refCode] })
        : encodeFunctionData({ abi: ammRouterAbi, functionName: 'swap', args: [tokenIn, tokenOut, amountIn, min] });
      return { amountIn: amountIn.toString(), amountOut: amountOut.toString(), minAmountOut: min.toString(), calldata };
    });
    // One line per answer: its id with the inputs and the block, so a report quoting the id can be traced.
    const quoteId = randomUUID();
    this.logger.log({
      msg: 'core quote',
      quoteId,
      chainId: chain.chainId,
      tokenIn,
      tokenOut,
      amountsIn: request.amountsIn,
      includeCalldata: request.includeCalldata,
      ...(slippageBps === undefined ? {} : { slippageBps }),
      ...(refCode ? { refCode } : {}),
      pool,
      blockNumber: blockNumber.toString(),
      blockTimestamp,
      amountsOut: amountsOut.map(String),
    });
    return {
      quoteId,
      routerAddress: chain.router,
      chainId: chain.chainId,
      poolAddress: pool,
      reserveOut: reserveOut.toString(),
      blockNumber: blockNumber.toString(),
      blockTimestamp,
      functionSignature: refCode ? SWAP_WITH_REF_SIGNATURE : SWAP_SIGNATURE,
      ...(refCode ? { refCode } : {}),
      ...(slippageBps === undefined ? {} : { slippageBps }),
      quotes,
    };
  }
}
