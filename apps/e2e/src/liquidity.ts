// The aggregator's liquidity state against the chain: what aggregator-router holds (`GET /liquidity/999` on its own
// port) and a fresh read of every pool of the sources file at the same block, pool by pool (a Curve pool's: each of
// its coin pairs).
import { launchpadAbi, stablePoolAbi, stablePoolFactoryAbi, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@dex/abis';
import { readConcentratedPools, readCurveFactoryPools, readUniswapV4Pools, type ChainPublicClient } from '@dex/chain';
import { curvePairId, isCurveKind, type DevnetManifest } from '@dex/messages';
import type { Address, Hex } from 'viem';
import { getJson, until } from './processes';

type DevnetChain = DevnetManifest['chains'][string];

/** A pool's state as both sides describe it. */
export type PoolState = { kind: string; reserve0?: string; reserve1?: string; nativeReserve?: string; tokenReserve?: string; graduated?: boolean; concentrated?: ConcentratedRecord };
/** A Uniswap V3 or Algebra pool's state: price, tick, active liquidity, fee (pips), tick spacing, initialized ticks ascending. */
export type ConcentratedRecord = { sqrtPriceX96: string; tick: number; liquidity: string; fee?: number; tickSpacing?: number; ticks: { index: number; liquidityNet: string; liquidityGross: string }[] };

/** The state aggregator-router holds: its block and its V2, stable, concentrated and launchpad pools. */
export async function heldLiquidity(app: { url: string }): Promise<{ block: bigint; pools: Map<string, PoolState> }> {
  const { status, body } = await getJson(`${app.url}/liquidity/999`);
  if (status !== 200) throw new Error(`GET /liquidity/999: ${status} ${JSON.stringify(body)}`);
  const pools = new Map<string, PoolState>();
  for (const p of body.data.pools) {
    if (p.kind === 'core') continue;
    pools.set(p.address.toLowerCase(), { kind: p.kind, reserve0: p.reserve0, reserve1: p.reserve1, nativeReserve: p.nativeReserve, tokenReserve: p.tokenReserve, graduated: p.graduated, concentrated: p.concentrated });
  }
  return { block: BigInt(body.data.blockNumber), pools };
}

/**
 * A fresh read of the chain at `block`: every pair of the V2 and stable factories, the V3 and Algebra pools of the
 * sources file read whole (`readConcentratedPools`: ticks from the tick bitmap / tick list), its V4 pools read whole
 * through their PoolManager (`readUniswapV4Pools`, keyed by PoolId), every launched token's curve.
 */
export async function freshLiquidityRead(client: ChainPublicClient, chain: DevnetChain, blockNumber: bigint): Promise<Map<string, PoolState>> {
  const pools = new Map<string, PoolState>();
  for (const source of chain.sources) {
    if (source.kind !== 'uniswap-v2' && source.kind !== 'stable') continue;
    const factory = source.addresses.factory as Address;
    const abi = source.kind === 'stable' ? stablePoolFactoryAbi : uniswapV2FactoryAbi;
    const count = (await client.readContract({ address: factory, abi, functionName: 'allPairsLength', blockNumber })) as bigint;
    const pairs = (await client.multicall({
      blockNumber,
      allowFailure: false,
      contracts: Array.from({ length: Number(count) }, (_, i) => ({ address: factory, abi, functionName: 'allPairs', args: [BigInt(i)] }) as const),
    })) as Address[];
    const reserves = await client.multicall({
      blockNumber,
      allowFailure: false,
      contracts: pairs.map((address) =>
        source.kind === 'stable'
          ? ({ address, abi: stablePoolAbi, functionName: 'getReserves' } as const)
          : ({ address, abi: uniswapV2PairAbi, functionName: 'getReserves' } as const),
      ),
    });
    pairs.forEach((address, i) => {
      const [r0, r1] = reserves[i] as readonly [bigint, bigint, ...unknown[]];
      pools.set(address.toLowerCase(), { kind: source.kind, reserve0: r0.toString(), reserve1: r1.toString() });
    });
  }
  const concentrated = chain.pools.filter((p): p is typeof p & { kind: 'uniswap-v3' | 'algebra' } => p.kind === 'uniswap-v3' || p.kind === 'algebra');
  if (concentrated.length === 0) throw new Error('the sources file lists no concentrated pool');
  const reads = await readConcentratedPools(client, { pools: concentrated.map((p) => ({ address: p.address as Address, kind: p.kind })), blockNumber });
  concentrated.forEach((p, i) => {
    const r = reads[i];
    if (!r) throw new Error(`the ${p.kind} pool ${p.address} did not answer at block ${blockNumber}`);
    pools.set(p.address.toLowerCase(), {
      kind: p.kind,
      concentrated: {
        sqrtPriceX96: r.sqrtPriceX96.toString(),
        tick: r.tick,
        liquidity: r.liquidity.toString(),
        fee: r.fee,
        tickSpacing: r.tickSpacing,
        ticks: r.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
      },
    });
  });
  for (const manager of new Set((chain.uniswapV4Pools ?? []).map((p) => p.poolManager))) {
    const v4 = (chain.uniswapV4Pools ?? []).filter((p) => p.poolManager === manager);
    const v4Reads = await readUniswapV4Pools(client, { poolManager: manager as Address, blockNumber, pools: v4.map((p) => ({ id: p.poolId as Hex, tickSpacing: p.tickSpacing })) });
    v4.forEach((p, i) => {
      const r = v4Reads[i];
      if (!r) throw new Error(`the V4 pool ${p.poolId} did not answer at block ${blockNumber}`);
      pools.set(p.poolId.toLowerCase(), {
        kind: 'uniswap-v4',
        concentrated: {
          sqrtPriceX96: r.sqrtPriceX96.toString(),
          tick: r.tick,
          liquidity: r.liquidity.toString(),
          fee: r.lpFee,
          tickSpacing: p.tickSpacing,
          ticks: r.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
        },
      });
    });
  }
  // Curve NG pools: every coin pair of every pool their factories list at the block, by pair id (sampled by get_dy:
  // the state holds no more of them than that they are).
  for (const source of chain.sources.filter((s) => isCurveKind(s.kind))) {
    const flavor = source.kind === 'curve-stableswap-ng' ? 'stableswap-ng' : 'twocrypto-ng';
    for (const pool of await readCurveFactoryPools(client, { factory: source.addresses.factory as Address, flavor, blockNumber })) {
      for (let i = 0; i < pool.coins.length; i++) for (let j = i + 1; j < pool.coins.length; j++) pools.set(curvePairId(pool.address, i, j), { kind: source.kind });
    }
  }
  const launchpad = chain.launchpad.address as Address;
  const count = await client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenCount', blockNumber });
  const [tokens] = await client.readContract({ address: launchpad, abi: launchpadAbi, functionName: 'getPaginatedTokensWithMetadata', args: [0n, count], blockNumber });
  const states = await client.multicall({
    blockNumber,
    allowFailure: false,
    contracts: tokens.map((token) => ({ address: launchpad, abi: launchpadAbi, functionName: 'getTokenState', args: [token] }) as const),
  });
  tokens.forEach((token, i) => {
    const s = states[i];
    pools.set(token.toLowerCase(), { kind: 'launchpad', nativeReserve: s.hypeReserve.toString(), tokenReserve: s.tokenReserve.toString(), graduated: s.graduated });
  });
  return pools;
}

/** A state as plain, key-sorted objects, for a deep comparison. */
export function comparableLiquidity(m: Map<string, PoolState>): Record<string, unknown> {
  return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, JSON.parse(JSON.stringify(v))]));
}

/** Waits until the router's state reaches `atLeast`; returns it and a fresh read of the chain at its block. */
export async function liquidityAgainstChain(router: { url: string }, client: ChainPublicClient, chain: DevnetChain, atLeast: bigint, timeoutMs = 60_000) {
  const { value } = await until(() => heldLiquidity(router), (s) => !(s instanceof Error) && s.block >= atLeast, timeoutMs);
  const fresh = await freshLiquidityRead(client, chain, value.block);
  return { block: value.block, held: comparableLiquidity(value.pools), fresh: comparableLiquidity(fresh) };
}
