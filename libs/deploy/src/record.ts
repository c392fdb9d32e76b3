/**
 * The deployment record (`deployments/<chainId>.json`): every contract the tool deployed on a chain with the block,
 * the transaction and the hashes of its creation and runtime code, every contract it found already there and uses
 * (Permit2 at its canonical address), and the settings it applied. The tool reads it back to resume and to deploy
 * nothing that is already there; the services read the addresses from it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { addressSchema, chainIdSchema } from '@dex/messages';
import { z } from 'zod';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

export const deployedContractSchema = z.object({
  /** The contract's name in libs/contracts. */
  contract: z.string(),
  address: addressSchema,
  blockNumber: z.string().regex(/^\d+$/),
  transactionHash: hex,
  /** keccak256 of the creation code with its constructor arguments: a change of either is a new deployment. */
  initCodeHash: hex,
  /** keccak256 of the code at the address once deployed. */
  runtimeCodeHash: hex,
  /** The constructor arguments, as strings. */
  args: z.array(z.string()),
});
export type DeployedContract = z.infer<typeof deployedContractSchema>;

/** A contract the tool found on the chain and uses, not deployed by it: Permit2 at its canonical address. */
export const existingContractSchema = z.object({
  /** The contract's name (Permit2: Uniswap's, the same ABI as libs/abis's). */
  contract: z.string(),
  address: addressSchema,
  /** Found at the address: no block, transaction or creation code of ours. */
  existing: z.literal(true),
  /** keccak256 of the code at the address when the tool last found it. */
  runtimeCodeHash: hex,
});
export type ExistingContract = z.infer<typeof existingContractSchema>;

/** A contract of the record: deployed by the tool, or found on the chain (`existing`). */
export const recordedContractSchema = z.union([deployedContractSchema, existingContractSchema]);
export type RecordedContract = z.infer<typeof recordedContractSchema>;

export const deploymentRecordSchema = z.object({
  chainId: chainIdSchema,
  deployer: addressSchema,
  /**
   * By role: `routerV2`, `refCodeRegistry`, `oracle`, `ammRouter`, `launchpad`, `permit2` (found at its canonical
   * address, or deployed where there is none), `routerV2Permit2`.
   */
  contracts: z.record(z.string(), recordedContractSchema),
  /** The sources RouterV2 was set to trade, by routerIndex. */
  sources: z.array(z.object({ routerIndex: z.number().int(), name: z.string(), kind: z.string(), factory: addressSchema, feeBps: z.number().int() })).default([]),
  /** The hooks RouterV2 was set to allow (`setHookAllowed`), by the routerIndex of the V4 source that lists them. */
  hooks: z.array(z.object({ routerIndex: z.number().int(), address: addressSchema, name: z.string() })).default([]),
  /** The config file the record was last written from (its parsed content). */
  config: z.unknown().optional(),
  updatedAt: z.string().optional(),
});
export type DeploymentRecord = z.infer<typeof deploymentRecordSchema>;

/** The record at `path`, or a new one for the chain and deployer when there is none. */
export function readRecord(path: string, chainId: number, deployer: string): DeploymentRecord {
  if (!existsSync(path)) return { chainId, deployer: deployer as DeploymentRecord['deployer'], contracts: {}, sources: [], hooks: [] };
  const parsed = deploymentRecordSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: not a deployment record: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (parsed.data.chainId !== chainId) throw new Error(`${path} records chain ${parsed.data.chainId}, not ${chainId}`);
  return parsed.data;
}

/** Writes the record whole (to a temporary file first, so an interrupted run never leaves half a file). */
export function writeRecord(path: string, record: DeploymentRecord): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...record, updatedAt: new Date().toISOString() }, null, 2)}\n`);
  renameSync(temporary, path);
}
