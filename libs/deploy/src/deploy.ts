/**
 * Deploys our contracts onto a chain and sets them up from a config (`DeployConfig`): the referral registry, the
 * core AMM's oracle and router, RouterV2 and the launchpad, Permit2 where the chain has none at its canonical address
 * (else that one is used and recorded as found) and RouterV2Permit2; the oracle's updaters or HyperCore token configs;
 * RouterV2's sources (the catalogue's and ours) and the hooks its V4 sources list (`setHookAllowed`); the owner.
 * Resumable and idempotent: each contract is recorded as it is deployed, and a contract whose record has the same
 * creation code and arguments and whose code is at its address is kept; each setting is read from the chain first and
 * sent only where it differs.
 */
import {
  ammRouterAbi,
  ammRouterBytecode,
  hyperCorePriceOracleAbi,
  hyperCorePriceOracleBytecode,
  launchpadAbi,
  launchpadBytecode,
  permit2Abi,
  permit2Bytecode,
  refCodeRegistryAbi,
  refCodeRegistryBytecode,
  routerV2Abi,
  routerV2Bytecode,
  routerV2Permit2Abi,
  routerV2Permit2Bytecode,
  settablePriceOracleAbi,
  settablePriceOracleBytecode,
} from '@dex/abis';
import { CANONICAL_PERMIT2, describeRevert, isRouterV2SourceKind, permit2DomainSeparator, revertData, ROUTER_V2_SOURCE_KIND, routerSourceContract, shortMessage, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import type { SourceConfig } from '@dex/messages';
import { swapHookPermissions } from '@dex/routing';
import { encodeDeployData, encodeFunctionData, formatEther, getAddress, keccak256, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { HYPEREVM_SMALL_BLOCK_GAS, type DeployConfig } from './config';
import type { DeploymentRecord } from './record';

/** One transaction the run sent (or, on a fork for a dry run, would send). */
export interface DeployTransaction {
  readonly step: string;
  readonly to?: Address;
  readonly gas: bigint;
  readonly costWei: bigint;
  /** Above the chain's small-block gas: the deployer's account must use big blocks. */
  readonly needsBigBlock: boolean;
  readonly hash?: Hex;
}

export interface DeployOptions {
  readonly client: ChainPublicClient;
  /** Signs as the deployer. */
  readonly wallet: ChainWalletClient;
  readonly config: DeployConfig;
  /** The catalogue's sources for RouterV2 (`core` and `launchpad` kinds are ours and are left out of it). */
  readonly sources: readonly SourceConfig[];
  /** The record so far (a new one on a first run); written back through `save` after every change. */
  readonly record: DeploymentRecord;
  readonly save: (record: DeploymentRecord) => void;
  /** The deployer's account uses big blocks (HyperEVM): transactions above the small-block gas may be sent. */
  readonly bigBlocks?: boolean;
  /** A dry run: transactions above the small-block gas are marked, not refused (the chain is a throwaway fork). */
  readonly dryRun?: boolean;
  readonly log?: (line: string) => void;
}

export interface DeployResult {
  readonly record: DeploymentRecord;
  readonly transactions: readonly DeployTransaction[];
  /** Calls that only the contracts' owner can make (the tool's account no longer owns them), for the owner to send. */
  readonly ownerCalls: readonly { readonly step: string; readonly to: Address; readonly data: Hex }[];
}

/** A transaction that needs a big block while the deployer's account does not use them. */
export class NeedsBigBlockError extends Error {
  override readonly name = 'NeedsBigBlockError';
}

/** The contracts the tool deploys (Permit2: or finds at its canonical address), by role. */
export type ContractRole = 'refCodeRegistry' | 'oracle' | 'ammRouter' | 'routerV2' | 'launchpad' | 'permit2' | 'routerV2Permit2';


const HYPERCORE_SOURCE = { 'perp-oracle': 1, spot: 2, 'fixed-usd': 3 } as const;

/** Deploys and sets up what the config asks for; see the module's comment. */
export async function runDeployment(options: DeployOptions): Promise<DeployResult> {
  const { client, wallet, config } = options;
  const deployer = wallet.account.address;
  const log = options.log ?? (() => undefined);
  const smallBlockGas = BigInt(config.smallBlockGas ?? (config.chainId === 999 ? HYPEREVM_SMALL_BLOCK_GAS : Number.MAX_SAFE_INTEGER));
  const gasPrice = await client.getGasPrice();
  const transactions: DeployTransaction[] = [];
  const ownerCalls: { step: string; to: Address; data: Hex }[] = [];
  let record: DeploymentRecord = { ...options.record, contracts: { ...options.record.contracts }, config };
  const save = () => options.save(record);

  /** Estimates, checks the block fit, sends and waits for a transaction; `data` and `to` as for eth_sendTransaction. */
  async function transact(step: string, tx: { to?: Address; data: Hex }): Promise<{ hash: Hex; blockNumber: bigint; contractAddress?: Address }> {
    const gas = await client.estimateGas({ account: deployer, ...tx }).catch((err: unknown) => {
      const data = revertData(err);
      throw new Error(`${step} would revert: ${data === undefined ? shortMessage(err) : describeRevert(data)}`);
    });
    const needsBigBlock = gas > smallBlockGas;
    const line: DeployTransaction = { step, ...(tx.to ? { to: tx.to } : {}), gas, costWei: gas * gasPrice, needsBigBlock };
    if (needsBigBlock && !options.bigBlocks && !options.dryRun) {
      throw new NeedsBigBlockError(`${step} needs ${gas} gas, more than a small block's ${smallBlockGas}: switch the deployer's account to big blocks on HyperCore, then run again with --big-blocks`);
    }
    const hash = await wallet.sendTransaction({ ...tx, gas: (gas * 6n) / 5n } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${step} reverted (tx ${hash})`);
    const sent = { ...line, gas: receipt.gasUsed, costWei: receipt.gasUsed * gasPrice, hash };
    transactions.push(sent);
    log(`${step.padEnd(44)} gas ${receipt.gasUsed.toString().padStart(9)}  cost ${formatEther(sent.costWei)}${needsBigBlock ? '  (needs a big block)' : ''}  tx ${hash}`);
    return { hash, blockNumber: receipt.blockNumber, ...(receipt.contractAddress ? { contractAddress: getAddress(receipt.contractAddress) } : {}) };
  }

  /** The contract of `role`: kept where the record's matches and its code is there, else deployed and recorded. */
  async function ensureContract(role: ContractRole, contract: string, abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<Address> {
    const data = encodeDeployData({ abi, bytecode, args } as never);
    const initCodeHash = keccak256(data);
    const kept = record.contracts[role];
    if (kept && 'initCodeHash' in kept && kept.initCodeHash === initCodeHash) {
      const code = await client.getCode({ address: kept.address });
      if (code && code !== '0x' && keccak256(code) === kept.runtimeCodeHash) {
        log(`${`keep ${contract}`.padEnd(44)} at ${kept.address}`);
        return kept.address;
      }
    }
    const sent = await transact(`deploy ${contract}`, { data });
    if (!sent.contractAddress) throw new Error(`deploy ${contract}: the receipt names no contract`);
    const code = await client.getCode({ address: sent.contractAddress, blockNumber: sent.blockNumber });
    record = {
      ...record,
      contracts: {
        ...record.contracts,
        [role]: {
          contract,
          address: sent.contractAddress,
          blockNumber: sent.blockNumber.toString(),
          transactionHash: sent.hash,
          initCodeHash,
          runtimeCodeHash: keccak256(code ?? '0x'),
          args: args.map((a) => String(a)),
        },
      },
    };
    save();
    return sent.contractAddress;
  }

  /**
   * Permit2: the one at its canonical address where the chain has code there (checked to be Permit2 by its domain
   * separator) and recorded as found, not deployed by us; else ours (compiled from @uniswap/v4-periphery's copy of its
   * source) deployed and recorded like our contracts.
   */
  async function ensurePermit2(): Promise<Address> {
    const code = await client.getCode({ address: CANONICAL_PERMIT2 });
    if (!code || code === '0x') return ensureContract('permit2', 'Permit2', permit2Abi as Abi, permit2Bytecode, []);
    const separator = await client.readContract({ address: CANONICAL_PERMIT2, abi: permit2Abi, functionName: 'DOMAIN_SEPARATOR' }).catch(() => undefined);
    if (separator !== permit2DomainSeparator(config.chainId, CANONICAL_PERMIT2)) {
      throw new Error(`the code at Permit2's canonical address ${CANONICAL_PERMIT2} does not answer Permit2's DOMAIN_SEPARATOR()`);
    }
    const found = { contract: 'Permit2', address: CANONICAL_PERMIT2, existing: true as const, runtimeCodeHash: keccak256(code) };
    const kept = record.contracts.permit2;
    if (!kept || !('existing' in kept) || kept.address !== found.address || kept.runtimeCodeHash !== found.runtimeCodeHash) {
      record = { ...record, contracts: { ...record.contracts, permit2: found } };
      save();
    }
    log(`${'use Permit2'.padEnd(44)} at its canonical address ${CANONICAL_PERMIT2}`);
    return CANONICAL_PERMIT2;
  }

  /**
   * A setting: sent by the deployer while it owns `address`; otherwise the call is handed back for the owner to
   * make (`ownerCalls`).
   */
  async function ensureCall(step: string, address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<void> {
    const data = encodeFunctionData({ abi, functionName, args } as never);
    const owner = (await client.readContract({ address, abi: ownableAbi, functionName: 'owner' })) as Address;
    if (owner.toLowerCase() !== deployer.toLowerCase()) {
      ownerCalls.push({ step, to: address, data });
      log(`${step.padEnd(44)} for the owner ${owner} to send: to ${address} data ${data}`);
      return;
    }
    await transact(step, { to: address, data });
  }

  // ---------------------------------------------------------------- contracts
  const registry = await ensureContract('refCodeRegistry', 'RefCodeRegistry', refCodeRegistryAbi as Abi, refCodeRegistryBytecode, [deployer, BigInt(config.refCodes.claimLockSeconds)]);
  const oracle =
    config.oracle.kind === 'hypercore'
      ? await ensureContract('oracle', 'HyperCorePriceOracle', hyperCorePriceOracleAbi as Abi, hyperCorePriceOracleBytecode, [deployer])
      : await ensureContract('oracle', 'SettablePriceOracle', settablePriceOracleAbi as Abi, settablePriceOracleBytecode, [deployer]);
  const ammRouter = await ensureContract('ammRouter', 'AmmRouter', ammRouterAbi as Abi, ammRouterBytecode, [deployer, registry]);
  const routerV2 = await ensureContract('routerV2', 'RouterV2', routerV2Abi as Abi, routerV2Bytecode, [deployer, config.wrappedNative, config.treasury]);
  const launchpad = config.launchpad
    ? await ensureContract('launchpad', 'Launchpad', launchpadAbi as Abi, launchpadBytecode, [config.wrappedNative, config.launchpad.dexFactory, config.launchpad.pairCodeHash, config.treasury])
    : undefined;
  const permit2 = await ensurePermit2();
  await ensureContract('routerV2Permit2', 'RouterV2Permit2', routerV2Permit2Abi as Abi, routerV2Permit2Bytecode, [routerV2, permit2]);

  // ---------------------------------------------------------------- settings
  if (config.oracle.kind === 'settable') {
    for (const updater of config.oracle.updaters) {
      const allowed = await client.readContract({ address: oracle, abi: settablePriceOracleAbi, functionName: 'isUpdater', args: [updater] });
      if (!allowed) await ensureCall(`oracle: allow updater ${updater}`, oracle, settablePriceOracleAbi as Abi, 'setUpdater', [updater, true]);
    }
  } else {
    for (const t of config.oracle.tokens) {
      const wanted = { source: HYPERCORE_SOURCE[t.source], index: t.index, priceDecimals: t.priceDecimals, fixedPriceE18: BigInt(t.fixedPriceE18 ?? 0) };
      const now = await client.readContract({ address: oracle, abi: hyperCorePriceOracleAbi, functionName: 'tokenConfig', args: [t.token] });
      if (now.source !== wanted.source || now.index !== wanted.index || now.priceDecimals !== wanted.priceDecimals || now.fixedPriceE18 !== wanted.fixedPriceE18) {
        await ensureCall(`oracle: price ${t.token} from ${t.source}`, oracle, hyperCorePriceOracleAbi as Abi, 'setTokenConfig', [t.token, wanted]);
      }
    }
  }

  const wantedSources = routerSources(config, options.sources, { ammRouter, launchpad });
  for (const source of wantedSources) {
    const now = await client.readContract({ address: routerV2, abi: routerV2Abi, functionName: 'getSource', args: [source.routerIndex] });
    if (Number(now.kind) === ROUTER_V2_SOURCE_KIND[source.kind] && now.factory.toLowerCase() === source.factory.toLowerCase() && Number(now.feeBps) === source.feeBps) continue;
    await ensureCall(`RouterV2: source ${source.routerIndex} ${source.name}`, routerV2, routerV2Abi as Abi, 'setSource', [source.routerIndex, ROUTER_V2_SOURCE_KIND[source.kind], source.factory, source.feeBps]);
  }
  // Sources this tool set before that the catalogue no longer lists.
  for (const old of record.sources.filter((s) => !wantedSources.some((w) => w.routerIndex === s.routerIndex))) {
    const now = await client.readContract({ address: routerV2, abi: routerV2Abi, functionName: 'getSource', args: [old.routerIndex] });
    if (Number(now.kind) !== 0) await ensureCall(`RouterV2: remove source ${old.routerIndex} ${old.name}`, routerV2, routerV2Abi as Abi, 'removeSource', [old.routerIndex]);
  }
  record = { ...record, sources: wantedSources.map((s) => ({ routerIndex: s.routerIndex, name: s.name, kind: s.kind, factory: s.factory, feeBps: s.feeBps })) };
  save();

  // The hooks the V4 sources list (their pools routed although the hook may change a swap): allowed for the source.
  const wantedHooks = routerHooks(options.sources);
  const hookAllowed = (h: { routerIndex: number; address: Address }) =>
    client.readContract({ address: routerV2, abi: routerV2Abi, functionName: 'isHookAllowed', args: [h.routerIndex, h.address] });
  for (const hook of wantedHooks) {
    if (await hookAllowed(hook)) continue;
    await ensureCall(`RouterV2: allow hook ${hook.name} ${hook.address} for source ${hook.routerIndex}`, routerV2, routerV2Abi as Abi, 'setHookAllowed', [hook.routerIndex, hook.address, true]);
  }
  // Hooks this tool allowed before that the catalogue no longer lists (removing a source keeps its allowances). A hook
  // without a swap permission is allowed whatever was set, and was never sent.
  const sameHook = (a: { routerIndex: number; address: string }, b: { routerIndex: number; address: string }) => a.routerIndex === b.routerIndex && a.address.toLowerCase() === b.address.toLowerCase();
  for (const old of record.hooks.filter((h) => !wantedHooks.some((w) => sameHook(w, h)))) {
    const address = getAddress(old.address);
    if (swapHookPermissions(address).length === 0 || !(await hookAllowed({ routerIndex: old.routerIndex, address }))) continue;
    await ensureCall(`RouterV2: disallow hook ${old.name} ${address} for source ${old.routerIndex}`, routerV2, routerV2Abi as Abi, 'setHookAllowed', [old.routerIndex, address, false]);
  }
  record = { ...record, hooks: wantedHooks.map((h) => ({ routerIndex: h.routerIndex, address: h.address, name: h.name })) };
  save();

  // ---------------------------------------------------------------- ownership, last (the settings need it)
  if (config.owner && config.owner.toLowerCase() !== deployer.toLowerCase()) {
    for (const [role, address] of Object.entries({ refCodeRegistry: registry, oracle, ammRouter, routerV2, ...(launchpad ? { launchpad } : {}) })) {
      const owner = (await client.readContract({ address, abi: ownableAbi, functionName: 'owner' })) as Address;
      if (owner.toLowerCase() === config.owner.toLowerCase()) continue;
      const pending = (await client.readContract({ address, abi: ownableAbi, functionName: 'pendingOwner' }).catch(() => zeroAddress)) as Address;
      if (pending.toLowerCase() === config.owner.toLowerCase()) continue;
      await ensureCall(`${role}: propose owner ${config.owner}`, address, ownableAbi, 'transferOwnership', [config.owner]);
    }
  }
  return { record, transactions, ownerCalls };
}

/** RouterV2's sources: the catalogue's that RouterV2 trades, and our core AMM and launchpad at their indexes. */
export function routerSources(
  config: DeployConfig,
  catalogue: readonly SourceConfig[],
  ours: { ammRouter: Address; launchpad?: Address },
): { routerIndex: number; name: string; kind: keyof typeof ROUTER_V2_SOURCE_KIND; factory: Address; feeBps: number }[] {
  const out: ReturnType<typeof routerSources> = [{ routerIndex: config.routerIndexes.core, name: 'core', kind: 'core', factory: ours.ammRouter, feeBps: 0 }];
  if (ours.launchpad) out.push({ routerIndex: config.routerIndexes.launchpad, name: 'launchpad', kind: 'launchpad', factory: ours.launchpad, feeBps: 0 });
  for (const source of catalogue) {
    if (source.kind === 'core' || source.kind === 'launchpad' || !isRouterV2SourceKind(source.kind)) continue;
    // Core and launchpad sources are ours (above): the catalogue's name a factory, a router or a PoolManager.
    const factory = routerSourceContract(source);
    if (!factory) throw new Error(`catalogue source ${source.name} has no factory address`);
    if (out.some((o) => o.routerIndex === source.routerIndex)) throw new Error(`catalogue source ${source.name} takes routerIndex ${source.routerIndex}, which our ${out.find((o) => o.routerIndex === source.routerIndex)!.name} has`);
    out.push({ routerIndex: source.routerIndex, name: source.name, kind: source.kind, factory: getAddress(factory), feeBps: source.feeBps ?? 0 });
  }
  return out.sort((a, b) => a.routerIndex - b.routerIndex);
}

/**
 * The hooks RouterV2 is to allow: each one a catalogue's Uniswap V4 source lists (`hooks`), for that source's
 * routerIndex. RouterV2 allows a hook without a swap permission anyway (`isHookAllowed`), so listing one sends nothing.
 */
export function routerHooks(catalogue: readonly SourceConfig[]): { routerIndex: number; name: string; address: Address }[] {
  return catalogue
    .filter((source) => source.kind === 'uniswap-v4')
    .flatMap((source) => (source.hooks ?? []).map((hook) => ({ routerIndex: source.routerIndex, name: hook.name, address: getAddress(hook.address) })));
}

/** Ownable2Step's owner, pendingOwner and transferOwnership (every contract the tool deploys has them). */
const ownableAbi = [
  { type: 'function', name: 'owner', inputs: [], outputs: [{ name: '', type: 'address' }], stateMutability: 'view' },
  { type: 'function', name: 'pendingOwner', inputs: [], outputs: [{ name: '', type: 'address' }], stateMutability: 'view' },
  { type: 'function', name: 'transferOwnership', inputs: [{ name: 'newOwner', type: 'address' }], outputs: [], stateMutability: 'nonpayable' },
] as const satisfies Abi;
