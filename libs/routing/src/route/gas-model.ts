/**
 * The gas of a RouterV2 transaction, from the route's shape: what the transaction pays to be sent (21,000 and its
 * calldata), RouterV2's own work around the swaps (the call, the native coin wrapped or unwrapped, the output paid
 * through the router, the integrator fee), and per swap its source kind's cost, a concentrated pool's also per
 * initialized tick it crosses. Pure: the constants are fitted by `bench/gas-model/run.mjs` to transactions executed on
 * the devnet (each kind, linear, split and multi-path routes, native ends, fees, `executeSwapsWithData`), which also
 * prints the model against what each executed. The devnet is first brought to a live chain's state (every pool traded
 * each way, each concentrated pool across its ticks near the price and back, fee recipients holding the tokens), so
 * the constants price pools and accounts in use; docs/api.md lists what costs more (first-time storage writes).
 *
 * Every figure is the gas the receipt reports (`gasUsed`: after the refunds of storage set back within the call).
 */
import { POOL_MODULES, poolModule } from '../pools/registry';
import type { PoolKind } from '../pools/pool-snapshot';
import type { Route } from './route';

/** The transaction's intrinsic gas (EIP-2028). */
export const TX_BASE_GAS = 21_000;
const PERMIT2_GAS = 38_400;
const CALLDATA_ZERO_BYTE_GAS = 4;
const CALLDATA_BYTE_GAS = 16;

/** A swap's cost by what it executes (a kind's `PoolGas.swaps`: the launchpad's buys and sales run different code). */
export type GasSwapKind = string;

/**
 * RouterV2's own work, beside the swaps and the calldata (fitted by non-negative least squares: none of this work gives
 * gas back; see the module note).
 */
export const ROUTER_GAS = {
  /** `executeSwaps` of a one-swap route paid straight to the caller by its pool, token in and out. */
  base: 32_277,
  /** `executeSwapsWithData` over `executeSwaps`: the deadline and recipient. */
  withData: 1_066,
  /** The native coin in: wrapped, the first stage paid by the router. */
  nativeIn: 6_767,
  /** The native coin out: unwrapped and sent (the output goes through the router). */
  nativeOut: 15_089,
  /** A token output paid through the router (a fee, a split last stage, output made before the last stage). */
  routerPayout: 3_717,
  /**
   * An integrator fee: the fee recipient's and the treasury's transfers, to accounts that already hold the token (a
   * first payment of a token to either sets its balance slot from zero: about 16,700 more each, not estimated).
   */
  fee: 22_052,
  /** Each token beyond tokenIn and tokenOut: held by the router between stages. */
  extraToken: 2_631,
  /**
   * A route signed through Permit2 (RouterV2Permit2 over `executeSwapsWithData`): Permit2's signature check and nonce
   * (in a nonce word already used), its transfer into RouterV2Permit2 and the call on to RouterV2, net of the refund of
   * RouterV2Permit2's balance emptied again (bench/router-gas: +60,833 execution gas before refunds, 19,900 refunded;
   * the signer sending its own transaction). RouterV2Permit2's first route of a token also sets its standing allowance
   * to RouterV2 (about 22,000 more, once per token and chain; not estimated).
   */
  permit2: PERMIT2_GAS,
  /** A signed route whose nonce opens a Permit2 nonce word (the signer's first, then every 256th). */
  permit2NewNonceWord: 17_100,
} as const;

/** Each swap's marginal gas by what it executes (fitted; see the module note): every kind's `PoolGas.swaps`. */
export const SWAP_GAS_BY_KIND: Readonly<Record<GasSwapKind, number>> = Object.assign({}, ...Object.values(POOL_MODULES).map((m): Readonly<Record<string, number>> => m.gas.swaps));

/**
 * Per initialized tick a concentrated swap crosses (fitted): the tick's values outside rewritten, as on a live pool
 * whose ticks near the price were crossed before. A tick's first crossing in its life sets them from zero, about
 * 35,000 more, which the model cannot know from the pool's state.
 */
export const TICK_GAS: Readonly<Record<string, number>> = Object.fromEntries(Object.values(POOL_MODULES).flatMap((m) => (m.gas.perTick === undefined ? [] : Object.keys(m.gas.swaps).map((k) => [k, m.gas.perTick!]))));

/** Per 256-tick word of the tick bitmap a concentrated swap's price moves across (fitted). */
export const TICK_WORD_GAS = 6_533;

/**
 * The ticks a concentrated swap crosses on average over the calibration's routes, for a swap whose crossings are not
 * known (`swapGas`).
 */
export const AVERAGE_TICKS_CROSSED = 1.09;

/**
 * What a recipient that held none of the output costs more (fitted): its balance slot set from zero (20,000 against
 * 2,900 for a storage write), or, for the native coin, the account created by the transfer (25,000 and its access).
 */
export const NEW_TOKEN_HOLDER_GAS = 16_685;
export const NEW_ACCOUNT_GAS = 27_237;

/** Calldata bytes of `executeSwaps`, for a shape without calldata: a token, a swap, a stage, the rest. */
const CALLDATA_GAS = { base: 1_100, withData: 420, token: 368, stage: 140, swap: 1_800 } as const;

/** A swap as the gas model sees it. */
export interface GasSwap {
  readonly kind: GasSwapKind;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Initialized ticks the swap crosses (concentrated kinds); `AVERAGE_TICKS_CROSSED` when unknown. */
  readonly ticksCrossed?: number;
  /** 256-tick words of the pool's tick bitmap the price moves across (concentrated kinds); 0 when unknown. */
  readonly wordsCrossed?: number;
}

/** A RouterV2 transaction as the gas model sees it. */
export interface GasShape {
  /** The route's tokens (`Route.tokens`: the wrapped native token for a native end). */
  readonly tokens: readonly string[];
  readonly stages: readonly (readonly GasSwap[])[];
  readonly nativeIn?: boolean;
  readonly nativeOut?: boolean;
  readonly feeBps?: number;
  /** `executeSwapsWithData` (a recipient or a deadline). */
  readonly withData?: boolean;
  /** Signed through Permit2 (RouterV2Permit2, which calls `executeSwapsWithData`): `newNonceWord` when its nonce opens a word. */
  readonly permit2?: { readonly newNonceWord: boolean };
  /** The calldata, when known: its gas is counted exactly, else estimated from the shape. */
  readonly calldata?: string;
  /** Whether the recipient already holds the output (an account that exists, for the native coin). Default true. */
  readonly recipientHoldsOutput?: boolean;
}

/** The options of `routeGas`: the transaction's settings beside the route. */
export type RouteGasOptions = Omit<GasShape, 'tokens' | 'stages'>;

/** The calldata's gas: 16 per non-zero byte, 4 per zero byte. */
export function calldataGas(calldata: string): number {
  const hex = calldata.startsWith('0x') ? calldata.slice(2) : calldata;
  let gas = 0;
  for (let i = 0; i + 1 < hex.length; i += 2) gas += hex[i] === '0' && hex[i + 1] === '0' ? CALLDATA_ZERO_BYTE_GAS : CALLDATA_BYTE_GAS;
  return gas;
}

/** The calldata's gas estimated from the shape (addresses, amounts of about ten bytes, small words). */
function shapeCalldataGas(shape: GasShape): number {
  const swaps = shape.stages.reduce((n, s) => n + s.length, 0);
  return CALLDATA_GAS.base + (shape.withData ? CALLDATA_GAS.withData : 0) + shape.tokens.length * CALLDATA_GAS.token + shape.stages.length * CALLDATA_GAS.stage + swaps * CALLDATA_GAS.swap;
}

/** A swap's gas: its kind's, and a concentrated swap's ticks. */
function swapShapeGas(swap: GasSwap): number {
  const base = SWAP_GAS_BY_KIND[swap.kind];
  const perTick = TICK_GAS[swap.kind];
  if (perTick === undefined) return base;
  return base + perTick * (swap.ticksCrossed ?? AVERAGE_TICKS_CROSSED) + TICK_WORD_GAS * (swap.wordsCrossed ?? 0);
}

const lower = (t: string): string => t.toLowerCase();

/**
 * Whether RouterV2 pays a token output itself rather than letting the last stage's pools pay the recipient: with a
 * fee, with more than one swap in the last stage (the answer's expected output caps a direct payment only for one
 * swap), when an earlier stage made some of the output, or when the last stage makes anything else.
 */
function paysThroughRouter(shape: GasShape): boolean {
  if ((shape.feeBps ?? 0) > 0) return true;
  const out = lower(shape.tokens[shape.tokens.length - 1]);
  const last = shape.stages[shape.stages.length - 1];
  if (last.length !== 1 || lower(last[0].tokenOut) !== out) return true;
  return shape.stages.slice(0, -1).some((stage) => stage.some((s) => lower(s.tokenOut) === out));
}

/** The gas of the transaction of a shape: intrinsic, calldata, RouterV2's work, the swaps. */
export function shapeGas(shape: GasShape): number {
  let gas = TX_BASE_GAS + (shape.calldata !== undefined ? calldataGas(shape.calldata) : shapeCalldataGas(shape)) + ROUTER_GAS.base;
  if (shape.withData || shape.permit2) gas += ROUTER_GAS.withData;
  if (shape.permit2) gas += ROUTER_GAS.permit2 + (shape.permit2.newNonceWord ? ROUTER_GAS.permit2NewNonceWord : 0);
  if (shape.nativeIn) gas += ROUTER_GAS.nativeIn;
  if (shape.nativeOut) gas += ROUTER_GAS.nativeOut;
  else if (paysThroughRouter(shape)) gas += ROUTER_GAS.routerPayout;
  if ((shape.feeBps ?? 0) > 0) gas += ROUTER_GAS.fee;
  gas += Math.max(0, shape.tokens.length - 2) * ROUTER_GAS.extraToken;
  if (shape.recipientHoldsOutput === false) gas += shape.nativeOut ? NEW_ACCOUNT_GAS : NEW_TOKEN_HOLDER_GAS;
  for (const stage of shape.stages) for (const swap of stage) gas += swapShapeGas(swap);
  return Math.round(gas);
}

/** The gas kind of a route's swap, as its pool's kind tells it (a launchpad swap is a buy when it spends the wrapped native token). */
function gasKind(swap: Route['stages'][number][number]): GasSwapKind {
  const pool = swap.leg.pool;
  return poolModule(pool).gas.swapKind(pool, swap.tokenIn);
}

/** The gas shape of a route. */
export function routeGasShape(route: Route, options: RouteGasOptions = {}): GasShape {
  return {
    ...options,
    tokens: route.tokens,
    stages: route.stages.map((stage) =>
      stage.map((swap) => {
        const kind = gasKind(swap);
        const crossings = poolModule(swap.leg.pool).gas.crossings;
        const crossed = TICK_GAS[kind] !== undefined && crossings && swap.amountIn > 0n ? crossings(swap.leg, swap.tokenIn, swap.amountIn) : undefined;
        return { kind, tokenIn: swap.tokenIn, tokenOut: swap.tokenOut, ...(crossed ? { ticksCrossed: crossed.ticks, wordsCrossed: crossed.words } : {}) };
      }),
    ),
  };
}

/**
 * The gas of the RouterV2 transaction of a route (units, the whole transaction as its receipt's `gasUsed`), the
 * options saying what the route does not: native ends, the fee, `executeSwapsWithData`, the calldata when built.
 */
export function routeGas(route: Route, options: RouteGasOptions = {}): number {
  return shapeGas(routeGasShape(route, options));
}

/**
 * The gas one more swap of a kind adds to a route: its kind's cost (a launchpad swap the mean of a buy and a sale,
 * a concentrated swap with the average ticks crossed) and its calldata.
 */
export function swapGas(kind: PoolKind): number {
  const ways = Object.keys(POOL_MODULES[kind].gas.swaps);
  const swap = ways.reduce((sum, way) => sum + swapShapeGas({ kind: way, tokenIn: '', tokenOut: '' }), 0) / ways.length;
  return Math.round(swap + CALLDATA_GAS.swap);
}

/** The gas of a route's transaction besides its swaps (a one-swap route's less its swap), calldata estimated. */
export function routeBaseGas(): number {
  return TX_BASE_GAS + CALLDATA_GAS.base + 2 * CALLDATA_GAS.token + CALLDATA_GAS.stage + ROUTER_GAS.base;
}
