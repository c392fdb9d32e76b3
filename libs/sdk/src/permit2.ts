// Routes signed through Permit2 (`/v2/route?permit2=true&sender=…`): sign the answer's typed data with a wallet
// account and get the transaction to send.
import type { RouteAnswer } from './route-stream';

type RoutePermit2 = NonNullable<RouteAnswer['permit2']>;
type Hex = `0x${string}`;

/**
 * An account that signs EIP-712 typed data: a viem `LocalAccount` (`privateKeyToAccount`, `mnemonicToAccount`) or a
 * wallet client bound to one (`{ address, signTypedData: (t) => walletClient.signTypedData({ account, ...t }) }`).
 */
export interface TypedDataSigner {
  readonly address?: string;
  signTypedData(typedData: RoutePermit2['typedData']): Promise<Hex>;
}

/** The transaction of a signed route, ready to send from any account (the signer's, or a relayer's). */
export interface SignedRouteTransaction {
  readonly chainId: number;
  readonly to: Hex;
  readonly data: Hex;
  readonly value: bigint;
}

/**
 * Signs a route answered with `permit2=true` and returns its transaction: the answer's `permit2.typedData` signed by
 * `account` (which must be the answer's `permit2.signer`), the signature put in place of the 65 placeholder bytes at
 * `permit2.signatureOffset` of `execution.calldata`. The signer must have approved Permit2 (`permit2.permit2`) for the
 * input token once; the answer's `simulation` says so (`failure: insufficientAllowance`, `spender` Permit2).
 *
 * @example
 * const route = await dex.route({ chainId: 999, tokenIn: USDC, tokenOut: WHYPE, amountIn: '100', sender: account.address, permit2: true });
 * const tx = await signPermit2Route(route, account);
 * await walletClient.sendTransaction({ account, to: tx.to, data: tx.data, value: tx.value });
 */
export async function signPermit2Route(answer: RouteAnswer, account: TypedDataSigner): Promise<SignedRouteTransaction> {
  const permit = answer.permit2;
  if (permit === undefined) throw new TypeError('the route was not answered for Permit2: ask with permit2=true and sender');
  if (account.address !== undefined && account.address.toLowerCase() !== permit.signer.toLowerCase()) {
    throw new TypeError(`the route is to be signed by ${permit.signer}, not ${account.address}`);
  }
  const signature = await account.signTypedData(permit.typedData);
  return { chainId: answer.chainId, to: answer.execution.to as Hex, data: withSignature(answer.execution.calldata as Hex, permit.signatureOffset, signature), value: BigInt(answer.execution.value) };
}

/** The calldata with the 65 bytes at byte `offset` (after `0x`) replaced by `signature` (r, s, v). */
export function withSignature(calldata: Hex, offset: number, signature: Hex): Hex {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new TypeError(`a Permit2 route's signature is 65 bytes (r, s, v); got ${(signature.length - 2) / 2}`);
  const at = 2 + offset * 2;
  if (!Number.isInteger(offset) || offset < 0 || at + 130 > calldata.length) throw new RangeError(`signature offset ${offset} is outside the calldata`);
  if (!/^0+$/.test(calldata.slice(at, at + 130))) throw new TypeError('the calldata is already signed (no zero placeholder at the signature offset)');
  return `${calldata.slice(0, at)}${signature.slice(2).toLowerCase()}${calldata.slice(at + 130)}` as Hex;
}
