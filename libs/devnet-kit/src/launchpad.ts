import { launchpadAbi, launchpadBytecode } from '@dex/abis';
import { erc20Abi, getAddress, parseEther, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devAccounts, type DevAccount } from './accounts';
import { deploy, send, type ChainInProgress, type DeployContext } from './deploy';
import { DEVNET_SOURCES, v2PairCodeHash } from './sources';

/** The launchpad's routerIndex on the aggregator. */
export const LAUNCHPAD_ROUTER_INDEX = 4;

/** Stage of a launched token: fresh off `createToken`, trading on its curve, or graduated to its DEX pool. */
export type LaunchStage = 'fresh' | 'trading' | 'graduated';

/** The tokens the devnet launches, each brought to a different stage (amounts in whole native coins). */
export const DEVNET_LAUNCHES: readonly {
  name: string;
  symbol: string;
  stage: LaunchStage;
  creatorBuy: string;
  buys: readonly { role: string; value: string }[];
  sells?: readonly { role: string; fraction: number }[];
}[] = [
  { name: 'Fresh Cat', symbol: 'FCAT', stage: 'fresh', creatorBuy: '1', buys: [] },
  {
    name: 'Midway Dog',
    symbol: 'MDOG',
    stage: 'trading',
    creatorBuy: '5',
    buys: [
      { role: 'trader-1', value: '60' },
      { role: 'trader-2', value: '25' },
    ],
    sells: [{ role: 'trader-1', fraction: 0.25 }],
  },
  // A buy of 700 sells out a fresh curve (about 600 raised) and the launchpad refunds the rest; the token's pair is
  // not deployed yet, so the curve freezes and `graduate` then deploys the pair and seeds it.
  { name: 'Graduated Frog', symbol: 'GFROG', stage: 'graduated', creatorBuy: '2', buys: [{ role: 'liquidity', value: '700' }] },
];

const tokenMetadata = (name: string, symbol: string) => [
  name,
  symbol,
  `ipfs://devnet/${symbol.toLowerCase()}.png`,
  `${name}, launched on the devnet.`,
  `https://${symbol.toLowerCase()}.example`,
  `@${symbol.toLowerCase()}`,
  `t.me/${symbol.toLowerCase()}`,
  `discord.gg/${symbol.toLowerCase()}`,
  0,
];


/**
 * Deploys the launchpad (graduating into the V2 DEX at routerIndex 1, protocol fees to the treasury), launches
 * the devnet tokens at their stages, and adds the launchpad as the `launchpad` source (routerIndex 4), its
 * tokens, and each graduated token's DEX pool to the chain entry.
 */
export async function deployLaunchpad(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const accounts = devAccounts();
  const byRole = (role: string): DevAccount => accounts.find((a) => a.role === role)!;
  const dex = chain.sources.find((s) => s.kind === 'uniswap-v2' && s.routerIndex === 1);
  if (!dex?.addresses.factory) throw new Error(`chain ${ctx.chainId} has no V2 DEX at routerIndex 1 to graduate into`);
  // The pair code hash registered with the DEX: of Uniswap's own pair or of our clone's, as the source runs.
  const dexSeed = DEVNET_SOURCES[ctx.chainId]?.find((s) => s.routerIndex === dex.routerIndex);
  if (!dexSeed) throw new Error(`chain ${ctx.chainId}: no seed for the V2 DEX at routerIndex ${dex.routerIndex}`);
  const launchpad = await deploy(ctx, launchpadAbi as Abi, launchpadBytecode, [
    chain.wrappedNative.address,
    dex.addresses.factory,
    v2PairCodeHash(dexSeed),
    byRole('treasury').address,
  ]);
  const creator = byRole('trader-3');

  const launched: NonNullable<ChainInProgress['launchpad']>['tokens'] = [];
  const pools: ChainInProgress['pools'] = [];
  const deployments: ChainInProgress['deployments'] = [{ name: 'Launchpad', contract: 'Launchpad', address: launchpad }];
  const call = (from: DevAccount, functionName: string, args: readonly unknown[], value?: bigint) =>
    send(ctx, { address: launchpad, abi: launchpadAbi as Abi, functionName, args, value }, from);

  for (const spec of DEVNET_LAUNCHES) {
    const { result: predicted } = await ctx.publicClient.simulateContract({
      account: privateKeyToAccount(creator.privateKey as Hex),
      address: launchpad,
      abi: launchpadAbi,
      functionName: 'createToken',
      args: tokenMetadata(spec.name, spec.symbol) as never,
      value: parseEther(spec.creatorBuy),
    });
    await call(creator, 'createToken', tokenMetadata(spec.name, spec.symbol), parseEther(spec.creatorBuy));
    const token = getAddress(predicted as Address);
    for (const buy of spec.buys) await call(byRole(buy.role), 'buyTokens', [token], parseEther(buy.value));
    for (const sell of spec.sells ?? []) {
      const seller = byRole(sell.role);
      const held = await ctx.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [seller.address] });
      await call(seller, 'sellTokens', [token, (held * BigInt(Math.round(sell.fraction * 1000))) / 1000n]);
    }
    let state = await ctx.publicClient.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    if (spec.stage === 'graduated' && !state.graduated) {
      await call(byRole('liquidity'), 'graduate', [token]);
      state = await ctx.publicClient.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] });
    }
    const graduated = state.graduated;
    if ((spec.stage === 'graduated') !== graduated) throw new Error(`${spec.symbol} did not reach its stage ${spec.stage}`);
    const pair = getAddress(state.pair);
    launched.push({ address: token, name: spec.name, symbol: spec.symbol, decimals: 6, creator: creator.address, stage: spec.stage, pair });
    deployments.push({ name: `Launchpad ${spec.symbol}`, contract: 'LaunchpadToken', address: token });
    if (graduated) {
      const [token0, token1] = BigInt(token) < BigInt(chain.wrappedNative.address) ? [token, chain.wrappedNative.address] : [chain.wrappedNative.address, token];
      const name = `${dex.name} ${spec.symbol}/${chain.wrappedNative.symbol}`;
      pools.push({ name, routerIndex: dex.routerIndex, kind: 'uniswap-v2', address: pair, token0, token1 });
      deployments.push({ name, contract: 'UniswapV2Pair', address: pair });
    }
  }

  return {
    ...chain,
    sources: [...chain.sources, { name: 'Launchpad', kind: 'launchpad', routerIndex: LAUNCHPAD_ROUTER_INDEX, addresses: { launchpad }, feeBps: 100 }],
    deployments: [...chain.deployments, ...deployments],
    pools: [...chain.pools, ...pools],
    launchpad: { address: launchpad, tokens: launched },
  };
}
