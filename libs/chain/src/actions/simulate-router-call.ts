// Whether a RouterV2 transaction would succeed for a sender at a block: the sender's balance of the input, its
// allowance to the router (a token input), then the call itself as an `eth_call` from the sender.
import {
  algebraPoolAbi,
  ammPoolAbi,
  blocklistTokenAbi,
  fixedFeeTokenAbi,
  maxTxTokenAbi,
  pausableTokenAbi,
  rebasingTokenAbi,
  revertOnZeroTokenAbi,
  silentBlocklistTokenAbi,
  silentPauseTokenAbi,
  taxTokenAbi,
  launchpadAbi,
  launchpadTokenAbi,
  permit2Abi,
  routerV2Abi,
  routerV2Permit2Abi,
  stablePoolAbi,
  testERC20Abi,
  uniswapV2PairAbi,
  wrappedNativeAbi,
} from '@dex/abis';
import { BaseError, decodeErrorResult, decodeFunctionResult, erc20Abi, RawContractError, type Abi, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { shortMessage } from '../errors';
import { EIP1271_ANY_SIGNATURE_CODE } from '../permit2';

/**
 * The custom errors a route's call can revert with: the router's, the tokens' (OpenZeppelin's, which are common, and
 * those of the devnet's misbehaving tokens: pauses, blocklists, fees, size limits) and the pools' of every kind. An
 * error none of them declares is described by its selector and data.
 */
const ROUTE_ERRORS: Abi = [
  routerV2Abi,
  routerV2Permit2Abi,
  permit2Abi,
  testERC20Abi,
  pausableTokenAbi,
  blocklistTokenAbi,
  revertOnZeroTokenAbi,
  fixedFeeTokenAbi,
  taxTokenAbi,
  maxTxTokenAbi,
  silentPauseTokenAbi,
  silentBlocklistTokenAbi,
  rebasingTokenAbi,
  wrappedNativeAbi,
  launchpadTokenAbi,
  launchpadAbi,
  ammPoolAbi,
  stablePoolAbi,
  uniswapV2PairAbi,
  algebraPoolAbi,
]
  .flatMap((abi) => (abi as Abi).filter((item) => item.type === 'error'))
  .filter((item, i, all) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i);

export interface SimulateRouterCallParameters {
  /** The contract the transaction is sent to: RouterV2, or RouterV2Permit2 for a route signed through Permit2. */
  readonly router: Address;
  readonly sender: Address;
  /**
   * Who must be allowed to take the input: `router` unless given (Permit2 for a signed route). With a spender other
   * than the router, the call is made with the sender answering EIP-1271 for any signature (a state override): the
   * signature is not made yet, everything else (balance, Permit2 allowance, nonce, the route) is the sender's own.
   */
  readonly spender?: Address;
  /** The token the transaction spends; undefined for the native coin (sent as the value). */
  readonly tokenIn: Address | undefined;
  readonly amountIn: bigint;
  readonly calldata: Hex;
  readonly value: bigint;
  readonly blockNumber: bigint;
}

export type SimulateRouterCallReturnType =
  | { readonly ok: true; readonly balance: bigint; readonly allowance: bigint | undefined; readonly amountOut: bigint }
  | {
      readonly ok: false;
      readonly reason: 'insufficientBalance' | 'insufficientAllowance' | 'revert';
      readonly balance: bigint;
      readonly allowance: bigint | undefined;
      /** For a revert: the decoded error, e.g. `DeadlineExpired(1700000000, 1700000012)`. */
      readonly revertReason?: string;
    };

/** A revert's data as `Name(arg, ...)`; the raw data when no known error matches. */
export function describeRevert(data: Hex | undefined): string {
  if (data === undefined || data === '0x') return 'reverted without a reason';
  try {
    const { errorName, args } = decodeErrorResult({ abi: ROUTE_ERRORS, data });
    return `${errorName}(${(args ?? []).map((a) => String(a)).join(', ')})`;
  } catch {
    return `reverted with unknown error data ${data.length > 74 ? `${data.slice(0, 74)}…` : data}`;
  }
}

const isHex = (value: unknown): value is Hex => typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value);

/**
 * The revert data of a failed `eth_call`, when the node returned any: the `data` of an error in the chain of
 * causes, or else the data the node spelled out in its message (anvil: `custom error 0x<selector>: <args>`).
 */
export function revertData(err: unknown): Hex | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const withData = err.walk((e) => isHex((e as { data?: unknown }).data) || isHex((e as { data?: { data?: unknown } }).data?.data));
  if (withData) {
    const data = (withData as { data?: unknown }).data;
    return isHex(data) ? data : ((data as { data: Hex }).data);
  }
  const raw = err.walk((e) => e instanceof RawContractError);
  if (raw instanceof RawContractError && isHex(raw.data)) return raw.data;
  const spelled = /custom error (0x[0-9a-fA-F]{8}):?\s*([0-9a-fA-F]*)/.exec([err.message, err.details].join(' '));
  return spelled ? (`${spelled[1]}${spelled[2]}` as Hex) : undefined;
}

/**
 * The sender's balance and allowance of the input, then `eth_call` of the calldata from the sender at the block.
 * The first problem found is the answer: too small a balance, too small an allowance (to the router), or the
 * call's revert reason; otherwise what the call pays (`userAmountOut`). Throws only when the node cannot answer.
 */
export async function simulateRouterCall(client: ChainPublicClient, params: SimulateRouterCallParameters): Promise<SimulateRouterCallReturnType> {
  const at = { blockNumber: params.blockNumber };
  const [balance, allowance] = await Promise.all([
    params.tokenIn === undefined
      ? client.getBalance({ address: params.sender, ...at })
      : client.readContract({ address: params.tokenIn, abi: erc20Abi, functionName: 'balanceOf', args: [params.sender], ...at }),
    params.tokenIn === undefined
      ? Promise.resolve(undefined)
      : client.readContract({ address: params.tokenIn, abi: erc20Abi, functionName: 'allowance', args: [params.sender, params.spender ?? params.router], ...at }),
  ]);
  const signed = params.spender !== undefined && params.spender.toLowerCase() !== params.router.toLowerCase();
  if (balance < params.amountIn) return { ok: false, reason: 'insufficientBalance', balance, allowance };
  if (allowance !== undefined && allowance < params.amountIn) return { ok: false, reason: 'insufficientAllowance', balance, allowance };
  try {
    const { data } = await client.call({
      account: params.sender,
      to: params.router,
      data: params.calldata,
      value: params.value,
      ...at,
      ...(signed ? { stateOverride: [{ address: params.sender, code: EIP1271_ANY_SIGNATURE_CODE }] } : {}),
    });
    const amountOut = decodeFunctionResult({ abi: routerV2Abi, functionName: 'executeSwaps', data: data ?? '0x' });
    return { ok: true, balance, allowance, amountOut };
  } catch (err) {
    const data = revertData(err);
    // A node failure (as opposed to a revert) is not an answer about the transaction.
    if (data === undefined && !/revert/i.test(shortMessage(err))) throw err;
    return { ok: false, reason: 'revert', balance, allowance, revertReason: data === undefined ? shortMessage(err) : describeRevert(data) };
  }
}
