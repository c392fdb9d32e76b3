import { multicall3Abi, multicall3Bytecode, testERC20Abi, testERC20Bytecode, wrappedNativeAbi, wrappedNativeBytecode } from '@dex/abis';
import { CANONICAL_MULTICALL3, createChainClient, createChainWalletClient, getChainInfo, type ChainPublicClient, type ChainWalletClient } from '@dex/chain';
import type { ManifestChain } from '@dex/messages';
import { getAddress, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devAccounts, type DevAccount } from './accounts';

/** A chain entry of the manifest while it is being built: everything but the router (and its Permit2 entry). */
export type ChainInProgress = Omit<ManifestChain, 'routerV2' | 'permit2' | 'routerV2Permit2' | 'treasury' | 'core' | 'launchpad'> & {
  core?: ManifestChain['core'];
  launchpad?: ManifestChain['launchpad'];
};

/** A test token the devnet deploys on a chain. */
export interface TokenSpec {
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** Test tokens per chain: 6- and 18-decimal ones on each. */
export const DEVNET_TOKENS: Record<number, readonly TokenSpec[]> = {
  999: [
    { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    { name: 'Tether USD', symbol: 'USDT', decimals: 6 },
    { name: 'Dai Stablecoin', symbol: 'DAI', decimals: 18 },
    { name: 'Purr', symbol: 'PURR', decimals: 18 },
  ],
  4663: [
    { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    { name: 'Tether USD', symbol: 'USDT', decimals: 6 },
    { name: 'Dai Stablecoin', symbol: 'DAI', decimals: 18 },
    { name: 'Chainlink Token', symbol: 'LINK', decimals: 18 },
  ],
};

/** Whole tokens minted to each dev account. */
export const DEV_TOKEN_GRANT = 1_000_000n;
/** Native coin each dev account wraps at start, in whole coins. */
export const DEV_WRAPPED_GRANT = 1_000n;

export interface DeployContext {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly deployer: DevAccount;
  readonly publicClient: ChainPublicClient;
  readonly wallet: ChainWalletClient;
}

export function deployContext(chainId: number, rpcUrl: string, deployer: DevAccount = devAccounts()[0]): DeployContext {
  const account = privateKeyToAccount(deployer.privateKey);
  return {
    chainId,
    rpcUrl,
    deployer,
    publicClient: createChainClient({ chainId, rpcUrl, pollingIntervalMs: 50 }),
    wallet: createChainWalletClient({ chainId, rpcUrl, account, pollingIntervalMs: 50 }),
  };
}

/** Deploys a contract and waits for it to be mined; returns its address. */
export async function deploy(ctx: DeployContext, abi: Abi, bytecode: Hex, args: readonly unknown[] = []): Promise<Address> {
  const hash = await ctx.wallet.deployContract({ abi, bytecode, args } as never);
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deployment failed on chain ${ctx.chainId} (tx ${hash})`);
  }
  return getAddress(receipt.contractAddress);
}

/** Sends a contract call from `from` (default: the deployer) and waits for success. */
export async function send(
  ctx: DeployContext,
  call: { address: Address; abi: Abi; functionName: string; args?: readonly unknown[]; value?: bigint },
  from?: DevAccount,
): Promise<void> {
  const account = from ? privateKeyToAccount(from.privateKey) : ctx.wallet.account;
  const hash = await ctx.wallet.writeContract({ ...call, account } as never);
  const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${call.functionName} reverted on chain ${ctx.chainId} (tx ${hash})`);
}

/** A contract call to send. */
export interface ContractCall {
  readonly address: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args?: readonly unknown[];
  readonly value?: bigint;
}

/**
 * Sends contract calls from `from` (default: the deployer) back to back, nonces counted here and each with the gas
 * given (no estimate: later calls may depend on earlier ones), then checks every receipt. Faster than `send` one by
 * one when the calls do not need each other's results.
 */
export async function sendBatch(
  ctx: DeployContext,
  calls: readonly ContractCall[],
  gas: bigint,
  from?: DevAccount,
): Promise<void> {
  const account = from ? privateKeyToAccount(from.privateKey) : ctx.wallet.account;
  let nonce = await ctx.publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hex[] = [];
  for (const call of calls) hashes.push(await ctx.wallet.writeContract({ ...call, account, gas, nonce: nonce++ } as never));
  for (const [i, hash] of hashes.entries()) {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${calls[i].functionName} reverted on chain ${ctx.chainId} (tx ${hash})`);
  }
}

/**
 * Places our Multicall3 at its canonical address (the address viem and most tooling expect), by
 * deploying it once and copying its runtime code there.
 */
async function placeMulticall3(ctx: DeployContext): Promise<Address> {
  const existing = await ctx.publicClient.getCode({ address: CANONICAL_MULTICALL3 });
  if (existing && existing !== '0x') return CANONICAL_MULTICALL3;
  const deployed = await deploy(ctx, multicall3Abi as Abi, multicall3Bytecode);
  const code = await ctx.publicClient.getCode({ address: deployed });
  if (!code) throw new Error('Multicall3 has no runtime code after deployment');
  await ctx.publicClient.request({ method: 'anvil_setCode' as never, params: [CANONICAL_MULTICALL3, code] as never });
  return CANONICAL_MULTICALL3;
}

/**
 * Deploys the base set of a devnet chain: Multicall3, the wrapped native token, the test tokens; funds
 * the dev accounts with every token. Later stages add liquidity sources to the returned manifest entry.
 */
export async function deployBase(ctx: DeployContext, accounts: readonly DevAccount[] = devAccounts()): Promise<ChainInProgress> {
  const info = getChainInfo(ctx.chainId);
  const multicall3 = await placeMulticall3(ctx);
  const wrappedNative = await deploy(ctx, wrappedNativeAbi as Abi, wrappedNativeBytecode, [info.wrappedNativeName, info.wrappedNativeSymbol]);

  const tokens: ChainInProgress['tokens'] = [];
  for (const spec of DEVNET_TOKENS[ctx.chainId] ?? []) {
    const address = await deploy(ctx, testERC20Abi as Abi, testERC20Bytecode, [spec.name, spec.symbol, spec.decimals]);
    tokens.push({ ...spec, address });
  }

  for (const token of tokens) {
    for (const account of accounts) {
      await send(ctx, { address: token.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [account.address, parseUnits(DEV_TOKEN_GRANT.toString(), token.decimals)] });
    }
  }
  for (const account of accounts) {
    await send(ctx, { address: wrappedNative, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: parseUnits(DEV_WRAPPED_GRANT.toString(), 18) }, account);
  }

  const wrapped = { name: info.wrappedNativeName, symbol: info.wrappedNativeSymbol, decimals: 18, address: wrappedNative };
  return {
    chainId: ctx.chainId,
    name: info.name,
    nativeSymbol: info.nativeSymbol,
    rpcUrl: ctx.rpcUrl,
    multicall3,
    wrappedNative: wrapped,
    tokens,
    deployments: [
      { name: 'Multicall3', contract: 'Multicall3', address: multicall3 },
      { name: info.wrappedNativeSymbol, contract: 'WrappedNative', address: wrappedNative },
      ...tokens.map((t) => ({ name: t.symbol, contract: 'TestERC20', address: t.address })),
    ],
    sources: [],
    pools: [],
  };
}
