// A chain the product did not build, for the go-live and fork-mode tests: on a bare anvil node, another account
// deploys Multicall3 (at its canonical address), a wrapped native token, a real @uniswap/v2-core factory and a
// token, seeds a WETH/TKA pool, and leaves a history behind (a thousand blocks, swaps made on the pair directly).
// Then a catalogue naming the factory (with a source of a kind not routed, disabled) and a deploy config for our
// contracts, written to `dir`.
import { multicall3Bytecode, testERC20Abi, testERC20Bytecode, uniswapV2CoreFactoryAbi, uniswapV2CoreFactoryBytecode, uniswapV2CorePairAbi, uniswapV2CorePairBytecode, wrappedNativeAbi, wrappedNativeBytecode } from '@dex/abis';
import { CANONICAL_MULTICALL3, createChainClient, createChainWalletClient } from '@dex/chain';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { erc20Abi, getAddress, keccak256, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** anvil's dev keys: #0 deploys our contracts, #5 built the chain, #3 trades. */
export const ANVIL_DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const BUILDER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
export const ANVIL_TRADER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';

export interface ForeignChain {
  readonly chainId: number;
  readonly weth: Address;
  readonly tka: Address;
  readonly factory: Address;
  readonly pair: Address;
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
  writeFileSync(
    join(dir, 'catalogue.json'),
    JSON.stringify({
      chains: {
        [chainId]: {
          wrappedNative: { symbol: 'WETH', address: weth },
          multicall3: { address: CANONICAL_MULTICALL3 },
          sources: [
            { name: 'Builder V2', kind: 'uniswap-v2', routerIndex: 1, addresses: { factory }, feeBps: 30, deploymentBlock: factoryBlock, document: 'the builder', enabled: true },
            { name: 'Builder V4', kind: 'uniswap-v4', routerIndex: 2, addresses: {}, enabled: false, reason: 'not routed yet' },
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
  return { chainId, weth, tka, factory, pair, deployConfig };
}
