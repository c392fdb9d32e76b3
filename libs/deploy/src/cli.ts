/**
 * `npm run deploy -- --config <file> --rpc-url <url> [--out <file>] [--dry-run] [--big-blocks]`: deploys our
 * contracts onto the chain at the RPC URL from the config file (see `DeployConfig`), signing with
 * DEPLOYER_PRIVATE_KEY from the environment, and writes the deployment record (default
 * `deployments/<chainId>.json`). A dry run sends the same transactions to a throwaway fork of the chain (the
 * caller's `fork`) and prints each with its gas and cost; the record is not written.
 */
import { createChainClient, createChainWalletClient, probeRpc } from '@dex/chain';
import { formatEther, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DeployConfigError, loadDeployConfig } from './config';
import { NeedsBigBlockError, runDeployment } from './deploy';
import { readRecord, writeRecord, type DeploymentRecord } from './record';

export interface DeployCliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Starts a throwaway fork of the chain at `rpcUrl` for a dry run (anvil `--fork-url`). */
  readonly fork?: (rpcUrl: string, chainId: number) => Promise<{ rpcUrl: string; stop: () => Promise<void> }>;
}

export const DEPLOY_USAGE = 'usage: npm run deploy -- --config <file> --rpc-url <url> [--out deployments/<chainId>.json] [--dry-run] [--big-blocks]  (DEPLOYER_PRIVATE_KEY in the environment)';

/** Parses the arguments; runs the deployment; returns the exit code (0 done, 1 failed, 2 bad usage or config). */
export async function runDeployCli(argv: readonly string[], env: Record<string, string | undefined>, io: DeployCliIo): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.err(`${args}\n${DEPLOY_USAGE}`);
    return 2;
  }
  const key = env.DEPLOYER_PRIVATE_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    io.err(`DEPLOYER_PRIVATE_KEY must be set to the deployer's private key (0x and 64 hex digits)\n${DEPLOY_USAGE}`);
    return 2;
  }
  let loaded;
  try {
    loaded = loadDeployConfig(args.config);
  } catch (err) {
    if (err instanceof DeployConfigError) {
      io.err(err.message);
      return 2;
    }
    throw err;
  }
  const { config, sources } = loaded;
  const account = privateKeyToAccount(key as Hex);
  try {
    await probeRpc(createChainClient({ chainId: config.chainId, rpcUrl: args.rpcUrl }), 10_000);
  } catch (err) {
    io.err(`${args.rpcUrl}: ${(err as Error).message} (the config is for chain ${config.chainId})`);
    return 1;
  }
  const out = args.out ?? `deployments/${config.chainId}.json`;
  const record = readRecord(out, config.chainId, account.address);
  if (getAddress(record.deployer) !== account.address) {
    io.err(`${out} was deployed by ${record.deployer}; DEPLOYER_PRIVATE_KEY is ${account.address}`);
    return 2;
  }

  let target: { rpcUrl: string; stop: () => Promise<void> } = { rpcUrl: args.rpcUrl, stop: async () => undefined };
  if (args.dryRun) {
    if (!io.fork) throw new Error('a dry run needs a fork of the chain');
    target = await io.fork(args.rpcUrl, config.chainId);
    io.out(`dry run: the transactions go to a fork of ${args.rpcUrl} at its newest block; nothing is sent to the chain and ${out} is not written`);
  }
  try {
    const client = createChainClient({ chainId: config.chainId, rpcUrl: target.rpcUrl, pollingIntervalMs: 200, timeoutMs: 60_000, multicallBatching: false });
    const wallet = createChainWalletClient({ chainId: config.chainId, rpcUrl: target.rpcUrl, account, pollingIntervalMs: 200, timeoutMs: 60_000 });
    const balance = await client.getBalance({ address: account.address });
    io.out(`chain ${config.chainId}, deployer ${account.address} (balance ${formatEther(balance)}), record ${out}`);
    const result = await runDeployment({
      client,
      wallet,
      config,
      sources,
      record,
      save: (r: DeploymentRecord) => {
        if (!args.dryRun) writeRecord(out, r);
      },
      bigBlocks: args.bigBlocks,
      dryRun: args.dryRun,
      log: io.out,
    });
    const total = result.transactions.reduce((sum, t) => sum + t.costWei, 0n);
    const big = result.transactions.filter((t) => t.needsBigBlock);
    io.out(`${result.transactions.length} transaction(s), ${result.transactions.reduce((sum, t) => sum + t.gas, 0n)} gas, cost ${formatEther(total)} at the chain's gas price`);
    if (big.length) io.out(`${big.length} need(s) a big block: ${big.map((t) => t.step).join(', ')}`);
    if (result.ownerCalls.length) io.out(`${result.ownerCalls.length} call(s) for the owner to send (listed above): the deployer no longer owns those contracts`);
    if (args.dryRun && total > balance) io.out(`the deployer holds ${formatEther(balance)}, less than the ${formatEther(total)} the run costs`);
    for (const [role, c] of Object.entries(result.record.contracts)) io.out(`${role.padEnd(16)} ${c.contract.padEnd(22)} ${c.address}  ${'existing' in c ? 'found there' : `block ${c.blockNumber}`}`);
    return 0;
  } catch (err) {
    if (err instanceof NeedsBigBlockError) {
      io.err(err.message);
      return 1;
    }
    io.err(`deploy failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await target.stop();
  }
}

interface DeployArgs {
  readonly config: string;
  readonly rpcUrl: string;
  readonly out?: string;
  readonly dryRun: boolean;
  readonly bigBlocks: boolean;
}

/** The arguments, or a message saying what is wrong with them. */
function parseArgs(argv: readonly string[]): DeployArgs | string {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run' || arg === '--big-blocks') flags.add(arg);
    else if (arg === '--config' || arg === '--rpc-url' || arg === '--out') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) return `${arg} takes a value`;
      values[arg] = value;
    } else return `unknown argument ${arg}`;
  }
  if (!values['--config']) return '--config is required';
  if (!values['--rpc-url']) return '--rpc-url is required';
  return { config: values['--config'], rpcUrl: values['--rpc-url'], ...(values['--out'] ? { out: values['--out'] } : {}), dryRun: flags.has('--dry-run'), bigBlocks: flags.has('--big-blocks') };
}
