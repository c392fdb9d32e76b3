// RouterV2's `executeSwaps` calldata for a route: the token path with the native coin's markers, the amounts,
// each stage's swaps (for a linear route, each hop's parallel swaps), the integrator fee and its recipient; with a
// recipient of the output and a deadline, `executeSwapsWithData`.
import { routerV2Abi, routerV2Permit2Abi } from '@dex/abis';
import { checksummed } from '@dex/messages';
import { InvalidAddressError, keccak256, prepareEncodeFunctionData, zeroAddress, type Address, type Hex } from 'viem';

/** One swap of a stage, as RouterV2 takes it (`Swap`). */
export interface RouterV2Swap {
  readonly pool: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly routerIndex: number;
  /** The swap's quoted input: RouterV2 splits what the route holds of `tokenIn` across the stage's swaps on it in proportion to these. */
  readonly amountIn: bigint;
  readonly data: string;
}

export interface ExecuteSwapsParameters {
  /**
   * The route's tokens, tokenIn first, tokenOut last, the intermediates between (for a route that splits across
   * paths, each once in the order the stages first produce them); the wrapped native token where the route starts
   * or ends with the native coin.
   */
  readonly tokens: readonly string[];
  readonly amountIn: bigint;
  readonly minAmountOut: bigint;
  readonly expectedAmountOut: bigint;
  /** The stages in order, each its swaps (for a linear route, per hop its parallel swaps). */
  readonly hopSwaps: readonly (readonly RouterV2Swap[])[];
  readonly feeBps: number | bigint;
  /** The integrator fee's recipient; none is the zero address. */
  readonly feeRecipient?: string;
  /** The input is the native coin (sent as the transaction's value): the path starts with the zero address. */
  readonly nativeIn?: boolean;
  /** The output is paid in the native coin: the path ends with the zero address. */
  readonly unwrapNative?: boolean;
  /**
   * Who receives the output and until when the call may execute (unix seconds, the block's timestamp): given,
   * the calldata calls `executeSwapsWithData` with them; absent, `executeSwaps` pays the sender, with no deadline.
   */
  readonly payout?: { readonly recipient: string; readonly deadline: bigint };
  /**
   * The input is taken from `signer` through Permit2 (`RouterV2Permit2.executeSwapsWithPermit2`, sent to that contract,
   * not RouterV2): the signer's Permit2 nonce and signature; needs a `payout`. A signature not yet made is 65 zero
   * bytes (`PERMIT2_SIGNATURE_PLACEHOLDER`), at the calldata's end (`permit2SignatureOffset`).
   */
  readonly permit2?: { readonly signer: string; readonly nonce: bigint; readonly signature: Hex };
}

/** The path RouterV2 is given: the route's tokens, checksummed, the zero address marking a native end. */
export function executeSwapsPath(tokens: readonly string[], native: { readonly nativeIn?: boolean; readonly unwrapNative?: boolean }): Address[] {
  const path = tokens.map((t) => checksummed(t));
  if (native.nativeIn) path[0] = zeroAddress;
  if (native.unwrapNative) path[path.length - 1] = zeroAddress;
  return path;
}

/** The selectors of `executeSwaps` and `executeSwapsWithData`, from the ABI; and RouterV2Permit2's `executeSwapsWithPermit2`. */
const SELECTORS = {
  executeSwaps: prepareEncodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwaps' }).functionName,
  executeSwapsWithData: prepareEncodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwapsWithData' }).functionName,
  executeSwapsWithPermit2: prepareEncodeFunctionData({ abi: routerV2Permit2Abi, functionName: 'executeSwapsWithPermit2' }).functionName,
};

/** A signature not made yet: 65 zero bytes, which the signer's (r, s, v) replaces in place. */
export const PERMIT2_SIGNATURE_PLACEHOLDER: Hex = `0x${'00'.repeat(65)}`;

const MAX_UINT256 = (1n << 256n) - 1n;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const ZERO_WORD = '0'.repeat(64);

/** A uint256 word; a RangeError for a value out of the type's range (as the ABI encoder refuses it). */
function uintWord(value: bigint | number, bits: number, what: string): string {
  const v = typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n;
  if (v < 0n || v > (bits === 256 ? MAX_UINT256 : (1n << BigInt(bits)) - 1n)) throw new RangeError(`${what} is not a uint${bits}: ${String(value)}`);
  return v.toString(16).padStart(64, '0');
}

/** An address word (any case: the calldata carries its 20 bytes); an error for anything else. */
function addressWord(address: string, what: string): string {
  if (!ADDRESS.test(address)) throw new InvalidAddressError({ address: `${what}: ${address}` });
  return '000000000000000000000000' + address.slice(2).toLowerCase();
}

/** `bytes` as the ABI lays it out: the length, then the bytes right-padded to whole words. */
function bytesWords(data: string): string {
  if (!HEX_BYTES.test(data)) throw new TypeError(`swap data is not hex bytes: ${data}`);
  const hex = data.slice(2);
  const padded = hex.length % 64 === 0 ? hex : hex + '0'.repeat(64 - (hex.length % 64));
  return uintWord(hex.length / 2, 256, 'data length') + padded;
}

/** A swap tuple (pool, tokenIn, tokenOut, routerIndex, amountIn, data): its head, its data after. */
function swapWords(s: RouterV2Swap): string {
  return (
    addressWord(s.pool, 'pool') +
    addressWord(s.tokenIn, 'tokenIn') +
    addressWord(s.tokenOut, 'tokenOut') +
    uintWord(s.routerIndex, 8, 'routerIndex') +
    uintWord(s.amountIn, 256, 'swap amountIn') +
    uintWord(6 * 32, 256, 'offset') +
    bytesWords(s.data)
  );
}

/** A dynamic array of dynamic items: the length, each item's offset from the end of the length, the items. */
function dynamicArray(items: readonly string[]): string {
  let offset = items.length * 32;
  let heads = uintWord(items.length, 256, 'length');
  for (const item of items) {
    heads += uintWord(offset, 256, 'offset');
    offset += item.length / 2;
  }
  return heads + items.join('');
}

/**
 * The calldata of `executeSwaps(tokens, amountIn, minAmountOut, expectedAmountOut, hopSwaps, feeBps, feeRecipient)`,
 * or, with a `payout`, of `executeSwapsWithData(..., feeRecipient, recipient, deadline)`: the ABI encoding, laid out
 * word by word (the same bytes as viem's encodeFunctionData on routerV2Abi, a tenth of the time: every quote
 * encodes one); a value outside its type (a negative amount, a router index past uint8, an address that is not
 * 20 bytes of hex) is refused with an error, as the ABI encoder refuses it.
 *
 * @example
 * const data = encodeExecuteSwaps({ tokens: [usdc, whype], amountIn, minAmountOut, expectedAmountOut, hopSwaps, feeBps: 0, unwrapNative: true });
 */
export function encodeExecuteSwaps(params: ExecuteSwapsParameters): Hex {
  const path = params.tokens.map((t, i) =>
    (i === 0 && params.nativeIn) || (i === params.tokens.length - 1 && params.unwrapNative) ? ZERO_WORD : addressWord(t, 'token'),
  );
  const tokens = uintWord(path.length, 256, 'length') + path.join('');
  const hopSwaps = encodeHopSwaps(params.hopSwaps);
  const payout = params.payout;
  const permit = params.permit2;
  if (permit !== undefined) {
    if (payout === undefined) throw new TypeError('a Permit2 route needs a payout (recipient and deadline)');
    if (params.nativeIn) throw new TypeError('a Permit2 route cannot start with the native coin');
    // executeSwapsWithData's nine head words, then the offset of the permit tuple (signer, nonce, signature), which
    // follows the stages.
    const head =
      uintWord(10 * 32, 256, 'offset') +
      uintWord(params.amountIn, 256, 'amountIn') +
      uintWord(params.minAmountOut, 256, 'minAmountOut') +
      uintWord(params.expectedAmountOut, 256, 'expectedAmountOut') +
      uintWord(10 * 32 + tokens.length / 2, 256, 'offset') +
      uintWord(params.feeBps, 256, 'feeBps') +
      (params.feeRecipient === undefined ? ZERO_WORD : addressWord(params.feeRecipient, 'feeRecipient')) +
      addressWord(payout.recipient, 'recipient') +
      uintWord(payout.deadline, 256, 'deadline') +
      uintWord(10 * 32 + tokens.length / 2 + hopSwaps.length / 2, 256, 'offset');
    const tuple = addressWord(permit.signer, 'signer') + uintWord(permit.nonce, 256, 'nonce') + uintWord(3 * 32, 256, 'offset') + bytesWords(permit.signature);
    return `${SELECTORS.executeSwapsWithPermit2}${head}${tokens}${hopSwaps}${tuple}`;
  }
  const headWords = payout === undefined ? 7 : 9;
  const head =
    uintWord(headWords * 32, 256, 'offset') +
    uintWord(params.amountIn, 256, 'amountIn') +
    uintWord(params.minAmountOut, 256, 'minAmountOut') +
    uintWord(params.expectedAmountOut, 256, 'expectedAmountOut') +
    uintWord(headWords * 32 + tokens.length / 2, 256, 'offset') +
    uintWord(params.feeBps, 256, 'feeBps') +
    (params.feeRecipient === undefined ? ZERO_WORD : addressWord(params.feeRecipient, 'feeRecipient')) +
    (payout === undefined ? '' : addressWord(payout.recipient, 'recipient') + uintWord(payout.deadline, 256, 'deadline'));
  return `${payout === undefined ? SELECTORS.executeSwaps : SELECTORS.executeSwapsWithData}${head}${tokens}${hopSwaps}`;
}

/** `abi.encode`'s tail of the stages (`Swap[][]`): what follows the parameter's offset word. */
function encodeHopSwaps(hopSwaps: ExecuteSwapsParameters['hopSwaps']): string {
  return dynamicArray(hopSwaps.map((hop) => dynamicArray(hop.map(swapWords))));
}

/**
 * The `stages` of a Permit2 route's witness: `keccak256(abi.encode(hopSwaps))`, as RouterV2Permit2 hashes the stages
 * it is given.
 */
export function stagesHash(hopSwaps: ExecuteSwapsParameters['hopSwaps']): Hex {
  return keccak256(`0x${uintWord(32, 256, 'offset')}${encodeHopSwaps(hopSwaps)}`);
}

/**
 * Where the 65 signature bytes sit in `executeSwapsWithPermit2` calldata (a byte offset from the first byte after
 * `0x`): the signature is the calldata's last item, its bytes followed by 31 bytes of padding.
 */
export function permit2SignatureOffset(calldata: Hex): number {
  return (calldata.length - 2) / 2 - 96;
}
