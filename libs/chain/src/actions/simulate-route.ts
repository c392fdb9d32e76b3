// A route's RouterV2 transaction executed in one `eth_call` before it is answered: RouteSimulator's runtime code is
// placed (a state override) at a virtual payer that holds nothing on chain, which is given the input by a second
// override (its native balance, or the token's storage slot that holds its balance, found once per token by
// `findBalanceSlot`), approves the router (Permit2 for a signed route: the simulator answers EIP-1271 for its own
// signatures) for exactly the input, sends the answer's exact calldata and measures what the recipient received.
import { routeSimulatorAbi, routeSimulatorRuntimeBytecode } from '@dex/abis';
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, erc20Abi, getAddress, keccak256, numberToHex, stringToHex, type Address, type Hex } from 'viem';
import type { ChainPublicClient } from '../clients';
import { describeRevert } from './simulate-router-call';

/**
 * The account the simulations pay from: derived from a fixed string, so no one holds its key; it holds nothing on
 * chain, so what it holds in a simulation is only what the overrides give it.
 */
export const VIRTUAL_PAYER: Address = getAddress(`0x${keccak256(stringToHex('dex.route-simulator.payer')).slice(-40)}`);

/** The storage slot of a token that holds an account's balance, and how a stored value reads in `balanceOf`. */
export interface BalanceSlot {
  readonly slot: Hex;
  /** A value written to the slot ... */
  readonly stored: bigint;
  /** ... and what `balanceOf` answered with it (the same for a plain token; shares times an index for a rebasing one). */
  readonly reported: bigint;
}

/** What an `eth_call`'s state override sets for one account (the node's JSON-RPC form). */
interface AccountOverride {
  balance?: Hex;
  code?: Hex;
  stateDiff?: Record<Hex, Hex>;
}

/**
 * `eth_call` with state overrides, sent as it is: the client's `call` gathers calls for its multicall batching and
 * prepares each request, over a millisecond a call on a local node, where the node itself answers in a fraction of
 * that. Answers the call's return data; throws what the node answered (a revert included).
 */
async function overriddenCall(client: ChainPublicClient, params: { to: Address; data: Hex; blockNumber?: bigint; overrides: Record<Address, AccountOverride> }): Promise<Hex> {
  const block = params.blockNumber === undefined ? 'latest' : numberToHex(params.blockNumber);
  return (await client.request({ method: 'eth_call', params: [{ to: params.to, data: params.data }, block, params.overrides] } as never)) as Hex;
}

/** The value a candidate slot is tried with: far above any real balance, far below an overflow when scaled. */
const PROBE_VALUE = 10n ** 30n;

/**
 * Where balances live when the node cannot list the slots `balanceOf` reads (no `eth_createAccessList`): the
 * mapping at each of the first 32 slots as Solidity lays it out (keccak(account . slot)) and as Vyper does
 * (keccak(slot . account)), and OpenZeppelin's upgradeable ERC20 storage (ERC-7201 namespace `openzeppelin.storage.ERC20`).
 */
function candidateSlots(account: Address): Hex[] {
  const slots: Hex[] = [];
  for (let i = 0n; i < 32n; i++) {
    slots.push(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account, i])));
    slots.push(keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [i, account])));
  }
  slots.push(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account, 0x52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00n])));
  return slots;
}

/**
 * The slot of `token` that holds `account`'s balance: each slot `balanceOf(account)` reads (`eth_createAccessList`;
 * the usual mapping layouts where the node has no such method) is tried in its own `eth_call` with a large value
 * written to it, and the first that makes `balanceOf` answer more than zero is the one. Undefined when none does
 * (the balance is computed in a way no single slot controls). Throws only when the node cannot answer.
 */
export async function findBalanceSlot(client: ChainPublicClient, params: { token: Address; account?: Address; blockNumber?: bigint }): Promise<BalanceSlot | undefined> {
  const { token, account = VIRTUAL_PAYER } = params;
  const at = params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber };
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] });
  let slots: Hex[];
  try {
    const { accessList } = await client.createAccessList({ to: token, data, ...at });
    slots = accessList.filter((entry) => entry.address.toLowerCase() === token.toLowerCase()).flatMap((entry) => entry.storageKeys);
  } catch {
    slots = candidateSlots(account);
  }
  const read = async (slot: Hex): Promise<bigint> => {
    const answer = await overriddenCall(client, { to: token, data, ...at, overrides: { [token]: { stateDiff: { [slot]: numberToHex(PROBE_VALUE, { size: 32 }) } } } });
    return answer && answer.length >= 66 ? BigInt(answer.slice(0, 66)) : 0n;
  };
  const answers = await Promise.all(slots.map((slot) => read(slot).catch(() => 0n)));
  const index = answers.findIndex((reported) => reported > 0n);
  return index < 0 ? undefined : { slot: slots[index], stored: PROBE_VALUE, reported: answers[index] };
}

/** The value to write to a balance slot so that `balanceOf` answers at least `amount`. */
export function storedFor(slot: BalanceSlot, amount: bigint): bigint {
  // Rounded up, and one more for a rebasing token's rounding of shares to balance.
  return (amount * slot.stored + slot.reported - 1n) / slot.reported + 1n;
}

export interface SimulateRouteParameters {
  /** The contract the calldata is sent to: RouterV2, or RouterV2Permit2 for a route signed through Permit2. */
  readonly router: Address;
  /** Who the payer approves for the input: `router` unless given (Permit2 for a signed route). */
  readonly spender?: Address;
  /** The input token; undefined for the native coin (sent as the value). */
  readonly tokenIn: Address | undefined;
  /** Where the input token keeps the payer's balance (required for a token input). */
  readonly balanceSlot?: BalanceSlot;
  readonly amountIn: bigint;
  /** The output as paid: the token, or undefined for the native coin. */
  readonly tokenOut: Address | undefined;
  /** Who the calldata pays: the payer for `executeSwaps`, the recipient of `executeSwapsWithData`. */
  readonly recipient?: Address;
  readonly calldata: Hex;
  readonly blockNumber: bigint;
}

export type SimulateRouteReturnType =
  | {
      readonly ok: true;
      /** What the recipient's balance of the output grew by. */
      readonly received: bigint;
      /** What RouterV2 returned (its own measure of the same). */
      readonly userAmountOut: bigint;
      /** The gas RouterV2's call used. */
      readonly gasUsed: bigint;
    }
  | { readonly ok: false; readonly reason: 'revert'; readonly revertData: Hex; readonly revertReason: string; readonly gasUsed: bigint }
  /** The override did not give the payer the input (the balance slot no longer answers as it did). */
  | { readonly ok: false; readonly reason: 'unfunded'; readonly balance: bigint };

/** Executes the calldata from the virtual payer at the block. Throws only when the node cannot answer. */
export async function simulateRoute(client: ChainPublicClient, params: SimulateRouteParameters): Promise<SimulateRouteReturnType> {
  const payer = VIRTUAL_PAYER;
  const overrides: Record<Address, AccountOverride> = { [payer]: { code: routeSimulatorRuntimeBytecode, ...(params.tokenIn === undefined ? { balance: numberToHex(params.amountIn) } : {}) } };
  if (params.tokenIn !== undefined) {
    if (!params.balanceSlot) throw new Error(`simulateRoute: no balance slot for ${params.tokenIn}`);
    overrides[params.tokenIn] = { stateDiff: { [params.balanceSlot.slot]: numberToHex(storedFor(params.balanceSlot, params.amountIn), { size: 32 }) } };
  }
  const data = await overriddenCall(client, {
    to: payer,
    data: encodeFunctionData({
      abi: routeSimulatorAbi,
      functionName: 'simulate',
      args: [params.router, params.spender ?? params.router, params.tokenIn ?? zero, params.amountIn, params.tokenOut ?? zero, params.recipient ?? payer, params.tokenIn !== undefined, params.calldata],
    }),
    blockNumber: params.blockNumber,
    overrides,
  });
  const outcome = decodeFunctionResult({ abi: routeSimulatorAbi, functionName: 'simulate', data: data ?? '0x' });
  if (outcome.balance < params.amountIn) return { ok: false, reason: 'unfunded', balance: outcome.balance };
  if (!outcome.ok) return { ok: false, reason: 'revert', revertData: outcome.revertData, revertReason: describeRevert(outcome.revertData), gasUsed: outcome.gasUsed };
  return { ok: true, received: outcome.received, userAmountOut: outcome.userAmountOut, gasUsed: outcome.gasUsed };
}

const zero: Address = '0x0000000000000000000000000000000000000000';
