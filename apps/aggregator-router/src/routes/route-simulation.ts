/**
 * Routes executed in an `eth_call` at the quote's block: every answered route's transaction before it is answered
 * (`execution`), and the transaction as a sender would send it, when the request names one (`fromSender`).
 */
import { shortMessage, simulateRoute, simulateRouterCall, VIRTUAL_PAYER } from '@dex/chain';
import { CHAIN_DID_NOT_ANSWER, type RouteSimulation } from '@dex/messages';
import { BusError } from '@dex/service';
import { Logger } from '@nestjs/common';
import { formatUnits } from 'viem';
import type { ChainLiquidity, LiquiditySnapshot } from '../liquidity/liquidity.service';
import type { TokenTransfers } from '../tokens/token-transfers';
import { routeExecution, type RouteExecution } from './route-execution';
import type { QuotedRoute } from './route-quote';
import { routeTarget, type RouteOrder } from './route-request';
import { chainFailed, type TransferPolicy } from './route-transfers';
import { nativeToken } from './token-meta';

export class RouteSimulator {
  private readonly logger = new Logger('RouteService');

  constructor(
    private readonly transfers: TokenTransfers,
    private readonly policy: TransferPolicy,
  ) {}

  /**
   * The quoted route's transaction executed before it is answered: the exact calldata, from a virtual payer given the
   * input, in one `eth_call` (`simulateRoute`). What the recipient received there is the answer's output and the base
   * of its `minAmountOut` (it differs from the model where a token takes a fee the transfer check did not measure as
   * it is: a fixed fee, a tax that depends on the direction, a fee that changed). A transaction that reverts is
   * explained (`TransferPolicy.explainRevert`) and refused.
   */
  async execution(chain: ChainLiquidity, snapshot: LiquiditySnapshot, order: RouteOrder, quote: QuotedRoute, fees: Map<string, number>): Promise<RouteExecution> {
    const { blockNumber } = snapshot;
    const outputFee = fees.get(order.tokenOut.toLowerCase()) ?? 0;
    const checks = this.transfers.chain(chain.chainId);
    const unavailable = (err: unknown): never => {
      throw chainFailed(chain.chainId, `the simulation at block ${blockNumber}`, err);
    };
    const balanceSlot = order.nativeIn ? undefined : await checks.balanceSlot(order.tokenIn, blockNumber).catch(unavailable);
    if (!order.nativeIn && !balanceSlot) {
      // No storage slot alone holds an account's balance of the input (computed balances): the transaction cannot be
      // funded in an eth_call, and the model's amounts are answered as they are.
      this.logger.warn({ msg: 'route not simulated: no balance slot for the input', chainId: chain.chainId, token: order.tokenIn });
      return routeExecution(order, quote, outputFee);
    }
    // A signed route is simulated as the virtual payer's signature (it answers EIP-1271 for any).
    const signer = order.permit2 ? { signer: VIRTUAL_PAYER } : {};
    const trial = routeExecution(order, quote, outputFee, { minAmountOut: 0n, ...signer });
    const { to, spender } = routeTarget(chain, order);
    const result = await simulateRoute(chain.client, {
      router: to,
      spender,
      tokenIn: order.nativeIn ? undefined : order.tokenIn,
      balanceSlot,
      amountIn: quote.amountIn,
      tokenOut: order.unwrap ? undefined : order.tokenOut,
      recipient: order.payout?.recipient,
      calldata: trial.calldata,
      blockNumber,
    }).catch(unavailable);
    if (result.ok) {
      if (result.received === 0n) throw new BusError(404, 'No route found', `the route delivers nothing at block ${blockNumber}`);
      const execution = routeExecution(order, quote, outputFee, { received: result.received });
      if (execution.amountOut !== trial.amountOut) {
        this.logger.log({ msg: 'route delivers other than its model', chainId: chain.chainId, blockNumber: blockNumber.toString(), modelled: trial.amountOut.toString(), executed: execution.amountOut.toString() });
      }
      return execution;
    }
    if (result.reason === 'unfunded') {
      // The slot no longer holds the balance (an upgraded token): found again for the next request.
      checks.forgetBalanceSlot(order.tokenIn);
      this.logger.warn({ msg: 'route not simulated: the balance override did not fund the payer', chainId: chain.chainId, token: order.tokenIn, balance: result.balance.toString() });
      return routeExecution(order, quote, outputFee);
    }
    return this.policy.explainRevert(chain, snapshot, quote, result.revertReason);
  }

  /**
   * The transaction sent from `sender` at the quote's block: balance, allowance to the router (to Permit2 for a signed
   * route, whose call is made as if signed: the sender answers for the signature in the `eth_call`), the call.
   */
  async fromSender(chain: ChainLiquidity, blockNumber: bigint, order: RouteOrder, sender: `0x${string}`, quote: QuotedRoute, execution: RouteExecution): Promise<RouteSimulation> {
    const { to: router, spender } = routeTarget(chain, order);
    const required = quote.amountIn;
    const result = await simulateRouterCall(chain.client, {
      router,
      spender,
      sender,
      tokenIn: order.nativeIn ? undefined : order.tokenIn,
      amountIn: required,
      calldata: execution.calldata,
      value: order.nativeIn ? required : 0n,
      blockNumber,
    }).catch((err: unknown) => {
      throw new BusError(503, CHAIN_DID_NOT_ANSWER, `simulation at block ${blockNumber}: ${shortMessage(err)}`);
    });
    const symbol = order.nativeIn ? nativeToken(chain).symbol : order.metaIn.symbol;
    const decimals = order.metaIn.decimals;
    const base = {
      sender,
      blockNumber: blockNumber.toString(),
      balance: result.balance.toString(),
      required: required.toString(),
      ...(result.allowance !== undefined ? { allowance: result.allowance.toString(), spender } : {}),
    };
    if (result.ok) return { ...base, success: true, amountOut: result.amountOut.toString() };
    const message =
      result.reason === 'insufficientBalance'
        ? `the sender holds ${formatUnits(result.balance, decimals)} ${symbol} and the transaction spends ${formatUnits(required, decimals)} ${symbol}`
        : result.reason === 'insufficientAllowance'
          ? order.permit2
            ? `approve Permit2 ${spender} (permit2.permit2) to spend at least ${formatUnits(required, decimals)} ${symbol} (${required} base units) of the sender's, once for the token (each route is then signed); the allowance is ${formatUnits(result.allowance ?? 0n, decimals)}`
            : `approve ${router} (execution.to) to spend at least ${formatUnits(required, decimals)} ${symbol} (${required} base units) of the sender's; the allowance is ${formatUnits(result.allowance ?? 0n, decimals)}`
          : `the transaction reverts: ${result.revertReason}`;
    return { ...base, success: false, failure: result.reason, message, ...(result.revertReason !== undefined ? { revertReason: result.revertReason } : {}) };
  }
}
