/**
 * The deploy tool's config file: what to deploy onto a chain and how to set it up. The deployer's key comes from
 * the environment (`DEPLOYER_PRIVATE_KEY`), never from this file.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addressSchema, chainIdSchema, chainSourcesSchema, type SourceConfig } from '@dex/messages';
import { z } from 'zod';

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be 32 bytes of hex (0x and 64 digits)' });

/** How HyperCorePriceOracle prices one token (its `TokenConfig`; `source` by name). */
const hyperCoreTokenSchema = z.object({
  token: addressSchema,
  source: z.enum(['perp-oracle', 'spot', 'fixed-usd']),
  /** The perp asset index or spot pair index on HyperCore. */
  index: z.number().int().min(0).max(2 ** 32 - 1).default(0),
  /** Decimals of the precompile's raw price: 6 - szDecimals (perp), 8 - szDecimals (spot). */
  priceDecimals: z.number().int().min(0).max(18).default(0),
  /** For `fixed-usd`: the USD price of one whole token, 1e18 fixed point (a decimal string). */
  fixedPriceE18: z.string().regex(/^\d+$/).optional(),
});

export const deployConfigSchema = z.object({
  chainId: chainIdSchema,
  /** The chain's wrapped native token (WHYPE on 999, WETH on 4663). */
  wrappedNative: addressSchema,
  /**
   * Who owns every contract once set up. The contracts are Ownable2Step: the tool proposes it and the owner accepts
   * (`acceptOwnership`) from its own wallet. The deployer keeps them when absent.
   */
  owner: addressSchema.optional(),
  /** Where RouterV2's protocol fees and the launchpad's protocol fees go. */
  treasury: addressSchema,
  /** The core AMM's price oracle: HyperCore's precompiles (chain 999), or prices set by updaters (a price keeper). */
  oracle: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('hypercore'), tokens: z.array(hyperCoreTokenSchema).default([]) }),
    z.object({ kind: z.literal('settable'), updaters: z.array(addressSchema).default([]) }),
  ]),
  /** Referral codes: how long a code's claim wallet is locked after it changes. */
  refCodes: z.object({ claimLockSeconds: z.number().int().min(0).max(30 * 24 * 3600) }).default({ claimLockSeconds: 24 * 3600 }),
  /** The launchpad and the V2 DEX its tokens graduate to (`dexIndex` 0): the factory and its pair's init code hash. */
  launchpad: z.object({ dexFactory: addressSchema, pairCodeHash: hex32 }).optional(),
  /**
   * The sources catalogue (a path relative to this file, in the sources file's shape) whose sources RouterV2 is to
   * trade, or the sources themselves. Sources with `enabled: false`, and kinds RouterV2 does not trade, are not
   * registered. `core` and `launchpad` sources are ours: their contracts are the ones deployed here. The hooks an
   * enabled Uniswap V4 source lists (`hooks`) are allowed on RouterV2 for its routerIndex (`setHookAllowed`).
   */
  catalogue: z.string().min(1).optional(),
  /** RouterV2's routerIndex for our core AMM and our launchpad. */
  routerIndexes: z.object({ core: z.number().int().min(0).max(255).default(0), launchpad: z.number().int().min(0).max(255).default(4) }).default({ core: 0, launchpad: 4 }),
  /**
   * The most gas a transaction may use in an ordinary block. HyperEVM's small blocks hold 2,000,000 gas; a larger
   * transaction needs the deployer's account switched to big blocks on HyperCore first (then run with --big-blocks).
   */
  smallBlockGas: z.number().int().positive().optional(),
});
export type DeployConfig = z.infer<typeof deployConfigSchema>;

/** HyperEVM's small block gas limit. */
export const HYPEREVM_SMALL_BLOCK_GAS = 2_000_000;

/** A catalogue entry: a source as the services configure it, with whether it is traded and why not. */
export const catalogueSourceSchema = z.looseObject({
  name: z.string(),
  kind: z.string(),
  routerIndex: z.number().int().min(0).max(255).optional(),
  addresses: z.record(z.string(), z.string()).default({}),
  feeBps: z.number().int().min(0).max(10_000).optional(),
  enabled: z.boolean().default(true),
});

const catalogueFileSchema = z.object({
  chains: z.record(z.string().regex(/^\d+$/), z.looseObject({ sources: z.array(catalogueSourceSchema) })),
});

/** The config read, validated, with its catalogue's sources that RouterV2 is to trade (ours left out). */
export interface LoadedDeployConfig {
  readonly config: DeployConfig;
  readonly sources: readonly SourceConfig[];
  /** The file's path and text, for the deployment record. */
  readonly path: string;
}

/** A config file that is not valid: the message names the file and each problem. */
export class DeployConfigError extends Error {
  override readonly name = 'DeployConfigError';
}

/** Reads and validates a config file and its catalogue. */
export function loadDeployConfig(path: string): LoadedDeployConfig {
  const full = resolve(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    throw new DeployConfigError(`${path}: ${(err as Error).message}`);
  }
  const parsed = deployConfigSchema.safeParse(raw);
  if (!parsed.success) throw new DeployConfigError(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const config = parsed.data;
  return { config, sources: config.catalogue ? catalogueSources(resolve(dirname(full), config.catalogue), config.chainId) : [], path: full };
}

/** The enabled sources of a chain in a catalogue file, checked as the services check a sources file. */
export function catalogueSources(path: string, chainId: number): SourceConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DeployConfigError(`${path}: ${(err as Error).message}`);
  }
  const file = catalogueFileSchema.safeParse(raw);
  if (!file.success) throw new DeployConfigError(`${path}: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const chain = file.data.chains[String(chainId)];
  if (!chain) throw new DeployConfigError(`${path}: no chain ${chainId}`);
  const enabled = chain.sources.filter((s) => s.enabled);
  const checked = chainSourcesSchema.safeParse(enabled.map(({ enabled: _enabled, ...source }) => source));
  if (!checked.success) throw new DeployConfigError(`${path}: chain ${chainId}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return checked.data;
}
