/**
 * The gas of a route's transaction and its cost: the gas model's estimate (`routeGas`), the chain's gas price
 * (`eth_gasPrice`) and the native coin's USD price (the core source's oracle, for the wrapped native token), both
 * read once per block and chain.
 */
import { readBalances, readOraclePrices, shortMessage } from '@dex/chain';
import { CHAIN_DID_NOT_ANSWER } from '@dex/messages';
import { routeGas } from '@dex/routing';
import { BusError } from '@dex/service';
import { formatUnits, type Address } from 'viem';
import type { ChainLiquidity } from '../liquidity/liquidity.service';
import type { RouteAnswerExtras } from './route-answer';
import type { RouteExecution } from './route-execution';
import type { QuotedRoute } from './route-quote';
import type { RouteOrder } from './route-request';

interface BlockPrices {
  readonly blockNumber: bigint;
  readonly prices: Promise<{ gasPrice: bigint; nativeUsdE18: bigint | undefined }>;
}

const E18 = 10n ** 18n;

/**
 * Per chain, the gas price and the native coin's USD price at its newest block asked for. A request at a new block
 * does not wait for them: while that block's read is in flight, the last block's answer serves (gas prices move by
 * at most 12.5% a block), so the chain's latency is not on every request's path once a block.
 */
export class GasPrices {
  private readonly byChain = new Map<number, BlockPrices>();
  /** The newest answer that arrived, per chain. */
  private readonly known = new Map<number, { blockNumber: bigint; prices: Awaited<BlockPrices['prices']> }>();

  at(chain: ChainLiquidity, blockNumber: bigint): BlockPrices['prices'] {
    const cached = this.byChain.get(chain.chainId);
    const known = this.known.get(chain.chainId);
    const stale = known && known.blockNumber < blockNumber ? Promise.resolve(known.prices) : undefined;
    if (cached && cached.blockNumber === blockNumber) return known?.blockNumber === blockNumber ? Promise.resolve(known.prices) : (stale ?? cached.prices);
    // The oracle of the chain's core AMM (the source configured with one) prices the native coin in USD.
    const oracle = chain.sources.find((s) => s.addresses.oracle !== undefined)?.addresses.oracle as Address | undefined;
    const prices = Promise.all([
      chain.client.getGasPrice(),
      oracle ? readOraclePrices(chain.client, { oracle, tokens: [chain.wrappedNative], blockNumber }).then(([p]) => p) : Promise.resolve(undefined),
    ]).then(([gasPrice, nativeUsdE18]) => ({ gasPrice, nativeUsdE18 }));
    prices.then(
      (answer) => {
        const newest = this.known.get(chain.chainId);
        if (!newest || newest.blockNumber <= blockNumber) this.known.set(chain.chainId, { blockNumber, prices: answer });
      },
      () => this.byChain.get(chain.chainId)?.prices === prices && this.byChain.delete(chain.chainId),
    );
    if (!cached || cached.blockNumber < blockNumber) this.byChain.set(chain.chainId, { blockNumber, prices });
    return stale ?? prices;
  }
}

/**
 * Whether the transaction's recipient (the `recipient` asked for, else the `sender`) already holds the output: its
 * balance of the output token, or for the native coin whether its account exists (a balance or a nonce), at the
 * answer's block; read once per block, recipient and token. Unknown (undefined) without either address.
 */
export class RecipientHoldings {
  private block: { chainId: number; blockNumber: bigint } | undefined;
  private readonly byKey = new Map<string, Promise<boolean>>();

  holds(chain: ChainLiquidity, blockNumber: bigint, order: RouteOrder): Promise<boolean> | undefined {
    const owner = order.payout?.recipient ?? order.sender;
    if (owner === undefined) return undefined;
    if (this.block?.chainId !== chain.chainId || this.block.blockNumber !== blockNumber) {
      this.block = { chainId: chain.chainId, blockNumber };
      this.byKey.clear();
    }
    const key = `${owner.toLowerCase()}:${order.unwrap ? 'native' : order.tokenOut.toLowerCase()}`;
    const cached = this.byKey.get(key);
    if (cached) return cached;
    const read = order.unwrap
      ? Promise.all([chain.client.getBalance({ address: owner, blockNumber }), chain.client.getTransactionCount({ address: owner, blockNumber })]).then(([balance, nonce]) => balance > 0n || nonce > 0)
      : readBalances(chain.client, { owner, tokens: [order.tokenOut], blockNumber }).then(({ tokens: [balance] }) => balance > 0n);
    read.catch(() => this.byKey.get(key) === read && this.byKey.delete(key));
    this.byKey.set(key, read);
    return read;
  }
}

/** USD (18 decimals) as a decimal string with 6 decimals, rounded down. */
const usd = (e18: bigint): string => formatUnits(e18 / 10n ** 12n, 6);

/**
 * The route transaction's gas estimate and its cost at the block's gas price; with a recipient or a sender, the
 * estimate counts what paying a recipient that holds none of the output costs more.
 */
export async function routeGasCost(
  prices: BlockPrices['prices'],
  holdings: RecipientHoldings,
  chain: ChainLiquidity,
  blockNumber: bigint,
  order: RouteOrder,
  quote: QuotedRoute,
  execution: RouteExecution,
): Promise<RouteAnswerExtras['gas']> {
  const unavailable = (what: string) => (err: unknown) => {
    throw new BusError(503, CHAIN_DID_NOT_ANSWER, `${what} at block ${blockNumber}: ${shortMessage(err)}`);
  };
  const [{ gasPrice, nativeUsdE18 }, recipientHoldsOutput] = await Promise.all([
    prices.catch(unavailable('gas price')),
    holdings.holds(chain, blockNumber, order)?.catch(unavailable('balance of the output of the recipient')),
  ]);
  const gasEstimate = routeGas(quote.route, {
    nativeIn: order.nativeIn,
    nativeOut: order.unwrap,
    feeBps: order.feeBps,
    withData: order.payout !== undefined,
    ...(order.permit2 ? { permit2: { newNonceWord: order.permit2.nonce % 256n === 0n } } : {}),
    calldata: execution.calldata,
    ...(recipientHoldsOutput !== undefined ? { recipientHoldsOutput } : {}),
  });
  const costWei = BigInt(gasEstimate) * gasPrice;
  return {
    gasEstimate,
    gasPrice: gasPrice.toString(),
    gasCostNative: formatUnits(costWei, 18),
    gasCostUsd: nativeUsdE18 === undefined ? null : usd((costWei * nativeUsdE18) / E18),
  };
}
