import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isManagedKind, type ConcentratedState, type PoolRecord } from '@dex/liquidity';
import { LiquidityService } from './liquidity.service';

/** A concentrated pool's state as the service holds it: price, tick, active liquidity, fee (pips), tick spacing, initialized ticks ascending. */
function concentratedRecord(c: ConcentratedState) {
  return {
    sqrtPriceX96: c.sqrtPriceX96.toString(),
    tick: c.tick,
    liquidity: c.liquidity.toString(),
    ...(c.fee !== undefined ? { fee: c.fee } : {}),
    ...(c.tickSpacing !== undefined ? { tickSpacing: c.tickSpacing } : {}),
    ticks: [...c.ticks]
      .sort(([a], [b]) => a - b)
      .map(([index, t]) => ({ index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
  };
}

/** A pool the state keeps but does not route: why. */
const excludedRecord = (reason: string | undefined) => (reason !== undefined ? { excluded: reason } : {});

/**
 * What a Uniswap V4 pool adds: its PoolId (its `address`), its PoolManager, key currencies (address(0) the native
 * coin), hook and protocol fee, and once its key is known its LP fee (pips: a dynamic-fee pool's as slot0 last held
 * it) and tick spacing.
 */
function uniswapV4Record(p: PoolRecord) {
  const v4 = p.uniswapV4;
  if (!v4) return { poolId: p.address };
  const c = p.concentrated;
  return {
    poolId: p.address,
    poolManager: v4.poolManager,
    currency0: v4.currency0,
    currency1: v4.currency1,
    hooks: v4.hooks,
    dynamicFee: v4.dynamicFee,
    protocolFee: v4.protocolFee,
    ...(c?.fee !== undefined ? { fee: c.fee } : {}),
    ...(c?.tickSpacing !== undefined ? { tickSpacing: c.tickSpacing } : {}),
  };
}

/**
 * `GET /liquidity/:chainId` on the service's own port (not the gateway's): the liquidity state as the service
 * holds it, every pool with its state at the state's block, for operators comparing it with the chain.
 * Amounts are base-unit integer strings; a Uniswap V3, Algebra or V4 pool carries its `concentrated` state, a V4 pool
 * its key (`uniswapV4Record`), a pool kept but not routed why (`excluded`: a V4 hook that may change swaps). 404 for
 * a chain not served, 503 before the first load.
 */
@Controller('liquidity')
export class LiquidityController {
  constructor(@Inject(LiquidityService) private readonly liquidity: LiquidityService) {}

  @Get(':chainId')
  state(@Param('chainId') chainId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const chain = /^\d+$/.test(chainId) ? this.liquidity.chains.get(Number(chainId)) : undefined;
    if (!chain) {
      reply.status(404);
      return { success: false, error: `Unsupported chainId: ${chainId}` };
    }
    const state = chain.liquidityState;
    if (!state) {
      reply.status(503);
      return { success: false, error: 'Liquidity not loaded yet', details: `chain ${chainId}` };
    }
    const pools = state
      .committedPools()
      .sort((a, b) => a.address.localeCompare(b.address))
      .map((p) => ({
        address: p.address,
        kind: p.kind,
        routerIndex: p.routerIndex,
        token0: p.token0,
        token1: p.token1,
        ...(p.reserves ? { reserve0: p.reserves.reserve0.toString(), reserve1: p.reserves.reserve1.toString() } : {}),
        ...(p.curve ? { nativeReserve: p.curve.nativeReserve.toString(), tokenReserve: p.curve.tokenReserve.toString(), graduated: p.curve.graduated } : {}),
        ...(p.concentrated ? { concentrated: concentratedRecord(p.concentrated) } : {}),
        ...(isManagedKind(p.kind) ? uniswapV4Record(p) : {}),
        ...excludedRecord(chain.exclusion(p)),
      }));
    return { success: true, data: { chainId: chain.chainId, blockNumber: state.block.toString(), routablePools: chain.snapshot?.pools.length ?? 0, pools } };
  }
}
