/**
 * The gas of a route's transaction and its cost: the gas model's estimate (`routeGas`), the chain's gas price
 * (`eth_gasPrice`) and the native coin's USD price (the core source's oracle, for the wrapped native token), both
 * read once per block and chain.
 */
import { readOraclePrices, shortMessage } from '@dex/chain';
import { CHAIN_UNAVAILABLE } from '@dex/messages';
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

/** Per chain, the gas price and the native coin's USD price at its newest block asked for. */
export class GasPrices {
  private readonly byChain = new Map<number, BlockPrices>();

  at(chain: ChainLiquidity, blockNumber: bigint): BlockPrices['prices'] {
    const cached = this.byChain.get(chain.chainId);
    if (cached && cached.blockNumber === blockNumber) return cached.prices;
    const oracle = chain.sources.find((s) => s.kind === 'core')?.addresses.oracle as Address | undefined;
    const prices = Promise.all([
      chain.client.getGasPrice(),
      oracle ? readOraclePrices(chain.client, { oracle, tokens: [chain.wrappedNative], blockNumber }).then(([p]) => p) : Promise.resolve(undefined),
    ]).then(([gasPrice, nativeUsdE18]) => ({ gasPrice, nativeUsdE18 }));
    prices.catch(() => this.byChain.get(chain.chainId)?.prices === prices && this.byChain.delete(chain.chainId));
    if (!cached || cached.blockNumber < blockNumber) this.byChain.set(chain.chainId, { blockNumber, prices });
    return prices;
  }
}

/** USD (18 decimals) as a decimal string with 6 decimals, rounded down. */
const usd = (e18: bigint): string => formatUnits(e18 / 10n ** 12n, 6);

/** The route transaction's gas estimate and its cost at the block's gas price. */
export async function routeGasCost(prices: GasPrices, chain: ChainLiquidity, blockNumber: bigint, order: RouteOrder, quote: QuotedRoute, execution: RouteExecution): Promise<RouteAnswerExtras['gas']> {
  const gasEstimate = routeGas(quote.route, {
    nativeIn: order.nativeIn,
    nativeOut: order.unwrap,
    feeBps: order.feeBps,
    withData: order.payout !== undefined,
    calldata: execution.calldata,
  });
  const { gasPrice, nativeUsdE18 } = await prices.at(chain, blockNumber).catch((err: unknown) => {
    throw new BusError(503, CHAIN_UNAVAILABLE, `gas price at block ${blockNumber}: ${shortMessage(err)}`);
  });
  const costWei = BigInt(gasEstimate) * gasPrice;
  return {
    gasEstimate,
    gasPrice: gasPrice.toString(),
    gasCostNative: formatUnits(costWei, 18),
    gasCostUsd: nativeUsdE18 === undefined ? null : usd((costWei * nativeUsdE18) / E18),
  };
}
