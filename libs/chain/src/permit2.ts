// Routes signed through Permit2 (RouterV2Permit2): the EIP-712 typed data a wallet signs, a fresh nonce for it, and the
// code that stands in for a signer in a simulation.
import { checksummed } from '@dex/messages';
import { domainSeparator, getAddress, zeroAddress, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from './clients';
import { stagesHash, type ExecuteSwapsParameters } from './encode-execute-swaps';

/** Permit2's address where it is deployed by its own deployer (most EVM chains: the same through a CREATE2 factory). */
export const CANONICAL_PERMIT2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/** Permit2's EIP-712 domain at `address` on `chainId`: its name, the chain and itself (Permit2 has no version). */
export function permit2Domain(chainId: number, address: string): { readonly name: 'Permit2'; readonly chainId: number; readonly verifyingContract: Address } {
  return { name: 'Permit2', chainId, verifyingContract: getAddress(address) };
}

/** What Permit2 at `address` on `chainId` answers to `DOMAIN_SEPARATOR()`. */
export function permit2DomainSeparator(chainId: number, address: string): Hex {
  return domainSeparator({ domain: permit2Domain(chainId, address) });
}

/** The witness type RouterV2Permit2 binds a route with (its `SWAP_ROUTE_TYPE`), field by field. */
const SWAP_ROUTE_FIELDS = [
  { name: 'router', type: 'address' },
  { name: 'tokens', type: 'address[]' },
  { name: 'minAmountOut', type: 'uint256' },
  { name: 'expectedAmountOut', type: 'uint256' },
  { name: 'stages', type: 'bytes32' },
  { name: 'feeBps', type: 'uint256' },
  { name: 'feeRecipient', type: 'address' },
  { name: 'recipient', type: 'address' },
] as const;

/** The EIP-712 types of a signed route: Permit2's `PermitWitnessTransferFrom` with a `SwapRoute` witness. */
export const PERMIT2_ROUTE_TYPES = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'SwapRoute' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  SwapRoute: SWAP_ROUTE_FIELDS,
} as const;

export interface Permit2RouteParameters {
  readonly chainId: number;
  readonly permit2: string;
  /** RouterV2Permit2: the spender, and the contract the transaction is sent to. */
  readonly spender: string;
  /** The RouterV2 it has execute the route. */
  readonly router: string;
  readonly nonce: bigint;
  readonly route: Pick<ExecuteSwapsParameters, 'tokens' | 'amountIn' | 'minAmountOut' | 'expectedAmountOut' | 'hopSwaps' | 'feeBps' | 'feeRecipient' | 'unwrapNative'> & {
    readonly payout: { readonly recipient: string; readonly deadline: bigint };
  };
}

/** The typed data with its values as JSON carries them: amounts and nonces as decimal strings. */
export interface Permit2RouteTypedData {
  readonly domain: { readonly name: 'Permit2'; readonly chainId: number; readonly verifyingContract: Address };
  readonly types: Record<string, { name: string; type: string }[]>;
  readonly primaryType: 'PermitWitnessTransferFrom';
  readonly message: {
    readonly permitted: { readonly token: Address; readonly amount: string };
    readonly spender: Address;
    readonly nonce: string;
    readonly deadline: string;
    readonly witness: {
      readonly router: Address;
      readonly tokens: Address[];
      readonly minAmountOut: string;
      readonly expectedAmountOut: string;
      readonly stages: Hex;
      readonly feeBps: string;
      readonly feeRecipient: Address;
      readonly recipient: Address;
    };
  };
}

/**
 * What the signer signs for a route sent to RouterV2Permit2: Permit2's domain on the chain (it has no version), the
 * input token and amount, the spender, the nonce and the deadline, and the route as the witness. Its path is the one
 * the calldata carries (the zero address for a native output).
 */
export function permit2RouteTypedData(params: Permit2RouteParameters): Permit2RouteTypedData {
  const { route } = params;
  const path = route.tokens.map((t, i) => (i === route.tokens.length - 1 && route.unwrapNative ? zeroAddress : checksummed(t)));
  return {
    domain: permit2Domain(params.chainId, params.permit2),
    types: Object.fromEntries(Object.entries(PERMIT2_ROUTE_TYPES).map(([name, fields]) => [name, fields.map((f) => ({ ...f }))])),
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: path[0], amount: route.amountIn.toString() },
      spender: getAddress(params.spender),
      nonce: params.nonce.toString(),
      deadline: route.payout.deadline.toString(),
      witness: {
        router: getAddress(params.router),
        tokens: path,
        minAmountOut: route.minAmountOut.toString(),
        expectedAmountOut: route.expectedAmountOut.toString(),
        stages: stagesHash(route.hopSwaps),
        feeBps: BigInt(route.feeBps).toString(),
        feeRecipient: route.feeRecipient === undefined ? zeroAddress : getAddress(route.feeRecipient),
        recipient: getAddress(route.payout.recipient),
      },
    },
  };
}

const nonceBitmapAbi = [
  {
    type: 'function',
    name: 'nonceBitmap',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'wordPosition', type: 'uint256' },
    ],
    outputs: [{ type: 'uint256' }],
  },
] as const;

/** Nonce words looked at for a free nonce before giving up (each holds 256 nonces). */
const NONCE_WORDS = 4n;

/**
 * The lowest Permit2 nonce `owner` has not used at the block: Permit2's nonces are unordered, a bitmap of 256 per word;
 * reusing a word that has a nonce spent costs less gas than opening a new one. Two routes quoted before either is sent
 * get the same nonce: only one of them can execute.
 */
export async function freshPermit2Nonce(client: ChainPublicClient, params: { permit2: Address; owner: Address; blockNumber: bigint }): Promise<bigint> {
  for (let word = 0n; word < NONCE_WORDS; word++) {
    const bitmap = await client.readContract({ address: params.permit2, abi: nonceBitmapAbi, functionName: 'nonceBitmap', args: [params.owner, word], blockNumber: params.blockNumber });
    if (bitmap !== (1n << 256n) - 1n) {
      let bit = 0n;
      while ((bitmap >> bit) & 1n) bit++;
      return (word << 8n) | bit;
    }
  }
  // 1,024 nonces spent: a word far from the used ones.
  return NONCE_WORDS << 8n;
}

/**
 * Runtime code that answers EIP-1271's magic value (`isValidSignature`'s selector, 0x1626ba7e) to any call: placed at
 * the signer by a state override, it lets a simulation go through Permit2's signature check (Permit2 asks a signer
 * with code) with the signer's real balance, allowance and nonces. Accepts the native coin as well.
 */
export const EIP1271_ANY_SIGNATURE_CODE: Hex = '0x631626ba7e60e01b60005260206000f3';
