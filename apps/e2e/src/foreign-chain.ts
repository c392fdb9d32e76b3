// A chain the product did not build, for the go-live and fork-mode tests: on a bare anvil node, another account
// deploys Multicall3 (at its canonical address), a wrapped native token, a real @uniswap/v2-core factory, a real
// @uniswap/v3-core factory with the @uniswap/v3-periphery position manager, a real @cryptoalgebra/integral-core
// factory with the integral-periphery position manager, and three tokens; it seeds a WETH/TKA V2 pair, a WETH/TKB
// V3 pool and a WETH/TKC Algebra pool (full-range positions minted through the position managers), and leaves a
// history behind (a thousand blocks, swaps made on the pair directly). Then a catalogue naming the three DEXes (with
// a source of a kind not routed, disabled) and a deploy config for our contracts, written to `dir`.
import {
  algebraFactoryAbi,
  algebraFactoryBytecode,
  algebraPoolDeployerAbi,
  algebraPoolDeployerBytecode,
  algebraPositionManagerAbi,
  algebraPositionManagerBytecode,
  multicall3Bytecode,
  testERC20Abi,
  testERC20Bytecode,
  uniswapV2CoreFactoryAbi,
  uniswapV2CoreFactoryBytecode,
  uniswapV2CorePairAbi,
  uniswapV2CorePairBytecode,
  uniswapV3FactoryAbi,
  uniswapV3FactoryBytecode,
  uniswapV3PositionManagerAbi,
  uniswapV3PositionManagerBytecode,
  wrappedNativeAbi,
  wrappedNativeBytecode,
} from '@dex/abis';
import { CANONICAL_MULTICALL3, createChainClient, createChainWalletClient } from '@dex/chain';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { erc20Abi, getAddress, getContractAddress, keccak256, maxUint256, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** anvil's dev keys: #0 deploys our contracts, #5 built the chain, #3 trades. */
export const ANVIL_DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const BUILDER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
export const ANVIL_TRADER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';

export interface ForeignChain {
  readonly chainId: number;
  readonly weth: Address;
  readonly tka: Address;
  /** Traded in the V3 pool only. */
  readonly tkb: Address;
  /** Traded in the Algebra pool only. */
  readonly tkc: Address;
  readonly factory: Address;
  readonly pair: Address;
  readonly v3Pool: Address;
  readonly algebraPool: Address;
  /** The deploy config (its catalogue beside it). */
  readonly deployConfig: string;
}

export async function buildForeignChain(chainId: number, rpcUrl: string, dir: string): Promise<ForeignChain> {
  const client = createChainClient({ chainId, rpcUrl, pollingIntervalMs: 50, multicallBatching: false });
  const builder = createChainWalletClient({ chainId, rpcUrl, account: privateKeyToAccount(BUILDER_KEY), pollingIntervalMs: 50 });
  const mined = async (hash: Hex) => client.waitForTransactionReceipt({ hash });
  const deployed = async (abi: Abi, bytecode: Hex, args: unknown[]) => getAddress((await mined(await builder.deployContract({ abi, bytecode, args } as never))).contractAddress!);
  const multicall = await deployed([] as Abi, multicall3Bytecode, []);
  await client.request({ method: 'anvil_setCode' as never, params: [CANONICAL_MULTICALL3, await client.getCode({ address: multicall })] as never });
  const weth = await deployed(wrappedNativeAbi as Abi, wrappedNativeBytecode, ['Wrapped Ether', 'WETH']);
  const factory = await deployed(uniswapV2CoreFactoryAbi as Abi, uniswapV2CoreFactoryBytecode, [builder.account.address]);
  const factoryBlock = Number(await client.getBlockNumber());
  const tka = await deployed(testERC20Abi as Abi, testERC20Bytecode, ['Token A', 'TKA', 18]);
  await mined(await builder.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: 'deposit', value: parseUnits('100', 18) }));
  await mined(await builder.writeContract({ address: tka, abi: testERC20Abi, functionName: 'mint', args: [builder.account.address, parseUnits('1000000', 18)] }));
  await mined(await builder.writeContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'createPair', args: [weth, tka] }));
  const pair = getAddress(await client.readContract({ address: factory, abi: uniswapV2CoreFactoryAbi, functionName: 'getPair', args: [weth, tka] }));
  await mined(await builder.writeContract({ address: weth, abi: erc20Abi, functionName: 'transfer', args: [pair, parseUnits('50', 18)] }));
  await mined(await builder.writeContract({ address: tka, abi: erc20Abi, functionName: 'transfer', args: [pair, parseUnits('150000', 18)] }));
  await mined(await builder.writeContract({ address: pair, abi: uniswapV2CorePairAbi, functionName: 'mint', args: [builder.account.address] }));
  // History: blocks, and swaps straight on the pair.
  await client.request({ method: 'anvil_mine' as never, params: ['0x3e8'] as never });
  const wethIs0 = BigInt(weth) < BigInt(tka);
  for (let i = 0; i < 5; i++) {
    await mined(await builder.writeContract({ address: tka, abi: erc20Abi, functionName: 'transfer', args: [pair, parseUnits('300', 18)] }));
    const [r0, r1] = await client.readContract({ address: pair, abi: uniswapV2CorePairAbi, functionName: 'getReserves' });
    const [rIn, rOut] = wethIs0 ? [r1, r0] : [r0, r1];
    const out = (parseUnits('300', 18) * 997n * rOut) / (rIn * 1000n + parseUnits('300', 18) * 997n);
    await mined(await builder.writeContract({ address: pair, abi: uniswapV2CorePairAbi, functionName: 'swap', args: wethIs0 ? [out, 0n, builder.account.address, '0x'] : [0n, out, builder.account.address, '0x'] }));
  }

  // Concentrated liquidity: Uniswap V3 and Algebra Integral, each with its own position manager and token.
  const fullRange = { tickLower: -887_220, tickUpper: 887_220 };
  const deadline = 2n ** 40n;
  const tokenFor = async (name: string, symbol: string) => {
    const token = await deployed(testERC20Abi as Abi, testERC20Bytecode, [name, symbol, 18]);
    await mined(await builder.writeContract({ address: token, abi: testERC20Abi, functionName: 'mint', args: [builder.account.address, parseUnits('1000000', 18)] }));
    return token;
  };
  const approveAll = async (spender: Address, tokens: Address[]) => {
    for (const token of tokens) await mined(await builder.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }));
  };
  /** token0, token1, their amounts and the pool's sqrt price for 20 WETH against `amount` of `token`. */
  const seeded = (token: Address, amount: bigint) => {
    const wethFirst = BigInt(weth) < BigInt(token);
    const [token0, token1] = wethFirst ? [weth, token] : [token, weth];
    const [amount0, amount1] = wethFirst ? [parseUnits('20', 18), amount] : [amount, parseUnits('20', 18)];
    return { token0, token1, amount0, amount1, sqrtPriceX96: sqrt((amount1 << 192n) / amount0) };
  };

  const v3Factory = await deployed(uniswapV3FactoryAbi as Abi, uniswapV3FactoryBytecode, []);
  const v3FactoryBlock = Number(await client.getBlockNumber());
  const v3Manager = await deployed(uniswapV3PositionManagerAbi as Abi, uniswapV3PositionManagerBytecode, [v3Factory, weth, zeroAddress]);
  const tkb = await tokenFor('Token B', 'TKB');
  await approveAll(v3Manager, [weth, tkb]);
  const b = seeded(tkb, parseUnits('40000', 18));
  await mined(await builder.writeContract({ address: v3Manager, abi: uniswapV3PositionManagerAbi, functionName: 'createAndInitializePoolIfNecessary', args: [b.token0, b.token1, 3000, b.sqrtPriceX96] }));
  await mined(
    await builder.writeContract({
      address: v3Manager,
      abi: uniswapV3PositionManagerAbi,
      functionName: 'mint',
      args: [{ token0: b.token0, token1: b.token1, fee: 3000, ...fullRange, amount0Desired: b.amount0, amount1Desired: b.amount1, amount0Min: 0n, amount1Min: 0n, recipient: builder.account.address, deadline }],
    }),
  );
  const v3Pool = getAddress(await client.readContract({ address: v3Factory, abi: uniswapV3FactoryAbi, functionName: 'getPool', args: [b.token0, b.token1, 3000] }));

  // The Algebra factory and its pool deployer each take the other's address: the deployer's is the builder's next
  // CREATE address after the factory's.
  const nonce = await client.getTransactionCount({ address: builder.account.address });
  const poolDeployer = getContractAddress({ from: builder.account.address, nonce: BigInt(nonce + 1) });
  const algebraFactory = await deployed(algebraFactoryAbi as Abi, algebraFactoryBytecode, [poolDeployer]);
  const algebraFactoryBlock = Number(await client.getBlockNumber());
  if ((await deployed(algebraPoolDeployerAbi as Abi, algebraPoolDeployerBytecode, [algebraFactory])) !== poolDeployer) throw new Error('the Algebra pool deployer is not where its factory expects it');
  const algebraManager = await deployed(algebraPositionManagerAbi as Abi, algebraPositionManagerBytecode, [algebraFactory, weth, zeroAddress, poolDeployer]);
  const tkc = await tokenFor('Token C', 'TKC');
  await approveAll(algebraManager, [weth, tkc]);
  const c = seeded(tkc, parseUnits('100000', 18));
  await mined(await builder.writeContract({ address: algebraManager, abi: algebraPositionManagerAbi, functionName: 'createAndInitializePoolIfNecessary', args: [c.token0, c.token1, zeroAddress, c.sqrtPriceX96, '0x'] }));
  await mined(
    await builder.writeContract({
      address: algebraManager,
      abi: algebraPositionManagerAbi,
      functionName: 'mint',
      args: [{ token0: c.token0, token1: c.token1, deployer: zeroAddress, ...fullRange, amount0Desired: c.amount0, amount1Desired: c.amount1, amount0Min: 0n, amount1Min: 0n, recipient: builder.account.address, deadline }],
    }),
  );
  const algebraPool = getAddress(await client.readContract({ address: algebraFactory, abi: algebraFactoryAbi, functionName: 'poolByPair', args: [c.token0, c.token1] }));
  writeFileSync(
    join(dir, 'catalogue.json'),
    JSON.stringify({
      chains: {
        [chainId]: {
          wrappedNative: { symbol: 'WETH', address: weth },
          multicall3: { address: CANONICAL_MULTICALL3 },
          sources: [
            { name: 'Builder V2', kind: 'uniswap-v2', routerIndex: 1, addresses: { factory }, feeBps: 30, deploymentBlock: factoryBlock, document: 'the builder', enabled: true },
            { name: 'Builder V3', kind: 'uniswap-v3', routerIndex: 2, addresses: { factory: v3Factory, nonfungiblePositionManager: v3Manager }, deploymentBlock: v3FactoryBlock, document: 'the builder', enabled: true },
            { name: 'Builder Algebra', kind: 'algebra', routerIndex: 3, addresses: { factory: algebraFactory, nonfungiblePositionManager: algebraManager }, deploymentBlock: algebraFactoryBlock, document: 'the builder', enabled: true },
            { name: 'Builder V4', kind: 'uniswap-v4', routerIndex: 5, addresses: {}, enabled: false, reason: 'not routed yet' },
          ],
        },
      },
    }),
  );
  const deployConfig = join(dir, 'deploy.json');
  writeFileSync(
    deployConfig,
    JSON.stringify({ chainId, wrappedNative: weth, treasury: '0x000000000000000000000000000000000000fee1', oracle: { kind: 'settable' }, launchpad: { dexFactory: factory, pairCodeHash: keccak256(uniswapV2CorePairBytecode as Hex) }, catalogue: 'catalogue.json' }),
  );
  return { chainId, weth, tka, tkb, tkc, factory, pair, v3Pool, algebraPool, deployConfig };
}

/** The integer square root (Newton's method). */
function sqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) [x, y] = [y, (y + value / y) / 2n];
  return x;
}
