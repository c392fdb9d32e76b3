/**
 * A route request in the engine's terms: the fee recipient checked against RouterV2's rules, the tokens
 * resolved (the native coin as the wrapped token) and known, the amount in base units.
 */
import { CHAIN_DID_NOT_ANSWER, DEADLINE_PASSED, DEFAULT_DEADLINE_SECONDS, INVALID_FEE_RECIPIENT, INVALID_RECIPIENT, PERMIT2_NATIVE_IN, PERMIT2_UNAVAILABLE, type ParsedRequestOf, type routeContract, type TokenMeta } from '@dex/messages';
import { freshPermit2Nonce, getChainInfo, shortMessage } from '@dex/chain';
import { maxSwapsWithinGas, type SourceFilter } from '@dex/routing';
import { BusError } from '@dex/service';
import { getAddress, zeroAddress, type Address } from 'viem';
import type { ChainLiquidity, LiquiditySnapshot } from '../liquidity/liquidity.service';
import { isNative, knownToken } from './token-meta';

export type RouteRequest = ParsedRequestOf<typeof routeContract>;

/** A human-readable amount in base units; more decimals than the token has is a 400 naming the parameter. */
export function toBaseUnits(value: string, decimals: number, param: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  if (fraction.length > decimals) {
    throw new BusError(400, `Invalid ${param}: more decimals than the token has`, `the token has ${decimals} decimals, got ${JSON.stringify(value)}`);
  }
  const units = BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  // The gateway's message for a zero amount, so bus clients read the same.
  if (units <= 0n) throw new BusError(400, `Invalid ${param}: must be a positive decimal number`, `got ${JSON.stringify(value)}`);
  if (units >= 2n ** 256n) throw new BusError(400, `Invalid ${param}: too large`);
  return units;
}

/** What a route request asks the engine and RouterV2 for. */
export interface RouteOrder {
  /** The tokens traded, the native coin as the chain's wrapped token. */
  readonly tokenIn: Address;
  readonly tokenOut: Address;
  readonly metaIn: TokenMeta;
  readonly metaOut: TokenMeta;
  /** The input is the native coin (the transaction's value). */
  readonly nativeIn: boolean;
  /** The output is paid in the native coin: asked for, or the wrapped token with `unwrapNative`. */
  readonly unwrap: boolean;
  /** Exact input or exact output, base units. */
  readonly amount: { readonly amountIn: bigint } | { readonly amountOut: bigint };
  readonly multiHop: boolean;
  /** Swaps the route may hold: what the chain's route gas budget holds (`routeGasBudget`). */
  readonly maxSwaps: number;
  readonly filter: SourceFilter;
  readonly feeBps: number;
  readonly feeRecipient?: string;
  readonly slippageBps: number;
  /** With a recipient or a deadline: the calldata calls `executeSwapsWithData` with these. */
  readonly payout?: { readonly recipient: Address; readonly deadline: bigint };
  /** Percent: a route whose price impact is above it is refused. */
  readonly maxPriceImpact?: number;
  /** Simulate the transaction from this wallet. */
  readonly sender?: Address;
  /** Choose the route net of its gas (`gasValue` of the search). */
  readonly gasAware: boolean;
  /** With `gasAware`: what a unit of gas is worth in tokenOut (exact input) or tokenIn (exact output) base units. */
  readonly gasValue?: number;
  /** Signed through Permit2 by `signer` with `nonce` (`permit2=true`): the calldata calls `entry` (RouterV2Permit2). */
  readonly permit2?: { readonly permit2: Address; readonly entry: Address; readonly signer: Address; readonly nonce: bigint };
}

/**
 * Where an order's transaction goes and who takes its input: RouterV2 for both, or for a route signed through Permit2
 * RouterV2Permit2 (`to`) and Permit2 (`spender`, the address the sender approves).
 */
export function routeTarget(chain: ChainLiquidity, order: RouteOrder): { readonly to: Address; readonly spender: Address } {
  if (order.permit2) return { to: order.permit2.entry, spender: order.permit2.permit2 };
  const router = getAddress(chain.entry.routerV2);
  return { to: router, spender: router };
}

/** The chain's router contracts, which would keep what they were paid: RouterV2 and RouterV2Permit2 (lower case). */
function routerContract(chain: ChainLiquidity, account: string | undefined): string | undefined {
  const routers: string[] = [chain.entry.routerV2, ...(chain.entry.routerV2Permit2 ? [chain.entry.routerV2Permit2] : [])];
  return routers.find((router) => router.toLowerCase() === account);
}

/** RouterV2 reverts on these recipients (InvalidFeeRecipient; FeeRecipientRequired for the zero address with a fee). */
function checkFeeRecipient(chain: ChainLiquidity, request: RouteRequest): void {
  const feeRecipient = request.feeRecipient?.toLowerCase();
  const router = routerContract(chain, feeRecipient);
  if (router !== undefined || (feeRecipient === zeroAddress && request.feeBps > 0)) {
    const why = feeRecipient === zeroAddress ? 'the zero address cannot receive a fee (feeBps > 0)' : `${router} is the router of chain ${chain.chainId}`;
    throw new BusError(400, INVALID_FEE_RECIPIENT, why);
  }
}

/** RouterV2 reverts `InvalidRecipient` on the zero address and on itself (RouterV2Permit2 `RecipientIsEntry` on itself). */
function checkRecipient(chain: ChainLiquidity, request: RouteRequest): void {
  const recipient = request.recipient?.toLowerCase();
  const router = routerContract(chain, recipient);
  if (recipient === zeroAddress || router !== undefined) {
    throw new BusError(400, INVALID_RECIPIENT, recipient === zeroAddress ? 'RouterV2 reverts InvalidRecipient for the zero address' : `${router} is the router of chain ${chain.chainId}`);
  }
}

/**
 * The recipient and deadline of `executeSwapsWithData`, when the request gives either. The chain's time is its
 * newest block's timestamp, or the clock when that is behind (an idle chain's next block is stamped with the
 * clock): a deadline before it is refused, and a missing one is `DEFAULT_DEADLINE_SECONDS` after it.
 */
async function payoutOf(chain: ChainLiquidity, request: RouteRequest): Promise<RouteOrder['payout']> {
  if (request.recipient === undefined) return undefined;
  const block = await chain.client.getBlock({ blockTag: 'latest' }).catch((err: unknown) => {
    throw new BusError(503, CHAIN_DID_NOT_ANSWER, `latest block: ${shortMessage(err)}`);
  });
  const now = block.timestamp > BigInt(Math.floor(Date.now() / 1000)) ? block.timestamp : BigInt(Math.floor(Date.now() / 1000));
  const deadline = request.deadline === undefined ? now + BigInt(DEFAULT_DEADLINE_SECONDS) : BigInt(request.deadline);
  if (deadline < now) throw new BusError(400, DEADLINE_PASSED, `deadline ${deadline} is before the chain's time ${now}`);
  return { recipient: getAddress(request.recipient), deadline };
}

/** The request's order on the chain's current snapshot (waited for: token metadata is read with the first one). */
export async function resolveRouteRequest(chain: ChainLiquidity, request: RouteRequest): Promise<{ snapshot: LiquiditySnapshot; order: RouteOrder }> {
  checkFeeRecipient(chain, request);
  checkRecipient(chain, request);
  const snapshot = await chain.current();
  const wrapped = chain.wrappedNative;
  const nativeIn = isNative(request.tokenIn);
  const nativeOut = isNative(request.tokenOut);
  const tokenIn = nativeIn ? wrapped : getAddress(request.tokenIn);
  const tokenOut = nativeOut ? wrapped : getAddress(request.tokenOut);
  if (tokenIn.toLowerCase() === tokenOut.toLowerCase()) {
    throw new BusError(400, 'Invalid tokenOut: must differ from tokenIn', 'wrapping or unwrapping the native coin is not a route');
  }
  const metaIn = knownToken(chain, tokenIn, 'tokenIn');
  const metaOut = knownToken(chain, tokenOut, 'tokenOut');
  const order: RouteOrder = {
    tokenIn,
    tokenOut,
    metaIn,
    metaOut,
    nativeIn,
    unwrap: nativeOut || (request.unwrapNative && tokenOut.toLowerCase() === wrapped.toLowerCase()),
    amount:
      request.amountIn !== undefined
        ? { amountIn: toBaseUnits(request.amountIn, metaIn.decimals, 'amountIn') }
        : { amountOut: toBaseUnits(request.amountOut!, metaOut.decimals, 'amountOut') },
    multiHop: request.multiHop,
    maxSwaps: maxSwapsWithinGas(getChainInfo(chain.chainId).routeGasBudget),
    filter: { includeDexes: request.includeDexes, excludeDexes: request.excludeDexes },
    feeBps: request.feeBps,
    ...(request.feeRecipient !== undefined ? { feeRecipient: request.feeRecipient } : {}),
    slippageBps: request.slippageBps,
    ...(request.maxPriceImpact !== undefined ? { maxPriceImpact: request.maxPriceImpact } : {}),
    ...(request.sender !== undefined ? { sender: getAddress(request.sender) } : {}),
    gasAware: request.gasAware,
  };
  const [payout, permit2] = await Promise.all([payoutOf(chain, request), permit2Of(chain, request, snapshot.blockNumber)]);
  return { snapshot, order: { ...order, ...(payout ? { payout } : {}), ...(permit2 ? { permit2 } : {}) } };
}

/**
 * A route signed through Permit2: the chain's Permit2 and RouterV2Permit2 (from the sources file), the signer (the
 * sender) and its lowest unused nonce at the snapshot's block. The native coin as the input is refused: it is sent.
 */
async function permit2Of(chain: ChainLiquidity, request: RouteRequest, blockNumber: bigint): Promise<RouteOrder['permit2']> {
  if (!request.permit2) return undefined;
  if (isNative(request.tokenIn)) throw new BusError(400, PERMIT2_NATIVE_IN, 'a swap from the native coin carries it as the value of the transaction to RouterV2');
  const { permit2, routerV2Permit2 } = chain.entry;
  if (permit2 === undefined || routerV2Permit2 === undefined) throw new BusError(400, PERMIT2_UNAVAILABLE, `chain ${chain.chainId} has no RouterV2Permit2 in its sources file`);
  const signer = getAddress(request.sender!);
  const nonce = await freshPermit2Nonce(chain.client, { permit2: getAddress(permit2), owner: signer, blockNumber }).catch((err: unknown) => {
    throw new BusError(503, CHAIN_DID_NOT_ANSWER, `Permit2 nonces of ${signer}: ${shortMessage(err)}`);
  });
  return { permit2: getAddress(permit2), entry: getAddress(routerV2Permit2), signer, nonce };
}
