import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema } from '../primitives';
import { SUBJECTS } from '../subjects';

/** The native coin in the API: the zero address (the `0xEeee...` spelling is accepted as well). */
export const NATIVE_TOKEN_ADDRESS = '0x0000000000000000000000000000000000000000';
export const NATIVE_TOKEN_ALIAS = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** A human-readable positive decimal amount, e.g. `1.5` (converted with the token's decimals by the aggregator). */
export const decimalAmountSchema = z.string().regex(/^(\d+(\.\d*)?|\.\d+)$/, 'must be a positive decimal number');
const baseUnitsSchema = z.string().regex(/^\d+$/, 'must be a base-unit integer');
const routerIndexListSchema = z.array(z.number().int().min(0).max(255));

export const tokenMetaSchema = z.object({
  address: addressSchema,
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  /**
   * Route answers: the part of each transfer of the token that does not arrive, in basis points (measured by the
   * service; 0 for a token that takes no fee). Absent for the native coin.
   */
  transferFeeBps: z.number().int().min(0).max(10_000).optional(),
});
export type TokenMeta = z.infer<typeof tokenMetaSchema>;

export const routeRequestSchema = z
  .object({
    chainId: chainIdSchema,
    tokenIn: addressSchema,
    tokenOut: addressSchema,
    /** Exactly one of the two, human-readable in the token's units. */
    amountIn: decimalAmountSchema.optional(),
    amountOut: decimalAmountSchema.optional(),
    multiHop: z.boolean().default(false),
    /** Slippage tolerance in basis points (the REST `slippage` percent times 100). */
    slippageBps: z.number().int().min(1).max(4_999).default(100),
    unwrapNative: z.boolean().default(false),
    includeDexes: routerIndexListSchema.optional(),
    excludeDexes: routerIndexListSchema.optional(),
    feeBps: z.number().int().min(0).max(100).default(0),
    feeRecipient: addressSchema.optional(),
    /**
     * With either of `recipient` and `deadline` the calldata calls `executeSwapsWithData`: the output goes to
     * `recipient`, and the call reverts after `deadline` (unix seconds; default: 30 minutes after the chain's
     * time at the quote). A deadline needs a recipient.
     */
    recipient: addressSchema.optional(),
    deadline: z
      .string()
      .regex(/^\d{1,78}$/, 'must be a unix time in seconds')
      .refine((v) => BigInt(v) < 2n ** 256n, 'must be below 2^256')
      .optional(),
    /** Percent (0 to 100): a route whose averagePriceImpact is above it is refused (422). */
    maxPriceImpact: z.number().min(0).max(100).optional(),
    /** Simulate the transaction from this address at the quote's block (`simulation` in the answer). */
    sender: addressSchema.optional(),
    /** Choose the route paying the most net of its gas (the least input plus gas); false: the most output, gas aside. */
    gasAware: z.boolean().default(true),
    /**
     * The sender signs the route through Permit2 instead of approving RouterV2: the answer's `permit2` holds the typed
     * data to sign and `execution` calls RouterV2Permit2 (see `routePermit2Schema`). Needs `sender` (the signer).
     */
    permit2: z.boolean().default(false),
  })
  .refine((r) => (r.amountIn === undefined) !== (r.amountOut === undefined), { message: 'exactly one of amountIn and amountOut', path: ['amountIn'] })
  .refine((r) => r.feeBps === 0 || r.feeRecipient !== undefined, { message: 'required when feeBps > 0', path: ['feeRecipient'] })
  .refine((r) => r.deadline === undefined || r.recipient !== undefined, { message: 'required with a deadline', path: ['recipient'] })
  .refine((r) => !r.permit2 || r.sender !== undefined, { message: 'required with permit2', path: ['sender'] });
export type RouteRequest = z.input<typeof routeRequestSchema>;

/**
 * A pool's id where it is not a contract of its own: a Uniswap V4 pool's inside its PoolManager (keccak256 of its
 * key, lowercase hex), or a Curve pool's coin pair (`curvePairId`: the pool in lower case, then coin indexes i < j).
 */
const poolIdSchema = z.union([z.string().regex(/^0x[0-9a-f]{64}$/), z.string().regex(/^0x[0-9a-f]{40}:[0-7]:[0-7]$/)]);

export const hopSwapRecordSchema = z.object({
  tokenIn: addressSchema,
  tokenOut: addressSchema,
  /** The contract RouterV2's `Swap.pool` names: the pool, or for a Uniswap V4 pool its PoolManager. */
  poolAddress: addressSchema,
  /** Uniswap V4 pools: the pool's id (its key is `data`); Curve pools: the coin pair traded (`0x…:i:j`). */
  poolId: poolIdSchema.optional(),
  /** Uniswap V4 pools: the pool's hook contract (address(0): none). */
  hooks: addressSchema.optional(),
  routerIndex: z.number().int(),
  routerName: z.string(),
  /**
   * Pool fee in the pool's own units, as `/pools` reports it: basis points for V2, stable and launchpad pools;
   * hundredths of a basis point (pips, 3000 = 0.3%) for `uniswap-v3` and `algebra` pools (an Algebra pool's current
   * fee) and Curve pools (the pool's `fee()` now, before StableswapNG's off-peg multiplier); absent for core pools
   * (their fee is dynamic).
   */
  fee: z.number().optional(),
  stable: z.boolean(),
  /**
   * RouterV2's `Swap.data`: empty, a core pool's referral code, a Uniswap V4 pool's key (`abi.encode(PoolKey)`), or for
   * a Curve pool paid through an allowance and `exchange` (a StableswapNG pool holding a rebasing coin) the word 1.
   */
  data: z.string().regex(/^0x[0-9a-fA-F]*$/),
  amountIn: baseUnitsSchema,
  amountOut: baseUnitsSchema,
  /** Fraction (0.01 = 1%). */
  priceImpact: z.number(),
});
export type HopSwapRecord = z.infer<typeof hopSwapRecordSchema>;

/** Why a simulated transaction would fail. */
export const SIMULATION_FAILURES = ['insufficientBalance', 'insufficientAllowance', 'revert'] as const;

/** The route's transaction simulated from `sender` at the quote's block (the route answer's `simulation`). */
export const routeSimulationSchema = z.object({
  sender: addressSchema,
  /** The block the balance, the allowance and the call were read at: the quote's. */
  blockNumber: baseUnitsSchema,
  /** Whether the transaction, sent now from `sender`, would succeed. */
  success: z.boolean(),
  /** When it would not: the first problem found, in this order. */
  failure: z.enum(SIMULATION_FAILURES).optional(),
  /** A sentence saying what is wrong and what to do. */
  message: z.string().optional(),
  /** The sender's balance of the input (the native coin for a native input), base units. */
  balance: baseUnitsSchema,
  /** The input the transaction spends (`details.amountIn`), base units. */
  required: baseUnitsSchema,
  /** The sender's allowance to `spender`, base units; absent for a native input (nothing to approve). */
  allowance: baseUnitsSchema.optional(),
  /**
   * The address to approve for `required` of the input: RouterV2 (`execution.to`), or Permit2 for a route signed
   * through it (`permit2.permit2`); absent for a native input.
   */
  spender: addressSchema.optional(),
  /** For `failure: revert`: the decoded revert, e.g. `InsufficientOutput(990, 1000)`. */
  revertReason: z.string().optional(),
  /** On success: what the recipient would receive (the call's `userAmountOut`), base units. */
  amountOut: baseUnitsSchema.optional(),
});
export type RouteSimulation = z.infer<typeof routeSimulationSchema>;

const typedDataFieldSchema = z.object({ name: z.string(), type: z.string() });

/**
 * A route signed through Permit2 (`permit2=true`): the EIP-712 typed data the sender signs (`eth_signTypedData_v4`),
 * and where its signature goes in `execution.calldata`, which carries 65 zero bytes there until it is signed.
 */
export const routePermit2Schema = z.object({
  /** Permit2 on the chain: the address the sender approves once per token, and the typed data's verifying contract. */
  permit2: addressSchema,
  /** RouterV2Permit2: the permit's spender and `execution.to`. */
  spender: addressSchema,
  /** The sender, who signs and pays. */
  signer: addressSchema,
  /** The permit's nonce: the lowest the signer had not used at the quote's block (Permit2's nonces are unordered). */
  nonce: baseUnitsSchema,
  /** The permit's deadline and the transaction's: `execution.details.deadline`. */
  deadline: baseUnitsSchema,
  typedData: z.object({
    domain: z.object({ name: z.literal('Permit2'), chainId: z.number().int(), verifyingContract: addressSchema }),
    types: z.record(z.string(), z.array(typedDataFieldSchema)),
    primaryType: z.literal('PermitWitnessTransferFrom'),
    /** Values as JSON: amounts and nonces as decimal strings. */
    message: z.object({
      permitted: z.object({ token: addressSchema, amount: baseUnitsSchema }),
      spender: addressSchema,
      nonce: baseUnitsSchema,
      deadline: baseUnitsSchema,
      witness: z.object({
        router: addressSchema,
        tokens: z.array(addressSchema),
        minAmountOut: baseUnitsSchema,
        expectedAmountOut: baseUnitsSchema,
        /** `keccak256(abi.encode(hopSwaps))` of the calldata's stages. */
        stages: z.string().regex(/^0x[0-9a-f]{64}$/),
        feeBps: baseUnitsSchema,
        feeRecipient: addressSchema,
        recipient: addressSchema,
      }),
    }),
  }),
  /**
   * Where the signature goes: the byte offset in `execution.calldata` (counted after `0x`) of the 65 placeholder
   * bytes, to be replaced by the signature's r, s and v (hex characters `2 + 2 * offset` to `2 + 2 * offset + 130`).
   */
  signatureOffset: z.number().int().min(0),
});
export type RoutePermit2 = z.infer<typeof routePermit2Schema>;

export const routeResponseSchema = z.object({
  /**
   * This answer's id (a UUID): the service logs it with the request id, the inputs and the block, so a report
   * quoting it can be traced to what was quoted and when.
   */
  quoteId: z.uuid(),
  chainId: chainIdSchema,
  /** The block of the liquidity snapshot the route was computed on. */
  blockNumber: baseUnitsSchema,
  tokens: z.object({ tokenIn: tokenMetaSchema, tokenOut: tokenMetaSchema, intermediates: z.array(tokenMetaSchema) }),
  amountIn: z.string(),
  amountOut: z.string(),
  /** Fraction (0.01 = 1%). */
  averagePriceImpact: z.number(),
  /**
   * Gas the transaction uses, whole transaction (what its receipt's `gasUsed` reports), from RouterV2's gas model per
   * source kind (`libs/routing/src/route/gas-model.ts`, calibrated by `bench/gas-model`).
   */
  gasEstimate: z.number().int(),
  /** The chain's gas price at the quote (`eth_gasPrice`, read once per block), wei. */
  gasPrice: baseUnitsSchema,
  /** `gasEstimate` times `gasPrice`, in the native coin (decimal, 18 decimals at most). */
  gasCostNative: z.string(),
  /** That cost in USD at the oracle's price of the wrapped native token; null when the chain has no such price. */
  gasCostUsd: z.string().nullable(),
  execution: z.object({
    to: addressSchema,
    calldata: z.string().regex(/^0x[0-9a-fA-F]*$/),
    /** Native coin the transaction carries, base units ("0" unless the input is the native coin). */
    value: baseUnitsSchema,
    details: z.object({
      path: z.array(addressSchema),
      amountIn: baseUnitsSchema,
      amountOut: baseUnitsSchema,
      minAmountOut: baseUnitsSchema,
      feeBps: z.number().int(),
      /** With `executeSwapsWithData` (and `executeSwapsWithPermit2`): who receives the output. */
      recipient: addressSchema.optional(),
      /** With `executeSwapsWithData`: the last block timestamp (unix seconds) at which the call executes. */
      deadline: baseUnitsSchema.optional(),
      hopSwaps: z.array(z.array(hopSwapRecordSchema)),
    }),
  }),
  /** Present when `sender` was given. */
  simulation: routeSimulationSchema.optional(),
  /** Present with `permit2=true`: what to sign, and where the signature goes in `execution.calldata`. */
  permit2: routePermit2Schema.optional(),
});
export type RouteResponse = z.infer<typeof routeResponseSchema>;

/** aggregator-router's announcement of a chain's new liquidity view (`aggregatorViewTopic`). */
export const aggregatorViewSchema = z.object({ chainId: chainIdSchema, blockNumber: baseUnitsSchema });
export type AggregatorView = z.infer<typeof aggregatorViewSchema>;

export const routeContract = defineContract({
  subject: SUBJECTS.aggregatorRoute,
  description: 'Best route between two tokens of a chain, with RouterV2 calldata',
  request: routeRequestSchema,
  response: routeResponseSchema,
});

export const poolsRequestSchema = z.object({
  chainId: chainIdSchema,
  tokenA: addressSchema,
  tokenB: addressSchema,
  includeDexes: routerIndexListSchema.optional(),
  excludeDexes: routerIndexListSchema.optional(),
});

export const poolRecordSchema = z.object({
  /** The pool's contract; for a Uniswap V4 pool, the PoolManager holding it (`poolId` names the pool). */
  poolAddress: addressSchema,
  /** Uniswap V4 pools: the pool's id inside its PoolManager; Curve pools: the coin pair (`0x…:i:j`, i and j the coins' indexes). */
  poolId: poolIdSchema.optional(),
  /** Uniswap V4 pools: the pool's hook contract (address(0): none). */
  hooks: addressSchema.optional(),
  /** The other token of the pair relative to tokenA. */
  pairedToken: addressSchema,
  routerIndex: z.number().int(),
  protocol: z.string(),
  /**
   * Pool fee in the pool's own units: basis points for V2, stable and launchpad pools; hundredths of a basis point
   * (pips, 3000 = 0.3%) for `uniswap-v3` and `algebra` pools (an Algebra pool's current fee) and Curve pools (the
   * pool's `fee()` now); null for core pools (dynamic fee).
   */
  fee: z.number().nullable(),
  /** Concentrated-liquidity pools (`uniswap-v3`, `algebra`, `uniswap-v4`) only: the pool's tick spacing. */
  tickSpacing: z.number().int().optional(),
  /** Curve pools: every coin of the pool, in the pool's order (the pair is two of them). */
  coins: z.array(addressSchema).optional(),
  /** Curve pools: the amplification `A()` reads now (TwocryptoNG's scaled as the pool scales it). */
  A: z.number().optional(),
  stable: z.boolean(),
  pair: z.string(),
  /** Spot price of one tokenA in tokenB at zero size, the pool's fee included (0 for a pool not routed). */
  price: z.number(),
  /**
   * Why the pool is known but not routed (a Uniswap V4 pool whose hook may change a swap and that its source does not
   * allow); absent for a routed pool.
   */
  excluded: z.string().optional(),
});
export type PoolRecord = z.infer<typeof poolRecordSchema>;

export const poolsContract = defineContract({
  subject: SUBJECTS.aggregatorPools,
  description: 'Pools of every source trading a pair of tokens',
  request: poolsRequestSchema,
  response: z.array(poolRecordSchema),
});

export const balancesRequestSchema = z.object({
  chainId: chainIdSchema,
  wallet: addressSchema,
  tokens: z.array(addressSchema).optional(),
});

export const balanceRecordSchema = tokenMetaSchema.extend({
  /** Human-readable balance. */
  balance: z.string(),
  /** Base units. */
  balanceRaw: baseUnitsSchema,
});

export const balancesContract = defineContract({
  subject: SUBJECTS.aggregatorBalances,
  description: "A wallet's balances of the chain's known tokens and native coin",
  request: balancesRequestSchema,
  response: z.object({ chainId: chainIdSchema, wallet: addressSchema, blockNumber: baseUnitsSchema, balances: z.array(balanceRecordSchema) }),
});
