import {
  stablePoolAbi,
  stablePoolFactoryAbi,
  stablePoolFactoryBytecode,
  testERC20Abi,
  uniswapV2CoreFactoryAbi,
  uniswapV2CoreFactoryBytecode,
  uniswapV2CorePairAbi,
  uniswapV2CorePairBytecode,
  uniswapV2FactoryAbi,
  uniswapV2FactoryBytecode,
  uniswapV2PairAbi,
  uniswapV2PairBytecode,
  wrappedNativeAbi,
} from '@dex/abis';
import type { SourceConfig } from '@dex/messages';
import { getAmountOut } from '@dex/routing';
import { getAddress, keccak256, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { deploy, send, type ChainInProgress, type DeployContext } from './deploy';

/** A pool to create and seed: two token symbols of the chain and the whole-token amounts deposited. */
export interface PoolSeed {
  readonly tokenA: string;
  readonly tokenB: string;
  readonly amountA: string;
  readonly amountB: string;
  /**
   * A swap into the pool right after seeding, to move its price off the deposit ratio (stable pools must be
   * seeded with equal amounts, so this is how they get uneven reserves).
   */
  readonly tilt?: { readonly tokenIn: string; readonly amountIn: string };
}

/** A liquidity source the devnet deploys: one factory of a known kind and its pools. */
export interface SourceSeed {
  readonly name: string;
  readonly kind: 'uniswap-v2' | 'stable';
  readonly routerIndex: number;
  readonly feeBps: number;
  /**
   * V2 sources only: whose bytecode runs the factory and its pairs. `uniswap/v2-core` is Uniswap's own audited
   * build (npm `@uniswap/v2-core`), whose pair fee is fixed at 0.3%; `clone` is our V2 clone
   * (libs/contracts/src/sources/v2), the same maths with the fee a factory parameter, for a V2 fork with another fee.
   */
  readonly bytecode?: 'uniswap/v2-core' | 'clone';
  readonly pools: readonly PoolSeed[];
}

/**
 * The V2 sources, the same on both chains but for their bytecode; their pools differ per chain. DevSwap V2 (0.3%, the
 * launchpad's DEX) runs Uniswap's own V2 bytecode on chain 4663. On chain 999 it runs our clone: Uniswap's
 * `createPair` takes about 2.5M gas, over HyperEVM's 2M small block, and the keeper deploys a graduating token's pair
 * in a small-block transaction (the clone's takes 1.6M). LiteSwap V2 is a fork with a 0.1% fee, which Uniswap's pair
 * (its fee fixed at 0.3%) cannot charge, so it runs the clone on both chains.
 */
const DEVSWAP = { name: 'DevSwap V2', kind: 'uniswap-v2', routerIndex: 1, feeBps: 30 } as const;
const LITESWAP = { name: 'LiteSwap V2', kind: 'uniswap-v2', routerIndex: 2, feeBps: 10, bytecode: 'clone' } as const;
/** The stable source and its pools, the same on both chains (stablecoins tilted off peg). */
const STABLESWAP: SourceSeed = {
  name: 'StableSwap',
  kind: 'stable',
  routerIndex: 3,
  feeBps: 4,
  pools: [
    { tokenA: 'USDC', tokenB: 'USDT', amountA: '1000000', amountB: '1000000', tilt: { tokenIn: 'USDT', amountIn: '150000' } },
    { tokenA: 'USDC', tokenB: 'DAI', amountA: '500000', amountB: '500000', tilt: { tokenIn: 'USDC', amountIn: '100000' } },
  ],
};

/**
 * The devnet's liquidity sources per chain. Reserves are deliberately uneven so that routing has something to
 * find: the wrapped native trades against USDC on both V2 DEXes at slightly different prices and depths (a
 * split pays off), the volatile token trades only against the wrapped native on DevSwap (reaching USDC takes
 * an intermediate hop), USDT/wrapped native lives only on LiteSwap, and the stable pools are tilted off peg.
 * routerIndex 0 (core AMM) and 4 (launchpad) belong to other stages.
 */
export const DEVNET_SOURCES: Record<number, readonly SourceSeed[]> = {
  // HYPE at about $25, PURR at about $0.25.
  999: [
    {
      ...DEVSWAP,
      bytecode: 'clone',
      pools: [
        { tokenA: 'WHYPE', tokenB: 'USDC', amountA: '4000', amountB: '100000' },
        { tokenA: 'PURR', tokenB: 'WHYPE', amountA: '100000', amountB: '1000' },
      ],
    },
    {
      ...LITESWAP,
      pools: [
        { tokenA: 'WHYPE', tokenB: 'USDC', amountA: '1000', amountB: '25400' },
        { tokenA: 'USDT', tokenB: 'WHYPE', amountA: '37350', amountB: '1500' },
      ],
    },
    STABLESWAP,
  ],
  // ETH at about $3,000, LINK at about $15.
  4663: [
    {
      ...DEVSWAP,
      bytecode: 'uniswap/v2-core',
      pools: [
        { tokenA: 'WETH', tokenB: 'USDC', amountA: '100', amountB: '300000' },
        { tokenA: 'LINK', tokenB: 'WETH', amountA: '20000', amountB: '100' },
      ],
    },
    {
      ...LITESWAP,
      pools: [
        { tokenA: 'WETH', tokenB: 'USDC', amountA: '30', amountB: '91200' },
        { tokenA: 'USDT', tokenB: 'WETH', amountA: '119200', amountB: '40' },
      ],
    },
    STABLESWAP,
  ],
};

/**
 * The keccak256 of the creation code of a V2 source's pairs (what its factory deploys them from, and what the
 * launchpad registers with its DEX): Uniswap's own pair or our clone's.
 */
export function v2PairCodeHash(seed: Pick<SourceSeed, 'bytecode'>): Hex {
  return keccak256((seed.bytecode === 'uniswap/v2-core' ? uniswapV2CorePairBytecode : uniswapV2PairBytecode) as Hex);
}

/** The contract names of the deployments the sources add to the manifest. */
const CONTRACTS = {
  'uniswap-v2': { factory: 'UniswapV2Factory', pool: 'UniswapV2Pair' },
  stable: { factory: 'StablePoolFactory', pool: 'StablePool' },
} as const;

interface Token {
  readonly symbol: string;
  readonly decimals: number;
  readonly address: Address;
  readonly wrapped: boolean;
}

/**
 * Deploys the chain's liquidity sources (`DEVNET_SOURCES`), creates and seeds their pools from the deployer,
 * and returns the chain entry with the sources and every factory and pool added. Test tokens for the pools
 * are minted straight into them by the deployer (their owner); the wrapped native is wrapped for the purpose
 * and transferred, so the deployer's own grants stay as `deployBase` left them. The LP shares go to the
 * deployer.
 */
export async function deploySources(ctx: DeployContext, chain: ChainInProgress): Promise<ChainInProgress> {
  const seeds = DEVNET_SOURCES[ctx.chainId] ?? [];
  const tokens = new Map<string, Token>([
    [chain.wrappedNative.symbol, { ...chain.wrappedNative, wrapped: true }],
    ...chain.tokens.map((t): [string, Token] => [t.symbol, { ...t, wrapped: false }]),
  ]);
  const token = (symbol: string): Token => {
    const found = tokens.get(symbol);
    if (!found) throw new Error(`devnet sources: chain ${ctx.chainId} has no token ${symbol}`);
    return found;
  };

  // Wrap all the native the pools need in one go.
  let wrappedNeeded = 0n;
  for (const seed of seeds) {
    for (const pool of seed.pools) {
      for (const [symbol, amount] of [[pool.tokenA, pool.amountA], [pool.tokenB, pool.amountB], [pool.tilt?.tokenIn, pool.tilt?.amountIn]]) {
        if (symbol && amount && token(symbol).wrapped) wrappedNeeded += parseUnits(amount, 18);
      }
    }
  }
  if (wrappedNeeded > 0n) {
    await send(ctx, { address: chain.wrappedNative.address, abi: wrappedNativeAbi as Abi, functionName: 'deposit', value: wrappedNeeded });
  }

  /** Puts `amount` whole tokens of `symbol` into `recipient`. */
  const fund = async (symbol: string, amount: string, recipient: Address) => {
    const t = token(symbol);
    const units = parseUnits(amount, t.decimals);
    if (t.wrapped) await send(ctx, { address: t.address, abi: wrappedNativeAbi as Abi, functionName: 'transfer', args: [recipient, units] });
    else await send(ctx, { address: t.address, abi: testERC20Abi as Abi, functionName: 'mint', args: [recipient, units] });
  };

  const sources: SourceConfig[] = [];
  const deployments: ChainInProgress['deployments'] = [];
  const pools: ChainInProgress['pools'] = [];
  for (const seed of seeds) {
    const contracts = CONTRACTS[seed.kind];
    const real = seed.kind === 'uniswap-v2' && seed.bytecode === 'uniswap/v2-core';
    if (real && seed.feeBps !== 30) throw new Error(`${seed.name}: Uniswap's V2 pair charges 0.3%, not ${seed.feeBps} bps`);
    const factory = real
      ? await deploy(ctx, uniswapV2CoreFactoryAbi as Abi, uniswapV2CoreFactoryBytecode, [ctx.deployer.address])
      : seed.kind === 'uniswap-v2'
        ? await deploy(ctx, uniswapV2FactoryAbi as Abi, uniswapV2FactoryBytecode, [ctx.deployer.address, BigInt(seed.feeBps)])
        : await deploy(ctx, stablePoolFactoryAbi as Abi, stablePoolFactoryBytecode, [BigInt(seed.feeBps)]);
    const factoryAbi = (real ? uniswapV2CoreFactoryAbi : seed.kind === 'uniswap-v2' ? uniswapV2FactoryAbi : stablePoolFactoryAbi) as Abi;
    const poolAbi = (real ? uniswapV2CorePairAbi : seed.kind === 'uniswap-v2' ? uniswapV2PairAbi : stablePoolAbi) as Abi;
    sources.push({ name: seed.name, kind: seed.kind, routerIndex: seed.routerIndex, addresses: { factory }, feeBps: seed.feeBps });
    deployments.push({ name: `${seed.name} Factory`, contract: contracts.factory, address: factory });

    for (const pool of seed.pools) {
      const pairArgs = seed.kind === 'uniswap-v2' ? [token(pool.tokenA).address, token(pool.tokenB).address] : [token(pool.tokenA).address, token(pool.tokenB).address, true];
      await send(ctx, { address: factory, abi: factoryAbi, functionName: 'createPair', args: pairArgs });
      const address = getAddress((await ctx.publicClient.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: pairArgs })) as Address);

      await fund(pool.tokenA, pool.amountA, address);
      await fund(pool.tokenB, pool.amountB, address);
      await send(ctx, { address, abi: poolAbi, functionName: 'mint', args: [ctx.deployer.address] });
      if (pool.tilt) await tilt(ctx, { address, abi: poolAbi, kind: seed.kind, feeBps: seed.feeBps }, token(pool.tilt.tokenIn), pool.tilt.amountIn, fund);

      const name = `${seed.name} ${pool.tokenA}/${pool.tokenB}`;
      deployments.push({ name, contract: contracts.pool, address });
      const [a, b] = [token(pool.tokenA).address, token(pool.tokenB).address];
      const [token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
      pools.push({ name, routerIndex: seed.routerIndex, kind: seed.kind, address, token0, token1 });
    }
  }

  return {
    ...chain,
    sources: [...chain.sources, ...sources],
    deployments: [...chain.deployments, ...deployments],
    pools: [...chain.pools, ...pools],
  };
}

/** Swaps `amountIn` whole tokens of `tokenIn` into the pool at its exact quote, paying the deployer. */
async function tilt(
  ctx: DeployContext,
  pool: { address: Address; abi: Abi; kind: SourceSeed['kind']; feeBps: number },
  tokenIn: Token,
  amountIn: string,
  fund: (symbol: string, amount: string, recipient: Address) => Promise<void>,
): Promise<void> {
  const units = parseUnits(amountIn, tokenIn.decimals);
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    ctx.publicClient.readContract({ address: pool.address, abi: pool.abi, functionName, args }) as Promise<T>;
  const token0 = getAddress(await read<Address>('token0'));
  const zeroForOne = token0 === tokenIn.address;
  let amountOut: bigint;
  if (pool.kind === 'stable') {
    amountOut = await read<bigint>('getAmountOut', [units, tokenIn.address]);
  } else {
    const [reserve0, reserve1] = await read<readonly [bigint, bigint, number]>('getReserves');
    const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0];
    amountOut = getAmountOut(units, reserveIn, reserveOut, BigInt(pool.feeBps));
  }
  await fund(tokenIn.symbol, amountIn, pool.address);
  const outs = zeroForOne ? [0n, amountOut] : [amountOut, 0n];
  await send(ctx, { address: pool.address, abi: pool.abi, functionName: 'swap', args: [...outs, ctx.deployer.address, '0x'] });
}
