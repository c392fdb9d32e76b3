import { z } from 'zod';
import { defineContract } from '../contract';
import { addressSchema, chainIdSchema, CURVE_KINDS, sourceKindSchema } from '../primitives';
import { chainSourcesSchema } from '../aggregator/sources';
import { SUBJECTS } from '../subjects';

/** An unsigned integer of any size, as a decimal string. */
const uintString = z.string().regex(/^\d+$/);

export const deploymentSchema = z.object({
  name: z.string(),
  contract: z.string(),
  address: addressSchema,
});

export const manifestTokenSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(255),
  address: addressSchema,
});

/** A pool of a liquidity source, as deployed on the devnet. */
export const manifestPoolSchema = z.object({
  name: z.string(),
  routerIndex: z.number().int().min(0),
  kind: sourceKindSchema,
  address: addressSchema,
  token0: addressSchema,
  token1: addressSchema,
  /**
   * Concentrated-liquidity pools (`uniswap-v3`, `algebra`) only: the pool's fee in its own units, hundredths of a
   * basis point (pips: 3000 = 0.3%). For Algebra it is the fee the pool charged when it was deployed (its current
   * fee can change).
   */
  fee: z.number().int().min(0).max(1_000_000).optional(),
  /** Concentrated-liquidity pools only: the pool's tick spacing. */
  tickSpacing: z.number().int().min(1).optional(),
});
export type ManifestPool = z.infer<typeof manifestPoolSchema>;

/**
 * A Uniswap V4 pool of the devnet: inside its source's PoolManager, named by its PoolId and its key (currencies,
 * address(0) the native coin; fee, 0x800000 for a dynamic fee; tick spacing; hook). `token0` and `token1` are the
 * currencies as routes name them (the wrapped native token for the native coin), in the pool's order. Listed apart
 * from `pools`: the indexer finds these pools from the PoolManager's Initialize events, not from a pool address.
 */
export const manifestUniswapV4PoolSchema = z.object({
  name: z.string(),
  routerIndex: z.number().int().min(0),
  poolManager: addressSchema,
  poolId: z.string().regex(/^0x[0-9a-f]{64}$/),
  currency0: addressSchema,
  currency1: addressSchema,
  fee: z.number().int().min(0),
  tickSpacing: z.number().int().min(1),
  hooks: addressSchema,
  token0: addressSchema,
  token1: addressSchema,
  /** The devnet hook the pool has, by name (`dynamic-fee`, `input-fee`, `swap-limit`); absent: no hook. */
  hook: z.string().optional(),
});
export type ManifestUniswapV4Pool = z.infer<typeof manifestUniswapV4PoolSchema>;

/**
 * A Curve NG pool of the devnet (StableswapNG: 2 to 8 coins; TwocryptoNG: 2): its contract and its coins in the pool's
 * order (coin i is `coins[i]`). Listed apart from `pools`: the engine routes each coin pair of it as a pool of its own,
 * named by a pair id (`curvePairId`), and the indexer finds the pools from their factory's events.
 */
export const manifestCurvePoolSchema = z.object({
  name: z.string(),
  routerIndex: z.number().int().min(0),
  kind: z.enum(CURVE_KINDS),
  address: addressSchema,
  coins: z.array(addressSchema).min(2).max(8),
  /** StableswapNG pools with a coin other than a standard one: each coin's asset type (0 standard, 1 oracle, 2 rebasing, 3 ERC4626). */
  assetTypes: z.array(z.number().int().min(0).max(3)).optional(),
});
export type ManifestCurvePool = z.infer<typeof manifestCurvePoolSchema>;

/** A referral code issued on the devnet: its text, the bytes32 hash the contracts use, and its claim wallet. */
export const manifestRefCodeSchema = z.object({
  code: z.string(),
  refCode: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  claimWallet: addressSchema,
});

/** The oracle-validated AMM of a chain. */
export const manifestCoreSchema = z.object({
  router: addressSchema,
  registry: addressSchema,
  oracle: addressSchema,
  refCodes: z.array(manifestRefCodeSchema),
});

/** A token launched on the devnet's launchpad, and the stage it was brought to. */
export const manifestLaunchedTokenSchema = z.object({
  address: addressSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  creator: addressSchema,
  stage: z.enum(['fresh', 'trading', 'graduated']),
  /** The token's DEX pair: its address is fixed when the token is created; the pair is deployed and holds liquidity once the token graduated. */
  pair: addressSchema,
});

export const manifestLaunchpadSchema = z.object({
  address: addressSchema,
  tokens: z.array(manifestLaunchedTokenSchema),
});

/**
 * The kinds of misbehaving test tokens the devnet deploys: the public catalogue of weird ERC20s
 * (libs/contracts/src/devnet/MisbehavingTokens.sol), then the tokens seen on live chains in
 * libs/contracts/src/devnet/WildTokens.sol: a fixed fee per transfer, buy and sell taxes on marked pools, a launch
 * fee that falls to zero over time, a maximum buy or sell on marked pools, a pause and a blocklist that emit no event,
 * balances that grow with time (shares times an index), and a balanceOf that overstates by one unit.
 */
export const TEST_TOKEN_KINDS = [
  'fee-on-transfer',
  'no-return',
  'returns-false',
  'revert-on-zero',
  'pausable',
  'blocklist',
  'low-decimals',
  'high-decimals',
  'bytes32-metadata',
  'reentrant',
  'fixed-fee',
  'tax',
  'decaying-fee',
  'max-transfer',
  'silent-pause',
  'silent-blocklist',
  'rebasing',
  'lying-balance',
] as const;
export const testTokenKindSchema = z.enum(TEST_TOKEN_KINDS);
export type TestTokenKind = z.infer<typeof testTokenKindSchema>;

/** A misbehaving test token and its V2 pool against the wrapped native. */
export const manifestTestTokenSchema = manifestTokenSchema.extend({
  kind: testTokenKindSchema,
  pool: addressSchema,
  /** Fee-on-transfer tokens: the part of each transfer taken, in basis points. */
  feeBps: z.number().int().min(0).max(10_000).optional(),
  /** `fixed-fee` tokens: the amount burned from every transfer between two accounts, in base units (a decimal string). */
  fixedFee: uintString.optional(),
  /** `tax` tokens: the tax on a buy (a transfer from the token's marked pool), in basis points, paid to the owner. */
  buyTaxBps: z.number().int().min(0).max(10_000).optional(),
  /** `tax` tokens: the tax on a sell (a transfer to the token's marked pool), in basis points, paid to the owner. */
  sellTaxBps: z.number().int().min(0).max(10_000).optional(),
  /**
   * `decaying-fee` tokens: the fee at launch, in basis points; it falls linearly to zero over `decaySeconds` from
   * the token's `launchedAt()` (the owner's `relaunch()` sets that to now).
   */
  startFeeBps: z.number().int().min(0).max(10_000).optional(),
  /** `decaying-fee` tokens: how long the fee takes to fall from `startFeeBps` to zero, in seconds. */
  decaySeconds: z.number().int().positive().optional(),
  /** `max-transfer` tokens: the largest buy or sell (a transfer from or to the marked pool), in base units (a decimal string). */
  maxTxAmount: uintString.optional(),
  /** `rebasing` tokens: how much the index (and so every balance) grows per day, in basis points. */
  growthBpsPerDay: z.number().int().min(0).optional(),
});
export type ManifestTestToken = z.infer<typeof manifestTestTokenSchema>;

export const manifestChainSchema = z.object({
  chainId: chainIdSchema,
  name: z.string(),
  nativeSymbol: z.string(),
  rpcUrl: z.string().url(),
  multicall3: addressSchema,
  wrappedNative: manifestTokenSchema,
  tokens: z.array(manifestTokenSchema),
  /** Every contract deployed on the chain, by name. */
  deployments: z.array(deploymentSchema),
  sources: chainSourcesSchema,
  /** Every pool of every source with an address of its own. */
  pools: z.array(manifestPoolSchema),
  /** The Uniswap V4 pools (inside their PoolManager). */
  uniswapV4Pools: z.array(manifestUniswapV4PoolSchema).optional(),
  /** The Curve NG pools (each coin pair of them routed as a pool of its own). */
  curvePools: z.array(manifestCurvePoolSchema).optional(),
  /** The oracle-validated AMM ("core"). */
  core: manifestCoreSchema,
  /** The token launchpad and the tokens launched on it. */
  launchpad: manifestLaunchpadSchema,
  /** Tokens that do not behave (one of each kind of the weird-ERC20 catalogue), each in a V2 pool of its own. */
  testTokens: z.array(manifestTestTokenSchema).optional(),
  /** The aggregator's execution contract. */
  routerV2: addressSchema,
  /** Uniswap's Permit2, compiled from @uniswap/v4-periphery's copy of its source. */
  permit2: addressSchema,
  /** RouterV2's entry for routes signed through Permit2. */
  routerV2Permit2: addressSchema,
  /** Where the router sends the protocol's share of fees and captured slippage. */
  treasury: addressSchema,
  /**
   * The scale profile's additions, when it is on: the seeder contract, its tokens and how many pools of each
   * kind it created (the pools themselves are found on chain, through their factories' events).
   */
  scale: z
    .object({
      seeder: addressSchema,
      tokens: z.array(manifestTokenSchema),
      pools: z.object({
        'uniswap-v2': z.number().int(),
        stable: z.number().int(),
        core: z.number().int(),
        'uniswap-v3': z.number().int().optional(),
        algebra: z.number().int().optional(),
        /** Uniswap V4 pools, in the V4 source's PoolManager (found through its Initialize events). */
        'uniswap-v4': z.number().int().optional(),
        /** Curve StableswapNG and TwocryptoNG pools, deployed through the Curve sources' factories (their pool_list). */
        'curve-stableswap-ng': z.number().int().optional(),
        'curve-twocrypto-ng': z.number().int().optional(),
      }),
    })
    .optional(),
});
export type ManifestChain = z.infer<typeof manifestChainSchema>;
export type ManifestCore = z.infer<typeof manifestCoreSchema>;

export const devAccountSchema = z.object({
  role: z.string(),
  address: addressSchema,
  privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
});

/** `.devnet/manifest.json`: everything a client or service needs to reach the local stack. */
export const devnetManifestSchema = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  gatewayUrl: z.string().url(),
  accounts: z.array(devAccountSchema),
  chains: z.record(z.string().regex(/^\d+$/), manifestChainSchema),
});
export type DevnetManifest = z.infer<typeof devnetManifestSchema>;

export const getManifestContract = defineContract({
  subject: SUBJECTS.devnetManifest,
  description: 'The manifest of the running devnet',
  request: z.object({}),
  response: devnetManifestSchema,
});
