// A private anvil chain with concentrated-liquidity protocols on their real bytecode, for tests: Uniswap V3
// factories from @uniswap/v3-core's artifacts (each one more deployment, as a fork is) with a QuoterV2 from
// @uniswap/v3-periphery each, the Algebra Integral factory and pool deployer from @cryptoalgebra/integral-core,
// Multicall3 where viem looks for it, test tokens, and the test actor (`ConcentratedActor.sol`, compiled with
// solc-js) that creates pools, mints, burns, swaps and quotes on them (the differential tests deploy it on chains of
// their own).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { multicall3Abi, multicall3Bytecode, testERC20Abi, testERC20Bytecode } from '@dex/abis';
import { createChainClient, type ChainPublicClient } from '@dex/chain';
import { devAccounts, startAnvil, type AnvilNode } from '@dex/devnet-kit';
import algebraFactoryArtifact from '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraFactory.sol/AlgebraFactory.json';
import algebraDeployerArtifact from '@cryptoalgebra/integral-core/artifacts/contracts/AlgebraPoolDeployer.sol/AlgebraPoolDeployer.json';
import v3FactoryArtifact from '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json';
import quoterV2Artifact from '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json';
import { createWalletClient, getAddress, getContractAddress, http, keccak256, parseAbi, toHex, type Abi, type Address, type TransactionReceipt, type WalletClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { artifactOf, contractWriter, type ContractArtifact } from './contracts';

/** A compiled test contract. */
export type ConcentratedActorArtifact = ContractArtifact;
const artifact = artifactOf;

/** QuoterV2's exact-input single-pool quote. */
export const quoterV2Abi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);

/**
 * A test contract of this folder compiled with solc-js (loaded here, not with the module: most users of this lib need
 * no compiler), via-IR for Cancun.
 */
export async function compileTestContract(file: string, name: string): Promise<ConcentratedActorArtifact> {
  const { default: solc } = await import('solc');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: readFileSync(join(__dirname, file), 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, viaIR: true, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = output.contracts[file][name];
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/** The concentrated-liquidity test actor (`ConcentratedActor.sol`). */
export const compileConcentratedActor = (): Promise<ConcentratedActorArtifact> => compileTestContract('ConcentratedActor.sol', 'ConcentratedActor');

/** The Uniswap V4 test actor (`UniswapV4Actor.sol`): pools set up and swaps quoted through the PoolManager's `unlock`. */
export const compileUniswapV4Actor = (): Promise<ConcentratedActorArtifact> => compileTestContract('UniswapV4Actor.sol', 'UniswapV4Actor');

export interface ConcentratedChainOptions {
  readonly chainId: number;
  /** Uniswap V3 deployments (factories), each with its QuoterV2. */
  readonly v3Deployments?: number;
  readonly tokens?: number;
}

export interface ConcentratedChain {
  readonly node: AnvilNode;
  /** A read client as the services build it (Multicall3 at its usual address). */
  readonly client: ChainPublicClient;
  readonly wallet: WalletClient;
  readonly account: PrivateKeyAccount;
  readonly actor: Address;
  readonly actorAbi: Abi;
  /** Test tokens; the actor holds 2^200 base units of each. */
  readonly tokens: readonly Address[];
  readonly v3Factories: readonly Address[];
  /** QuoterV2 of each V3 factory, in the same order. */
  readonly quoters: readonly Address[];
  readonly algebraFactory: Address;
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Calls the actor and waits for the receipt; throws when it reverts. */
  act(functionName: string, args: readonly unknown[]): Promise<TransactionReceipt>;
  /**
   * What an Algebra pool pays for an exact input at the widest price limit (0 where it cannot swap), by its own
   * swap reverted in the actor's callback; at `blockNumber`, or the newest block.
   */
  quoteAlgebra(pool: Address, zeroForOne: boolean, amountIn: bigint, blockNumber?: bigint): Promise<bigint>;
  /** Creates (and initializes) a pool through the actor; its address. */
  createPool(functionName: 'createV3' | 'createAlgebra', args: readonly unknown[]): Promise<Address>;
  stop(): Promise<void>;
}

export async function startConcentratedChain(options: ConcentratedChainOptions): Promise<ConcentratedChain> {
  const compiled = await compileConcentratedActor();
  const node = await startAnvil({ chainId: options.chainId, accounts: 1 });
  try {
    const client = createChainClient({ chainId: options.chainId, rpcUrl: node.rpcUrl, timeoutMs: 60_000 });
    const account = privateKeyToAccount(devAccounts()[0].privateKey);
    const wallet = createWalletClient({ chain: client.chain, transport: http(node.rpcUrl, { timeout: 60_000 }), account });
    const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never });
    const { deploy, send } = contractWriter(client, wallet, account);

    const multicall = await deploy(artifact({ abi: multicall3Abi, bytecode: multicall3Bytecode }));
    await rpc('anvil_setCode', [client.chain.contracts!.multicall3!.address, await client.getCode({ address: multicall })]);
    const actor = await deploy(compiled);
    const tokens: Address[] = [];
    for (let i = 0; i < (options.tokens ?? 3); i++) {
      const token = await deploy(artifact({ abi: testERC20Abi, bytecode: testERC20Bytecode }), [`Token ${i}`, `T${i}`, 18]);
      await send(token, testERC20Abi as Abi, 'mint', [actor, 1n << 200n]);
      tokens.push(token);
    }
    const v3Factories: Address[] = [];
    const quoters: Address[] = [];
    for (let i = 0; i < (options.v3Deployments ?? 1); i++) {
      const factory = await deploy(artifact(v3FactoryArtifact));
      v3Factories.push(factory);
      quoters.push(await deploy(artifact(quoterV2Artifact), [factory, tokens[0]]));
    }
    // The Algebra factory and pool deployer each take the other's address: the deployer's is computed from the
    // deploying account's nonce (the factory first, the deployer next).
    const nonce = await client.getTransactionCount({ address: account.address });
    const deployerAddress = getContractAddress({ from: account.address, nonce: BigInt(nonce + 1) });
    const algebraFactory = await deploy(artifact(algebraFactoryArtifact), [deployerAddress]);
    if ((await deploy(artifact(algebraDeployerArtifact), [algebraFactory])) !== deployerAddress) throw new Error('Algebra pool deployer not where the factory expects it');
    // The actor sets pools' fees: it needs the pools administrator role.
    await send(algebraFactory, algebraFactoryArtifact.abi as Abi, 'grantRole', [keccak256(toHex('POOLS_ADMINISTRATOR')), actor]);

    return {
      node,
      client,
      wallet,
      account,
      actor,
      actorAbi: compiled.abi,
      tokens,
      v3Factories,
      quoters,
      algebraFactory,
      rpc,
      act: (functionName, args) => send(actor, compiled.abi, functionName, args),
      quoteAlgebra: async (pool, zeroForOne, amountIn, blockNumber) => {
        const { result } = await client.simulateContract({
          address: actor,
          abi: compiled.abi,
          functionName: 'quoteAlgebra',
          args: [pool, [{ zeroForOne, exactInput: true, amount: amountIn }]],
          account: account.address,
          blockNumber,
        });
        return (result as readonly { amountOut: bigint }[])[0].amountOut;
      },
      createPool: async (functionName, args) => {
        const { result } = await client.simulateContract({ address: actor, abi: compiled.abi, functionName, args, account: account.address });
        await send(actor, compiled.abi, functionName, args);
        return getAddress(result as Address);
      },
      stop: () => node.stop(),
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
